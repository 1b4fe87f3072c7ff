package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;

/**
 * NetBox 4.5's cable profiles (dcim/cable_profiles.py): how many connectors each end of a cable
 * has, how many positions (lanes) each connector carries, and which lane of the far end each lane
 * reaches. A single cable has one connector per end, a trunk several, a breakout one connector
 * on the A end whose lanes fan out to one connector each on the B end, a shuffle crosses lanes.
 * The terminations of a profiled cable sit on its connectors in the order they were given, and
 * the path tracer follows the lanes ({@link PathTracer}).
 */
final class CableProfiles {
    private CableProfiles() {}

    /** A lane of a cable end: a connector (1..) and one of its positions (1..). */
    record Lane(int connector, int position) {}

    /**
     * One profile: the positions of each connector of the A and B ends ({@code a[0]} is connector
     * 1's), and the lane each lane reaches on the other end, per end (null: the same lane).
     */
    record Profile(String value, String label, int[] a, int[] b, Map<Lane, Lane> fromA, Map<Lane, Lane> fromB) {
        /** The number of connectors of an end ("A" or "B"). */
        int connectors(String end) {
            return ("A".equals(end) ? a : b).length;
        }

        /** The positions of connector {@code connector} (1..) of an end: 1..n. */
        List<Integer> positions(String end, int connector) {
            int n = ("A".equals(end) ? a : b)[connector - 1];
            List<Integer> out = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                out.add(i);
            }
            return out;
        }

        /**
         * NetBox's get_mapped_position: the lane of the other end that a lane of {@code end}
         * reaches, or null when the profile maps it nowhere.
         */
        Lane far(String end, int connector, int position) {
            Map<Lane, Lane> map = "A".equals(end) ? fromA : fromB;
            Lane lane = new Lane(connector, position);
            return map == null ? lane : map.get(lane);
        }
    }

    private static final Map<String, Profile> PROFILES = new LinkedHashMap<>();

    static {
        for (int positions : new int[] {1, 2, 4, 6, 8, 12, 16}) {
            symmetric("single-1c" + positions + "p", "1C" + positions + "P", 1, positions, null);
        }
        symmetric("trunk-2c1p", "2C1P trunk", 2, 1, null);
        symmetric("trunk-2c2p", "2C2P trunk", 2, 2, null);
        symmetric("trunk-2c4p", "2C4P trunk", 2, 4, null);
        symmetric(
                "trunk-2c4p-shuffle",
                "2C4P trunk (shuffle)",
                2,
                4,
                lanes(1, 1, 1, 1, 1, 2, 1, 2, 1, 3, 2, 1, 1, 4, 2, 2, 2, 1, 1, 3, 2, 2, 1, 4, 2, 3, 2, 3, 2, 4, 2, 4));
        symmetric("trunk-2c6p", "2C6P trunk", 2, 6, null);
        symmetric("trunk-2c8p", "2C8P trunk", 2, 8, null);
        symmetric("trunk-2c12p", "2C12P trunk", 2, 12, null);
        symmetric("trunk-4c1p", "4C1P trunk", 4, 1, null);
        symmetric("trunk-4c2p", "4C2P trunk", 4, 2, null);
        symmetric("trunk-4c4p", "4C4P trunk", 4, 4, null);
        Map<Lane, Lane> transposed = new HashMap<>();
        for (int c = 1; c <= 4; c++) {
            for (int p = 1; p <= 4; p++) {
                transposed.put(new Lane(c, p), new Lane(p, c));
            }
        }
        symmetric("trunk-4c4p-shuffle", "4C4P trunk (shuffle)", 4, 4, transposed);
        symmetric("trunk-4c6p", "4C6P trunk", 4, 6, null);
        symmetric("trunk-4c8p", "4C8P trunk", 4, 8, null);
        symmetric("trunk-8c4p", "8C4P trunk", 8, 4, null);
        for (int n : new int[] {2, 4, 6, 8}) {
            breakout(n);
        }
        int[] fours = {4, 4};
        int[] eightSingles = {1, 1, 1, 1, 1, 1, 1, 1};
        add(new Profile(
                "breakout-2c4p-8c1p-shuffle",
                "2C4P:8C1P breakout (shuffle)",
                fours,
                eightSingles,
                lanes(1, 1, 1, 1, 1, 2, 2, 1, 1, 3, 5, 1, 1, 4, 6, 1, 2, 1, 3, 1, 2, 2, 4, 1, 2, 3, 7, 1, 2, 4, 8, 1),
                lanes(1, 1, 1, 1, 2, 1, 1, 2, 3, 1, 2, 1, 4, 1, 2, 2, 5, 1, 1, 3, 6, 1, 1, 4, 7, 1, 2, 3, 8, 1, 2, 4)));
    }

    /** The choices of a cable's {@code profile}, grouped as NetBox's CableProfileChoices. */
    static final ChoiceSet CHOICES;

    static {
        List<String> pairs = new ArrayList<>();
        PROFILES.values().forEach(p -> {
            pairs.add(p.value());
            pairs.add(p.label());
        });
        CHOICES = ChoiceSet.of(pairs.toArray(String[]::new));
    }

    /** The profile of that value, or null (a cable without a profile). */
    static Profile of(String value) {
        return value == null ? null : PROFILES.get(value);
    }

    /** Both ends alike: {@code connectors} connectors of {@code positions} positions each. */
    private static void symmetric(String value, String label, int connectors, int positions, Map<Lane, Lane> map) {
        int[] each = new int[connectors];
        java.util.Arrays.fill(each, positions);
        add(new Profile(value, label, each, each, map, map));
    }

    /** 1CnP:nC1P: lane k of the A connector reaches connector k of the B end, and back. */
    private static void breakout(int n) {
        Map<Lane, Lane> map = new HashMap<>();
        for (int k = 1; k <= n; k++) {
            map.put(new Lane(1, k), new Lane(k, 1));
            map.put(new Lane(k, 1), new Lane(1, k));
        }
        // (1, 1) is both A's first lane and B's first connector: it maps to (1, 1) either way
        map.put(new Lane(1, 1), new Lane(1, 1));
        int[] singles = new int[n];
        java.util.Arrays.fill(singles, 1);
        add(new Profile(
                "breakout-1c" + n + "p-" + n + "c1p",
                "1C" + n + "P:" + n + "C1P breakout",
                new int[] {n},
                singles,
                map,
                map));
    }

    /** Lane pairs from (connector, position, far connector, far position) quadruples. */
    private static Map<Lane, Lane> lanes(int... quads) {
        Map<Lane, Lane> map = new HashMap<>();
        for (int i = 0; i < quads.length; i += 4) {
            map.put(new Lane(quads[i], quads[i + 1]), new Lane(quads[i + 2], quads[i + 3]));
        }
        return map;
    }

    private static void add(Profile p) {
        PROFILES.put(p.value(), p);
    }
}
