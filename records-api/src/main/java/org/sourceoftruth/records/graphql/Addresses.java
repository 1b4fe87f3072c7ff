package org.sourceoftruth.records.graphql;

import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * The filters NetBox's IPAM filter inputs add to a model with one address or prefix: its
 * {@code family} (IPAddressFamilyEnum, bare), the prefixes that {@code contains} any of some
 * addresses or prefixes, the addresses whose {@code parent} is one of some prefixes; and the
 * objects {@code assigned} (or not) to an object, for a model with an {@code assigned_object}.
 */
final class Addresses {
    static final String FAMILY_ENUM = "IPAddressFamilyEnum";

    private Addresses() {}

    /** The model's one address or prefix field, or null when it has none or several (a range's start and end). */
    static Field address(Model m) {
        Field found = null;
        for (Field f : m.fields()) {
            if (f.kind == Kind.INET || f.kind == Kind.CIDR) {
                if (found != null) {
                    return null;
                }
                found = f;
            }
        }
        return found;
    }

    /** The filter names the model gets here, with whether each takes a list of text ({@code false}: a Boolean or the enum). */
    static List<String> names(Model m) {
        List<String> out = new ArrayList<>();
        Field a = address(m);
        if (a != null) {
            out.add("family");
            out.add(a.kind == Kind.CIDR ? "contains" : "parent");
        }
        if (m.field("assigned_object") != null && m.field("assigned_object").kind == Kind.GENERIC_FK) {
            out.add("assigned");
        }
        return out;
    }

    /** Whether a field of the model has the name and is a filter of its own (an address's {@code family} is not: it is computed). */
    static boolean takesFilter(Model m, String name) {
        Field f = m.field(name);
        return f != null && f.kind != Kind.COMPUTED;
    }

    /** The predicate of one of these filters, or null when the key is none of the model's. */
    static ExtraFilter.Sql sql(Model m, String key, Object value) {
        if (!names(m).contains(key) || takesFilter(m, key)) {
            return null;
        }
        if (key.equals("assigned")) {
            Field f = m.field("assigned_object");
            return ExtraFilter.Sql.of(
                    "t." + f.genericIdColumn() + (Boolean.TRUE.equals(value) ? " is not null" : " is null"));
        }
        String column = "t." + address(m).column();
        if (key.equals("family")) {
            String family = String.valueOf(value);
            if (!family.equals("4") && !family.equals("6")) {
                throw new FilterTranslator.BadFilter("family: 4 or 6.");
            }
            return new ExtraFilter.Sql("family(" + column + ") = ?", List.of(Integer.parseInt(family)));
        }
        List<?> items = value instanceof List<?> l ? l : List.of(value);
        if (items.isEmpty()) {
            return ExtraFilter.Sql.of("false");
        }
        List<String> any = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (Object item : items) {
            String text = String.valueOf(item).trim();
            if (!valid(text)) {
                throw new FilterTranslator.BadFilter(
                        "Filter '" + key + "': '" + text + "' is no IP address or prefix.");
            }
            any.add(key.equals("contains") ? column + " >>= ?::inet" : column + " <<= ?::inet");
            params.add(text);
        }
        return new ExtraFilter.Sql("(" + String.join(" or ", any) + ")", params);
    }

    /** An IPv4 or IPv6 address, with or without a prefix length, as PostgreSQL's inet takes it. */
    static boolean valid(String s) {
        String address = s;
        int length = -1;
        int slash = s.indexOf('/');
        if (slash >= 0) {
            String bits = s.substring(slash + 1);
            if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit)) {
                return false;
            }
            length = Integer.parseInt(bits);
            address = s.substring(0, slash);
        }
        if (address.contains(":")) {
            if (!address.matches("[0-9A-Fa-f:.]+") || length > 128) {
                return false;
            }
            try {
                // an IPv6 literal: parsed without a name lookup
                java.net.InetAddress.getByName("[" + address + "]");
                return true;
            } catch (java.net.UnknownHostException | SecurityException e) {
                return false;
            }
        }
        String[] octets = address.split("\\.", -1);
        if (octets.length != 4 || length > 32) {
            return false;
        }
        for (String o : octets) {
            if (o.isEmpty() || o.length() > 3 || !o.chars().allMatch(Character::isDigit) || Integer.parseInt(o) > 255) {
                return false;
            }
        }
        return true;
    }
}
