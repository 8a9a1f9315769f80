package org.brokerapp.broker.system;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** This broker instance's base URL as the other instances of its region reach it ({@code broker.advertised-url}). */
@Component
public class InstanceUrl {

    private final String url;

    public InstanceUrl(BrokerProperties properties, @Value("${server.address:127.0.0.1}") String address, @Value("${server.port:8080}") int port,
                       @Value("${server.ssl.bundle:}") String sslBundle, @Value("${server.ssl.enabled:true}") boolean sslEnabled) {
        String scheme = sslEnabled && !sslBundle.isBlank() ? "https://" : "http://";
        this.url = properties.advertisedUrl().isBlank() ? scheme + address + ":" + port : properties.advertisedUrl();
    }

    public String url() {
        return url;
    }

    /** The base URL inside a lease holder's name ({@code <url>/<pid>/<nonce>}). */
    public static String ofHolder(String holder) {
        int nonce = holder.lastIndexOf('/');
        int pid = nonce <= 0 ? -1 : holder.lastIndexOf('/', nonce - 1);
        return pid <= 0 ? holder : holder.substring(0, pid);
    }
}
