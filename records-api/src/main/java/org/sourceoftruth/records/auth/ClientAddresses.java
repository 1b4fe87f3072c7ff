package org.sourceoftruth.records.auth;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.util.Optional;
import org.sourceoftruth.records.net.IpNetworks;

/** The address of the client of a request, for tokens' allowed_ips and the sign-in throttle. */
@ApplicationScoped
public class ClientAddresses {
    @Inject
    AuthSettings settings;

    /**
     * The client address: the peer of the connection, unless that peer is a trusted proxy
     * (TRUSTED_PROXIES), in which case X-Real-IP, else the first X-Forwarded-For entry, names
     * the client. Empty when the address in use is not a literal IP address.
     */
    public Optional<ClientIp> of(HttpServerRequest request) {
        SocketAddress remote = request.remoteAddress();
        String peerText = remote == null ? null : remote.hostAddress();
        Optional<InetAddress> peer = IpNetworks.address(peerText);
        if (peer.isPresent() && settings.trustedProxies().contains(peer.get())) {
            String forwarded = request.getHeader("X-Real-IP");
            if (forwarded == null || forwarded.isBlank()) {
                String chain = request.getHeader("X-Forwarded-For");
                forwarded = chain == null ? null : chain.split(",")[0];
            }
            if (forwarded != null && !forwarded.isBlank()) {
                String text = forwarded.trim();
                return IpNetworks.address(text).map(a -> new ClientIp(text, a));
            }
        }
        return peer.map(a -> new ClientIp(peerText, a));
    }
}
