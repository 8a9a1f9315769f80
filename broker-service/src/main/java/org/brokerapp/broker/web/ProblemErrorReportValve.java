package org.brokerapp.broker.web;

import java.io.IOException;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own answers, for requests it refuses before any application code runs (a path with an
 * encoded NUL, an invalid URI), in the same problem+json as every other answer instead of Tomcat's
 * HTML page with its version. Installed as the host's error report valve by {@link TomcatErrorAnswers}.
 */
final class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        try {
            ProblemResponses.write(response, status, title, "the request was refused before it reached the broker: " + title);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone, or the response was committed meanwhile: nothing more to say
        }
    }
}
