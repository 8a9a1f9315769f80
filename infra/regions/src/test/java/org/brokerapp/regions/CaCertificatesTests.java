package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CaCertificatesTests {

    /** A self-signed CA certificate (public part only), made with openssl for this test. */
    static final String CA = """
            -----BEGIN CERTIFICATE-----
            MIIBjzCCATWgAwIBAgIUJNo6CeLTCYV4bSSSZJrdqXtH6zAwCgYIKoZIzj0EAwIw
            HDEaMBgGA1UEAwwRYnJva2VyYXBwIHRlc3QgQ0EwIBcNMjYxMTI0MTk0OTA5WhgP
            MjEyNjEwMzExOTQ5MDlaMBwxGjAYBgNVBAMMEWJyb2tlcmFwcCB0ZXN0IENBMFkw
            EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEHdgF8g1vjyfK6AW6j/s0K3hWCoqI7ipM
            jTLQjmxc58bSUJXknN5PZhVoyNtaog1TgCuY5G/vyDj1arCZJxfx/aNTMFEwHQYD
            VR0OBBYEFL6ATkhePvb0DyDKm7IQhiMLIqWpMB8GA1UdIwQYMBaAFL6ATkhePvb0
            DyDKm7IQhiMLIqWpMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIh
            APg5pxqaZGvwUgycW5AeVolQK6dIwen0ybbcRiOrQ70JAiBwdHzaH7EQSngfgEJE
            qa62Z6kt7oOwB0YLjEXp53IViA==
            -----END CERTIFICATE-----
            """;

    @Test
    void itsClientContextTrustsExactlyTheGivenCa() {
        CaCertificates ca = new CaCertificates(CA);

        assertThat(ca.trustManager().getAcceptedIssuers()).extracting(c -> c.getSubjectX500Principal().getName())
                .containsExactly("CN=brokerapp test CA");
        assertThat(ca.sslContext().getProtocol()).isEqualTo("TLS");
        assertThat(ca).hasToString("CaCertificates[1 PEM certificate(s)]");
    }

    @Test
    void somethingElseThanPemCertificatesIsRefusedInOneLine() {
        assertThatThrownBy(() -> new CaCertificates("not a certificate")).hasMessageContaining("PEM certificates").message().doesNotContain("\n");
        assertThatThrownBy(() -> new CaCertificates("-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----").sslContext())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not parse");
    }
}
