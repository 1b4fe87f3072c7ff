package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.net.Networks;

/**
 * INET (a host address with its mask) and CIDR (a network prefix). A bare address means a host
 * mask (/32, /128), as netaddr's IPNetwork reads it; a prefix must have no host bits.
 */
public final class NetworkType implements FieldType {
    private final boolean prefix;

    NetworkType(boolean prefix) {
        this.prefix = prefix;
    }

    private String sqlType() {
        return prefix ? "cidr" : "inet";
    }

    private String formatError(Object raw) {
        return (prefix ? "Invalid IP prefix format: " : "Invalid IP address format: ") + raw;
    }

    @Override
    public Object read(Field f, JsonNode v) {
        if (!v.isTextual()) {
            throw new InvalidValue(formatError(v));
        }
        Cidr.Parsed p = Cidr.parse(v.asText(), false).orElseThrow(() -> new InvalidValue(formatError(v.asText())));
        if (prefix && p.hasHostBits()) {
            // NetBox's prefix_validator on every cidr model field.
            throw new InvalidValue(p.text() + " is not a valid prefix. Did you mean "
                    + p.network().text() + "?");
        }
        return new Db.Inet(sqlType(), p.text());
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.textNode(Networks.withMask(v.toString()));
    }

    @Override
    public List<String> filterLookups() {
        return Lookup.NEGATION_ONLY;
    }

    @Override
    public boolean filtersByValue() {
        return true;
    }

    /** An address (a prefix needs its mask, and is taken as its network) as {@link Cidr.Parsed}. */
    @Override
    public Object parse(String raw, Field f) {
        Cidr.Parsed p = Cidr.parse(raw, prefix).orElseThrow(() -> new InvalidValue(formatError(raw)));
        return prefix ? p.network() : p;
    }

    @Override
    public Object bind(Object parsed) {
        return new Db.Inet(sqlType(), parsed.toString());
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING);
    }
}
