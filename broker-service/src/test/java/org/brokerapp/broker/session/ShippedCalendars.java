package org.brokerapp.broker.session;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.brokerapp.regions.SymbolUniverse;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/** The session calendars the broker ships, bound from its {@code application.yaml} as Spring binds them, without a context. */
public final class ShippedCalendars {

    private ShippedCalendars() {
    }

    /** Bound once per test JVM: the calendars never change, and binding the YAML is the slow part. */
    private static final ExchangeSessions SHIPPED = new ExchangeSessions(properties(), SymbolUniverse.loadDefault());

    public static ExchangeSessions sessions() {
        return SHIPPED;
    }

    static SessionProperties properties() {
        try {
            StandardEnvironment environment = new StandardEnvironment();
            new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yaml"))
                    .forEach(environment.getPropertySources()::addLast);
            return new Binder(ConfigurationPropertySources.get(environment)).bind("broker.sessions", SessionProperties.class).get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
