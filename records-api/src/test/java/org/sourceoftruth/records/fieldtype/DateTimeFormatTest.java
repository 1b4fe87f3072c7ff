package org.sourceoftruth.records.fieldtype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written wire format agrees with the pattern it replaced, whatever the offset. */
class DateTimeFormatTest {
    private static final DateTimeFormatter PATTERN = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'");

    @Test
    void writesUtcWithMicrosecondsAndZ() {
        assertEquals(
                "2025-04-29T15:44:47.597092Z",
                DateTimeType.format(OffsetDateTime.parse("2025-04-29T17:44:47.597092789+02:00")));
        assertEquals("0001-01-01T00:00:00.000000Z", DateTimeType.format(OffsetDateTime.parse("0001-01-01T00:00:00Z")));
        assertEquals(
                "1999-12-31T23:00:00.000001Z",
                DateTimeType.format(OffsetDateTime.parse("2000-01-01T00:00:00.000001+01:00")));
        OffsetDateTime oneBc = OffsetDateTime.parse("0000-06-01T00:00:00Z");
        assertEquals(PATTERN.format(oneBc), DateTimeType.format(oneBc), "year-of-era, as the pattern wrote it");
    }

    @Test
    void agreesWithThePatternOnRandomInstants() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long second = random.nextLong(-62_000_000_000L, 253_000_000_000L);
            OffsetDateTime t = OffsetDateTime.ofInstant(
                    java.time.Instant.ofEpochSecond(second, random.nextInt(1_000_000_000)),
                    ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 3600, 18 * 3600) / 60 * 60));
            assertEquals(PATTERN.format(t.withOffsetSameInstant(ZoneOffset.UTC)), DateTimeType.format(t), t.toString());
        }
    }
}
