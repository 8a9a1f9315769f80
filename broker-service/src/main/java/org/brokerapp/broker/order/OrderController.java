package org.brokerapp.broker.order;

import java.math.BigDecimal;
import java.net.URI;
import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.account.Holdings;
import org.brokerapp.broker.account.LedgerPage;
import org.brokerapp.broker.account.Pending;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.metrics.OrderRequestTiming;
import org.brokerapp.broker.web.Excerpt;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The customer's REST API: orders, holdings, transactions and prices. Customers see only their own orders. */
@RestController
@RequestMapping("/api")
@Tag(name = "orders")
@SecurityRequirement(name = OpenApiConfiguration.BEARER)
class OrderController {

    /** An order as the API shows it. */
    record OrderView(UUID orderId, String clientOrderId, String symbol, String exchange, Side side, OrderType type, long quantity,
                     BigDecimal limitPrice, BigDecimal stopPrice, OrderStatus status, String placedRegion, Instant placedAt,
                     BigDecimal fillPrice, Instant filledAt, String filledBy, TimeInForce timeInForce, Instant expiresAt, Instant closedAt) {

        static OrderView of(Order o) {
            return new OrderView(o.orderId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(), o.quantity(), o.limitPrice(),
                    o.stopPrice(), o.status(), o.placedRegion(), o.placedAt(), o.fillPrice(), o.filledAt(), o.filledBy(),
                    o.validity().timeInForce(), o.validity().expiresAt(), o.closedAt());
        }
    }

    /**
     * Cash and shares, each split into what is owned and what open orders hold back, as the ledger
     * has them; and the orders whose placement's outcome is not known yet, which hold back cash or
     * shares too until their owner settles them. {@code pending} is null when the broker answering
     * is not the customer's owner (only the owner knows of them); {@code availableCash} is net of them.
     */
    record HoldingsView(BigDecimal cash, BigDecimal reservedCash, BigDecimal availableCash, Map<String, Long> positions,
                        Map<String, Long> reservedShares, List<Pending> pending) {

        static HoldingsView of(OrderService.Balances balances) {
            Holdings h = balances.ledger();
            BigDecimal pendingCash = balances.pending().orElse(List.of()).stream().map(Pending::reservedCash).reduce(BigDecimal.ZERO, BigDecimal::add);
            return new HoldingsView(h.cash(), h.reservedCash(), h.availableCash().subtract(pendingCash), h.positions(), h.reservedShares(),
                    balances.pending().orElse(null));
        }
    }

    record PriceView(String symbol, BigDecimal price, long sequence, Instant tickTime, String region) {
    }

    private final OrderService orders;
    private final BrokerMetrics metrics;
    private final OrderRequests requests;
    private final LastPrices lastPrices;
    private final SymbolUniverse symbols;

    OrderController(OrderService orders, OrderRequests requests, LastPrices lastPrices, SymbolUniverse symbols, BrokerMetrics metrics) {
        this.metrics = metrics;
        this.orders = orders;
        this.requests = requests;
        this.lastPrices = lastPrices;
        this.symbols = symbols;
    }

    @Operation(summary = "Place a LIMIT or STOP order", description = "Idempotent on clientOrderId: a retry returns the same order with 200.")
    @PostMapping("/orders")
    ResponseEntity<OrderView> place(Principal customer, @RequestBody OrderRequests.PlaceOrderRequest request, HttpServletRequest http) {
        PlaceOrder command = requests.validate(customer.getName(), request);
        if (command.type() == OrderType.MARKET) {
            OrderRequestTiming.market(http);
        } else {
            OrderRequestTiming.resting(http, metrics);
        }
        Placement placement = orders.place(command);
        if (command.type() == OrderType.MARKET && !placement.order().placedRegion().equals(placement.order().filledBy())) {
            OrderRequestTiming.routed(http);
        }
        OrderView view = OrderView.of(placement.order());
        return placement.created()
                ? ResponseEntity.created(URI.create("/api/orders/" + view.orderId())).body(view)
                : ResponseEntity.ok(view);
    }

    @Operation(summary = "One of the customer's orders")
    @GetMapping("/orders/{orderId}")
    OrderView get(Principal customer, @PathVariable UUID orderId) {
        return OrderView.of(orders.get(customer.getName(), orderId));
    }

    @Operation(summary = "The customer's orders, a page at a time, optionally of one status",
            description = "Each page reads `size` rows of the customer's ledger (default 100, at most 500) in order-id order and keeps those "
                    + "of `status`, newest first: a page may hold fewer than `size`, even none. A `Link` header with `rel=\"next\"` names the "
                    + "next page while there is one; follow it until it is absent.")
    @GetMapping("/orders")
    ResponseEntity<List<OrderView>> list(Principal customer, @RequestParam Optional<OrderStatus> status,
                                         @RequestParam(defaultValue = "100") int size, @RequestParam Optional<String> after) {
        return paged(orders.list(customer.getName(), status, size, after), "/api/orders", status.map(s -> "status=" + s + "&").orElse(""), size);
    }

    @Operation(summary = "Cancel an open order",
            description = "200 with the cancelled order when this broker holds the symbol and decided the cancel; 202 when the cancel was sent to the region or instance that holds it, which decides.")
    @DeleteMapping("/orders/{orderId}")
    ResponseEntity<OrderView> cancel(Principal customer, @PathVariable UUID orderId) {
        OrderService.Cancellation cancellation = orders.cancel(customer.getName(), orderId);
        return ResponseEntity.status(cancellation.decided() ? HttpStatus.OK : HttpStatus.ACCEPTED).body(OrderView.of(cancellation.order()));
    }

    @Operation(summary = "Cash, reserved cash and positions")
    @GetMapping("/holdings")
    HoldingsView holdings(Principal customer) {
        return HoldingsView.of(orders.balances(customer.getName()));
    }

    @Operation(summary = "The customer's fills, a page at a time",
            description = "Paged as `GET /api/orders`: `size` ledger rows a page, newest fill first within it, a `Link` header to the next.")
    @GetMapping("/transactions")
    ResponseEntity<List<OrderView>> transactions(Principal customer, @RequestParam(defaultValue = "100") int size,
                                                 @RequestParam Optional<String> after) {
        return paged(orders.transactions(customer.getName(), size, after), "/api/transactions", "", size);
    }

    /** A page as a JSON array, with an RFC 8288 {@code Link} to the next (relative: it resolves against whatever address the client used). */
    private static ResponseEntity<List<OrderView>> paged(LedgerPage page, String path, String filter, int size) {
        List<OrderView> views = page.orders().stream().map(OrderView::of).toList();
        return page.next()
                .map(token -> ResponseEntity.ok().header(HttpHeaders.LINK, "<" + path + "?" + filter + "size=" + size + "&after=" + token + ">; rel=\"next\"")
                        .body(views))
                .orElseGet(() -> ResponseEntity.ok(views));
    }

    @Operation(summary = "The last known price of a symbol")
    @GetMapping("/prices/{symbol}")
    PriceView price(@PathVariable String symbol) {
        if (symbols.find(symbol).isEmpty()) {
            throw new OrderProblem.Invalid("unknown symbol '" + Excerpt.of(symbol) + "'");
        }
        return lastPrices.of(symbol)
                .map(p -> new PriceView(p.symbol(), p.price(), p.sequence(), p.tickTime(), p.region()))
                .orElseThrow(() -> new OrderProblem.NotFound("no price of " + symbol + " seen yet"));
    }
}
