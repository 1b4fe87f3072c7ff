package org.sourceoftruth.records.model;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One database row, keyed by column name, with the few typed reads the engine needs.
 * <p>
 * A row read from a result set keeps its cells in an array laid out by the result set's
 * {@link Columns}, shared by every row of that result: a list page reads thousands of cells, and a
 * map entry per cell (hashing its name, allocating its node) was the largest part of reading
 * them. Keys outside those columns (values the engine adds, rows built by hand) live in a
 * small insertion-ordered map after the columns. Iteration gives the columns in result order, then
 * the added keys.
 */
public final class Row extends AbstractMap<String, Object> {
    /** A slot whose key is not in the row: removed, or never set. */
    private static final Object ABSENT = new Object();

    private final Columns columns;
    private final Object[] cells;
    private Map<String, Object> added;
    private int size;

    /** An empty row without result columns (a payload, a row built by hand). */
    public Row() {
        this(Columns.NONE);
    }

    /** An empty row laid out for a result set's columns; {@link #setCell} fills it. */
    public Row(Columns columns) {
        this.columns = columns;
        this.cells = new Object[columns.slots()];
        Arrays.fill(cells, ABSENT);
    }

    /**
     * The names of a result set's columns and where each is kept in its rows. A name that occurs
     * twice (a field read through an expression repeats its column after {@code t.*}) has one
     * slot, and the later column's value is the one a row keeps.
     */
    public static final class Columns {
        static final Columns NONE = new Columns(new String[0]);

        private final String[] names;
        private final int[] slotOfColumn;
        private final Map<String, Integer> slotOfName;

        /** {@code names[i]} is the label of result column {@code i} (0-based). */
        public Columns(String[] labels) {
            slotOfColumn = new int[labels.length];
            slotOfName = new HashMap<>(labels.length * 4 / 3 + 1);
            String[] slotNames = new String[labels.length];
            int slots = 0;
            for (int i = 0; i < labels.length; i++) {
                Integer slot = slotOfName.get(labels[i]);
                if (slot == null) {
                    slot = slots++;
                    slotOfName.put(labels[i], slot);
                    slotNames[slot] = labels[i];
                }
                slotOfColumn[i] = slot;
            }
            names = Arrays.copyOf(slotNames, slots);
        }

        int slots() {
            return names.length;
        }

        int slot(Object name) {
            Integer slot = slotOfName.get(name);
            return slot == null ? -1 : slot;
        }
    }

    /** Sets the value of result column {@code column} (0-based), as {@code put} with its name. */
    public void setCell(int column, Object value) {
        int slot = columns.slotOfColumn[column];
        if (cells[slot] == ABSENT) {
            size++;
        }
        cells[slot] = value;
    }

    @Override
    public Object get(Object key) {
        int slot = columns.slot(key);
        if (slot >= 0) {
            Object v = cells[slot];
            return v == ABSENT ? null : v;
        }
        return added == null ? null : added.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        int slot = columns.slot(key);
        if (slot >= 0) {
            return cells[slot] != ABSENT;
        }
        return added != null && added.containsKey(key);
    }

    @Override
    public Object put(String key, Object value) {
        int slot = columns.slot(key);
        if (slot >= 0) {
            Object old = cells[slot];
            cells[slot] = value;
            if (old == ABSENT) {
                size++;
                return null;
            }
            return old;
        }
        if (added == null) {
            added = new LinkedHashMap<>();
        }
        if (!added.containsKey(key)) {
            size++;
        }
        return added.put(key, value);
    }

    @Override
    public Object remove(Object key) {
        int slot = columns.slot(key);
        if (slot >= 0) {
            return clearSlot(slot);
        }
        if (added == null || !added.containsKey(key)) {
            return null;
        }
        size--;
        return added.remove(key);
    }

    private Object clearSlot(int slot) {
        Object old = cells[slot];
        if (old == ABSENT) {
            return null;
        }
        cells[slot] = ABSENT;
        size--;
        return old;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void clear() {
        Arrays.fill(cells, ABSENT);
        added = null;
        size = 0;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Entries();
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** The columns' entries in result order, then the added keys'. */
    private final class Entries implements Iterator<Entry<String, Object>> {
        private int nextSlot = advance(0);
        private int lastSlot = -1;
        private Iterator<Entry<String, Object>> addedEntries;
        private boolean lastWasAdded;

        private int advance(int from) {
            int s = from;
            while (s < cells.length && cells[s] == ABSENT) {
                s++;
            }
            return s;
        }

        private Iterator<Entry<String, Object>> addedEntries() {
            if (addedEntries == null) {
                addedEntries = added == null
                        ? java.util.Collections.emptyIterator()
                        : added.entrySet().iterator();
            }
            return addedEntries;
        }

        @Override
        public boolean hasNext() {
            return nextSlot < cells.length || addedEntries().hasNext();
        }

        @Override
        public Entry<String, Object> next() {
            if (nextSlot < cells.length) {
                int slot = nextSlot;
                lastSlot = slot;
                lastWasAdded = false;
                nextSlot = advance(slot + 1);
                return new Cell(slot);
            }
            if (!addedEntries().hasNext()) {
                throw new NoSuchElementException();
            }
            lastWasAdded = true;
            lastSlot = -1;
            return addedEntries.next();
        }

        @Override
        public void remove() {
            if (lastWasAdded) {
                addedEntries.remove();
                size--;
                lastWasAdded = false;
            } else if (lastSlot >= 0) {
                clearSlot(lastSlot);
                lastSlot = -1;
            } else {
                throw new IllegalStateException();
            }
        }
    }

    /** A column's entry, writing through to the row. */
    private final class Cell implements Entry<String, Object> {
        private final int slot;

        Cell(int slot) {
            this.slot = slot;
        }

        @Override
        public String getKey() {
            return columns.names[slot];
        }

        @Override
        public Object getValue() {
            Object v = cells[slot];
            return v == ABSENT ? null : v;
        }

        @Override
        public Object setValue(Object value) {
            Object old = getValue();
            cells[slot] = value;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry<?, ?> e
                    && java.util.Objects.equals(getKey(), e.getKey())
                    && java.util.Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(getKey()) ^ java.util.Objects.hashCode(getValue());
        }

        @Override
        public String toString() {
            return getKey() + "=" + getValue();
        }
    }

    public long id() {
        return ((Number) get("id")).longValue();
    }

    public String str(String column) {
        Object v = get(column);
        return v == null ? null : v.toString();
    }

    public Long longValue(String column) {
        Object v = get(column);
        return v == null ? null : ((Number) v).longValue();
    }

    public BigDecimal decimal(String column) {
        Object v = get(column);
        if (v == null) {
            return null;
        }
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }

    public OffsetDateTime time(String column) {
        return (OffsetDateTime) get(column);
    }
}
