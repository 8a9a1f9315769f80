package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CompletionException;

import org.brokerapp.client.NotSent;
import org.junit.jupiter.api.Test;

class ErrorKindsTests {

    @Test
    void eachKindKeepsItsFirstExampleAndAnExampleIsBounded() {
        ErrorKinds errors = new ErrorKinds();

        errors.count("LIMIT: HTTP 422 Insufficient holdings", "load-7 SELL 1 IBM in us-east-1 (lt1-40): available: 0");
        errors.count("LIMIT: HTTP 422 Insufficient holdings", "load-9 SELL 1 HD in us-east-1 (lt1-41): available: 0");
        errors.count("MARKET: timeout");
        errors.count("STOP: HTTP 400 Invalid order", "x".repeat(10_000));

        assertThat(errors.snapshot()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "LIMIT: HTTP 422 Insufficient holdings", 2L, "MARKET: timeout", 1L, "STOP: HTTP 400 Invalid order", 1L));
        assertThat(errors.examples()).containsOnlyKeys("LIMIT: HTTP 422 Insufficient holdings", "STOP: HTTP 400 Invalid order");
        assertThat(errors.examples().get("LIMIT: HTTP 422 Insufficient holdings")).startsWith("load-7 SELL 1 IBM");
        assertThat(errors.examples().get("STOP: HTTP 400 Invalid order")).hasSize(ErrorKinds.EXAMPLE_MAX_CHARS).endsWith("...");
    }

    @Test
    void anOperationTheHarnessDidNotSendIsNamedSoAndNotByItsExceptionsClass() {
        Throwable wrapped = new CompletionException(new NotSent("harness limit: 1024 orders awaiting an answer"));

        assertThat(ErrorKinds.ofThrowable(wrapped)).isEqualTo("not sent (harness limit: 1024 orders awaiting an answer)");
        assertThat(ErrorKinds.ofThrowable(new CompletionException(new IllegalStateException("boom")))).isEqualTo("IllegalStateException");
        assertThat(ErrorKinds.ofThrowable(new java.net.SocketTimeoutException())).isEqualTo("timeout");
    }
}
