package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.junit.jupiter.api.Test;

class SeedAccountsTests {

    private static final ConsistencyLevel SERIAL = DefaultConsistencyLevel.LOCAL_SERIAL;

    @Test
    void anOpeningWhoseOutcomeIsUnknownIsSentAgainUntilItIsKnown() {
        AtomicInteger calls = new AtomicInteger();

        boolean opened = SeedAccounts.openRetrying(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new CASWriteUnknownException(null, SERIAL, 1, 2);
            }
            return true;
        }, 10, Duration.ZERO);

        assertThat(opened).isTrue();
        assertThat(calls).hasValue(3);
    }

    @Test
    void itGivesUpAfterItsAttemptsAndNeverRetriesWhatIsNotContention() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> SeedAccounts.openRetrying(() -> {
            calls.incrementAndGet();
            throw new CASWriteUnknownException(null, SERIAL, 1, 2);
        }, 4, Duration.ZERO)).isInstanceOf(CASWriteUnknownException.class);
        assertThat(calls).hasValue(4);

        AtomicInteger invalid = new AtomicInteger();
        assertThatThrownBy(() -> SeedAccounts.openRetrying(() -> {
            invalid.incrementAndGet();
            throw new InvalidQueryException(null, "unconfigured table ledger");
        }, 4, Duration.ZERO)).isInstanceOf(InvalidQueryException.class);
        assertThat(invalid).hasValue(1);
    }
}
