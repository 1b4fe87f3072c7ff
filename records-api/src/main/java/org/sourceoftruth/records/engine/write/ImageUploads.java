package org.sourceoftruth.records.engine.write;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.sourceoftruth.records.auth.Secrets;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.fieldtype.ImageType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * The IMAGE fields of a write, just before the row is stored (in its transaction): each uploaded
 * image goes into the media table under the name its field's declaration gives it, made valid
 * and unique as Django's storage does (get_valid_name, then a 7-character suffix while the name
 * is taken), and the column takes that name; the field's height and width columns take the
 * image's size. A cleared image (null) is stored as '' (Django's empty FieldFile). The bytes a
 * row stops naming are released by the tables' triggers (V150), so deletes and cascades need
 * nothing here.
 */
final class ImageUploads {
    /** Django's FileField max_length: longer names are cut at the end of their root. */
    static final int MAX_NAME = 100;

    private static final Pattern INVALID = Pattern.compile("[^-A-Za-z0-9_.]");

    private ImageUploads() {}

    /** Stores the uploads among {@code changes} and puts their names in place; {@code existing} on update. */
    static void store(Db db, Model model, Row changes, Row existing) {
        for (Field f : model.fields()) {
            if (f.kind != Kind.IMAGE || !changes.containsKey(f.column())) {
                continue;
            }
            Object value = changes.get(f.column());
            if (value == null) {
                changes.put(f.column(), "");
                continue;
            }
            if (!(value instanceof ImageType.ProbedUpload upload)) {
                continue;
            }
            Row row = new Row();
            if (existing != null) {
                row.putAll(existing);
            }
            row.putAll(changes);
            String wanted = validName(f.imageNaming().name(row, upload.upload().fileName()));
            changes.put(f.column(), insert(db, model.contentType(), wanted, upload));
            if (f.imageHeightColumn() != null) {
                changes.put(f.imageHeightColumn(), upload.probed().height());
                changes.put(f.imageWidthColumn(), upload.probed().width());
            }
            if (f.imageBytesColumn() != null) {
                changes.put(f.imageBytesColumn(), (long) upload.upload().bytes().length);
            }
        }
    }

    /** Inserts the bytes under {@code wanted}, or under it with a random suffix while that is taken. */
    private static String insert(Db db, String ownerType, String wanted, ImageType.ProbedUpload upload) {
        byte[] bytes = upload.upload().bytes();
        String sha256 = sha256(bytes);
        String name = wanted;
        for (int attempt = 0; ; attempt++) {
            int inserted = db.update(
                    "insert into media_file (name, owner_type, content_type, size, sha256, data)"
                            + " values (?, ?, ?, ?, ?, ?) on conflict (name) do nothing",
                    name,
                    ownerType,
                    upload.probed().contentType(),
                    (long) bytes.length,
                    sha256,
                    bytes);
            if (inserted == 1) {
                return name;
            }
            if (attempt > 20) {
                throw new IllegalStateException("no free media name for " + wanted);
            }
            name = withSuffix(wanted);
        }
    }

    /**
     * Django's get_valid_filename on the last part of the name (spaces to underscores, only
     * ASCII letters, digits, '-', '_' and '.', so that a name is its own URL path), then cut to {@link #MAX_NAME}.
     */
    static String validName(String name) {
        int slash = name.lastIndexOf('/');
        String dir = slash < 0 ? "" : name.substring(0, slash + 1);
        String file = INVALID.matcher(name.substring(slash + 1).strip().replace(' ', '_'))
                .replaceAll("");
        if (file.isEmpty() || file.equals(".") || file.equals("..")) {
            file = "image";
        }
        return fit(dir, file, 0);
    }

    /** {@code dir + file} with the file's root cut so that {@code reserve} more characters still fit. */
    private static String fit(String dir, String file, int reserve) {
        int dot = file.lastIndexOf('.');
        String root = dot <= 0 ? file : file.substring(0, dot);
        String ext = dot <= 0 ? "" : file.substring(dot);
        int room = MAX_NAME - reserve - dir.length() - ext.length();
        if (root.length() > room) {
            root = root.substring(0, Math.max(1, room));
        }
        return dir + root + ext;
    }

    private static String withSuffix(String name) {
        int slash = name.lastIndexOf('/');
        String dir = slash < 0 ? "" : name.substring(0, slash + 1);
        String fitted = fit(dir, name.substring(slash + 1), 8);
        String file = fitted.substring(dir.length());
        int dot = file.lastIndexOf('.');
        String root = dot <= 0 ? file : file.substring(0, dot);
        String ext = dot <= 0 ? "" : file.substring(dot);
        return dir + root + "_" + Secrets.randomAlphanumeric(7) + ext;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
