package org.sourceoftruth.dispatcher.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PaginationTest {

    @Test
    void effectiveLimitFollowsNetBox() {
        assertEquals(50, Pagination.limit(null, 50, 1000));
        assertEquals(50, Pagination.limit("-3", 50, 1000));
        assertEquals(50, Pagination.limit("ten", 50, 1000));
        assertEquals(10, Pagination.limit("10", 50, 1000));
        assertEquals(1000, Pagination.limit("5000", 50, 1000));
        assertEquals(1000, Pagination.limit("0", 50, 1000)); // limit=0 means MAX_PAGE_SIZE when one is set
        assertNull(Pagination.limit("0", 50, 0)); // and everything when there is none
        assertEquals(5000, Pagination.limit("5000", 50, 0));
        assertEquals(0, Pagination.offset("-1"));
        assertEquals(7, Pagination.offset("7"));
    }

    @Test
    void linksKeepOtherParametersSortedAndEncoded() {
        URI base = URI.create("http://dispatcher:8081/api/core/background-tasks/");
        Map<String, List<String>> query = Map.of(
                "status",
                List.of("failed", "queued"),
                "model",
                List.of("dcim.site x"),
                "limit",
                List.of("10"),
                "offset",
                List.of("10"));
        assertEquals(
                base + "?limit=10&model=dcim.site+x&offset=20&status=failed&status=queued",
                Pagination.next(base, query, 10, 10, 35));
        assertEquals(
                base + "?limit=10&model=dcim.site+x&status=failed&status=queued",
                Pagination.previous(base, query, 10, 10));
        assertEquals(
                base + "?limit=10&model=dcim.site+x&offset=5&status=failed&status=queued",
                Pagination.previous(base, query, 10, 15));
        assertNull(Pagination.next(base, query, 10, 30, 35 - 5));
        assertNull(Pagination.previous(base, query, 10, 0));
        assertNull(Pagination.next(base, query, null, 0, 35));
    }
}
