package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.sourceoftruth.records.contract.Contract.Endpoint;
import org.sourceoftruth.records.contract.Subject.Kind;

/**
 * Finds what a filter base name refers to on the object under test, from the object's full
 * representation and the contract's field types, in this order:
 * <ol>
 * <li>a field of the object ({@code status}, {@code site}; {@code site_id} for a nested {@code site};
 * {@code object_type} for an array {@code object_types});</li>
 * <li>a field of an object it references, one hop ({@code region_id} of a device is its site's
 * region; {@code tenant_group} is its tenant's {@code group});</li>
 * <li>a guess of the related endpoint from the name ({@code contact_id} → tenancy/contacts): then
 * only the exclusion half is known (a fresh object of that endpoint, related to nothing).</li>
 * </ol>
 * Returns null when nothing fits (the filter is then only checked to be accepted).
 */
final class SubjectResolver {
    /**
     * Natural keys NetBox's relation filters take when not given an id, most common first
     * ({@code account}: a provider account's, as circuits' {@code provider_account} filters take).
     */
    private static final List<String> NATURAL_KEYS = List.of(
            "slug", "name", "model", "cid", "asn", "rd", "vid", "prefix", "address", "username", "ssid", "account");

    private static final java.util.regex.Pattern IPV4_WITH_MASK =
            java.util.regex.Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+(/\\d+)?");

    private final Contract contract;
    private final ObjectFactory factory;
    private final Map<String, JsonNode> details = new HashMap<>();

    SubjectResolver(Contract contract, ObjectFactory factory) {
        this.contract = contract;
        this.factory = factory;
    }

    /** The full representation of object {@code id} of {@code ep} (memoised), or null. */
    JsonNode detail(Endpoint ep, long id) {
        String path = ep.detailPath(id);
        if (path == null) {
            return null;
        }
        return details.computeIfAbsent(path, p -> {
            Http.Reply r = Http.get(p);
            return r.status() == 200 ? r.body() : null;
        });
    }

    /**
     * @param idCode the filter's type code is integer: a related object is given by id even
     *               when the name has no {@code _id} (e.g. vlan-groups' {@code site})
     */
    /**
     * Filters NetBox keys by a related object's field other than its id, slug or name, named
     * after the related endpoint: {@code l2vpn} on interfaces and VLANs is the L2VPN's
     * {@code identifier} (field_name='l2vpn_terminations__l2vpn__identifier', to_field_name
     * 'identifier'), though the document types it as an integer like an id. Where the endpoint
     * has a field of that name (an L2VPN termination's {@code l2vpn}) the filter is the usual
     * one, by slug.
     */
    private static final Map<String, List<String>> KEYED_BY_FIELD =
            Map.of("l2vpn", List.of("vpn/l2vpns", "identifier"));

    Subject resolve(Endpoint ep, JsonNode obj, String base, boolean idCode) {
        Subject byField = keyedByField(ep, obj, base);
        if (byField != null) {
            return byField;
        }
        Subject s = own(ep, obj, base, idCode);
        if (s == null) {
            s = oneHop(ep, obj, base, idCode);
        }
        if (s == null) {
            s = guessed(ep, base, idCode);
        }
        if (s != null
                && idCode
                && s.kind() == Kind.TEXT
                && s.raw() != null
                && !s.raw().matches("-?\\d+")) {
            // an integer filter (object_type_id, tags' object_types) given a name ("dcim.site") is
            // not NetBox's filter: NetBox takes ids there; with no id to derive, only acceptance is checked
            return null;
        }
        return s;
    }

    /** {@link #KEYED_BY_FIELD}: the related object found by id as usual, named by its field. */
    private Subject keyedByField(Endpoint ep, JsonNode obj, String base) {
        List<String> keyed = KEYED_BY_FIELD.get(base);
        Endpoint target = keyed == null ? null : contract.endpoint(keyed.get(0));
        if (target == null || ep.fields().containsKey(base)) {
            return null;
        }
        Subject byId = own(ep, obj, base, true);
        if (byId == null) {
            byId = oneHop(ep, obj, base, true);
        }
        String other = otherKey(target, false, keyed.get(1));
        if (byId == null || byId.raw() == null) {
            return new Subject(Kind.REF, null, List.of(), other, base + " (none)." + keyed.get(1));
        }
        JsonNode related = detail(target, Long.parseLong(byId.raw()));
        JsonNode v = related == null ? null : related.get(keyed.get(1));
        if (v == null || !v.isValueNode() || v.isNull()) {
            return new Subject(Kind.REF, null, List.of(), other, base + " (none)." + keyed.get(1));
        }
        return new Subject(Kind.REF, v.asText(), List.of(v.asText()), other, byId.how() + "." + keyed.get(1));
    }

    private Subject own(Endpoint ep, JsonNode obj, String base, boolean idCode) {
        Map<String, JsonNode> fields = ep.fields();
        if (fields.containsKey(base) && obj.has(base)) {
            return fromField(ep, base, fields.get(base), obj.get(base), idCode);
        }
        boolean byId = base.endsWith("_id") || idCode;
        String stem = base.endsWith("_id") ? base.substring(0, base.length() - 3) : base;
        if (byId && fields.containsKey(stem) && obj.has(stem)) {
            return fromField(ep, stem, fields.get(stem), obj.get(stem), true);
        }
        String plural = stem + "s";
        if (fields.containsKey(plural)
                && obj.has(plural)
                && fields.get(plural).path("type").asText().startsWith("array")) {
            Subject byOwnField = byRelatedField(fields.get(plural), obj.get(plural), base, plural);
            return byOwnField != null ? byOwnField : fromField(ep, plural, fields.get(plural), obj.get(plural), byId);
        }
        return null;
    }

    /**
     * A filter named after a scalar field of the related objects (a site's {@code asn}: the
     * number of one of its ASNs, NetBox's {@code field_name='asns__asn'}) is by that field, even
     * where the document types it as an integer: the value is read from the related object.
     */
    private Subject byRelatedField(JsonNode spec, JsonNode values, String base, String name) {
        String type = spec.path("type").asText();
        if (!type.startsWith("array:nested") || !values.isArray() || values.isEmpty() || base.endsWith("_id")) {
            return null;
        }
        Endpoint target = targetOf(spec);
        if (target == null) {
            return null;
        }
        JsonNode field = target.fields().get(base);
        if (field == null || field.path("type").asText().startsWith("nested") || !field.has("type")) {
            return null;
        }
        JsonNode full = detail(target, values.get(0).path("id").asLong());
        JsonNode v = full == null ? null : full.get(base);
        if (v == null || !v.isValueNode() || v.isNull()) {
            return null;
        }
        return new Subject(Kind.REF, v.asText(), List.of(v.asText()), otherKey(target, false, base), name + "." + base);
    }

    private Subject oneHop(Endpoint ep, JsonNode obj, String base, boolean idCode) {
        if (base.equals("tag") || base.equals("tag_id")) {
            return null; // NetBox's tag filters are always about the object's own tags
        }
        for (Map.Entry<String, JsonNode> f : ep.fields().entrySet()) {
            String type = f.getValue().path("type").asText();
            JsonNode v = obj.get(f.getKey());
            // Only typed relations: through a generic one (scope, assigned_object) NetBox's filters
            // mean different things (a VLAN group's region is its scope only, not its site's region).
            if (!type.startsWith("nested:") || v == null || !v.isObject() || !v.has("id")) {
                continue;
            }
            Endpoint target = targetOf(f.getValue());
            JsonNode targetObj =
                    target == null ? null : detail(target, v.get("id").asLong());
            if (targetObj == null) {
                continue;
            }
            String prefix = f.getKey() + "_";
            Subject s =
                    base.startsWith(prefix) ? own(target, targetObj, base.substring(prefix.length()), idCode) : null;
            if (s == null) {
                s = own(target, targetObj, base, idCode);
            }
            if (s != null && (s.kind() == Kind.REF || base.startsWith(prefix))) {
                return new Subject(
                        s.kind(), s.raw(), s.matching(), s.nonMatching(), f.getKey() + "." + s.how(), s.others());
            }
        }
        return null;
    }

    private Subject guessed(Endpoint ep, String base, boolean idCode) {
        boolean byId = base.endsWith("_id") || idCode;
        String stem = (base.endsWith("_id") ? base.substring(0, base.length() - 3) : base).replace('_', '-');
        Endpoint found = null;
        for (Endpoint e : contract.endpoints()) {
            String last = e.key().substring(e.key().indexOf('/') + 1);
            String singular = last.endsWith("sses") || last.endsWith("ches")
                    ? last.substring(0, last.length() - 2)
                    : last.endsWith("s") ? last.substring(0, last.length() - 1) : last;
            if (singular.equals(stem) && (found == null || e.app().equals(ep.app()))) {
                found = e;
            }
        }
        if (found == null) {
            return null;
        }
        String other = otherKey(found, byId, null);
        return other == null ? null : new Subject(Kind.REF, null, List.of(), other, "guessed " + found.key());
    }

    /** The endpoint a nested field points at. */
    Endpoint targetOf(JsonNode spec) {
        Endpoint e = contract.endpoint(spec.path("endpoint").asText(null));
        if (e == null) {
            String type = spec.path("type").asText();
            e = contract.endpointOfSchema(type.substring(type.lastIndexOf(':') + 1));
        }
        return e;
    }

    private Subject fromField(Endpoint ep, String name, JsonNode spec, JsonNode value, boolean byId) {
        String type = spec.path("type").asText();
        if (type.startsWith("array")) {
            if (!value.isArray()) {
                return null;
            }
            JsonNode first = value.isEmpty() ? null : value.get(0);
            JsonNode elementSpec = spec.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) elementSpec)
                    .put("type", type.substring(Math.min(type.length(), 6)));
            if (type.equals("array") || type.startsWith("array:array")) {
                return null;
            }
            if (first == null) {
                return type.startsWith("array:nested") ? nullRef(elementSpec, byId, name) : null;
            }
            return fromField(ep, name, elementSpec, first, byId);
        }
        if (type.startsWith("nested:")) {
            return value.isNull() ? nullRef(spec, byId, name) : ref(spec, value, byId, name);
        }
        if (type.equals("choice{value,label}")) {
            JsonNode v = value.isNull() ? null : value.get("value");
            if (v == null || v.isNull()) {
                return new Subject(Kind.TEXT, null, List.of(), otherChoice(spec, null), name + " (null choice)");
            }
            Kind kind = v.isNumber() ? Kind.NUMBER : v.isBoolean() ? Kind.BOOLEAN : Kind.TEXT;
            return new Subject(kind, v.asText(), List.of(v.asText()), otherChoice(spec, v.asText()), name + ".value");
        }
        Endpoint idTarget = type.equals("integer") ? contract.endpoint(GenericTargets.idTarget(ep.key(), name)) : null;
        if (idTarget != null) { // a relation rendered as the bare id (DRF's PrimaryKeyRelatedField)
            if (!byId && !value.isNull()) { // a filter by the target's natural key: read it from the target
                return byNaturalKey(
                        idTarget,
                        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                                .objectNode()
                                .put("id", value.asLong()),
                        name);
            }
            String other = otherKey(idTarget, true, null);
            return value.isNull()
                    ? new Subject(Kind.REF, null, List.of(), other, name + " (null)")
                    : new Subject(Kind.REF, value.asText(), List.of(value.asText()), other, name + ".id");
        }
        Kind kind = switch (type) {
            case "integer", "number" -> Kind.NUMBER;
            case "boolean" -> Kind.BOOLEAN;
            case "string" ->
                switch (spec.path("format").asText()) {
                    case "date-time" -> Kind.DATETIME;
                    case "date" -> Kind.DATE;
                    default -> Kind.TEXT;
                };
            default -> null;
        };
        if (kind == null) {
            return null; // object / any: no filterable value
        }
        if (value.isNull() || value.isContainerNode()) {
            return new Subject(kind, null, List.of(), nonMatching(kind, null), name + " (null)");
        }
        String raw = value.asText();
        if (kind == Kind.TEXT && raw.isEmpty()) {
            return new Subject(kind, "", List.of(), nonMatching(kind, raw), name + " (empty)");
        }
        if (kind == Kind.NUMBER
                && spec.path("choices").isArray()
                && !spec.path("choices").isEmpty()) {
            // a plain number with choices (a data source's sync_interval): NetBox's ChoiceFilter
            // refuses other numbers, so the non-matching value is another choice
            return new Subject(kind, raw, List.of(raw), otherChoice(spec, raw), name);
        }
        return new Subject(kind, raw, List.of(raw), nonMatching(kind, raw), name);
    }

    private Subject ref(JsonNode spec, JsonNode nested, boolean byId, String name) {
        Endpoint target = targetOf(spec);
        if (byId || target == null) {
            String other = target == null ? null : otherKey(target, true, null);
            return new Subject(
                    Kind.REF,
                    nested.path("id").asText(),
                    List.of(nested.path("id").asText()),
                    other,
                    name + ".id");
        }
        return byNaturalKey(target, nested, name);
    }

    /** The related object {@code nested} of {@code target} named by its natural keys (slug, name, ...). */
    private Subject byNaturalKey(Endpoint target, JsonNode nested, String name) {
        JsonNode full = detail(target, nested.path("id").asLong());
        JsonNode source = full != null ? full : nested;
        List<String> keys = new ArrayList<>();
        String firstKey = null;
        for (String k : NATURAL_KEYS) {
            JsonNode v = source.get(k);
            if (v != null && v.isValueNode() && !v.isNull() && !v.asText().isEmpty()) {
                keys.add(v.asText());
                firstKey = firstKey == null ? k : firstKey;
            }
        }
        if (keys.isEmpty()) {
            return null;
        }
        List<String> others = new ArrayList<>();
        for (String k : NATURAL_KEYS) {
            JsonNode v = source.get(k);
            String other =
                    v != null && v.isValueNode() && !v.isNull() && !v.asText().isEmpty()
                            ? otherKey(target, false, k)
                            : null;
            if (other != null) {
                others.add(other);
            }
        }
        return new Subject(
                Kind.REF, keys.get(0), keys, otherKey(target, false, firstKey), name + "." + firstKey, others);
    }

    private Subject nullRef(JsonNode spec, boolean byId, String name) {
        Endpoint target = targetOf(spec);
        String other = target == null ? null : otherKey(target, byId, null);
        return new Subject(Kind.REF, null, List.of(), other, name + " (null)");
    }

    /** The id or natural key of the endpoint's OTHER object (related to nothing), or null. */
    private String otherKey(Endpoint target, boolean byId, String key) {
        ObjectFactory.Made other = factory.other(target.key());
        if (other == null) {
            return null;
        }
        if (byId) {
            return String.valueOf(other.id());
        }
        JsonNode obj = detail(target, other.id());
        if (obj == null) {
            return null;
        }
        for (String k : key != null ? List.of(key) : NATURAL_KEYS) {
            JsonNode v = obj.get(k);
            if (v != null && v.isValueNode() && !v.isNull() && !v.asText().isEmpty()) {
                return v.asText();
            }
        }
        return null;
    }

    private static String otherChoice(JsonNode spec, String current) {
        for (JsonNode c : spec.path("choices")) {
            if (!c.isNull() && !c.asText().isEmpty() && !c.asText().equals(current)) {
                return c.asText();
            }
        }
        return null;
    }

    /** A value of the kind that an object with value {@code raw} does not match. */
    static String nonMatching(Kind kind, String raw) {
        if (raw != null && IPV4_WITH_MASK.matcher(raw).matches()) {
            // an address or prefix: another valid one (TEST-NET-1), so the filter parses it
            return raw.matches(".*\\.0/\\d+") ? "192.0.2.0/24" : "192.0.2.77/24";
        }
        return switch (kind) {
            case TEXT, REF -> "zq" + UUID.randomUUID().toString().substring(0, 8);
            case NUMBER ->
                raw == null
                        ? "987654"
                        : new java.math.BigDecimal(raw)
                                .add(java.math.BigDecimal.valueOf(7))
                                .toPlainString();
            case BOOLEAN -> raw == null ? "true" : String.valueOf(!Boolean.parseBoolean(raw));
            case DATETIME -> "2001-02-03T04:05:06Z";
            case DATE -> "2001-02-03";
            case UUID -> UUID.randomUUID().toString();
        };
    }
}
