package org.sourceoftruth.dispatcher.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.TrustManagerFactory;

/** The trust of a webhook with a CA bundle file (the others use the JVM's trust store, or none). */
final class CaBundles {

    private CaBundles() {}

    /** Trusts exactly the certificates of a PEM bundle (like requests' verify=<path>). */
    static TrustManagerFactory trusting(Path pemFile) throws IOException, GeneralSecurityException {
        KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
        trustStore.load(null, null);
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(pemFile)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certificates.isEmpty()) {
            throw new GeneralSecurityException("no certificate found in " + pemFile);
        }
        int i = 0;
        for (Certificate certificate : certificates) {
            trustStore.setCertificateEntry("ca-" + i++, certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trustStore);
        return factory;
    }
}
