package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ChangeRecordTest {

    private static final ObjectNode DATA = SampleChanges.representation(1, 1);

    @Test
    void laterDeleteWinsOtherwiseTheFirstActionStands() {
        assertEquals(ChangeAction.CREATE, ChangeAction.CREATE.followedBy(ChangeAction.UPDATE));
        assertEquals(ChangeAction.DELETE, ChangeAction.CREATE.followedBy(ChangeAction.DELETE));
        assertEquals(ChangeAction.UPDATE, ChangeAction.UPDATE.followedBy(ChangeAction.UPDATE));
        assertEquals(ChangeAction.DELETE, ChangeAction.UPDATE.followedBy(ChangeAction.DELETE));
    }

    @Test
    void cutsTheObjectReprTo200CharactersLikeNetBox() {
        ChangeRecord change = record("x".repeat(250), "");
        assertEquals(200, change.objectRepr().length());
    }

    @Test
    void refusesAMessageOver200Characters() {
        assertEquals(200, record("site", "m".repeat(200)).message().length());
        assertThrows(IllegalArgumentException.class, () -> record("site", "m".repeat(201)));
    }

    @Test
    void wantsTheRelatedObjectTypeAndIdTogether() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new ChangeRecord(
                        null,
                        "u",
                        UUID.randomUUID(),
                        ChangeAction.CREATE,
                        "dcim.interface",
                        1,
                        "eth0",
                        "",
                        null,
                        DATA,
                        DATA,
                        "dcim.device",
                        null));
        ChangeRecord component = new ChangeRecord(
                null,
                "u",
                UUID.randomUUID(),
                ChangeAction.CREATE,
                "dcim.interface",
                1,
                "eth0",
                "",
                null,
                DATA,
                DATA,
                "dcim.device",
                7L);
        assertEquals(7L, component.relatedObjectId());
    }

    private static ChangeRecord record(String repr, String message) {
        return new ChangeRecord(
                null, null, UUID.randomUUID(), ChangeAction.CREATE, "dcim.site", 1, repr, message, null, DATA, DATA);
    }
}
