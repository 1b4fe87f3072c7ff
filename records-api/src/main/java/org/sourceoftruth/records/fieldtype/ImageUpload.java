package org.sourceoftruth.records.fieldtype;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * A file part of a multipart request, sent for an IMAGE field: the name the client gave and the
 * bytes. {@link #probe()} reads the image's header with the JDK's ImageIO (the format and size,
 * never the pixels, so a small file claiming a huge image costs nothing) as Django's ImageField
 * asks Pillow to.
 */
public record ImageUpload(String fileName, byte[] bytes) {
    /**
     * The formats taken, by ImageIO format name, and the file extensions allowed for them
     * (Django's validate_image_file_extension allows Pillow's; WebP and SVG are not read by the JDK).
     */
    private static final Set<String> FORMATS = Set.of("png", "jpeg", "gif", "bmp", "tif");

    public static final Set<String> EXTENSIONS = Set.of("bmp", "gif", "jpeg", "jpg", "jpe", "png", "tif", "tiff");
    /** The height and width columns are PositiveSmallIntegerFields in NetBox. */
    static final int MAX_SIDE = 32767;

    /** What the header says: the MIME type to serve it with and the pixel size. */
    public record Probed(String contentType, int width, int height) {}

    /** The file's extension, lower case ('' when it has none). */
    public String extension() {
        String name = fileName == null ? "" : fileName;
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /** The image's type and size, or null when the bytes are no image of a format taken. */
    public Probed probe() {
        // a memory-cached stream: ImageIO's default would cache the bytes in a temporary file
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            while (readers.hasNext()) {
                ImageReader reader = readers.next();
                try {
                    String format = reader.getFormatName().toLowerCase(Locale.ROOT);
                    if (!FORMATS.contains(format) && !format.equals("tiff")) {
                        continue;
                    }
                    in.seek(0);
                    reader.setInput(in, true, true);
                    int width = reader.getWidth(0);
                    int height = reader.getHeight(0);
                    if (width <= 0 || height <= 0) {
                        return null;
                    }
                    return new Probed(contentType(format), width, height);
                } catch (IOException | RuntimeException unreadable) {
                    // not this reader's format after all; try the next one
                } finally {
                    reader.dispose();
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String contentType(String format) {
        return switch (format) {
            case "jpeg" -> "image/jpeg";
            case "tif", "tiff" -> "image/tiff";
            default -> "image/" + format;
        };
    }
}
