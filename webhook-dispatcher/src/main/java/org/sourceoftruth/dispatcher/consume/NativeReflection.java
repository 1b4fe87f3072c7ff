package org.sourceoftruth.dispatcher.consume;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.sourceoftruth.model.ChangeEvent;

/**
 * The classes Jackson binds by reflection in this service, registered for the native image
 * (Quarkus registers what REST resources return; a change event read from Kafka or from the
 * render queue through the shared ObjectMapper it cannot see). {@code NativeReflectionTest}
 * derives the list from the code and fails when this registration misses one or names one that
 * is gone.
 */
@RegisterForReflection(targets = {ChangeEvent.class, ChangeEvent.Snapshots.class, ChangeEvent.Request.class})
public final class NativeReflection {
    private NativeReflection() {}
}
