package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.multipart.FormValue;
import org.jboss.resteasy.reactive.server.multipart.MultipartFormDataInput;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.fieldtype.ImageUpload;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;

/**
 * A multipart/form-data body (parsed by Quarkus REST) as the JSON payload the engine reads, the
 * way DRF's MultiPartParser hands a serializer its data: a text part is the field's string value
 * (the field's kind converts "1" or "true"), an empty text part is null for a nullable field
 * (DRF's HTML-input rule, which is how a device type's image is cleared), and a file part is an
 * {@link ImageUpload} that only an IMAGE field takes (others answer their kind's type error).
 * When a name is sent twice the last part counts (Django's QueryDict). Only models with an IMAGE
 * field take multipart bodies ({@link #accepts}); other endpoints answer 415 as before.
 */
@ApplicationScoped
public class MultipartBodies {
    @ConfigProperty(name = "sot.media.max-image-size", defaultValue = "8M")
    MemorySize maxImageSize;

    public static boolean accepts(Model model) {
        return model.hasImageFields();
    }

    ObjectNode read(Model model, MultipartFormDataInput form) {
        if (!accepts(model)) {
            throw ApiException.detail(415, "Unsupported media type \"multipart/form-data\" in request.");
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        if (form == null) {
            return body;
        }
        for (Map.Entry<String, Collection<FormValue>> part : form.getValues().entrySet()) {
            String name = part.getKey();
            FormValue value = last(part.getValue());
            if (name == null || value == null) {
                continue;
            }
            if (name.indexOf('\0') >= 0) {
                throw ApiException.field(name.replace("\0", ""), "Null characters are not allowed.");
            }
            Field field = model.field(name);
            if (value.isFileItem()) {
                body.set(name, new POJONode(upload(name, value)));
                continue;
            }
            String text = value.getValue() == null ? "" : value.getValue();
            if (text.indexOf('\0') >= 0) {
                throw ApiException.field(name, "Null characters are not allowed.");
            }
            if (text.isEmpty() && field != null && field.isNullable()) {
                body.putNull(name);
            } else {
                body.put(name, text);
            }
        }
        return body;
    }

    /** A file part's bytes, refused when larger than {@code sot.media.max-image-size}. */
    private ImageUpload upload(String name, FormValue value) {
        long limit = maxImageSize.asLongValue();
        try {
            long size = value.getFileItem().getFileSize();
            if (size > limit) {
                throw tooLarge(name, size, limit);
            }
            byte[] bytes;
            try (InputStream in = value.getFileItem().getInputStream()) {
                bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            }
            if (bytes.length > limit) {
                throw tooLarge(name, bytes.length, limit);
            }
            return new ImageUpload(baseName(value.getFileName()), bytes);
        } catch (IOException e) {
            throw ApiException.field(name, "The submitted file could not be read.");
        }
    }

    private static ApiException tooLarge(String name, long size, long limit) {
        return ApiException.field(
                name,
                "The submitted file is too large (" + size + " bytes); files are limited to " + limit + " bytes.");
    }

    /** The client's file name without any directory part (Django's UploadedFile does the same). */
    private static String baseName(String fileName) {
        if (fileName == null) {
            return null;
        }
        String name = fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
        return name.replace("\0", "");
    }

    private static FormValue last(Collection<FormValue> values) {
        FormValue last = null;
        if (values != null) {
            for (Iterator<FormValue> it = values.iterator(); it.hasNext(); ) {
                last = it.next();
            }
        }
        return last;
    }
}
