package org.brokerapp.infra.stack;

import org.brokerapp.infra.host.Progress;

/**
 * Servers running in containers: what the stack needs of them. Kept free of Testcontainers types, so this class
 * loads without Testcontainers on the classpath (it is there only with the {@code docker} profile).
 */
public interface StackContainers extends AutoCloseable {

    /** Which containers, for people. */
    String describe();

    /** Starts the Elasticsearch containers unless they run (see {@link LocalStack#startSearch}). */
    void startSearch(Progress progress);

    boolean searchRunning();

    /** Removes the containers and their network. */
    @Override
    void close();
}
