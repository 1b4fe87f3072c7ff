package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.ChoiceSet;

/** DCIM choice sets (value → label) as NetBox 4 defines them. */
public final class DcimChoices {
    public static final ChoiceSet SITE_STATUS =
            ChoiceSet.capitalised("planned", "staging", "active", "decommissioning", "retired");
    public static final ChoiceSet LOCATION_STATUS = SITE_STATUS;
    public static final ChoiceSet RACK_STATUS =
            ChoiceSet.capitalised("reserved", "available", "planned", "active", "deprecated");
    public static final ChoiceSet RACK_FORM_FACTOR = ChoiceSet.of(
            "2-post-frame",
            "2-post frame",
            "4-post-frame",
            "4-post frame",
            "4-post-cabinet",
            "4-post cabinet",
            "wall-frame",
            "Wall-mounted frame",
            "wall-frame-vertical",
            "Wall-mounted frame (vertical)",
            "wall-cabinet",
            "Wall-mounted cabinet",
            "wall-cabinet-vertical",
            "Wall-mounted cabinet (vertical)");
    public static final ChoiceSet RACK_WIDTH = ChoiceSet.of(
                    "10", "10 inches", "19", "19 inches", "21", "21 inches", "23", "23 inches")
            .numeric();
    public static final ChoiceSet DEVICE_STATUS =
            ChoiceSet.capitalised("offline", "active", "planned", "staged", "failed", "inventory", "decommissioning");
    public static final ChoiceSet FACE = ChoiceSet.capitalised("front", "rear");
    public static final ChoiceSet AIRFLOW = ChoiceSet.of(
            "front-to-rear",
            "Front to rear",
            "rear-to-front",
            "Rear to front",
            "left-to-right",
            "Left to right",
            "right-to-left",
            "Right to left",
            "side-to-rear",
            "Side to rear",
            "rear-to-side",
            "Rear to side",
            "bottom-to-top",
            "Bottom to top",
            "top-to-bottom",
            "Top to bottom",
            "passive",
            "Passive",
            "mixed",
            "Mixed");
    public static final ChoiceSet SUBDEVICE_ROLE = ChoiceSet.capitalised("parent", "child");
    public static final ChoiceSet POE_MODE = ChoiceSet.of("pd", "PD", "pse", "PSE");
    public static final ChoiceSet POE_TYPE = ChoiceSet.of(
            "type1-ieee802.3af",
            "802.3af (Type 1)",
            "type2-ieee802.3at",
            "802.3at (Type 2)",
            "type3-ieee802.3bt",
            "802.3bt (Type 3)",
            "type4-ieee802.3bt",
            "802.3bt (Type 4)",
            "passive-24v-2pair",
            "Passive 24V (2-pair)",
            "passive-24v-4pair",
            "Passive 24V (4-pair)",
            "passive-48v-2pair",
            "Passive 48V (2-pair)",
            "passive-48v-4pair",
            "Passive 48V (4-pair)");
    public static final ChoiceSet RF_ROLE = ChoiceSet.of("ap", "Access point", "station", "Station");
    public static final ChoiceSet RACK_AIRFLOW =
            ChoiceSet.of("front-to-rear", "Front to rear", "rear-to-front", "Rear to front");
    public static final ChoiceSet RACK_DIMENSION_UNIT = ChoiceSet.of("mm", "Millimeters", "in", "Inches");
    public static final ChoiceSet WEIGHT_UNIT =
            ChoiceSet.of("kg", "Kilograms", "g", "Grams", "lb", "Pounds", "oz", "Ounces");
    public static final ChoiceSet DUPLEX = ChoiceSet.capitalised("half", "full", "auto");
    public static final ChoiceSet INTERFACE_MODE = ChoiceSet.of(
            "access", "Access", "tagged", "Tagged", "tagged-all", "Tagged (All)", "q-in-q", "Q-in-Q (802.1ad)");
    public static final ChoiceSet INTERFACE_TYPE = ChoiceSet.of(
            "virtual",
            "Virtual",
            "bridge",
            "Bridge",
            "lag",
            "Link Aggregation Group (LAG)",
            "100base-fx",
            "100BASE-FX (10/100ME FIBER)",
            "100base-lfx",
            "100BASE-LFX (10/100ME FIBER)",
            "100base-tx",
            "100BASE-TX (10/100ME)",
            "100base-t1",
            "100BASE-T1 (10/100ME Single Pair)",
            "1000base-t",
            "1000BASE-T (1GE)",
            "1000base-lx",
            "1000BASE-LX (1GE)",
            "1000base-sx",
            "1000BASE-SX (1GE)",
            "2.5gbase-t",
            "2.5GBASE-T (2.5GE)",
            "5gbase-t",
            "5GBASE-T (5GE)",
            "10gbase-t",
            "10GBASE-T (10GE)",
            "10gbase-cx4",
            "10GBASE-CX4 (10GE)",
            "1000base-x-gbic",
            "GBIC (1GE)",
            "1000base-x-sfp",
            "SFP (1GE)",
            "10gbase-x-sfpp",
            "SFP+ (10GE)",
            "10gbase-x-xfp",
            "XFP (10GE)",
            "25gbase-x-sfp28",
            "SFP28 (25GE)",
            "50gbase-x-sfp56",
            "SFP56 (50GE)",
            "40gbase-x-qsfpp",
            "QSFP+ (40GE)",
            "50gbase-x-sfp28",
            "QSFP28 (50GE)",
            "100gbase-x-cfp",
            "CFP (100GE)",
            "100gbase-x-qsfp28",
            "QSFP28 (100GE)",
            "200gbase-x-qsfp56",
            "QSFP56 (200GE)",
            "400gbase-x-qsfpdd",
            "QSFP-DD (400GE)",
            "400gbase-x-osfp",
            "OSFP (400GE)",
            "800gbase-x-qsfpdd",
            "QSFP-DD (800GE)",
            "800gbase-x-osfp",
            "OSFP (800GE)",
            "ieee802.11a",
            "IEEE 802.11a",
            "ieee802.11g",
            "IEEE 802.11b/g",
            "ieee802.11n",
            "IEEE 802.11n",
            "ieee802.11ac",
            "IEEE 802.11ac",
            "ieee802.11ad",
            "IEEE 802.11ad",
            "ieee802.11ax",
            "IEEE 802.11ax",
            "gsm",
            "GSM",
            "cdma",
            "CDMA",
            "lte",
            "LTE",
            "4g",
            "4G",
            "5g",
            "5G",
            "sonet-oc3",
            "OC-3/STM-1",
            "sonet-oc12",
            "OC-12/STM-4",
            "sonet-oc48",
            "OC-48/STM-16",
            "1gfc-sfp",
            "SFP (1GFC)",
            "8gfc-sfpp",
            "SFP+ (8GFC)",
            "16gfc-sfpp",
            "SFP+ (16GFC)",
            "32gfc-sfp28",
            "SFP28 (32GFC)",
            "infiniband-sdr",
            "SDR (2 Gbps)",
            "infiniband-ddr",
            "DDR (4 Gbps)",
            "infiniband-qdr",
            "QDR (8 Gbps)",
            "t1",
            "T1 (1.544 Mbps)",
            "e1",
            "E1 (2.048 Mbps)",
            "t3",
            "T3 (45 Mbps)",
            "e3",
            "E3 (34 Mbps)",
            "xdsl",
            "xDSL",
            "docsis",
            "DOCSIS",
            "gpon",
            "GPON (2.5 Gbps / 1.25 Gps)",
            "xgs-pon",
            "XGS-PON (10 Gbps)",
            "cisco-stackwise",
            "Cisco StackWise",
            "cisco-stackwise-plus",
            "Cisco StackWise Plus",
            "cisco-flexstack",
            "Cisco FlexStack",
            "juniper-vcp",
            "Juniper VCP",
            "extreme-summitstack",
            "Extreme SummitStack",
            "other",
            "Other");

    /**
     * Wireless channels (WirelessChannelChoices): value {@code <band>-<channel>-<MHz>-<width MHz>},
     * labelled as NetBox does ("6 (2437 MHz)", "36 (5180/20 MHz)", "1 (58.32/2.16 GHz)").
     */
    public static final ChoiceSet RF_CHANNEL = WirelessChannels.choices();

    /** A cable's end (CableEndChoices). */
    public static final ChoiceSet CABLE_END = ChoiceSet.of("A", "A", "B", "B");

    public static final ChoiceSet POWER_FEED_STATUS = ChoiceSet.capitalised("offline", "active", "planned", "failed");
    public static final ChoiceSet POWER_FEED_TYPE = ChoiceSet.capitalised("primary", "redundant");
    public static final ChoiceSet POWER_FEED_SUPPLY = ChoiceSet.of("ac", "AC", "dc", "DC");
    public static final ChoiceSet POWER_FEED_PHASE =
            ChoiceSet.of("single-phase", "Single phase", "three-phase", "Three-phase");

    private DcimChoices() {}
}
