package org.brokerapp.broker.system;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI description at /v3/api-docs (Swagger UI at /swagger-ui.html). */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI brokerApi(BrokerProperties properties) {
        return new OpenAPI()
                .info(new Info().title("Broker " + properties.region()).version("v1")
                        .description("Orders, holdings, transactions and prices of one regional broker. Errors are RFC 9457 problem+json."))
                .components(new Components().addSecuritySchemes("basic", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")));
    }
}
