package org.brokerapp.broker.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The API speaks JSON only. Spring registers a converter for every Jackson data format on the
 * classpath, and springdoc brings YAML along: without this, an order could arrive as YAML (or XML,
 * CBOR, Smile), each a parser with its own limits and surprises. Those converters are removed, so
 * such a body is a 415 and such an {@code Accept} gets JSON's 406.
 */
@Configuration(proxyBeanMethods = false)
class JsonOnly implements WebMvcConfigurer {

    private static final List<MediaType> REFUSED = List.of(MediaType.parseMediaType("application/yaml"), MediaType.APPLICATION_XML,
            MediaType.TEXT_XML, MediaType.parseMediaType("application/cbor"), MediaType.parseMediaType("application/x-jackson-smile"));

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.configureMessageConvertersList(list -> list.removeIf(JsonOnly::speaksAnotherFormat));
    }

    static boolean speaksAnotherFormat(HttpMessageConverter<?> converter) {
        return converter.getSupportedMediaTypes().stream().anyMatch(type -> REFUSED.stream().anyMatch(refused -> refused.includes(type)));
    }
}
