package org.sourceoftruth.dispatcher.admin;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

/**
 * The client's address as NetBox determines it (for a token's allowed_ips, checked by
 * records-api): the connection's peer, unless that peer is one of TRUSTED_PROXIES, in which case
 * X-Real-IP, else the first X-Forwarded-For entry, names the client. The same rule as
 * records-api's, so a client cannot claim another address by sending the headers itself.
 */
@ApplicationScoped
public class ClientAddress {

    private final List<IPAddress> trustedProxies;

    @Inject
    public ClientAddress(DispatcherConfig config) {
        this(config.admin().trustedProxies().orElse(List.of()));
    }

    ClientAddress(List<String> trustedProxies) {
        List<IPAddress> parsed = new ArrayList<>();
        for (String entry : trustedProxies) {
            if (entry.isBlank()) {
                continue;
            }
            try {
                parsed.add(new IPAddressString(entry.trim()).toAddress());
            } catch (AddressStringException e) {
                throw new IllegalArgumentException(
                        "TRUSTED_PROXIES: '" + entry.trim() + "' is not an IP address or prefix", e);
            }
        }
        this.trustedProxies = List.copyOf(parsed);
    }

    public String of(HttpServerRequest http) {
        String peer = http.remoteAddress() == null ? null : http.remoteAddress().hostAddress();
        return of(peer, http.getHeader("X-Real-IP"), http.getHeader("X-Forwarded-For"));
    }

    String of(String peer, String realIp, String forwardedFor) {
        if (peer == null || !trusted(peer)) {
            return peer;
        }
        if (realIp != null && !realIp.isBlank()) {
            return realIp.trim();
        }
        if (forwardedFor != null && !forwardedFor.isBlank()) {
            return forwardedFor.split(",")[0].trim();
        }
        return peer;
    }

    private boolean trusted(String peer) {
        IPAddress address = new IPAddressString(peer).getAddress();
        if (address == null) {
            return false;
        }
        for (IPAddress proxy : trustedProxies) {
            if (proxy.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
