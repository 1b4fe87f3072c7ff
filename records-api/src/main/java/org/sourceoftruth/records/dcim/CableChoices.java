package org.sourceoftruth.records.dcim;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.ChoiceSet;

/** Cable choice sets and NetBox's rules on what a cable may connect (dcim/constants.py). */
final class CableChoices {
    private CableChoices() {}

    static final ChoiceSet CABLE_TYPE = ChoiceSet.of(
            "cat3",
            "CAT3",
            "cat5",
            "CAT5",
            "cat5e",
            "CAT5e",
            "cat6",
            "CAT6",
            "cat6a",
            "CAT6a",
            "cat7",
            "CAT7",
            "cat7a",
            "CAT7a",
            "cat8",
            "CAT8",
            "mrj21-trunk",
            "MRJ21 Trunk",
            "dac-active",
            "Direct Attach Copper (Active)",
            "dac-passive",
            "Direct Attach Copper (Passive)",
            "coaxial",
            "Coaxial",
            "rg-6",
            "RG-6",
            "rg-8",
            "RG-8",
            "rg-11",
            "RG-11",
            "rg-59",
            "RG-59",
            "rg-62",
            "RG-62",
            "rg-213",
            "RG-213",
            "lmr-100",
            "LMR-100",
            "lmr-200",
            "LMR-200",
            "lmr-400",
            "LMR-400",
            "mmf",
            "Multimode Fiber",
            "mmf-om1",
            "Multimode Fiber (OM1)",
            "mmf-om2",
            "Multimode Fiber (OM2)",
            "mmf-om3",
            "Multimode Fiber (OM3)",
            "mmf-om4",
            "Multimode Fiber (OM4)",
            "mmf-om5",
            "Multimode Fiber (OM5)",
            "smf",
            "Single-mode Fiber",
            "smf-os1",
            "Single-mode Fiber (OS1)",
            "smf-os2",
            "Single-mode Fiber (OS2)",
            "aoc",
            "Active Optical Cabling (AOC)",
            "power",
            "Power",
            "usb",
            "USB");
    static final ChoiceSet LINK_STATUS = ChoiceSet.capitalised("connected", "planned", "decommissioning");
    static final ChoiceSet LENGTH_UNIT = ChoiceSet.of(
            "km", "Kilometers", "m", "Meters", "cm", "Centimeters", "mi", "Miles", "ft", "Feet", "in", "Inches");

    /** The objects a cable may end on (NetBox's CABLE_TERMINATION_MODELS that this service serves). */
    static final List<String> TERMINATION_TYPES = List.of(
            "circuits.circuittermination",
            "dcim.consoleport",
            "dcim.consoleserverport",
            "dcim.frontport",
            "dcim.interface",
            "dcim.powerfeed",
            "dcim.poweroutlet",
            "dcim.powerport",
            "dcim.rearport");

    /** The objects at the ends of cable paths (NetBox's PathEndpoint subclasses). */
    static final Set<String> PATH_ENDPOINTS = Set.of(
            "dcim.interface",
            "dcim.consoleport",
            "dcim.consoleserverport",
            "dcim.powerport",
            "dcim.poweroutlet",
            "dcim.powerfeed");

    /** NetBox's COMPATIBLE_TERMINATION_TYPES, by model name. */
    static final Map<String, Set<String>> COMPATIBLE = Map.of(
            "circuittermination", Set.of("interface", "frontport", "rearport", "circuittermination"),
            "consoleport", Set.of("consoleserverport", "frontport", "rearport"),
            "consoleserverport", Set.of("consoleport", "frontport", "rearport"),
            "interface", Set.of("interface", "circuittermination", "frontport", "rearport"),
            "frontport",
                    Set.of(
                            "consoleport",
                            "consoleserverport",
                            "interface",
                            "frontport",
                            "rearport",
                            "circuittermination"),
            "powerfeed", Set.of("powerport"),
            "poweroutlet", Set.of("powerport"),
            "powerport", Set.of("poweroutlet", "powerfeed"),
            "rearport",
                    Set.of(
                            "consoleport",
                            "consoleserverport",
                            "interface",
                            "frontport",
                            "rearport",
                            "circuittermination"));

    /** NetBox's NONCONNECTABLE_IFACE_TYPES: virtual and wireless interfaces take no cable. */
    static boolean connectable(String interfaceType) {
        return !(interfaceType.equals("virtual")
                || interfaceType.equals("bridge")
                || interfaceType.equals("lag")
                || interfaceType.startsWith("ieee802.11")
                || interfaceType.startsWith("ieee802.15")
                || interfaceType.equals("other-wireless"));
    }

    static String modelName(String contentType) {
        return contentType.substring(contentType.indexOf('.') + 1);
    }
}
