package org.sourceoftruth.records.db;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Version 7 UUIDs (RFC 9562: milliseconds since the epoch, then a counter and random bits),
 * for ids that land in a unique index: change ids and request ids. Random (version 4) ids put
 * every insert on a random leaf page of the index, which stays cheap only while the whole index
 * is cached; time-ordered ones go to its right edge, as an identity column's do. They are still
 * unique and opaque to clients.
 *
 * <p>A bean, so that its generator (and the SecureRandom inside it) is made when the application
 * starts, not when the class is initialised: the native image initialises classes at build time
 * and would freeze a seeded generator into the executable.
 */
@ApplicationScoped
public class TimeOrderedUuids {
    /** Thread-safe; ids it makes within one millisecond still increase (its counter). */
    private final TimeBasedEpochGenerator generator = Generators.timeBasedEpochGenerator();

    public UUID next() {
        return generator.generate();
    }
}
