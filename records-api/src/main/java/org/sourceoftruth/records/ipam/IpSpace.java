package org.sourceoftruth.records.ipam;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Free space inside an address block, as integers: the sweep NetBox runs over occupied hosts
 * and excluded intervals ({@code net.Addresses.blocks} then splits free space into CIDR
 * blocks). Occupied intervals may arrive lazily (paged from the database), so handing out the
 * first N free addresses of an IPv6 /64 never enumerates the block.
 */
final class IpSpace {
    /** An inclusive interval of addresses. */
    record Interval(BigInteger lo, BigInteger hi) {
        static Interval of(BigInteger lo, BigInteger hi) {
            return new Interval(lo, hi);
        }
    }

    private IpSpace() {}

    /**
     * The first {@code n} free addresses in [lo, hi], given occupied intervals in ascending
     * order of their start (they may overlap and may lie partly outside the bounds).
     */
    static List<BigInteger> firstFree(BigInteger lo, BigInteger hi, Iterator<Interval> occupied, int n) {
        List<BigInteger> out = new ArrayList<>();
        BigInteger candidate = lo;
        while (out.size() < n && candidate.compareTo(hi) <= 0) {
            BigInteger gapEnd = hi;
            Interval next = null;
            while (occupied.hasNext()) {
                Interval o = occupied.next();
                if (o.hi().compareTo(candidate) >= 0) {
                    next = o;
                    break;
                }
            }
            if (next != null && next.lo().compareTo(candidate) <= 0) {
                candidate = next.hi().add(BigInteger.ONE);
                continue;
            }
            if (next != null) {
                gapEnd = next.lo().subtract(BigInteger.ONE).min(hi);
            }
            while (out.size() < n && candidate.compareTo(gapEnd) <= 0) {
                out.add(candidate);
                candidate = candidate.add(BigInteger.ONE);
            }
            if (next == null) {
                break;
            }
            candidate = candidate.max(next.hi().add(BigInteger.ONE));
        }
        return out;
    }

    /** The free intervals of [lo, hi] once the occupied intervals (any order) are taken out. */
    static List<Interval> free(BigInteger lo, BigInteger hi, List<Interval> occupied) {
        List<Interval> sorted = new ArrayList<>(occupied);
        sorted.sort(Comparator.comparing(Interval::lo));
        List<Interval> out = new ArrayList<>();
        BigInteger candidate = lo;
        for (Interval o : sorted) {
            if (o.hi().compareTo(candidate) < 0) {
                continue;
            }
            if (o.lo().compareTo(candidate) > 0) {
                out.add(Interval.of(candidate, o.lo().subtract(BigInteger.ONE).min(hi)));
            }
            candidate = candidate.max(o.hi().add(BigInteger.ONE));
            if (candidate.compareTo(hi) > 0) {
                return out;
            }
        }
        if (candidate.compareTo(hi) <= 0) {
            out.add(Interval.of(candidate, hi));
        }
        return out;
    }

    /** An iterator that pulls pages from {@code source} until a page comes back short. */
    static <T> Iterator<T> paged(java.util.function.Function<T, List<T>> nextPageAfter, int pageSize) {
        return new Iterator<>() {
            private List<T> page = nextPageAfter.apply(null);
            private int index;

            @Override
            public boolean hasNext() {
                if (index < page.size()) {
                    return true;
                }
                if (page.size() < pageSize) {
                    return false;
                }
                page = nextPageAfter.apply(page.get(page.size() - 1));
                index = 0;
                return !page.isEmpty();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.get(index++);
            }
        };
    }

    /** Merges two iterators that are each ascending by interval start into one ascending stream. */
    static Iterator<Interval> merge(Iterator<Interval> a, Iterator<Interval> b) {
        return new Iterator<>() {
            private Interval headA = a.hasNext() ? a.next() : null;
            private Interval headB = b.hasNext() ? b.next() : null;

            @Override
            public boolean hasNext() {
                return headA != null || headB != null;
            }

            @Override
            public Interval next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Interval out;
                if (headB == null || (headA != null && headA.lo().compareTo(headB.lo()) <= 0)) {
                    out = headA;
                    headA = a.hasNext() ? a.next() : null;
                } else {
                    out = headB;
                    headB = b.hasNext() ? b.next() : null;
                }
                return out;
            }
        };
    }
}
