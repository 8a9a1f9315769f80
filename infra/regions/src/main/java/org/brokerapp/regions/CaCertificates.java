package org.brokerapp.regions;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * CA certificates in PEM that a client trusts, and nothing else: the deployment's data CA for CQL
 * (Terraform's {@code cql_ca_cert_pem}, the local stack's CA with {@code --tls}).
 */
public record CaCertificates(String pem) {

    public CaCertificates {
        pem = SecretFiles.pemCertificates(pem, "a CA");
    }

    /** A TLS client context trusting exactly these certificates; an {@link IllegalArgumentException} if they do not parse. */
    public SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustManager()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("no TLS client context: " + e.getMessage(), e);
        }
    }

    /** The trust manager behind {@link #sslContext()}: these certificates are its only issuers. */
    public X509TrustManager trustManager() {
        try {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            for (Certificate certificate : certificates) {
                trusted.setCertificateEntry("ca-" + n++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            return (X509TrustManager) factory.getTrustManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("the CA certificates do not parse: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "CaCertificates[" + SecretFiles.certificateCount(pem) + " PEM certificate(s)]";
    }
}
