package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Valid, unique values for writable scalar fields. The contract's type codes say "string" for
 * an IP address, a VLAN id or a colour alike, so fields whose format the type cannot tell get a
 * value from a small table keyed by field name; the rest are derived from type, format, range
 * and max length. Every string is unique in the run (so filters can tell objects apart).
 */
final class SampleValues {
    /** Returned when the harness has no valid value for a field (the field is then left out). */
    static final Object NONE = new Object();

    private final String run = UUID.randomUUID().toString().substring(0, 4);
    /** Random start so repeated runs against one database do not collide on unique numbers. */
    private final int base = ThreadLocalRandom.current().nextInt(0, 50) * 1000;

    private int counter;

    /** A unique slug-safe string, e.g. {@code ct3f9a-17}. */
    String unique() {
        return "ct" + run + "-" + (++counter);
    }

    /**
     * A value for write field {@code name} of a body; {@code block} is one number per object body,
     * so the addresses of one object (start and end of an IP range) fall in the same network.
     */
    Object value(String name, JsonNode spec, int block, boolean second) {
        if (name.equals("units")) {
            // a rack reservation's: units of the rack made here (u_height and starting_unit are
            // min + 1, so units 2 and 3), one each for the two reservations in that rack
            return List.of(second ? 3 : 2);
        }
        Object named = byName(name, block);
        if (named != null) {
            return named;
        }
        String type = spec.path("type").asText();
        return switch (type) {
            case "choice" -> choice(spec, second);
            case "string" -> string(spec);
            case "integer" -> number(spec, true);
            case "number" -> number(spec, false);
            case "boolean" -> true;
            default -> NONE;
        };
    }

    /** A fresh block number for one object body. */
    int block() {
        return base + (++counter);
    }

    private Object byName(String name, int block) {
        int hi = 100 + (block / 250) % 150;
        int lo = block % 250;
        String net = "10." + hi + "." + lo;
        return switch (name) {
            case "prefix" -> net + ".0/24";
            case "address" -> net + ".5/24";
            case "start_address" -> net + ".10/24";
            case "end_address" -> net + ".20/24";
            case "vid" -> 2 + block % 4000;
            case "asn" -> 4_200_000_000L + block;
            // an ASN range's bounds: ten numbers of their own, below the ASNs above
            case "start" -> 4_100_000_000L + block * 10L;
            case "end" -> 4_100_000_000L + block * 10L + 9;
            case "rd" -> "65000:" + block;
            case "mac_address" ->
                String.format("02:00:00:%02x:%02x:%02x", (block >> 16) & 0xff, (block >> 8) & 0xff, block & 0xff);
            case "color" -> "aa1409";
            // a required custom field would make every later object of its types need a value
            case "required" -> false;
            case "time_zone" -> "Europe/Berlin";
            case "dns_name" -> "h" + unique() + ".example.com";
            case "email" -> unique() + "@example.com";
            case "password" -> "Contract-Test-" + block + "x";
            case "key" ->
                (UUID.randomUUID().toString() + UUID.randomUUID())
                        .replace("-", "")
                        .substring(0, 40);
            case "object_types", "content_types" -> List.of("dcim.site");
            case "event_types" -> List.of("object_created");
            // a table config's: the model its table shows, and its columns
            case "object_type" -> "dcim.site";
            case "columns" -> List.of("name", "status");
            case "actions" -> List.of("view");
            case "ports" -> List.of(8000 + block % 1000);
            case "allowed_ips" -> List.of("10.0.0.0/8");
            case "data" -> Map.of("contract", block);
            case "extra_choices" -> List.of(List.of("a" + block, "A" + block));
            case "parameters" -> Map.of("status", List.of("active"));
            case "url", "payload_url" -> "http://127.0.0.1:9/ct" + block;
            // a data source's: a local directory holding a file, so that its sync makes a data file and a job
            case "source_url" -> localSource();
            default -> null;
        };
    }

    private static String localSourceUrl;

    /** A directory with one file, as a file:// URL (made once per run). */
    private static synchronized String localSource() {
        if (localSourceUrl == null) {
            try {
                java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("contract-source");
                // valid as config context data and as a config context profile's JSON schema, both
                // of which synced-data objects bound to it take from it
                java.nio.file.Files.writeString(
                        dir.resolve("context.json"),
                        "{\"type\": \"object\", \"properties\": {\"contract\": {\"type\": \"boolean\"}}}");
                localSourceUrl = dir.toUri().toString();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return localSourceUrl;
    }

    /** The first allowed value; {@code second}: the second one if there is one (OTHER objects differ). */
    private static Object choice(JsonNode spec, boolean second) {
        List<Object> values = new java.util.ArrayList<>();
        for (JsonNode c : spec.path("choices")) {
            if (!c.isNull() && !c.asText().isEmpty()) {
                values.add(c.isNumber() ? c.numberValue() : c.isBoolean() ? c.booleanValue() : c.asText());
            }
        }
        return values.isEmpty() ? NONE : values.get(second && values.size() > 1 ? 1 : 0);
    }

    /** A file for a {@code binary} (upload) field: sent as a multipart file part by {@link Http}. */
    record Upload(String fileName, byte[] bytes) {}

    /** A 1x1 PNG made by the JDK. */
    static Upload png() {
        try {
            java.awt.image.BufferedImage image =
                    new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            javax.imageio.ImageIO.write(image, "png", out);
            return new Upload("contract.png", out.toByteArray());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Object string(JsonNode spec) {
        if (spec.path("format").asText().equals("binary")) {
            return png();
        }
        String value = switch (spec.path("format").asText()) {
            case "date" -> "2030-01-15";
            case "date-time" -> "2030-01-15T10:00:00Z";
            case "uri" -> "http://127.0.0.1:9/" + unique();
            case "email" -> unique() + "@example.com";
            case "uuid" -> UUID.randomUUID().toString();
            default -> unique();
        };
        int max = spec.path("max_len").asInt(Integer.MAX_VALUE);
        if (value.length() > max) {
            value = value.substring(value.length() - max); // keep the unique tail
        }
        String pattern = spec.path("pattern").asText(null);
        if (pattern == null) {
            return value;
        }
        // e.g. custom field names ^[a-z0-9_]+$: the same unique value with underscores
        for (String candidate : List.of(value, value.replace('-', '_').toLowerCase())) {
            if (java.util.regex.Pattern.compile(pattern).matcher(candidate).find()) {
                return candidate;
            }
        }
        return NONE;
    }

    private static Object number(JsonNode spec, boolean integral) {
        double min = spec.has("min") ? spec.get("min").asDouble() : 0;
        double v = min + 1;
        if (spec.has("max") && v > spec.get("max").asDouble()) {
            v = spec.get("max").asDouble();
        }
        return integral ? (Object) (long) v : (Object) v;
    }
}
