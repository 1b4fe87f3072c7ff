package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.fieldtype.ImageUpload;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;

/**
 * extras: image attachments, uploaded images on the objects NetBox lets carry them (its
 * ImageAttachmentsMixin models). The image is a multipart file part (see api.MultipartBodies),
 * its bytes kept in PostgreSQL's media table and served at /media/ (api.MediaResource), so every
 * replica serves every image. Deleting an attachment, or its parent (NetBox's GenericRelation),
 * deletes the row with its change record and, by trigger, the bytes.
 */
@ApplicationScoped
public class ImageAttachmentModels implements ModelDefinition {
    /** NetBox 4.4's models with ImageAttachmentsMixin. */
    public static final List<String> IMAGE_HOLDERS = List.of(
            "circuits.circuit",
            "dcim.device",
            "dcim.devicetype",
            "dcim.location",
            "dcim.moduletype",
            "dcim.powerpanel",
            "dcim.rack",
            "dcim.racktype",
            "dcim.site",
            "virtualization.virtualmachine");

    @Override
    public List<Model> models() {
        Model attachment = Model.of("extras", "image-attachments", "image attachment")
                .noDisplayUrl()
                .fields(
                        genericFk("parent", "object_type", "object_id", IMAGE_HOLDERS)
                                .required()
                                .notNull()
                                .cascade()
                                .objectTypeIds(),
                        str("name").max(50),
                        image("image", ImageAttachmentModels::storedName)
                                .required()
                                .imageSize("image_height", "image_width")
                                .imageBytes("image_size"),
                        str("description").max(200),
                        integer("image_height").readOnly(),
                        integer("image_width").readOnly(),
                        integer("image_size").readOnly().nullable())
                .timestamps()
                .display(ImageAttachmentModels::display)
                .ordering("t.name", "t.id")
                .search("t.name", "t.description")
                .brief("name", "image", "description");
        return List.of(attachment);
    }

    /**
     * NetBox's image_upload: {@code image-attachments/<model>_<object id>_<file>}, the file being
     * the attachment's name (with the upload's extension when that is an image's) or else the
     * uploaded file's name.
     */
    static String storedName(Row row, String uploaded) {
        String name = row.str("name");
        String extension = new ImageUpload(uploaded, new byte[0]).extension();
        String file = uploaded;
        if (name != null && !name.isEmpty()) {
            file = ImageUpload.EXTENSIONS.contains(extension) ? name + "." + extension : name;
        }
        return "image-attachments/" + prefix(row) + file;
    }

    private static String prefix(Row row) {
        String type = row.str("object_type");
        String model = type == null ? "" : type.substring(type.indexOf('.') + 1);
        return model + "_" + row.get("object_id") + "_";
    }

    /** NetBox's ImageAttachment.__str__: its name, else the stored file's name without its prefix. */
    private static String display(Row r) {
        String name = r.str("name");
        if (name != null && !name.isEmpty()) {
            return name;
        }
        String image = r.str("image");
        if (image == null) {
            return "";
        }
        String file = image.substring(image.lastIndexOf('/') + 1);
        String prefix = prefix(r);
        return file.startsWith(prefix) ? file.substring(prefix.length()) : file;
    }
}
