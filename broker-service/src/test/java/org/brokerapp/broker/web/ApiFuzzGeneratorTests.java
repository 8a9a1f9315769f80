package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The fuzzer's generators, without a broker: they cover the surface they claim to, and a seed replays the same requests. */
class ApiFuzzGeneratorTests {

    @Test
    void theGeneratorsCoverMethodsPathsBodiesAndEncodings() {
        java.util.Iterator<ApiFuzzIT.FuzzRequest> generated = ApiFuzzIT.generate(42);
        Set<String> methods = new HashSet<>();
        Set<String> encodings = new HashSet<>();
        int chunked = 0;
        int orders = 0;
        for (int i = 0; i < 2000; i++) {
            ApiFuzzIT.FuzzRequest r = generated.next();
            methods.add(r.method());
            encodings.add(String.valueOf(r.encoding()));
            chunked += r.chunked() ? 1 : 0;
            orders += new String(r.body(), java.nio.charset.StandardCharsets.ISO_8859_1).contains("\"clientOrderId\":\"fz-") ? 1 : 0;
        }
        assertThat(methods).contains("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "FUZZ");
        assertThat(encodings).contains("null", "gzip", "deflate", "x-unknown");
        assertThat(chunked).isBetween(600, 1400);
        assertThat(orders).isGreaterThan(200);
    }

    @Test
    void aSeedReplaysTheSameRequests() {
        java.util.List<String> first = ApiFuzzIT.generate(7).next().toString().lines().toList();
        java.util.List<String> firstAgain = new java.util.ArrayList<>();
        java.util.Iterator<ApiFuzzIT.FuzzRequest> one = ApiFuzzIT.generate(7);
        java.util.List<String> a = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            a.add(one.next().toString());
        }
        java.util.Iterator<ApiFuzzIT.FuzzRequest> two = ApiFuzzIT.generate(7);
        for (int i = 0; i < 200; i++) {
            firstAgain.add(two.next().toString());
        }
        assertThat(firstAgain).isEqualTo(a);
        assertThat(first).isNotEmpty();
    }
}
