package org.brokerapp.broker.search;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Search exists in this broker when {@code broker.search.elasticsearch} has an entry for {@code broker.region}. */
final class SearchEnabled extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Binder binder = Binder.get(context.getEnvironment());
        String region = binder.bind("broker.region", String.class).orElse("");
        Map<String, String> clusters = binder.bind("broker.search.elasticsearch", Bindable.mapOf(String.class, String.class)).orElse(Map.of());
        return clusters.containsKey(region)
                ? ConditionOutcome.match("broker.search.elasticsearch has " + region)
                : ConditionOutcome.noMatch("broker.search.elasticsearch has no entry for region '" + region + "': search is off");
    }
}
