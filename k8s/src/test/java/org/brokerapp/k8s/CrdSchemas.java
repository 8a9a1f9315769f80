package org.brokerapp.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON schemas for kubeconform from the operators' CRDs kept in k8s/crds, one file per kind and
 * version at {@code GROUP/KIND_VERSION.json} (kubeconform's {@code {{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}}).
 * The conversion does what kubeconform's openapi2jsonschema.py does, in strict form: every object
 * schema that lists its properties and does not preserve unknown fields gets
 * {@code additionalProperties: false} (so a misspelt field fails, as the API server's pruning would
 * silently drop it), {@code x-kubernetes-int-or-string} becomes "string or integer", and
 * {@code nullable} adds "null" to the type.
 */
final class CrdSchemas {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CrdSchemas() {
    }

    /** The CRD files kept in the repository. */
    static List<Path> crdFiles() {
        try (Stream<Path> files = Files.walk(K8sTools.K8S.resolve("crds"))) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the schemas under {@code dir}; returns the files written. */
    static List<Path> write(Path dir) throws IOException {
        List<Path> written = new ArrayList<>();
        for (Path file : crdFiles()) {
            for (ObjectNode crd : K8sTools.objects(file)) {
                if (!"CustomResourceDefinition".equals(crd.path("kind").asString())) {
                    continue;
                }
                String group = crd.path("spec").path("group").asString();
                String kind = crd.path("spec").path("names").path("kind").asString().toLowerCase(Locale.ROOT);
                for (JsonNode version : crd.path("spec").path("versions")) {
                    JsonNode schema = version.path("schema").path("openAPIV3Schema");
                    if (schema.isMissingNode() || !version.path("served").asBoolean()) {
                        continue;
                    }
                    Path out = dir.resolve(group).resolve(kind + "_" + version.path("name").asString() + ".json");
                    Files.createDirectories(out.getParent());
                    Files.writeString(out, JSON.writeValueAsString(strict(schema.deepCopy())));
                    written.add(out);
                }
            }
        }
        return written;
    }

    static JsonNode strict(JsonNode node) {
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, strict(array.get(i)));
            }
            return array;
        }
        if (!(node instanceof ObjectNode schema)) {
            return node;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            field.setValue(strict(field.getValue()));
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
            schema.remove("type");
            ArrayNode oneOf = schema.putArray("oneOf");
            oneOf.addObject().put("type", "string");
            oneOf.addObject().put("type", "integer");
        }
        if (schema.path("nullable").asBoolean() && schema.path("type").isString()) {
            ArrayNode types = NODES.arrayNode();
            types.add(schema.path("type").asString());
            types.add("null");
            schema.set("type", types);
        }
        if (schema.has("properties") && schema.path("properties").isObject() && !schema.has("additionalProperties")
                && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            schema.put("additionalProperties", false);
        }
        return schema;
    }
}
