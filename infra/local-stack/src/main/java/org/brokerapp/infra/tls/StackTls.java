package org.brokerapp.infra.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

import org.brokerapp.infra.host.StackException;
import org.brokerapp.regions.CaCertificates;
import org.brokerapp.regions.KafkaTrust;

/**
 * Where a stack running with TLS keeps its certificates ({@link LocalCertificates} makes them):
 * PKCS12 stores under {@code <work-dir>/tls}, never in the repository.
 *
 * @param dir      the directory of the stores
 * @param password the password of every store in it, generated with the CA
 */
public record StackTls(Path dir, String password) {

    public static final String DIRECTORY = "tls";

    /** The CA certificate (PEM): what a client trusts, e.g. {@code curl --cacert}. */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** The CA certificate's PEM text. */
    public String caCertificatePem() {
        try {
            return Files.readString(caCertificate());
        } catch (IOException e) {
            throw new StackException("cannot read the stack's CA certificate " + caCertificate() + ": " + e.getMessage(), e);
        }
    }

    /** The CA certificate as the one trusted entry of a PKCS12 store. */
    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** A server's key and certificate (chained to the CA) in a PKCS12 store, under the store's password. */
    public Path keystore(String server) {
        return dir.resolve(server + ".p12");
    }

    /** What a Kafka client of the stack trusts: the stack's CA. */
    public KafkaTrust kafkaTrust() {
        return new KafkaTrust.Pkcs12Store(truststore(), password);
    }

    /** A client context that trusts the stack's CA and nothing else. */
    public SSLContext clientContext() {
        try {
            return new CaCertificates(caCertificatePem()).sslContext();
        } catch (IllegalArgumentException e) {
            throw new StackException("the stack's CA certificate " + caCertificate() + ": " + e.getMessage(), e);
        }
    }
}
