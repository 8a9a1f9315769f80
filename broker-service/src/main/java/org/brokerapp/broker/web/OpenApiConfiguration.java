package org.brokerapp.broker.web;

import java.util.LinkedHashMap;
import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.brokerapp.broker.system.BrokerProperties;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description at /v3/api-docs (Swagger UI at /swagger-ui.html): the customer API and the
 * operator's. Customers use a bearer token ({@value #BEARER}), which {@code POST /api/token} gives for
 * their password; the token call and the operator's endpoints take HTTP Basic ({@value #BASIC}).
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    /** The security scheme of the customer API: a JWT from {@code POST /api/token}. */
    public static final String BEARER = "bearer";
    /** The security scheme of the token call and the operator's endpoints. */
    public static final String BASIC = "basic";

    private static final String PROBLEM = "Problem";

    @Bean
    OpenAPI brokerApi(BrokerProperties properties) {
        return new OpenAPI()
                .info(new Info().title("Broker " + properties.region()).version("v1")
                        .description("Orders, holdings, transactions and prices of one regional broker. Errors are RFC 9457 problem+json."))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT"))
                        .addSecuritySchemes(BASIC, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")));
    }

    /** Every operation's 4xx and 5xx answers: problem+json, as ProblemResponses and ProblemDetailsAdvice write them. */
    @Bean
    OpenApiCustomizer problemAnswers() {
        Content problem = new Content().addMediaType("application/problem+json",
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM)));
        // the schema here, with its references: put in the bean above, where no operation referred to it yet, springdoc left it out
        return api -> {
            api.getComponents().addSchemas(PROBLEM, problem());
            api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> operation.getResponses()
                    .addApiResponse("4XX", new ApiResponse().description("the request is wrong: what, in detail").content(problem))
                    .addApiResponse("5XX", new ApiResponse().description("503 with Retry-After: retry; 500: a bug, with an error id").content(problem))));
        };
    }

    private static Schema<?> problem() {
        Map<String, Schema> fields = new LinkedHashMap<>();
        fields.put("type", new StringSchema().description("a URI naming the kind of problem"));
        fields.put("title", new StringSchema());
        fields.put("status", new IntegerSchema());
        fields.put("detail", new StringSchema().description("what is wrong, for a person"));
        fields.put("instance", new StringSchema().description("the request's path"));
        fields.put("errorId", new StringSchema().description("500 only: the id the broker logged the failure under"));
        fields.put("region", new StringSchema().description("when the problem is another region's (unreachable, timed out, or its refusal passed on): that region"));
        return new ObjectSchema().description("RFC 9457 problem details").properties(fields);
    }
}
