package org.brokerapp.infra.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCertificatesTests {

    private static final Instant NOW = Instant.parse("2026-11-23T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aServerCertificateNamesItsAddressesAndChainsToTheStacksCa() throws Exception {
        StackTls tls = LocalCertificates.issue(dir, Map.of("cassandra-us-east-1-1", List.of("127.0.1.11", "127.1.1.11")), NOW);

        X509Certificate server = serverCertificate(tls, "cassandra-us-east-1-1");
        assertThat(server.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(7, "127.0.1.11"), List.of(7, "127.1.1.11"));
        assertThat(server.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(server.getBasicConstraints()).isEqualTo(-1);

        X509Certificate ca = trustedCa(tls);
        assertThat(ca.getBasicConstraints()).isEqualTo(0);
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
        parameters.setRevocationEnabled(false);
        parameters.setDate(Date.from(NOW));
        CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(List.of(server)), parameters);
        assertThat(Files.readString(tls.caCertificate())).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(tls.caCertificate()))).isEqualTo(ca);
    }

    @Test
    void certificatesExpireAsDocumentedAndStartAnHourBack() throws Exception {
        StackTls tls = LocalCertificates.issue(dir, Map.of("broker-us-east-1", List.of("127.0.1.3")), NOW);

        X509Certificate server = serverCertificate(tls, "broker-us-east-1");
        assertThat(server.getNotAfter().toInstant()).isEqualTo(NOW.plus(LocalCertificates.SERVER_VALIDITY));
        assertThat(server.getNotBefore().toInstant()).isEqualTo(NOW.minus(Duration.ofHours(1)));
        assertThat(trustedCa(tls).getNotAfter().toInstant()).isEqualTo(NOW.plus(LocalCertificates.CA_VALIDITY));
        server.checkValidity(Date.from(NOW.plus(89, ChronoUnit.DAYS)));
    }

    @Test
    void theCaIsKeptAcrossStartsUntilAMonthBeforeItsEnd() throws Exception {
        X509Certificate first = trustedCa(LocalCertificates.issue(dir, Map.of(), NOW));

        X509Certificate nextWeek = trustedCa(LocalCertificates.issue(dir, Map.of(), NOW.plus(7, ChronoUnit.DAYS)));
        X509Certificate nearItsEnd = trustedCa(LocalCertificates.issue(dir, Map.of("broker-us-east-1", List.of("127.0.1.3")),
                NOW.plus(LocalCertificates.CA_VALIDITY).minus(Duration.ofDays(29))));

        assertThat(nextWeek).isEqualTo(first);
        assertThat(nearItsEnd).isNotEqualTo(first);
        X509Certificate server = serverCertificate(new StackTls(dir, Files.readString(dir.resolve("store-password")).strip()), "broker-us-east-1");
        server.verify(nearItsEnd.getPublicKey());
    }

    @Test
    void theStoresAreReadableOnlyByTheirOwnerSPassword() throws Exception {
        StackTls tls = LocalCertificates.issue(dir, Map.of(), NOW);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("store-password")))).isEqualTo("rw-------");
        assertThat(tls.password()).hasSizeGreaterThanOrEqualTo(24);
        assertThat(tls.clientContext().getProtocol()).isEqualTo("TLS");
    }

    private static X509Certificate serverCertificate(StackTls tls, String server) throws Exception {
        KeyStore keys = LocalCertificates.load(tls.keystore(server), tls.password());
        assertThat(keys.getCertificateChain("server")).hasSize(2);
        return (X509Certificate) keys.getCertificate("server");
    }

    private static X509Certificate trustedCa(StackTls tls) throws Exception {
        KeyStore trusted = LocalCertificates.load(tls.truststore(), tls.password());
        assertThat(trusted.isCertificateEntry("ca")).isTrue();
        return (X509Certificate) trusted.getCertificate("ca");
    }
}
