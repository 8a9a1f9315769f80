package org.brokerapp.broker.web;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/** A request whose body was read already (to bound or verify it), passed on from memory with its length known. */
public final class BufferedBody extends HttpServletRequestWrapper {

    private final byte[] body;

    public BufferedBody(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        return new ServletInputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }

            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException("synchronous reads only");
            }
        };
    }

    @Override
    public java.io.BufferedReader getReader() {
        java.nio.charset.Charset charset = StandardCharsets.UTF_8;
        try {
            if (getCharacterEncoding() != null) {
                charset = java.nio.charset.Charset.forName(getCharacterEncoding());
            }
        } catch (IllegalArgumentException unknownCharset) {
            // keep UTF-8, JSON's encoding
        }
        return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), charset));
    }
}
