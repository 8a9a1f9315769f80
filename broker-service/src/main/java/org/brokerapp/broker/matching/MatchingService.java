package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.order.OrderType;
import org.brokerapp.broker.order.Side;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.LoopThread;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The matcher of this region: one thread owns the {@link TriggerIndex} of every symbol this broker
 * instance holds (the symbols of its assigned ticker partitions whose exchange this region holds,
 * see {@link ExchangeOwnership}) and applies, in arrival order,
 * ticks from the poll loop and order additions and removals from the API and the inbox. The
 * thread does no I/O: triggered orders go to the {@link FillExecutor}. Its input queue is bounded;
 * a full queue makes producers wait.
 */
@Service
public class MatchingService extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(MatchingService.class);

    private sealed interface Command permits TickArrived, AddOrder, RemoveOrder, Own, Disown {
    }

    private record TickArrived(Tick tick, long receivedNanos) implements Command {
    }

    private record AddOrder(RestingOrder order) implements Command {
    }

    private record RemoveOrder(UUID orderId) implements Command {
    }

    private record Own(Collection<String> symbols, List<RestingOrder> orders) implements Command {
    }

    private record Disown(Collection<String> symbols) implements Command {
    }

    private final TriggerIndex index = new SortedTriggerIndex();
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    private final Set<String> assigned = new HashSet<>();
    private Set<String> heldExchanges = Set.of();
    private final SymbolUniverse universe;
    private final ReadWriteLock ownership = new ReentrantReadWriteLock();
    private final BlockingQueue<Command> commands;
    private final FillExecutor fills;
    private final OpenOrders openOrders;
    private final LastPrices lastPrices;
    private final BigDecimal buyStopCollar;
    private final List<RestingOrder> triggered = new ArrayList<>();
    private final Consumer<RestingOrder> collectTriggered = triggered::add;

    /** Starts (phase 0) before the ticker consumer and the inbox tailer, stops after them. */
    public MatchingService(FillExecutor fills, OpenOrders openOrders, LastPrices lastPrices, BrokerProperties properties,
                           SymbolUniverse universe, ExchangeOwnership exchanges) {
        super("matcher", 0);
        this.universe = universe;
        this.fills = fills;
        this.openOrders = openOrders;
        this.lastPrices = lastPrices;
        this.buyStopCollar = properties.matching().buyStopCollar();
        this.commands = new ArrayBlockingQueue<>(properties.kafka().handOffCapacity());
        exchanges.onChange(this::holdExchanges);
    }

    /** Hands a tick to the matcher; false if the queue is full (the caller pauses its source). */
    public boolean offer(Tick tick, long receivedNanos) {
        return commands.offer(new TickArrived(tick, receivedNanos));
    }

    public void put(Tick tick, long receivedNanos) throws InterruptedException {
        commands.put(new TickArrived(tick, receivedNanos));
    }

    /**
     * Rests an order whose ledger row is OPEN and visible in this region: saved to open_orders, then
     * indexed. False if this instance does not hold the symbol (the holder, or the next one, takes it).
     * Runs under the ownership read lock, so a revocation waits for the save: a new holder's rebuild,
     * which starts after the revocation, always sees the row.
     */
    public boolean rest(RestingOrder order, Instant placedAt) {
        ownership.readLock().lock();
        try {
            if (!owns(order.symbol())) {
                return false;
            }
            openOrders.save(order, placedAt);
            enqueue(new AddOrder(order));
            return true;
        } finally {
            ownership.readLock().unlock();
        }
    }

    /** Forgets an order a cancel closed: its open_orders row goes now, its index entry in turn. */
    public void closed(String symbol, UUID orderId) {
        openOrders.delete(symbol, orderId);
        enqueue(new RemoveOrder(orderId));
    }

    /** The symbols of newly assigned ticker partitions; matched here if their exchange is held here. */
    public synchronized void own(Collection<String> symbols) {
        assigned.addAll(symbols);
        reconcile();
    }

    public synchronized void disown(Collection<String> symbols) {
        assigned.removeAll(symbols);
        reconcile();
    }

    private synchronized void holdExchanges(Set<String> exchanges) {
        heldExchanges = Set.copyOf(exchanges);
        reconcile();
    }

    /** Matches exactly the assigned symbols of held exchanges: drops the others, loads the new ones' resting orders. */
    private void reconcile() {
        Set<String> target = assigned.stream().filter(s -> heldExchanges.contains(universe.get(s).exchange())).collect(Collectors.toSet());
        List<String> lost = owned.stream().filter(s -> !target.contains(s)).toList();
        if (!lost.isEmpty()) {
            ownership.writeLock().lock();
            try {
                lost.forEach(owned::remove);
                enqueue(new Disown(lost));
            } finally {
                ownership.writeLock().unlock();
            }
        }
        List<String> gained = target.stream().filter(s -> !owned.contains(s)).toList();
        List<RestingOrder> orders = new ArrayList<>();
        if (!gained.isEmpty()) {
            for (String symbol : gained) {
                orders.addAll(openOrders.load(symbol));
            }
            owned.addAll(gained);
            enqueue(new Own(gained, orders));
        }
        if (!lost.isEmpty() || !gained.isEmpty()) {
            log.info("matching {} symbols of {}: {} taken on with {} resting orders, {} let go", owned.size(), heldExchanges, gained.size(),
                    orders.size(), lost.size());
        }
    }

    public boolean owns(String symbol) {
        return owned.contains(symbol);
    }

    public int ownedSymbols() {
        return owned.size();
    }

    private void enqueue(Command command) {
        try {
            if (!commands.offer(command, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("matcher queue full for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    protected void loop() {
        while (isRunning()) {
            try {
                Command command = commands.poll(200, TimeUnit.MILLISECONDS);
                if (command != null) {
                    apply(command);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("matcher command failed", e);
            }
        }
    }

    private void apply(Command command) throws InterruptedException {
        if (command instanceof TickArrived t) {
            onTick(t.tick(), t.receivedNanos());
        } else if (command instanceof AddOrder a) {
            index.add(a.order());
        } else if (command instanceof RemoveOrder r) {
            index.remove(r.orderId());
        } else if (command instanceof Own o) {
            o.orders().forEach(index::add);
        } else if (command instanceof Disown d) {
            d.symbols().forEach(index::clear);
        }
    }

    private void onTick(Tick tick, long receivedNanos) throws InterruptedException {
        if (!owned.contains(tick.symbol())) {
            return;
        }
        lastPrices.update(tick);
        long price = PriceUnits.of(tick.price());
        triggered.clear();
        index.onTick(tick.symbol(), price, collectTriggered);
        for (RestingOrder order : triggered) {
            if (order.type() == OrderType.STOP && order.side() == Side.BUY && price > collarOf(order)) {
                // a gap above the stop: the order becomes a limit at its collar, which its reserved cash covers
                index.add(new RestingOrder(order.orderId(), order.customerId(), order.symbol(), Side.BUY, OrderType.LIMIT,
                        order.quantity(), collarOf(order)));
                continue;
            }
            fills.fill(order, tick, receivedNanos);
        }
    }

    private long collarOf(RestingOrder buyStop) {
        return PriceUnits.of(PriceUnits.toDecimal(buyStop.triggerPrice()).multiply(BigDecimal.ONE.add(buyStopCollar))
                .setScale(4, RoundingMode.DOWN));
    }
}
