package org.brokerapp.infra.elasticsearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.PluginsLoader;

/**
 * Starts one Elasticsearch node in this JVM from Maven Central jars, without the distribution's
 * launcher (which needs the server CLI, the native controller and the x-pack modules).
 *
 * <p>{@code java -Des.path.home=HOME -cp lib/* ElasticsearchLauncher CONFIG_DIR}: HOME holds
 * {@code modules/} (transport-netty4 and root-info, as the build lays them out), CONFIG_DIR holds
 * {@code elasticsearch.yml} and {@code log4j2.properties} (the local stack writes them per node).
 * SIGTERM closes the node cleanly; the process then exits.
 */
public final class ElasticsearchLauncher {

    private ElasticsearchLauncher() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ElasticsearchLauncher CONFIG_DIR (and -Des.path.home=HOME)");
            System.exit(2);
        }
        Path home = Path.of(System.getProperty("es.path.home", "")).toAbsolutePath();
        Path config = Path.of(args[0]).toAbsolutePath();
        if (!Files.isDirectory(home.resolve("modules")) || !Files.isRegularFile(config.resolve("elasticsearch.yml"))) {
            System.err.println("need -Des.path.home with modules/ (was " + home + ") and " + config.resolve("elasticsearch.yml"));
            System.exit(2);
        }
        Files.createDirectories(home.resolve("plugins"));

        LogConfigurator.registerErrorListener();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(
                Settings.builder().put("path.home", home.toString()).build(), Map.of(), config, () -> "node");
        LogConfigurator.setNodeName(Node.NODE_NAME_SETTING.get(environment.settings()));
        LogConfigurator.configure(environment, false);

        PluginsLoader plugins = PluginsLoader.createPluginsLoader(
                PluginsLoader.loadModulesBundles(environment.modulesDir()),
                PluginsLoader.loadPluginsBundles(environment.pluginsDir()),
                Map.of(), false);
        Node node = new Node(environment, plugins);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                closed.countDown();
            }
        }, "elasticsearch-shutdown"));
        node.start();
        System.out.println("elasticsearch node started: " + Node.NODE_NAME_SETTING.get(environment.settings()));
        closed.await();
    }
}
