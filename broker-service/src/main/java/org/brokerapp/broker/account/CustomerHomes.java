package org.brokerapp.broker.account;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.springframework.stereotype.Component;

/**
 * The home region of every customer: where their balances are decided. Every broker is configured
 * with the same accounts, so every region knows every customer's home without asking anyone.
 */
@Component
public class CustomerHomes {

    private final Map<String, String> homes = new HashMap<>();

    public CustomerHomes(BrokerProperties properties, RegionsModel regions) {
        List<String> names = regions.names();
        for (BrokerProperties.SeedAccount account : properties.seedAccounts()) {
            String home = account.homeRegion().isBlank() ? names.get(0) : account.homeRegion();
            if (!names.contains(home)) {
                throw new IllegalStateException("account " + account.customerId() + ": home region '" + home + "' is not in the regions model " + names);
            }
            homes.put(account.customerId(), home);
        }
        for (int n = 1; n <= properties.loadCustomers(); n++) {
            homes.put("load-" + n, loadCustomerHome(n, names));
        }
    }

    /** {@code load-n}'s home: the regions of the model in turn, so the load harness can tell without asking. */
    public static String loadCustomerHome(int n, List<String> regions) {
        return regions.get((n - 1) % regions.size());
    }

    public Optional<String> homeOf(String customerId) {
        return Optional.ofNullable(homes.get(customerId));
    }
}
