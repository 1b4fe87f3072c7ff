package org.sourceoftruth.records.contract;

/**
 * Which kind of object the harness attaches to a generic relation (scope, assigned_object, ...).
 * The contract types the pair only as string + integer, so this is the one table of choices.
 */
final class GenericTargets {
    private GenericTargets() {}

    static String contentType(String endpoint, String relation) {
        return switch (relation) {
            // circuit terminations end at a site (or provider network); dcim/vpn terminations at an interface
            // circuit terminations end at a site (or provider network); a cable termination on a
            // front port (the primary interface is virtual: no cable); dcim/vpn terminations at an interface
            case "termination" ->
                endpoint.startsWith("circuits/")
                        ? "dcim.site"
                        : endpoint.equals("dcim/cable-terminations") ? "dcim.frontport" : "dcim.interface";
            case "assigned_object", "component", "interface" -> "dcim.interface";
            case "parent_object" -> "dcim.device";
            case "member" -> "circuits.circuit";
            case "action_object" -> "extras.webhook";
            default -> "dcim.site"; // scope, object
        };
    }

    /**
     * Values a relation's target must have beyond the contract's required set, for a server rule
     * the contract cannot tell (a wireless link's ends are wireless interfaces); null when the
     * shared primary object will do. Such a target is made for the relation alone.
     */
    static java.util.Map<String, Object> shapedTarget(String endpoint, String field) {
        return switch (endpoint + "." + field) {
            case "wireless/wireless-links.interface_a", "wireless/wireless-links.interface_b" ->
                java.util.Map.of("type", "ieee802.11ac");
            default -> null;
        };
    }

    /**
     * The endpoint a relation written as a bare id points at, where the contract names none
     * (NetBox's PrimaryKeyRelatedFields: a front port's rear_port, an inventory item's parent); null when unknown.
     */
    static String idTarget(String endpoint, String field) {
        return switch (endpoint + "." + field) {
            case "dcim/front-ports.rear_port" -> "dcim/rear-ports";
            case "ipam/vlan-translation-rules.policy" -> "ipam/vlan-translation-policies";
            case "dcim/cable-terminations.cable" -> "dcim/cables";
            case "dcim/inventory-items.parent", "dcim/inventory-item-templates.parent" -> endpoint;
            // NetBox renders these owners as the user's bare id; their filters take the username
            // (created_by, user) or the id (created_by_id, user_id), as for a nested user
            case "extras/journal-entries.created_by", "extras/saved-filters.user", "extras/table-configs.user" ->
                "users/users";
            default -> null;
        };
    }
}
