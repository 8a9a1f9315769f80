package org.brokerapp.broker.web;

import java.net.URI;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * A problem's {@code instance} is the request's path, which is the client's to choose: Spring sets it
 * whole, so a 3,000-character path came back in its own 400. Cut here to an {@link Excerpt}, as
 * every other quote of the request is.
 */
@ControllerAdvice
class ProblemInstanceExcerpt implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
                                  Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request, ServerHttpResponse response) {
        if (body instanceof ProblemDetail problem && problem.getInstance() != null) {
            String path = problem.getInstance().toString();
            if (path.length() > Excerpt.MAX_CHARS) {
                try {
                    problem.setInstance(URI.create(Excerpt.of(path)));
                } catch (IllegalArgumentException notAPath) {
                    problem.setInstance(null);
                }
            }
        }
        return body;
    }
}
