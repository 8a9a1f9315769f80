package org.brokerapp.broker.book;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.PriceUnits;

/**
 * The {@link TriggerIndex} the broker matches with: a tick costs the same whether a symbol has ten
 * open orders or a million, plus a little for each order it actually triggers.
 *
 * <p>Each symbol has four {@link TriggerBook}s, one per side and type, because each of them triggers
 * from one end only: BUY LIMIT and SELL STOP at or below their price (highest price first), SELL LIMIT
 * and BUY STOP at or above it (lowest price first). A tick looks at the first order of each of the
 * four books and takes orders off a book only while the price triggers its first one. A map from
 * order id to the order's place in its book makes a cancel as cheap as taking a triggered order.
 *
 * <p>Costs, for n open orders of the symbol at L distinct prices per book (L &lt;= n) and k orders
 * triggered by a tick:
 * <ul>
 *   <li>{@link #onTick}: O(1) when nothing triggers (a hash lookup and four comparisons, no
 *       allocation); otherwise O(1) per triggered order plus O(log L) per price it empties, so
 *       O(k log n) at worst;</li>
 *   <li>{@link #add} and {@link #remove}: an expected O(1) hash operation plus O(1), or O(log L) when
 *       they create or empty a price;</li>
 *   <li>{@link #size()}, {@link #size(String)}, {@link #contains}: O(1); {@link #clear}: O(n).</li>
 * </ul>
 * Among orders of one book with the same trigger price, the one added first is reported first; a
 * tick reports the books in the order BUY LIMIT, BUY STOP, SELL LIMIT, SELL STOP, each from its
 * best price on. Single-threaded, as the interface says.
 */
public final class SortedTriggerIndex implements TriggerIndex {

    private static final int BOOKS_PER_SYMBOL = 4;

    private final Map<String, TriggerBook[]> bySymbol = new HashMap<>();
    private final Map<UUID, BookEntry> byId = new HashMap<>();
    private boolean reporting;

    @Override
    public boolean add(RestingOrder order) {
        requireNotReporting();
        if (byId.containsKey(order.orderId())) {
            return false;
        }
        TriggerBook book = bySymbol.computeIfAbsent(order.symbol(), s -> newBooks())[bookOf(order.side(), order.type())];
        BookEntry entry = new BookEntry(order, book);
        byId.put(order.orderId(), entry);
        book.add(entry);
        return true;
    }

    @Override
    public Optional<RestingOrder> remove(UUID orderId) {
        requireNotReporting();
        BookEntry entry = byId.remove(orderId);
        if (entry == null) {
            return Optional.empty();
        }
        entry.book.remove(entry);
        return Optional.of(entry.order);
    }

    @Override
    public void onTick(String symbol, long price, Consumer<RestingOrder> triggered) {
        Objects.requireNonNull(triggered, "triggered");
        PriceUnits.requirePositive(price);
        TriggerBook[] books = bySymbol.get(symbol);
        if (books == null) {
            return;
        }
        reporting = true;
        try {
            for (TriggerBook book : books) {
                while (book.triggeredBy(price)) {
                    RestingOrder order = book.pollFirst().order;
                    byId.remove(order.orderId());
                    triggered.accept(order);
                }
            }
        } finally {
            reporting = false;
        }
    }

    @Override
    public int size() {
        return byId.size();
    }

    @Override
    public int size(String symbol) {
        TriggerBook[] books = bySymbol.get(symbol);
        if (books == null) {
            return 0;
        }
        int size = 0;
        for (TriggerBook book : books) {
            size += book.size();
        }
        return size;
    }

    @Override
    public boolean contains(UUID orderId) {
        return byId.containsKey(orderId);
    }

    @Override
    public void clear(String symbol) {
        requireNotReporting();
        TriggerBook[] books = bySymbol.remove(symbol);
        if (books != null) {
            for (TriggerBook book : books) {
                book.forEach(o -> byId.remove(o.orderId()));
            }
        }
    }

    private static TriggerBook[] newBooks() {
        TriggerBook[] books = new TriggerBook[BOOKS_PER_SYMBOL];
        for (Side side : Side.values()) {
            for (OrderType type : new OrderType[] {OrderType.LIMIT, OrderType.STOP}) {
                // a BUY LIMIT waits for the price to fall to it, a BUY STOP for it to rise; SELL the other way round
                boolean atOrAbove = (side == Side.BUY) == (type == OrderType.STOP);
                books[bookOf(side, type)] = new TriggerBook(atOrAbove);
            }
        }
        return books;
    }

    private static int bookOf(Side side, OrderType type) {
        return 2 * side.ordinal() + (type == OrderType.LIMIT ? 0 : 1);
    }

    private void requireNotReporting() {
        if (reporting) {
            throw new IllegalStateException("the index cannot change while it reports a tick's triggered orders");
        }
    }
}
