package org.sourceoftruth.records.model;

import java.util.Set;

/**
 * A {@link DbValidator} as a model declares it, with the columns its verdict depends on.
 *
 * @param rule      the check
 * @param dependsOn on an update, the rule runs only when one of these columns changes; empty:
 *                  on every write. A rule may name its columns only when nothing else an update
 *                  of this row can change moves its verdict (the rows it reads guard themselves:
 *                  an IP address refuses to leave the device it is primary for, a device type
 *                  refuses a height its racked devices do not fit), so an update that leaves them
 *                  alone skips the rule's queries.
 */
public record DbCheck(DbValidator rule, Set<String> dependsOn) {

    /** Whether the rule runs for a write that changes these columns (null: a create, every column). */
    public boolean appliesTo(Set<String> changedColumns) {
        return changedColumns == null
                || dependsOn.isEmpty()
                || dependsOn.stream().anyMatch(changedColumns::contains);
    }
}
