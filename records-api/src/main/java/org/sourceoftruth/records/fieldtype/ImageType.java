package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/**
 * IMAGE: an uploaded image (Django's ImageField as DRF reads it). A write takes a file part of a
 * multipart body (the API layer puts it in the payload as an {@link ImageUpload}); anything else
 * is DRF's "not a file" error. The column holds the stored file's name, which is what a
 * change-log snapshot shows (as NetBox's serialize_object); the API renders it as the file's
 * /media/ URL (the Renderer, which knows the request's base URL).
 */
public final class ImageType implements FieldType {
    static final String NOT_A_FILE = "The submitted data was not a file. Check the encoding type on the form.";

    @Override
    public Object read(Field f, JsonNode v) {
        if (!(v instanceof POJONode pojo) || !(pojo.getPojo() instanceof ImageUpload upload)) {
            throw new InvalidValue(NOT_A_FILE);
        }
        if (upload.fileName() == null || upload.fileName().isBlank()) {
            throw new InvalidValue("No filename could be determined.");
        }
        if (upload.bytes().length == 0) {
            throw new InvalidValue("The submitted file is empty.");
        }
        ImageUpload.Probed probed = upload.probe();
        if (probed == null) {
            throw new InvalidValue(
                    "Upload a valid image. The file you uploaded was either not an image or a corrupted" + " image.");
        }
        if (probed.width() > ImageUpload.MAX_SIDE || probed.height() > ImageUpload.MAX_SIDE) {
            throw new InvalidValue("Image dimensions may not exceed " + ImageUpload.MAX_SIDE + " pixels.");
        }
        String extension = upload.extension();
        if (!ImageUpload.EXTENSIONS.contains(extension)) {
            throw new InvalidValue(
                    "File extension \u201c" + extension + "\u201d is not allowed. Allowed extensions are: "
                            + String.join(", ", new TreeSet<>(ImageUpload.EXTENSIONS)) + ".");
        }
        return new ProbedUpload(upload, probed);
    }

    /** A checked upload: what the engine stores. */
    public record ProbedUpload(ImageUpload upload, ImageUpload.Probed probed) {}

    @Override
    public String optionsType() {
        return "image upload";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING).format("uri");
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return Schemas.of(SchemaType.STRING).format("binary");
    }
}
