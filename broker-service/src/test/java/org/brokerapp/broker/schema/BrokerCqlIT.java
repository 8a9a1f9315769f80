package org.brokerapp.broker.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.junit.jupiter.api.Test;

/**
 * Which statements the driver may send again to another replica when a node dies under a request
 * (the cassandra-kill drill): every read and every self-stamped write, never a conditional one.
 */
@BrokersTest
class BrokerCqlIT {

    @Test
    void readsAndStampedWritesAreIdempotentConditionalAndServerStampedWritesAreNot(Brokers brokers) {
        try (CqlSession session = brokers.stack().cqlSession("us-east-1")) {
            BrokerCql cql = new BrokerCql(session, Brokers.KEYSPACE);

            List<PreparedStatement> retried = List.of(cql.selectLedger, cql.selectLedgerOrder, cql.insertOrder, cql.insertExecutedOrder,
                    cql.fillOrder, cql.cancelOrder, cql.insertOpenOrder, cql.deleteOpenOrder, cql.selectOpenOrders, cql.selectDecisionLease,
                    cql.selectExchangeOwner, cql.selectLastPrice, cql.scanLedgerForSearch);
            List<PreparedStatement> notRetried = List.of(cql.openAccount, cql.claimUnownedExchange, cql.moveExchange, cql.takeDecisionLease,
                    cql.renewDecisionLease, cql.releaseDecisionLease, cql.saveLastPrice);

            assertThat(retried).allSatisfy(statement -> assertThat(statement.bind().isIdempotent())
                    .as(statement.getQuery()).isTrue());
            assertThat(notRetried).allSatisfy(statement -> assertThat(statement.bind().isIdempotent())
                    .as(statement.getQuery()).isNotEqualTo(Boolean.TRUE));
            assertThat(retried).filteredOn(statement -> !statement.getQuery().startsWith("SELECT"))
                    .allSatisfy(write -> assertThat(write.getQuery()).contains("USING TIMESTAMP ?"));
        }
    }
}
