package org.sourceoftruth.records.engine.write;

import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.sourceoftruth.records.model.CacheInvalidator;
import org.sourceoftruth.records.model.Model;

/** Tells every {@link CacheInvalidator} (caches kept above the engine) that a model's rows changed. */
@ApplicationScoped
public class CacheInvalidators {
    @Inject
    @All
    List<CacheInvalidator> invalidators;

    /** @param delete whether rows were deleted or lost references (as opposed to created or updated) */
    public void changed(Model model, boolean delete) {
        for (CacheInvalidator invalidator : invalidators) {
            invalidator.afterWrite(model.contentType(), delete);
        }
    }
}
