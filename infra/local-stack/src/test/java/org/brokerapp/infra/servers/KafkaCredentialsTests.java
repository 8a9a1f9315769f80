package org.brokerapp.infra.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaCredentialsTests {

    private static final List<String> PRINCIPALS = KafkaAccess.principals(List.of("us-east-1", "ap-southeast-2"));

    @TempDir
    Path workDir;

    @Test
    void everyPrincipalGetsItsOwnRandomPasswordInAFileOnlyTheOwnerReads() throws Exception {
        KafkaCredentials credentials = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);

        assertThat(credentials.created()).isTrue();
        assertThat(credentials.passwords()).containsOnlyKeys("admin", "feed", "broker-us-east-1", "broker-ap-southeast-2");
        assertThat(credentials.passwords().values()).doesNotHaveDuplicates().allSatisfy(p -> assertThat(p).hasSize(32));
        Path file = credentials.passwordFile("feed");
        assertThat(file).isEqualTo(workDir.resolve("kafka-credentials/feed.password"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(KafkaCredentials.read(credentials.dir(), "feed")).isEqualTo(credentials.of("feed"));
    }

    @Test
    void aStackStartedAgainKeepsItsPasswords() {
        KafkaCredentials first = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);

        KafkaCredentials again = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);

        assertThat(again.created()).isFalse();
        assertThat(again.passwords()).isEqualTo(first.passwords());
    }

    @Test
    void aMissingFileRenewsThemAll() throws Exception {
        KafkaCredentials first = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);
        Files.delete(first.passwordFile("feed"));

        KafkaCredentials renewed = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);

        assertThat(renewed.created()).isTrue();
        assertThat(renewed.of("admin")).isNotEqualTo(first.of("admin"));
    }

    @Test
    void anUnknownPrincipalIsNamed() {
        KafkaCredentials credentials = KafkaCredentials.loadOrCreate(workDir, PRINCIPALS);

        assertThatThrownBy(() -> credentials.of("broker-mars")).hasMessageContaining("broker-mars").hasMessageContaining("feed");
    }
}
