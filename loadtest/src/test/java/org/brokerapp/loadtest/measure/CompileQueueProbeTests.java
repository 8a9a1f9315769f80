package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.brokerapp.infra.host.ProcessCpu.Kind;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe.WindowFacts;
import org.junit.jupiter.api.Test;

class CompileQueueProbeTests {

    private static final WindowFacts FACTS = new WindowFacts(90, 100, 1_000);

    @Test
    void countsWhatIsBeingCompiledAndWhatWaitsForEachCompiler() {
        String answer = """
                8541:
                Current compiles:\s
                C2 CompilerThread0  44491       4       org.springframework.web.servlet.mvc.condition.RequestMethodsRequestCondition::getMatchingCondition (73 bytes)

                C1 compile queue:
                Empty

                C2 compile queue:
                  70 %     4       java.lang.StringCoding::hasNegatives @ 2 (25 bytes)
                 517       4       java.nio.DirectLongBufferU::ix (10 bytes)
                2557       4       sun.invoke.util.Wrapper::forBasicType (16 bytes)
                """;

        assertThat(CompileQueueProbe.parse(answer)).contains(new CompileQueueProbe.Queues(1, 0, 3));
    }

    @Test
    void anIdleCompilerHasNothingQueued() {
        String answer = "7846:\nCurrent compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n";

        assertThat(CompileQueueProbe.parse(answer)).contains(new CompileQueueProbe.Queues(0, 0, 0));
    }

    @Test
    void anythingElseIsNoAnswer() {
        assertThat(CompileQueueProbe.parse("12345:\ncom.sun.tools.attach.AttachNotSupportedException: Unable to open socket file")).isEmpty();
    }

    @Test
    void readsARealJvmThroughJcmd() {
        long self = ProcessHandle.current().pid();
        CompileQueueProbe probe = new CompileQueueProbe(() -> Map.of(self, Kind.HARNESS, 1L, Kind.CASSANDRA));

        List<ResultTable> tables = probe.windowEnded(FACTS);

        assertThat(tables).singleElement().satisfies(table -> {
            // the brokers and the harness only: a Cassandra node's queue is not asked for
            assertThat(table.rows()).singleElement().satisfies(row -> {
                assertThat(row.label()).isEqualTo("harness " + self);
                assertThat(row.values()).hasSize(3).allSatisfy(v -> assertThat(Integer.parseInt(v)).isNotNegative());
            });
        });
    }

    @Test
    void aProcessThatDoesNotAnswerIsADash() {
        CompileQueueProbe probe = new CompileQueueProbe(() -> Map.of(Long.MAX_VALUE, Kind.BROKER));

        assertThat(probe.windowEnded(FACTS).get(0).rows().get(0).values()).containsExactly("-", "-", "-");
    }

    @Test
    void withoutJcmdThereIsNoTable() {
        CompileQueueProbe probe = new CompileQueueProbe(() -> Map.of(1L, Kind.BROKER), Path.of("/nonexistent/jcmd"));

        assertThat(probe.windowEnded(FACTS)).isEmpty();
    }
}
