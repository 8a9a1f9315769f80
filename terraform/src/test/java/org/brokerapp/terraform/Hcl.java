package org.brokerapp.terraform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Terraform files as JSON (hcl2json, installed by terraform/bin/install-tools): literal values stay
 * literal, expressions come as "${...}" strings, blocks as lists. Enough to check what a file
 * declares without a provider, which no registry here serves.
 */
final class Hcl {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Hcl() {
    }

    /** Every .tf file of a directory, merged: one JSON document per file, in file name order. */
    static List<JsonNode> dir(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<JsonNode> docs = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".tf")).sorted().toList()) {
                docs.add(file(file));
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode file(Path file) {
        Tool.Run run = Tool.require("hcl2json").run(file.getParent(), file.getFileName().toString());
        if (run.exitCode() != 0) {
            throw new AssertionError(run.describe());
        }
        return JSON.readTree(run.output());
    }

    /** The first (only) body of block TYPE NAME of kind (resource, data) in the files, or a missing node. */
    static JsonNode block(List<JsonNode> docs, String kind, String type, String name) {
        for (JsonNode doc : docs) {
            JsonNode found = doc.path(kind).path(type).path(name);
            if (found.isArray() && !found.isEmpty()) {
                return found.get(0);
            }
        }
        return JSON.missingNode();
    }

    /** The first body of a two-label-less block such as variable NAME or module NAME, or a missing node. */
    static JsonNode named(List<JsonNode> docs, String kind, String name) {
        for (JsonNode doc : docs) {
            JsonNode found = doc.path(kind).path(name);
            if (found.isArray() && !found.isEmpty()) {
                return found.get(0);
            }
        }
        return JSON.missingNode();
    }

    /** Every block of a type (all names) in the files. */
    static List<JsonNode> blocks(List<JsonNode> docs, String kind, String type) {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode doc : docs) {
            doc.path(kind).path(type).forEach(bodies -> bodies.forEach(all::add));
        }
        return all;
    }

    /** The value of local NAME in the files. */
    static JsonNode local(List<JsonNode> docs, String name) {
        for (JsonNode doc : docs) {
            for (JsonNode locals : doc.path("locals")) {
                if (locals.has(name)) {
                    return locals.get(name);
                }
            }
        }
        return JSON.missingNode();
    }
}
