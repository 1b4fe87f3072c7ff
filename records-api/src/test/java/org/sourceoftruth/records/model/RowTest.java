package org.sourceoftruth.records.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A row read into result columns behaves as the insertion-ordered map it replaced. */
class RowTest {
    private static final Row.Columns COLUMNS = new Row.Columns(new String[] {"id", "name", "site_id", "name"});

    private static Row read(Object... cells) {
        Row row = new Row(COLUMNS);
        for (int i = 0; i < cells.length; i++) {
            row.setCell(i, cells[i]);
        }
        return row;
    }

    @Test
    void aRepeatedColumnKeepsTheLaterValueInTheFirstPlace() {
        Row row = read(7L, "raw", null, "computed");
        assertEquals(List.of("id", "name", "site_id"), new ArrayList<>(row.keySet()));
        assertEquals("computed", row.get("name"));
        assertEquals(3, row.size());
        assertTrue(row.containsKey("site_id"));
        assertNull(row.get("site_id"));
        assertEquals(7L, row.id());
    }

    @Test
    void putRemoveAndAddedKeysMatchALinkedHashMap() {
        Row row = read(7L, "a", 3L, "b");
        Map<String, Object> expected = new LinkedHashMap<>(row);
        for (Map<String, Object> m : List.of(row, expected)) {
            assertEquals("b", m.put("name", "c"));
            assertNull(m.put("_extra", 1));
            assertEquals(3L, m.remove("site_id"));
            assertNull(m.remove("site_id"));
            assertNull(m.remove("missing"));
            assertNull(m.put("tags", List.of()));
        }
        assertEquals(expected, row);
        assertEquals(row, expected);
        assertEquals(expected.hashCode(), row.hashCode());
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(row.keySet()));
        assertEquals(4, row.size());
        assertFalse(row.containsKey("site_id"));
        assertNull(row.put("site_id", 9L));
        assertEquals(9L, row.get("site_id"));
        assertEquals(5, row.size());
    }

    @Test
    void iteratorRemovesAndEntriesWriteThrough() {
        Row row = read(7L, "a", 3L, "b");
        row.put("_extra", 1);
        for (Map.Entry<String, Object> e : row.entrySet()) {
            if (e.getKey().equals("name")) {
                e.setValue("renamed");
            }
        }
        assertEquals("renamed", row.get("name"));
        Iterator<Map.Entry<String, Object>> it = row.entrySet().iterator();
        assertThrows(IllegalStateException.class, it::remove);
        while (it.hasNext()) {
            String key = it.next().getKey();
            if (key.equals("id") || key.equals("_extra")) {
                it.remove();
            }
        }
        assertEquals(Map.of("name", "renamed", "site_id", 3L), row);
        assertEquals(2, row.size());
        row.clear();
        assertTrue(row.isEmpty());
        assertFalse(row.entrySet().iterator().hasNext());
    }

    @Test
    void aRowWithoutColumnsIsAPlainMap() {
        Row row = new Row();
        row.put("name", "x");
        row.putAll(Map.of("slug", "x"));
        assertEquals(List.of("name", "slug"), new ArrayList<>(row.keySet()));
        assertEquals("x", row.str("slug"));
        assertEquals(2, row.size());
    }
}
