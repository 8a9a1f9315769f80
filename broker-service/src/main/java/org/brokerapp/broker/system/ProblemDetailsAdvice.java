package org.brokerapp.broker.system;

import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.order.OrderProblem;
import org.brokerapp.broker.search.SearchProblem;
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

    @ExceptionHandler(OrderProblem.class)
    ResponseEntity<ProblemDetail> orderProblem(OrderProblem problem) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
        body.setTitle(problem.title());
        body.setType(problem.type());
        problem.region().ifPresent(region -> body.setProperty("region", region));
        ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.status());
        problem.retryAfter().ifPresent(after -> response.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (after.toMillis() + 999) / 1000))));
        return response.body(body);
    }

    @ExceptionHandler(SearchProblem.class)
    ResponseEntity<ProblemDetail> searchProblem(SearchProblem problem) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
        body.setTitle(problem.title());
        ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.status());
        if (problem.status() == HttpStatus.SERVICE_UNAVAILABLE) {
            response.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return response.body(body);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> badParameter(MethodArgumentTypeMismatchException e) {
        return badRequest(e.getName() + " is not a valid " + (e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName()));
    }

    @ExceptionHandler(MalformedOrderEventException.class)
    ResponseEntity<ProblemDetail> malformedEvents(MalformedOrderEventException e) {
        return badRequest("the body is not a batch of order events");
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e) {
        log.error("unexpected failure", e);
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "the broker could not complete the request; retry");
        body.setTitle("Temporarily unavailable");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(body);
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
