package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

class CachingPasswordEncoderTests {

    private final AtomicInteger checks = new AtomicInteger();
    private final BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder(4);
    private final PasswordEncoder counting = new PasswordEncoder() {
        @Override
        public String encode(CharSequence raw) {
            return bcrypt.encode(raw);
        }

        @Override
        public boolean matches(CharSequence raw, String encoded) {
            checks.incrementAndGet();
            return bcrypt.matches(raw, encoded);
        }
    };
    private final CachingPasswordEncoder encoder = new CachingPasswordEncoder(counting);
    private final String hash = bcrypt.encode("operator-pw");

    @Test
    void aVerifiedPasswordIsCheckedOnceThenRemembered() {
        assertThat(encoder.matches("operator-pw", hash)).isTrue();
        assertThat(encoder.matches("operator-pw", hash)).isTrue();
        assertThat(encoder.matches("operator-pw", hash)).isTrue();

        assertThat(checks).hasValue(1);
    }

    @Test
    void aWrongPasswordIsCheckedInFullEveryTimeAndNeverRemembered() {
        encoder.matches("operator-pw", hash);

        assertThat(encoder.matches("guess", hash)).isFalse();
        assertThat(encoder.matches("guess", hash)).isFalse();
        assertThat(encoder.matches("operator-pw", bcrypt.encode("another"))).as("the right password for another hash").isFalse();

        assertThat(checks).hasValue(4);
    }
}
