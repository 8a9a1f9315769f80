package org.brokerapp.broker.support;

import java.net.URI;
import java.net.http.HttpRequest;

import org.brokerapp.broker.peer.PeerSigner;

/** A call to a broker's {@code /internal/**} as another region's broker makes it: JSON, signed by that region's key for the region called. */
public final class SignedCalls {

    private SignedCalls() {
    }

    public static HttpRequest post(PeerSigner signer, URI uri, String destination, byte[] json, String customerId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json));
        signer.headers(uri, destination, json, customerId).forEach(request::header);
        return request.build();
    }
}
