package org.brokerapp.infra.elasticsearch.login;

import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.http.HttpServerTransport;
import org.elasticsearch.rest.RestChannel;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;

/** Hands a request on only with a known login; answers 401 otherwise, before any handler sees it. */
final class LoginRequired implements HttpServerTransport.Dispatcher {

    private final HttpServerTransport.Dispatcher next;
    private final Logins logins;

    LoginRequired(HttpServerTransport.Dispatcher next, Logins logins) {
        this.next = next;
        this.logins = logins;
    }

    @Override
    public void dispatchRequest(RestRequest request, RestChannel channel, ThreadContext threadContext) {
        if (logins.admit(request.header("Authorization"))) {
            next.dispatchRequest(request, channel, threadContext);
        } else {
            channel.sendResponse(loginRequired());
        }
    }

    @Override
    public void dispatchBadRequest(RestChannel channel, ThreadContext threadContext, Throwable cause) {
        if (logins.admit(channel.request().header("Authorization"))) {
            next.dispatchBadRequest(channel, threadContext, cause);
        } else {
            channel.sendResponse(loginRequired());
        }
    }

    private static RestResponse loginRequired() {
        RestResponse response = new RestResponse(RestStatus.UNAUTHORIZED, RestResponse.TEXT_CONTENT_TYPE, "login required\n");
        response.addHeader("WWW-Authenticate", "Basic realm=\"elasticsearch\", charset=\"UTF-8\"");
        return response;
    }
}
