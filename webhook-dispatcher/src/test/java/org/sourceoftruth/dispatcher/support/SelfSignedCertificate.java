package org.sourceoftruth.dispatcher.support;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A throw-away self-signed certificate for 127.0.0.1, made with the JDK's keytool: the server's
 * SSL context and the certificate as a PEM file (what a webhook's ca_file_path points at).
 */
public final class SelfSignedCertificate {

    private static final String PASSWORD = "changeit";

    public final SSLContext serverContext;
    public final Path pemFile;

    private SelfSignedCertificate(SSLContext serverContext, Path pemFile) {
        this.serverContext = serverContext;
        this.pemFile = pemFile;
    }

    public static SelfSignedCertificate create(Path directory) throws Exception {
        Path keystore = directory.resolve("receiver.p12");
        Path pem = directory.resolve("receiver.pem");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(List.of(
                keytool,
                "-genkeypair",
                "-alias",
                "receiver",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD));
        run(List.of(
                keytool,
                "-exportcert",
                "-rfc",
                "-alias",
                "receiver",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD,
                "-file",
                pem.toString()));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return new SelfSignedCertificate(context, pem);
    }

    private static void run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }
}
