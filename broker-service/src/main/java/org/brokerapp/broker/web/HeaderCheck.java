package org.brokerapp.broker.web;

import java.io.IOException;
import java.nio.charset.Charset;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a {@code Content-Type} or {@code Accept} header that is not a media type (or names a
 * charset that does not exist) before anything reads it: deeper down such a header fails the body's
 * decoding, the content negotiation and then the error page's own negotiation, which ends in a 500
 * or an empty 406. Here it is a 415 or a 400 in problem+json.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class HeaderCheck extends OncePerRequestFilter {

    /** The container's own refusals (a TRACE, a bad URI) are dispatched to the error page with the same headers. */
    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && (!isUsableContentType(contentType) || !isKnownCharset(request))) {
            refuse(response, 415, "Unsupported Media Type", "the Content-Type '" + Excerpt.of(contentType) + "' is not a media type with a known charset");
            return;
        }
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept != null && !isMediaTypeList(accept)) {
            refuse(response, 400, "Invalid request", "the Accept header '" + Excerpt.of(accept) + "' is not a list of media types");
            return;
        }
        chain.doFilter(request, response);
    }

    /** A concrete media type (a body is of one type, never {@code *}{@code /*}) whose charset, if named, exists. */
    static boolean isUsableContentType(String value) {
        try {
            MediaType type = MediaType.parseMediaType(value);
            String charset = type.getParameter("charset");
            return !type.isWildcardType() && !type.isWildcardSubtype() && (charset == null || Charset.isSupported(charset.replace("\"", "")));
        } catch (IllegalArgumentException notAMediaTypeOrCharset) {
            return false;
        }
    }

    /** The charset the container itself reads from the header (its parser differs from Spring's): decoding paths and bodies uses it. */
    private static boolean isKnownCharset(HttpServletRequest request) {
        String charset = request.getCharacterEncoding();
        try {
            return charset == null || Charset.isSupported(charset);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static boolean isMediaTypeList(String value) {
        try {
            MediaType.parseMediaTypes(value);
            return true;
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static void refuse(HttpServletResponse response, int status, String title, String detail) throws IOException {
        ProblemResponses.write(response, status, title, detail);
    }
}
