package org.brokerapp.broker.matching;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.DecisionFence;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.PriceCollar;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.deciding.SymbolFence;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.LoopThread;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The matcher of this region: it holds the {@link RestingBook} of every symbol this broker
 * instance holds (the symbols of its assigned ticker partitions whose exchange this region holds,
 * see {@link ExchangeOwnership}) and applies, one at a time and in arrival order, ticks from the
 * poll loop, orders from the API and the inbox, and cancels. It is the only decider of the fate of
 * those symbols' orders: every fill, cancel and expiry is decided here, once, which is what lets the
 * {@link DecisionWriter} write decisions without a condition. Applying does no I/O; the input queue
 * is bounded, and a full queue makes producers wait.
 *
 * <p>A tick is applied on the poll loop's own thread whenever nothing else is being applied (see
 * {@link SerialQueue}): on a busy machine each hand-over to another thread is a wait for a core, on
 * the tick's way to its fill. Everything else is applied by the matcher's thread. What it decided
 * lately it remembers ({@link DecisionMemory}); DAY and GTD orders it expires at their time.
 */
@Service
public class MatchingService extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(MatchingService.class);
    /** How often the matcher looks for orders to expire when no tick does (its loop waits up to 200 ms more for work). */
    private static final long EXPIRY_ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final RestingBook book = new RestingBook();
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    private final Set<String> assigned = new HashSet<>();
    private Set<String> heldExchanges = Set.of();
    private final SymbolUniverse universe;
    private final ReadWriteLock ownership = new ReentrantReadWriteLock();
    private final SerialQueue<MatcherCommand> commands;
    private volatile Thread matcherThread;
    private final DecisionWriter decisions;
    private final SymbolFence fence;
    private final DecisionMemory memory;
    private final OpenOrders openOrders;
    private final LastPrices lastPrices;
    private final StopBounds bounds;
    private final List<RestingOrder> triggered = new ArrayList<>();
    private final Consumer<RestingOrder> collectTriggered = triggered::add;

    /** Starts (phase 0) before the ticker consumer and the inbox tailer, stops after them. */
    MatchingService(DecisionWriter decisions, SymbolFence fence, OpenOrders openOrders, LastPrices lastPrices, BrokerProperties properties,
                           SymbolUniverse universe, ExchangeOwnership exchanges) {
        super("matcher", 0);
        this.universe = universe;
        this.decisions = decisions;
        this.fence = fence;
        this.openOrders = openOrders;
        this.lastPrices = lastPrices;
        this.bounds = new StopBounds(new PriceCollar(properties.matching().buyStopCollar()));
        this.memory = new DecisionMemory(properties.matching().decisionMemory(), properties.matching().maxClockSkew());
        this.commands = new SerialQueue<>(properties.kafka().handOffCapacity(), this::apply);
        exchanges.onChange(this::holdExchanges);
    }

    /**
     * Matches a tick, on the calling thread unless another is applying commands (which then applies
     * it); false if the queue is full (the caller pauses its source, then {@link #put}s it).
     */
    public boolean offer(Tick tick, long receivedNanos) throws InterruptedException {
        if (!commands.offer(new MatcherCommand.TickArrived(tick, receivedNanos))) {
            return false;
        }
        commands.applyQueued();
        return true;
    }

    /** Matches a tick as {@link #offer} does, waiting for room in the queue as long as it takes. */
    public void put(Tick tick, long receivedNanos) throws InterruptedException {
        commands.put(new MatcherCommand.TickArrived(tick, receivedNanos));
        commands.applyQueued();
    }

    /**
     * Rests an order whose ledger row (and open_orders row) its owner wrote: indexed here, in turn
     * with ticks. False if this instance does not hold the symbol (its holder takes it, or rebuilds
     * it from open_orders when it takes the symbol over). Resting an order twice indexes it once.
     * One {@code takenOver} may have been decided by a holder before this one (delivered again after
     * a restart): its first decision here reads the ledger first.
     */
    boolean rest(RestingOrder order, boolean takenOver) {
        ownership.readLock().lock();
        try {
            if (!owns(order.symbol())) {
                return false;
            }
            enqueue(new MatcherCommand.AddOrder(order, takenOver));
            return true;
        } finally {
            ownership.readLock().unlock();
        }
    }

    /**
     * Decides a cancel on the matcher, in turn with ticks, so a cancel racing a fill ends in
     * exactly one of the two. {@link Outcome.NotHeld} if this instance does not hold the symbol:
     * the inbox then carries the cancel to the holder.
     */
    CompletableFuture<Outcome> cancel(String symbol, String customerId, UUID orderId) {
        CompletableFuture<Outcome> answer = new CompletableFuture<>();
        enqueue(new MatcherCommand.Cancel(symbol, customerId, orderId, answer));
        return answer;
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
            CountDownLatch dropped = new CountDownLatch(1);
            ownership.writeLock().lock();
            try {
                lost.forEach(owned::remove);
                enqueue(new MatcherCommand.Disown(lost, dropped));
            } finally {
                ownership.writeLock().unlock();
            }
            decisions.awaitDecisionsOn(lost, dropped);
            lastPrices.forget(lost);
        }
        List<String> gained = target.stream().filter(s -> !owned.contains(s)).toList();
        List<RestingOrder> orders = new ArrayList<>();
        if (!gained.isEmpty()) {
            orders.addAll(openOrders.load(gained));
            owned.addAll(gained);
            enqueue(new MatcherCommand.Own(gained, orders));
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

    /** Queues a command for the matcher's thread, waiting up to 30 s for room. */
    private void enqueue(MatcherCommand command) {
        try {
            if (!commands.offer(command, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("matcher queue full for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        wake();
    }

    @Override
    protected void loop() {
        matcherThread = Thread.currentThread();
        long expiriesOffered = System.nanoTime();
        while (isRunning()) {
            try {
                if (System.nanoTime() - expiriesOffered > EXPIRY_ROUND_NANOS && commands.offer(new MatcherCommand.ExpireDue())) {
                    expiriesOffered = System.nanoTime();
                }
                commands.applyQueued();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            memory.forgetOld();
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(200));
            if (Thread.interrupted()) {
                return;
            }
        }
    }

    /** Unparks the matcher's thread: a command is queued, or the loop is to stop. */
    @Override
    protected void wake() {
        Thread thread = matcherThread;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    private void apply(MatcherCommand command) throws InterruptedException {
        try {
            applyOne(command);
        } catch (RuntimeException e) {
            log.error("matcher command failed", e);
        }
    }

    private void applyOne(MatcherCommand command) throws InterruptedException {
        if (command instanceof MatcherCommand.TickArrived t) {
            onTick(t.tick(), t.receivedNanos());
        } else if (command instanceof MatcherCommand.AddOrder a) {
            boolean verify = a.takenOver() || !memory.vouchesFor(a.order());
            if (memory.decisionOn(a.order().orderId()).isEmpty() && owned.contains(a.order().symbol())) {
                book.add(a.order(), verify);
            }
        } else if (command instanceof MatcherCommand.Cancel c) {
            onCancel(c);
        } else if (command instanceof MatcherCommand.ExpireDue) {
            expireDue(System.currentTimeMillis());
        } else if (command instanceof MatcherCommand.Own o) {
            memory.took(o.symbols());
            for (RestingOrder order : o.orders()) {
                // what open_orders says outranks what this instance remembers; the ledger check settles it
                memory.forget(order.orderId());
                book.add(order, true);
            }
        } else if (command instanceof MatcherCommand.Disown d) {
            book.clear(d.symbols());
            memory.gaveUp(d.symbols());
            d.done().countDown();
        }
    }

    private void onCancel(MatcherCommand.Cancel c) throws InterruptedException {
        if (!decidesOn(c.symbol())) {
            c.answer().complete(new Outcome.NotHeld());
            return;
        }
        Optional<OrderStatus> before = memory.decisionOn(c.orderId());
        if (before.isPresent()) {
            c.answer().complete(new Outcome.AlreadyClosed(before.get()));
            return;
        }
        Optional<RestingOrder> indexed = book.remove(c.orderId());
        boolean verify = book.takeVerify(c.orderId()) || indexed.isEmpty();
        memory.remember(c.orderId(), OrderStatus.CANCELLED);
        decisions.cancel(c.symbol(), c.customerId(), c.orderId(), indexed.map(RestingOrder::placedAt), verify, fenceHere(c.symbol()))
                .whenComplete((outcome, error) -> {
                    if (error != null || !(outcome instanceof Outcome.Written)) {
                        memory.forget(c.orderId());
                    }
                    if (error != null) {
                        c.answer().completeExceptionally(error);
                    } else {
                        c.answer().complete(outcome);
                    }
                });
    }

    /** The fence this matcher decides the symbol under now: empty once it gave the symbol up or lost either fence. */
    private Supplier<Optional<DecisionFence>> fenceHere(String symbol) {
        return () -> owned.contains(symbol) ? fence.fenceOf(symbol) : Optional.empty();
    }

    /**
     * Runs {@code execution} (a MARKET order's) as one of this matcher's decisions on {@code symbol}:
     * only while the matcher decides on it, and a revocation of the symbol waits for it to end before
     * the symbol's lease goes, as it waits for fills. Registered before the check, so a revocation
     * either sees it in flight or is seen by it. Empty when this matcher does not decide on the symbol.
     */
    <T> Optional<T> executing(String symbol, Supplier<T> execution) {
        decisions.begin(symbol);
        try {
            return decidesOn(symbol) ? Optional.of(execution.get()) : Optional.empty();
        } finally {
            decisions.end(symbol);
        }
    }

    /** The matcher took the symbol on (its ticker partition, its exchange) and may still decide on it (both fences). */
    private boolean decidesOn(String symbol) {
        return owned.contains(symbol) && fence.mayDecide(symbol);
    }

    private void onTick(Tick tick, long receivedNanos) throws InterruptedException {
        if (!decidesOn(tick.symbol())) {
            // not held, or its lease lapsed: the orders stay indexed, and a later tick triggers them
            return;
        }
        lastPrices.update(tick);
        // an order is never filled by a tick that came after its time
        expireDue(System.currentTimeMillis());
        long price = PriceUnits.of(tick.price());
        triggered.clear();
        book.onTick(tick.symbol(), price, collectTriggered);
        for (RestingOrder order : triggered) {
            book.triggered(order);
            long bound = bounds.of(order);
            if (bounds.beyond(order, bound, price)) {
                // a triggered stop beyond its bound (a gap): a limit at the bound from now on
                book.add(order.limitAt(bound), false);
                continue;
            }
            boolean verify = book.takeVerify(order.orderId());
            memory.remember(order.orderId(), OrderStatus.FILLED);
            decisions.fill(order, tick, receivedNanos, verify, fenceHere(order.symbol())).whenComplete(backUnlessDecided(order, verify));
        }
    }

    /**
     * When a decision on {@code order} was not taken (not held, not visible, fenced, failed): nothing was reported, so the order
     * goes back into the book (a later tick or round decides it), unless the symbol left this instance; after a fenced write,
     * the next decision reads the ledger first and reports what stands.
     */
    private BiConsumer<Outcome, Throwable> backUnlessDecided(RestingOrder order, boolean verify) {
        return (outcome, error) -> {
            if (error != null || outcome instanceof Outcome.NotHeld || outcome instanceof Outcome.NotVisible || outcome instanceof Outcome.Fenced) {
                memory.forget(order.orderId());
                if (commands.offer(new MatcherCommand.AddOrder(order, verify || outcome instanceof Outcome.Fenced))) {
                    wake();
                }
            }
        };
    }

    /**
     * Expires the DAY and GTD orders whose time has come, each decided as a cancel is: once, under
     * the symbol's fence, in turn with its ticks. One whose symbol this matcher cannot decide on now
     * stays due for the next round; one whose expiry was not written goes back into the book.
     */
    private void expireDue(long nowMillis) throws InterruptedException {
        if (!book.anyDue(nowMillis)) {
            return;
        }
        for (RestingOrder order : book.takeDue(nowMillis)) {
            if (!decidesOn(order.symbol())) {
                book.stillDue(order);
            } else if (book.remove(order.orderId()).isPresent()) {
                boolean verify = book.takeVerify(order.orderId());
                memory.remember(order.orderId(), OrderStatus.EXPIRED);
                decisions.expire(order, verify, fenceHere(order.symbol())).whenComplete(backUnlessDecided(order, verify));
            }
        }
    }
}
