package org.sourceoftruth.records.auth;

import java.net.InetAddress;

/**
 * A client's address as given (for NetBox's messages, e.g. "Source IP ... is not permitted")
 * and parsed (for the containment test against a token's allowed_ips).
 */
public record ClientIp(String text, InetAddress address) {}
