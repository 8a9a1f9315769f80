package org.brokerapp.broker.web;

import java.util.UUID;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import org.brokerapp.broker.core.ApiProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one error model: every refusal is RFC 9457 problem+json with a status, a title and a detail
 * that says what to fix; framework errors (unreadable JSON, a wrong path variable) become 400s
 * without internals, and nothing unexpected leaks a stack trace.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
        body.setTitle(problem.title());
        body.setType(problem.type());
        problem.region().ifPresent(region -> body.setProperty("region", region));
        ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.status());
        problem.retryAfter().ifPresent(after -> response.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (after.toMillis() + 999) / 1000))));
        problem.challenge().ifPresent(challenge -> response.header(HttpHeaders.WWW_AUTHENTICATE, challenge));
        return response.body(body);
    }

    @ExceptionHandler(org.springframework.security.access.AccessDeniedException.class)
    ResponseEntity<ProblemDetail> forbidden(org.springframework.security.access.AccessDeniedException e) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
        body.setTitle("Forbidden");
        return ResponseEntity.status(HttpStatus.FORBIDDEN).body(body);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> badParameter(MethodArgumentTypeMismatchException e) {
        return badRequest(e.getName() + " is not a valid " + (e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName()));
    }

    /** Tomcat parses the query string on first use and refuses what it cannot; Spring Security's firewall refuses odd parameter names. */
    @ExceptionHandler({org.apache.tomcat.util.http.InvalidParameterException.class,
            org.springframework.security.web.firewall.RequestRejectedException.class})
    ResponseEntity<ProblemDetail> badParameters(RuntimeException e) {
        return badRequest("the query string or form parameters are malformed");
    }

    /**
     * The database did not answer in time, had too few replicas up, or closed the connection a request
     * was on (a node died under it): the request may succeed if retried (503 + Retry-After). Only
     * these: a retry of a bug fails again, so a bug is never a 503.
     */
    @ExceptionHandler({DriverTimeoutException.class, AllNodesFailedException.class, UnavailableException.class, ReadTimeoutException.class,
            WriteTimeoutException.class, OverloadedException.class, BusyConnectionException.class, ClosedConnectionException.class})
    ResponseEntity<ProblemDetail> transientDatabaseFailure(DriverException e) {
        log.warn("database unavailable: {}", Excerpt.of(e.getMessage()));
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "the broker's database is briefly unavailable; retry");
        body.setTitle("Temporarily unavailable");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(body);
    }

    /**
     * Anything else is a bug: 500 without Retry-After (a retry would fail the same way), logged here
     * once with its stack under an error id that the answer carries, so an operator finds the one
     * from the other. The answer says nothing of the failure itself.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> bug(Exception e) {
        String errorId = UUID.randomUUID().toString();
        log.error("unexpected failure, error id {}", errorId, e);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(internalError(errorId));
    }

    /** The answer to a bug: an error id, nothing about the failure. Also used for bugs outside Spring MVC ({@link ErrorAnswers}). */
    static ProblemDetail internalError(String errorId) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "the broker failed on this request; quote error id " + errorId + " when reporting it");
        body.setTitle("Internal error");
        body.setProperty("errorId", errorId);
        return body;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().body(problem("the request body is not a valid order: " + JsonErrors.explain(e)));
    }

    private static ResponseEntity<ProblemDetail> badRequest(String detail) {
        return ResponseEntity.badRequest().body(problem(detail));
    }

    private static ProblemDetail problem(String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        body.setTitle("Invalid request");
        return body;
    }
}
