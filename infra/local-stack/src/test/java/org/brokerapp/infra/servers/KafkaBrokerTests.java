package org.brokerapp.infra.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.infra.stack.StackLayout;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.infra.tls.LocalCertificates;
import org.brokerapp.infra.tls.StackTls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerTests {

    @TempDir
    Path workDir;

    @Test
    void withTlsTheClientsListenerIsSaslSslWithTheRegionsCertificateAndTheControllerStaysOnLoopback() {
        KafkaBroker broker = StackLayout.of(StackSettings.defaults(workDir, 1)).kafkaIn("us-east-1");
        StackTls tls = LocalCertificates.issue(workDir.resolve("tls"), Map.of(broker.tlsName(), List.of(broker.address())), Instant.now());

        String properties = broker.serverProperties("admin-pw", Optional.of(tls));

        assertThat(properties).contains("listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_SSL",
                "ssl.keystore.location=" + tls.keystore("kafka-us-east-1"), "ssl.keystore.type=PKCS12",
                "ssl.truststore.location=" + tls.truststore(), "ssl.client.auth=none", "sasl.enabled.mechanisms=SCRAM-SHA-512");
        assertThat(broker.serverProperties("admin-pw", Optional.empty()))
                .contains("listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_PLAINTEXT")
                .doesNotContain("ssl.keystore");
    }
}
