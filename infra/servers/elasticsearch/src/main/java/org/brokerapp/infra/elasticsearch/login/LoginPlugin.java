package org.brokerapp.infra.elasticsearch.login;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import org.elasticsearch.common.network.NetworkService;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.util.BigArrays;
import org.elasticsearch.common.util.PageCacheRecycler;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.http.HttpPreRequest;
import org.elasticsearch.http.HttpServerTransport;
import org.elasticsearch.http.netty4.Netty4HttpServerTransport;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.plugins.NetworkPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.telemetry.tracing.Tracer;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.netty4.SharedGroupFactory;
import org.elasticsearch.transport.netty4.TLSConfig;
import org.elasticsearch.xcontent.NamedXContentRegistry;

/**
 * An HTTP transport that lets a request through only with a login ({@code http.type: brokerapp-login}):
 * Netty's, as the transport-netty4 module makes it, around a dispatcher that checks HTTP Basic
 * first ({@link LoginRequired}). The logins are {@code brokerapp.login.users}, each
 * {@code name:sha256-of-password}, written by the local stack into the node's configuration; the
 * setting is filtered, so no API shows it.
 */
public final class LoginPlugin extends Plugin implements NetworkPlugin {

    public static final String TRANSPORT = "brokerapp-login";
    static final Setting<List<String>> USERS = Setting.stringListSetting("brokerapp.login.users", Setting.Property.NodeScope,
            Setting.Property.Filtered);

    @Override
    public List<Setting<?>> getSettings() {
        return List.of(USERS);
    }

    @Override
    public Map<String, Supplier<HttpServerTransport>> getHttpTransports(Settings settings, ThreadPool threadPool, BigArrays bigArrays,
                                                                        PageCacheRecycler pageCacheRecycler, CircuitBreakerService circuitBreakerService,
                                                                        NamedXContentRegistry xContentRegistry, NetworkService networkService,
                                                                        HttpServerTransport.Dispatcher dispatcher,
                                                                        BiConsumer<HttpPreRequest, ThreadContext> perRequestThreadContext,
                                                                        ClusterSettings clusterSettings, Tracer tracer) {
        Logins logins = Logins.parse(USERS.get(settings));
        return Map.of(TRANSPORT, () -> new Netty4HttpServerTransport(settings, networkService, threadPool, xContentRegistry,
                new LoginRequired(dispatcher, logins), clusterSettings, new SharedGroupFactory(settings), tracer, TLSConfig.noTLS(), null, null) {
            @Override
            protected void populatePerRequestThreadContext(RestRequest restRequest, ThreadContext threadContext) {
                perRequestThreadContext.accept(restRequest.getHttpRequest(), threadContext);
            }
        });
    }
}
