package org.brokerapp.broker.web;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors that happen outside Spring MVC (in a servlet filter, or sent by the container) reach the
 * servlet's error page, {@code /error}: answered here in the same problem+json as
 * {@link ProblemDetailsAdvice}'s, never the framework's default body. A 5xx is a bug: logged once
 * with its stack and an error id, like the advice's. Not an endpoint of the API, so not in its
 * OpenAPI description.
 */
@Hidden
@RestController
class ErrorAnswers implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ErrorAnswers.class);

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (code == null) {
            // asked for directly, not dispatched by the container: there is no such endpoint
            code = HttpStatus.NOT_FOUND.value();
        }
        HttpStatus status = code instanceof Integer c && HttpStatus.resolve(c) != null ? HttpStatus.valueOf(c) : HttpStatus.INTERNAL_SERVER_ERROR;
        if (status.is5xxServerError()) {
            String errorId = UUID.randomUUID().toString();
            log.error("unexpected failure outside the controllers, error id {}, status {}, uri {}", errorId, status.value(),
                    Excerpt.of(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI)), (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION));
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(ProblemDetailsAdvice.internalError(errorId));
        }
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, "the request was refused: " + status.getReasonPhrase());
        body.setTitle(status.getReasonPhrase());
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(body);
    }
}
