package org.brokerapp.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.kafka.common.resource.PatternType;
import org.brokerapp.infra.servers.KafkaAccess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The EC2 Kafka that terraform provisions grants what the local stack's grants: modules/region's
 * kafka-acls.json (its cloud-init runs one kafka-acls command per row) is infra's
 * {@link KafkaAccess} table for every region, and names only principals that get a password.
 */
class KafkaAclsFileTests {

    private static final Path FILE = Path.of("modules/region/kafka-acls.json");

    record Acl(String principal, String type, String name, String pattern, String operation) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"us-east-1", "ap-southeast-2"})
    void theFileIsTheAccessTable(String region) throws IOException {
        JsonNode rows = JsonMapper.builder().build().readTree(Files.readString(FILE).replace("<region>", region));
        Set<Acl> file = new HashSet<>();
        for (JsonNode row : rows) {
            for (JsonNode operation : row.path("operations")) {
                file.add(new Acl(row.path("principal").asString(), row.path("type").asString(), row.path("name").asString(),
                        row.path("pattern").asString(), operation.asString()));
            }
        }
        Set<Acl> table = new HashSet<>();
        for (KafkaAccess.Grant grant : KafkaAccess.grants(region)) {
            String operation = grant.operation().name();
            table.add(new Acl(grant.principal(), grant.type().name().toLowerCase(Locale.ROOT), grant.name(),
                    grant.pattern() == PatternType.PREFIXED ? "prefixed" : "literal",
                    operation.charAt(0) + operation.substring(1).toLowerCase(Locale.ROOT)));
        }

        assertThat(file).isEqualTo(table);
        assertThat(file).extracting(Acl::principal).allSatisfy(p -> assertThat(p).isIn(List.of(KafkaAccess.FEED, KafkaAccess.broker(region))));
    }
}
