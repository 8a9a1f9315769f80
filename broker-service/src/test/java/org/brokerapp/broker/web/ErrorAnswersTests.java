package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

class ErrorAnswersTests {

    private final ErrorAnswers answers = new ErrorAnswers();

    @Test
    void theErrorPageAskedForDirectlyIsNotFoundNotABug() {
        ResponseEntity<ProblemDetail> answer = answers.error(new MockHttpServletRequest("POST", "/error"));

        assertThat(answer.getStatusCode().value()).isEqualTo(404);
        assertThat(answer.getBody().getProperties()).as("no error id: nothing failed").isNull();
    }

    @Test
    void aContainerRefusalKeepsItsStatus() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 400);

        assertThat(answers.error(request).getStatusCode().value()).isEqualTo(400);
    }

    @Test
    void aFailureOutsideTheControllersIsA500WithAnErrorId() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);

        ResponseEntity<ProblemDetail> answer = answers.error(request);

        assertThat(answer.getStatusCode().value()).isEqualTo(500);
        assertThat(answer.getBody().getProperties()).containsKey("errorId");
    }
}
