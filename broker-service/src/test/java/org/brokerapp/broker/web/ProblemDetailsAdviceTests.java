package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;

/** A bug is a 500 with an error id and no Retry-After (it was a 503 "retry"); only a database that did not answer is a 503. */
class ProblemDetailsAdviceTests {

    private final ProblemDetailsAdvice advice = new ProblemDetailsAdvice();

    @Test
    void aBugIsA500WithAnErrorIdAndNoRetryAfter() {
        ResponseEntity<ProblemDetail> answer = advice.bug(new ArithmeticException("Rounding necessary"));

        assertThat(answer.getStatusCode().value()).isEqualTo(500);
        assertThat(answer.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
        assertThat(answer.getBody().getProperties()).containsKey("errorId");
        assertThat(answer.getBody().getDetail()).contains(answer.getBody().getProperties().get("errorId").toString())
                .doesNotContain("Rounding", "Arithmetic");
    }

    @Test
    void aDatabaseThatDidNotAnswerIsA503WithRetryAfter() {
        ResponseEntity<ProblemDetail> answer = advice.transientDatabaseFailure(
                new WriteTimeoutException(null, ConsistencyLevel.LOCAL_QUORUM, 1, 2, WriteType.SIMPLE));

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    }

    /** The cassandra-kill drill: requests in flight on a node's connection when the node died were 500s. */
    @Test
    void aConnectionClosedUnderARequestIsTransientToo() throws NoSuchMethodException {
        ExceptionHandler handler = ProblemDetailsAdvice.class.getDeclaredMethod("transientDatabaseFailure", DriverException.class)
                .getAnnotation(ExceptionHandler.class);

        assertThat(handler.value()).contains(ClosedConnectionException.class, WriteTimeoutException.class);
    }
}
