package org.brokerapp.infra.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.brokerapp.infra.host.StackException;

/**
 * Makes a stack's local certificate authority and issues its servers' certificates. The CA is
 * made once per work directory and kept while it has a month left, so whoever trusts its
 * {@code ca.crt} keeps trusting the stack across restarts; server certificates are issued anew at
 * every start, for the addresses the servers have then. EC P-256 keys: a key pair takes
 * milliseconds, where RSA 2048 takes a noticeable share of a busy core per server.
 */
public final class LocalCertificates {

    static final Duration CA_VALIDITY = Duration.ofDays(365);
    static final Duration CA_RENEWAL = Duration.ofDays(30);
    static final Duration SERVER_VALIDITY = Duration.ofDays(90);
    /** Certificates start an hour back: a process whose clock is slightly behind still accepts them. */
    static final Duration BACKDATING = Duration.ofHours(1);

    private static final String CA_STORE = "ca.p12";
    private static final String PASSWORD_FILE = "store-password";
    private static final String CA_ALIAS = "ca";
    private static final String SERVER_ALIAS = "server";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private LocalCertificates() {
    }

    /**
     * The stack's certificates under {@code dir}: its CA (made if missing or near its end), and for
     * each server (a file-name-safe name) a keystore whose certificate names the given IP addresses.
     */
    public static StackTls issue(Path dir, Map<String, List<String>> servers, Instant now) {
        try {
            Files.createDirectories(dir);
            StackTls tls = new StackTls(dir, password(dir));
            Authority ca = authority(tls, now);
            for (Map.Entry<String, List<String>> server : servers.entrySet()) {
                ca.issue(tls, server.getKey(), server.getValue(), now);
            }
            return tls;
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new StackException("cannot make the stack's certificates in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String password(Path dir) throws IOException {
        Path file = dir.resolve(PASSWORD_FILE);
        if (!Files.exists(file)) {
            byte[] secret = new byte[18];
            RANDOM.nextBytes(secret);
            Files.writeString(file, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return Files.readString(file).strip();
    }

    private static Authority authority(StackTls tls, Instant now) throws IOException, GeneralSecurityException, OperatorCreationException {
        Path store = tls.dir().resolve(CA_STORE);
        if (Files.exists(store)) {
            KeyStore keys = load(store, tls.password());
            X509Certificate certificate = (X509Certificate) keys.getCertificate(CA_ALIAS);
            if (certificate.getNotAfter().toInstant().isAfter(now.plus(CA_RENEWAL))) {
                return new Authority(certificate, (PrivateKey) keys.getKey(CA_ALIAS, tls.password().toCharArray()));
            }
        }
        KeyPair pair = keyPair();
        X500Name name = new X500Name("CN=brokerapp local stack CA " + now.getEpochSecond() + ", O=brokerapp");
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(BACKDATING)),
                Date.from(now.plus(CA_VALIDITY)), name, pair.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false, new JcaX509ExtensionUtils().createSubjectKeyIdentifier(pair.getPublic()));
        X509Certificate certificate = sign(builder, pair.getPrivate());

        KeyStore keys = emptyStore();
        keys.setKeyEntry(CA_ALIAS, pair.getPrivate(), tls.password().toCharArray(), new Certificate[] {certificate});
        save(keys, store, tls.password());
        KeyStore trusted = emptyStore();
        trusted.setCertificateEntry(CA_ALIAS, certificate);
        save(trusted, tls.truststore(), tls.password());
        Files.writeString(tls.caCertificate(), pem(certificate));
        return new Authority(certificate, pair.getPrivate());
    }

    private record Authority(X509Certificate certificate, PrivateKey key) {

        void issue(StackTls tls, String server, List<String> addresses, Instant now)
                throws IOException, GeneralSecurityException, OperatorCreationException {
            KeyPair pair = keyPair();
            GeneralName[] names = addresses.stream().map(a -> new GeneralName(GeneralName.iPAddress, a)).toArray(GeneralName[]::new);
            Instant notAfter = now.plus(SERVER_VALIDITY);
            if (notAfter.isAfter(certificate.getNotAfter().toInstant())) {
                notAfter = certificate.getNotAfter().toInstant();
            }
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(), Date.from(now.minus(BACKDATING)),
                    Date.from(notAfter), new X500Name("CN=" + server + ", O=brokerapp"), pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    // Cassandra nodes are servers and clients of each other (internode TLS with client authentication)
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(certificate));
            X509Certificate issued = sign(builder, key);
            KeyStore keys = emptyStore();
            keys.setKeyEntry(SERVER_ALIAS, pair.getPrivate(), tls.password().toCharArray(), new Certificate[] {issued, certificate});
            save(keys, tls.keystore(server), tls.password());
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, RANDOM);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key) throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
    }

    private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    static KeyStore load(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    private static void save(KeyStore store, Path file, String password) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }

    private static String pem(X509Certificate certificate) throws GeneralSecurityException {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }
}
