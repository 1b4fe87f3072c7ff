package org.sourceoftruth.records.contract;

/**
 * Which kind of object the harness attaches to a generic relation (scope, assigned_object, ...).
 * The contract types the pair only as string + integer, so this is the one table of choices.
 */
final class GenericTargets {
    private GenericTargets() {
    }

    static String contentType(String endpoint, String relation) {
        return switch (relation) {
            // circuit terminations end at a site (or provider network); dcim/vpn terminations at an interface
            case "termination" -> endpoint.startsWith("circuits/") ? "dcim.site" : "dcim.interface";
            case "assigned_object", "component", "interface" -> "dcim.interface";
            case "parent_object" -> "dcim.device";
            case "member" -> "circuits.circuit";
            case "action_object" -> "extras.webhook";
            default -> "dcim.site"; // scope, object
        };
    }

    /**
     * The endpoint a relation written as a bare id points at, where the contract names none
     * (a front port's rear_port is NetBox's PrimaryKeyRelatedField); null when unknown.
     */
    static String idTarget(String endpoint, String field) {
        return endpoint.equals("dcim/front-ports") && field.equals("rear_port") ? "dcim/rear-ports" : null;
    }
}
