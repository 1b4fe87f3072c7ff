package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.ChoiceSet;

import java.util.List;

/**
 * Choice sets of NetBox 4.4's device components and their templates (ConsolePortTypeChoices,
 * PowerPortTypeChoices, PortTypeChoices, ...): the values NetBox accepts, labelled as NetBox
 * labels them. A blank type is stored as null and rendered so, as NetBox renders it.
 */
public final class ComponentChoices {
    public static final ChoiceSet CONSOLE_PORT_TYPE = ChoiceSet.of(
            "de-9", "DE-9", "db-25", "DB-25", "rj-11", "RJ-11", "rj-12", "RJ-12", "rj-45", "RJ-45",
            "mini-din-8", "Mini-DIN 8", "usb-a", "USB Type A", "usb-b", "USB Type B", "usb-c", "USB Type C",
            "usb-mini-a", "USB Mini A", "usb-mini-b", "USB Mini B", "usb-micro-a", "USB Micro A",
            "usb-micro-b", "USB Micro B", "usb-micro-ab", "USB Micro AB", "other", "Other");
    public static final ChoiceSet CONSOLE_PORT_SPEED = ChoiceSet.of(
            "1200", "1200 bps", "2400", "2400 bps", "4800", "4800 bps", "9600", "9600 bps", "19200", "19.2 kbps",
            "38400", "38.4 kbps", "57600", "57.6 kbps", "115200", "115.2 kbps").numeric();
    public static final ChoiceSet POWER_PORT_TYPE = ChoiceSet.of(
            "iec-60320-c6", "C6", "iec-60320-c8", "C8", "iec-60320-c14", "C14", "iec-60320-c16", "C16",
            "iec-60320-c18", "C18", "iec-60320-c20", "C20", "iec-60320-c22", "C22", "iec-60309-p-n-e-4h", "P+N+E 4H",
            "iec-60309-p-n-e-6h", "P+N+E 6H", "iec-60309-p-n-e-9h", "P+N+E 9H", "iec-60309-2p-e-4h", "2P+E 4H",
            "iec-60309-2p-e-6h", "2P+E 6H", "iec-60309-2p-e-9h", "2P+E 9H", "iec-60309-3p-e-4h", "3P+E 4H",
            "iec-60309-3p-e-6h", "3P+E 6H", "iec-60309-3p-e-9h", "3P+E 9H", "iec-60309-3p-n-e-4h", "3P+N+E 4H",
            "iec-60309-3p-n-e-6h", "3P+N+E 6H", "iec-60309-3p-n-e-9h", "3P+N+E 9H", "iec-60906-1", "IEC 60906-1",
            "nbr-14136-10a", "2P+T 10A (NBR 14136)", "nbr-14136-20a", "2P+T 20A (NBR 14136)",
            "nema-1-15p", "NEMA 1-15P", "nema-5-15p", "NEMA 5-15P", "nema-5-20p", "NEMA 5-20P",
            "nema-5-30p", "NEMA 5-30P", "nema-5-50p", "NEMA 5-50P", "nema-6-15p", "NEMA 6-15P",
            "nema-6-20p", "NEMA 6-20P", "nema-6-30p", "NEMA 6-30P", "nema-6-50p", "NEMA 6-50P",
            "nema-10-30p", "NEMA 10-30P", "nema-10-50p", "NEMA 10-50P", "nema-14-20p", "NEMA 14-20P",
            "nema-14-30p", "NEMA 14-30P", "nema-14-50p", "NEMA 14-50P", "nema-14-60p", "NEMA 14-60P",
            "nema-15-15p", "NEMA 15-15P", "nema-15-20p", "NEMA 15-20P", "nema-15-30p", "NEMA 15-30P",
            "nema-15-50p", "NEMA 15-50P", "nema-15-60p", "NEMA 15-60P", "nema-l1-15p", "NEMA L1-15P",
            "nema-l5-15p", "NEMA L5-15P", "nema-l5-20p", "NEMA L5-20P", "nema-l5-30p", "NEMA L5-30P",
            "nema-l5-50p", "NEMA L5-50P", "nema-l6-15p", "NEMA L6-15P", "nema-l6-20p", "NEMA L6-20P",
            "nema-l6-30p", "NEMA L6-30P", "nema-l6-50p", "NEMA L6-50P", "nema-l10-30p", "NEMA L10-30P",
            "nema-l14-20p", "NEMA L14-20P", "nema-l14-30p", "NEMA L14-30P", "nema-l14-50p", "NEMA L14-50P",
            "nema-l14-60p", "NEMA L14-60P", "nema-l15-20p", "NEMA L15-20P", "nema-l15-30p", "NEMA L15-30P",
            "nema-l15-50p", "NEMA L15-50P", "nema-l15-60p", "NEMA L15-60P", "nema-l21-20p", "NEMA L21-20P",
            "nema-l21-30p", "NEMA L21-30P", "nema-l22-20p", "NEMA L22-20P", "nema-l22-30p", "NEMA L22-30P",
            "cs6361c", "CS6361C", "cs6365c", "CS6365C", "cs8165c", "CS8165C", "cs8265c", "CS8265C",
            "cs8365c", "CS8365C", "cs8465c", "CS8465C", "ita-c", "ITA Type C (CEE 7/16)",
            "ita-e", "ITA Type E (CEE 7/6)", "ita-f", "ITA Type F (CEE 7/4)", "ita-ef", "ITA Type E/F (CEE 7/7)",
            "ita-g", "ITA Type G (BS 1363)", "ita-h", "ITA Type H", "ita-i", "ITA Type I", "ita-j", "ITA Type J",
            "ita-k", "ITA Type K", "ita-l", "ITA Type L (CEI 23-50)", "ita-m", "ITA Type M (BS 546)",
            "ita-n", "ITA Type N", "ita-o", "ITA Type O", "usb-a", "USB Type A", "usb-b", "USB Type B",
            "usb-c", "USB Type C", "usb-mini-a", "USB Mini A", "usb-mini-b", "USB Mini B",
            "usb-micro-a", "USB Micro A", "usb-micro-b", "USB Micro B", "usb-micro-ab", "USB Micro AB",
            "usb-3-b", "USB 3.0 Type B", "usb-3-micro-b", "USB 3.0 Micro B",
            "molex-micro-fit-1x2", "Molex Micro-Fit 1x2", "molex-micro-fit-2x2", "Molex Micro-Fit 2x2",
            "molex-micro-fit-2x3", "Molex Micro-Fit 2x3", "molex-micro-fit-2x4", "Molex Micro-Fit 2x4",
            "dc-terminal", "DC Terminal", "saf-d-grid", "Saf-D-Grid",
            "neutrik-powercon-20", "Neutrik powerCON (20A)", "neutrik-powercon-32", "Neutrik powerCON (32A)",
            "neutrik-powercon-true1", "Neutrik powerCON TRUE1",
            "neutrik-powercon-true1-top", "Neutrik powerCON TRUE1 TOP", "ubiquiti-smartpower", "Ubiquiti SmartPower",
            "hardwired", "Hardwired", "other", "Other");
    public static final ChoiceSet POWER_OUTLET_TYPE = ChoiceSet.of(
            "iec-60320-c5", "C5", "iec-60320-c7", "C7", "iec-60320-c13", "C13", "iec-60320-c15", "C15",
            "iec-60320-c17", "C17", "iec-60320-c19", "C19", "iec-60320-c21", "C21", "iec-60309-p-n-e-4h", "P+N+E 4H",
            "iec-60309-p-n-e-6h", "P+N+E 6H", "iec-60309-p-n-e-9h", "P+N+E 9H", "iec-60309-2p-e-4h", "2P+E 4H",
            "iec-60309-2p-e-6h", "2P+E 6H", "iec-60309-2p-e-9h", "2P+E 9H", "iec-60309-3p-e-4h", "3P+E 4H",
            "iec-60309-3p-e-6h", "3P+E 6H", "iec-60309-3p-e-9h", "3P+E 9H", "iec-60309-3p-n-e-4h", "3P+N+E 4H",
            "iec-60309-3p-n-e-6h", "3P+N+E 6H", "iec-60309-3p-n-e-9h", "3P+N+E 9H", "iec-60906-1", "IEC 60906-1",
            "nbr-14136-10a", "2P+T 10A (NBR 14136)", "nbr-14136-20a", "2P+T 20A (NBR 14136)",
            "nema-1-15r", "NEMA 1-15R", "nema-5-15r", "NEMA 5-15R", "nema-5-20r", "NEMA 5-20R",
            "nema-5-30r", "NEMA 5-30R", "nema-5-50r", "NEMA 5-50R", "nema-6-15r", "NEMA 6-15R",
            "nema-6-20r", "NEMA 6-20R", "nema-6-30r", "NEMA 6-30R", "nema-6-50r", "NEMA 6-50R",
            "nema-10-30r", "NEMA 10-30R", "nema-10-50r", "NEMA 10-50R", "nema-14-20r", "NEMA 14-20R",
            "nema-14-30r", "NEMA 14-30R", "nema-14-50r", "NEMA 14-50R", "nema-14-60r", "NEMA 14-60R",
            "nema-15-15r", "NEMA 15-15R", "nema-15-20r", "NEMA 15-20R", "nema-15-30r", "NEMA 15-30R",
            "nema-15-50r", "NEMA 15-50R", "nema-15-60r", "NEMA 15-60R", "nema-l1-15r", "NEMA L1-15R",
            "nema-l5-15r", "NEMA L5-15R", "nema-l5-20r", "NEMA L5-20R", "nema-l5-30r", "NEMA L5-30R",
            "nema-l5-50r", "NEMA L5-50R", "nema-l6-15r", "NEMA L6-15R", "nema-l6-20r", "NEMA L6-20R",
            "nema-l6-30r", "NEMA L6-30R", "nema-l6-50r", "NEMA L6-50R", "nema-l10-30r", "NEMA L10-30R",
            "nema-l14-20r", "NEMA L14-20R", "nema-l14-30r", "NEMA L14-30R", "nema-l14-50r", "NEMA L14-50R",
            "nema-l14-60r", "NEMA L14-60R", "nema-l15-20r", "NEMA L15-20R", "nema-l15-30r", "NEMA L15-30R",
            "nema-l15-50r", "NEMA L15-50R", "nema-l15-60r", "NEMA L15-60R", "nema-l21-20r", "NEMA L21-20R",
            "nema-l21-30r", "NEMA L21-30R", "nema-l22-20r", "NEMA L22-20R", "nema-l22-30r", "NEMA L22-30R",
            "CS6360C", "CS6360C", "CS6364C", "CS6364C", "CS8164C", "CS8164C", "CS8264C", "CS8264C",
            "CS8364C", "CS8364C", "CS8464C", "CS8464C", "ita-e", "ITA Type E (CEE 7/6)",
            "ita-f", "ITA Type F (CEE 7/4)", "ita-g", "ITA Type G (BS 1363)", "ita-h", "ITA Type H",
            "ita-i", "ITA Type I", "ita-j", "ITA Type J", "ita-k", "ITA Type K", "ita-l", "ITA Type L (CEI 23-50)",
            "ita-m", "ITA Type M (BS 546)", "ita-n", "ITA Type N", "ita-o", "ITA Type O",
            "ita-multistandard", "ITA Multistandard", "usb-a", "USB Type A", "usb-micro-b", "USB Micro B",
            "usb-c", "USB Type C", "molex-micro-fit-1x2", "Molex Micro-Fit 1x2",
            "molex-micro-fit-2x2", "Molex Micro-Fit 2x2", "molex-micro-fit-2x3", "Molex Micro-Fit 2x3",
            "molex-micro-fit-2x4", "Molex Micro-Fit 2x4", "dc-terminal", "DC Terminal", "eaton-c39", "Eaton C39",
            "hdot-cx", "HDOT Cx", "saf-d-grid", "Saf-D-Grid", "neutrik-powercon-20a", "Neutrik powerCON (20A)",
            "neutrik-powercon-32a", "Neutrik powerCON (32A)", "neutrik-powercon-true1", "Neutrik powerCON TRUE1",
            "neutrik-powercon-true1-top", "Neutrik powerCON TRUE1 TOP", "ubiquiti-smartpower", "Ubiquiti SmartPower",
            "hardwired", "Hardwired", "other", "Other");
    public static final ChoiceSet PORT_TYPE = ChoiceSet.of(
            "8p8c", "8P8C", "8p6c", "8P6C", "8p4c", "8P4C", "8p2c", "8P2C", "6p6c", "6P6C", "6p4c", "6P4C",
            "6p2c", "6P2C", "4p4c", "4P4C", "4p2c", "4P2C", "gg45", "GG45", "tera-4p", "TERA 4P",
            "tera-2p", "TERA 2P", "tera-1p", "TERA 1P", "110-punch", "110 Punch", "bnc", "BNC", "f", "F Connector",
            "n", "N Connector", "mrj21", "MRJ21", "fc", "FC", "fc-pc", "FC/PC", "fc-upc", "FC/UPC",
            "fc-apc", "FC/APC", "lc", "LC", "lc-pc", "LC/PC", "lc-upc", "LC/UPC", "lc-apc", "LC/APC", "lsh", "LSH",
            "lsh-pc", "LSH/PC", "lsh-upc", "LSH/UPC", "lsh-apc", "LSH/APC", "lx5", "LX.5", "lx5-pc", "LX.5/PC",
            "lx5-upc", "LX.5/UPC", "lx5-apc", "LX.5/APC", "mpo", "MPO", "mtrj", "MTRJ", "sc", "SC", "sc-pc", "SC/PC",
            "sc-upc", "SC/UPC", "sc-apc", "SC/APC", "st", "ST", "cs", "CS", "sn", "SN", "sma-905", "SMA 905",
            "sma-906", "SMA 906", "urm-p2", "URM-P2", "urm-p4", "URM-P4", "urm-p8", "URM-P8", "splice", "Splice",
            "usb-a", "USB Type A", "usb-b", "USB Type B", "usb-c", "USB Type C", "usb-mini-a", "USB Mini A",
            "usb-mini-b", "USB Mini B", "usb-micro-a", "USB Micro A", "usb-micro-b", "USB Micro B",
            "usb-micro-ab", "USB Micro AB", "other", "Other");
    public static final ChoiceSet FEED_LEG = ChoiceSet.of("A", "A", "B", "B", "C", "C");
    public static final ChoiceSet POWER_OUTLET_STATUS = ChoiceSet.capitalised("enabled", "disabled", "faulty");
    public static final ChoiceSet INVENTORY_ITEM_STATUS = ChoiceSet.capitalised("offline", "active", "planned", "staged",
            "failed", "decommissioning");

    /** The groups NetBox's type choices come in (its OpenAPI document lists them as the templates' type filter values). */
    public static final List<String> CONSOLE_PORT_TYPE_GROUPS = List.of("Serial", "USB", "Other");
    public static final List<String> POWER_PORT_TYPE_GROUPS = List.of("IEC 60320", "IEC 60309", "IEC 60906-1",
            "NEMA (Non-locking)", "NEMA (Locking)", "California Style", "International/ITA", "USB", "Molex", "DC",
            "Proprietary", "Other");
    public static final List<String> POWER_OUTLET_TYPE_GROUPS = List.of("IEC 60320", "IEC 60309", "IEC 60906-1",
            "NEMA (Non-locking)", "NEMA (Locking)", "California Style", "ITA/International", "USB", "Molex", "DC",
            "Proprietary", "Other");

    private ComponentChoices() {
    }
}
