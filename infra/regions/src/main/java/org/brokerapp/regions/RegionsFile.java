package org.brokerapp.regions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads the regions model. The file is {@code infra/regions.yaml} in the repository, packaged into
 * this module's jar as the default; {@value #PATH_PROPERTY} (system property) or
 * {@value #PATH_ENV} (environment) points at another file.
 */
public final class RegionsFile {

    public static final String PATH_PROPERTY = "regions.file";
    public static final String PATH_ENV = "REGIONS_FILE";
    static final String CLASSPATH_DEFAULT = "/regions.yaml";

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // an absent number is 0, which the records then judge (e.g. cassandra-nodes must be 1-3)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private RegionsFile() {
    }

    /** The file named by the system property or environment variable, else the packaged default. */
    public static RegionsModel load() {
        String path = System.getProperty(PATH_PROPERTY, System.getenv(PATH_ENV));
        return path == null || path.isBlank() ? loadDefault() : load(Path.of(path));
    }

    public static RegionsModel load(Path file) {
        if (!Files.isReadable(file)) {
            throw new InvalidRegionsException("regions file " + file + " does not exist or is not readable");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read regions file " + file, e);
        }
    }

    public static RegionsModel loadDefault() {
        try (InputStream in = RegionsFile.class.getResourceAsStream(CLASSPATH_DEFAULT)) {
            if (in == null) {
                throw new InvalidRegionsException("regions.yaml is missing from the classpath");
            }
            return parse(in, "classpath:regions.yaml");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the packaged regions.yaml", e);
        }
    }

    static RegionsModel parse(InputStream in, String source) {
        try {
            RegionsModel model = YAML.readValue(in, RegionsModel.class);
            if (model == null) {
                throw new InvalidRegionsException(source + " is empty");
            }
            model.regions().stream().filter(r -> r.exchanges().isEmpty()).findFirst().ifPresent(r -> {
                throw new InvalidRegionsException(source + ": region " + r.name() + " lists no exchanges");
            });
            return model;
        } catch (JacksonException e) {
            Throwable cause = e.getCause() instanceof InvalidRegionsException invalid ? invalid : e;
            throw new InvalidRegionsException(source + ": " + oneLine(cause), e);
        }
    }

    private static String oneLine(Throwable t) {
        String message = t instanceof JacksonException j ? path(j) + j.getOriginalMessage() : t.getMessage();
        return message == null ? t.getClass().getSimpleName() : message.lines().findFirst().orElse(message);
    }

    /** Where in the file the problem is, e.g. {@code regions[0].cassandra-nodes: }. */
    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "" : path + ": ";
    }
}
