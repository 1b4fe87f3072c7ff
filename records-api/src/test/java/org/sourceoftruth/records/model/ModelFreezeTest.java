package org.sourceoftruth.records.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sourceoftruth.records.model.Fields.str;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Declarations are frozen when the registry is built, and content type and table derive from the name. */
class ModelFreezeTest {
    private static Model declared() {
        return Model.of("dcim", "cable-bundles", "cable bundle")
                .fields(str("name").required().max(100))
                .brief("name");
    }

    @Test
    void aDeclarationCanChangeUntilItIsRegistered() {
        Model m = declared();
        m.search("t.name");
        m.field("name").max(50);
        assertEquals(Integer.valueOf(50), m.field("name").maxLength());
    }

    @Test
    void aRegisteredModelAndItsFieldsRefuseChanges() {
        Model m = declared();
        ModelRegistry registry = new ModelRegistry(List.of(() -> List.of(m)), List.of());
        Model registered = registry.require("dcim.cablebundle");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> registered.brief("id"));
        assertEquals("dcim.cablebundle is registered: its declaration can no longer change", e.getMessage());
        assertThrows(IllegalStateException.class, () -> registered.fields(str("comments")));
        assertThrows(IllegalStateException.class, () -> registered.field("name").max(50));
        assertThrows(IllegalStateException.class, () -> registered.field("name").nullable());
        assertEquals(Integer.valueOf(100), registered.field("name").maxLength());
    }

    @Test
    void contentTypeAndTableDeriveFromTheAppAndTheName() {
        Model m = Model.of("virtualization", "virtual-machine-types", "virtual machine type");
        assertEquals("virtualization.virtualmachinetype", m.contentType());
        assertEquals("virtualization_virtualmachinetype", m.table());
        assertEquals(
                "dcim.macaddress",
                Model.of("dcim", "mac-addresses", "MAC address").contentType());
        Model own = Model.of(
                "virtualization",
                "interfaces",
                "virtualization.vminterface",
                "virtualization_vminterface",
                "interface");
        assertEquals("virtualization_vminterface", own.table());
    }
}
