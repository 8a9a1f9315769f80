package org.brokerapp.broker.web;

import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Makes Tomcat answer what it refuses itself in problem+json ({@link ProblemErrorReportValve}).
 * Ordered last, after Spring Boot's own customizer, which sets the host's valve too.
 */
@Component
class TomcatErrorAnswers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                // Spring Boot puts a plain ErrorReportValve of its own into the host's pipeline (server info and
                // report off), which answers in HTML; ours takes its place, and is named as the host's class so
                // that the host adds no other one when it starts.
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.getPipeline().addValve(new ProblemErrorReportValve());
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
