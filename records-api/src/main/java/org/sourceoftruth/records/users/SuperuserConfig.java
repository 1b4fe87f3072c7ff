package org.sourceoftruth.records.users;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** The superuser created at start when absent (SUPERUSER_NAME, _PASSWORD, _API_TOKEN, _EMAIL). */
@ConfigMapping(prefix = "sot.superuser")
public interface SuperuserConfig {
    /** Empty: no superuser is created. */
    Optional<String> name();

    Optional<String> password();

    Optional<String> apiToken();

    String email();
}
