package org.sourceoftruth.records.ipam;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** IPAM rules that NetBox makes settings. */
@ConfigMapping(prefix = "sot")
public interface IpamConfig {
    /** NetBox's ENFORCE_GLOBAL_UNIQUE: no duplicate prefixes or addresses outside VRFs. */
    @WithDefault("true")
    boolean enforceGlobalUnique();
}
