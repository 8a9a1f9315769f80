package org.brokerapp.infra.elasticsearch.rootinfo;

import java.util.List;
import java.util.function.Supplier;

import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.node.Node;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

/** The body of {@code GET /}, field for field what the official clients' {@code info()} reads. */
final class RootInfoHandler extends BaseRestHandler {

    private final Settings settings;
    private final Supplier<ClusterService> clusterService;

    RootInfoHandler(Settings settings, Supplier<ClusterService> clusterService) {
        this.settings = settings;
        this.clusterService = clusterService;
    }

    @Override
    public String getName() {
        return "brokerapp_root_info";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(RestRequest.Method.GET, "/"), new Route(RestRequest.Method.HEAD, "/"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        return channel -> {
            if (request.method() == RestRequest.Method.HEAD) {
                channel.sendResponse(new RestResponse(RestStatus.OK, ""));
                return;
            }
            ClusterService cluster = clusterService.get();
            Build build = Build.current();
            XContentBuilder body = channel.newBuilder();
            body.startObject();
            body.field("name", Node.NODE_NAME_SETTING.get(settings));
            body.field("cluster_name", cluster.getClusterName().value());
            body.field("cluster_uuid", cluster.state().metadata().clusterUUID());
            body.startObject("version")
                    .field("number", build.qualifiedVersion())
                    .field("build_flavor", build.flavor())
                    .field("build_type", build.type().displayName())
                    .field("build_hash", build.hash())
                    .field("build_date", build.date())
                    .field("build_snapshot", build.isSnapshot())
                    .field("lucene_version", org.apache.lucene.util.Version.LATEST.toString())
                    .field("minimum_wire_compatibility_version", build.minWireCompatVersion())
                    .field("minimum_index_compatibility_version", build.minIndexCompatVersion())
                    .endObject();
            body.field("tagline", "You Know, for Search");
            body.endObject();
            channel.sendResponse(new RestResponse(RestStatus.OK, body));
        };
    }
}
