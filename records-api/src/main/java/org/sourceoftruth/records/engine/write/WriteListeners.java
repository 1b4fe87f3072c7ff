package org.sourceoftruth.records.engine.write;

import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.WriteListener;

/** Tells every {@link WriteListener} (caches kept above the engine) that a model's rows changed. */
@ApplicationScoped
public class WriteListeners {
    @Inject
    @All
    List<WriteListener> listeners;

    /** @param delete whether rows were deleted or lost references (as opposed to created or updated) */
    public void changed(Model model, boolean delete) {
        for (WriteListener listener : listeners) {
            listener.afterWrite(model.contentType(), delete);
        }
    }
}
