package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The SVG of one rack face (NetBox's RackElevationSVG, plainly drawn): a legend of unit numbers,
 * one slot per unit, and each device as a box over the units it takes, labelled and linked to it.
 */
final class RackElevationSvg {
    /** NetBox's RACK_ELEVATION_DEFAULT_UNIT_WIDTH / _UNIT_HEIGHT. */
    private static final int UNIT_WIDTH = 220;

    private static final int UNIT_HEIGHT = 22;

    private RackElevationSvg() {}

    static String render(JsonNode rack, List<RackElevation.Unit> units, RackElevation.Params p, String baseUrl) {
        int width = p.unitWidth() != null && p.unitWidth() > 0 ? p.unitWidth() : UNIT_WIDTH;
        int unitHeight = p.unitHeight() != null && p.unitHeight() > 0 ? p.unitHeight() : UNIT_HEIGHT;
        int legend = Math.max(p.legendWidth(), 0);
        int margin = Math.max(p.marginWidth(), 0);
        // whole units only: a half unit is drawn as half a slot
        double halfHeight = unitHeight / 2.0;
        double height = units.size() * halfHeight;
        int titleHeight = unitHeight;
        StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"")
                .append(" class=\"rack\" width=\"")
                .append(legend + width + margin)
                .append("\" height=\"")
                .append(fmt(height + titleHeight * 2))
                .append("\">\n")
                .append("<style>.slot{fill:#f7f7f7;stroke:#ccc}.device{fill:#9e9e9e;stroke:#333}")
                .append(".occupied{fill:#c8c8c8;stroke:#333}text{font-family:sans-serif;font-size:12px}</style>\n");
        String title = rack.path("name").asText() + " (" + (p.face().equals("front") ? "Front" : "Rear") + ")";
        svg.append("<text class=\"title\" x=\"")
                .append(legend + width / 2)
                .append("\" y=\"")
                .append(titleHeight - 6)
                .append("\" text-anchor=\"middle\">")
                .append(escape(title))
                .append("</text>\n");
        double y = titleHeight;
        Integer drawn = null;
        for (RackElevation.Unit u : units) {
            int number = u.id().setScale(0, java.math.RoundingMode.FLOOR).intValue();
            if (drawn == null || drawn != number) {
                // the legend and slot are drawn once per unit, from its upper half
                drawn = number;
                svg.append("<text class=\"unit\" x=\"")
                        .append(legend / 2)
                        .append("\" y=\"")
                        .append(fmt(y + unitHeight / 2.0 + 4))
                        .append("\" text-anchor=\"middle\">")
                        .append(u.id().intValue())
                        .append("</text>\n");
                svg.append("<rect class=\"slot\" x=\"")
                        .append(legend)
                        .append("\" y=\"")
                        .append(fmt(y))
                        .append("\" width=\"")
                        .append(width)
                        .append("\" height=\"")
                        .append(unitHeight)
                        .append("\"/>\n");
            }
            y += halfHeight;
        }
        svg.append(devices(units, legend, width, titleHeight, halfHeight, baseUrl));
        svg.append("<rect class=\"rack-frame\" x=\"")
                .append(legend)
                .append("\" y=\"")
                .append(titleHeight)
                .append("\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(fmt(height))
                .append("\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>\n");
        return svg.append("</svg>\n").toString();
    }

    /** One box per run of units held by the same device (or by a device the caller may not view). */
    private static String devices(
            List<RackElevation.Unit> units, int legend, int width, int top, double halfHeight, String baseUrl) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < units.size()) {
            RackElevation.Unit u = units.get(i);
            if (!u.occupied()) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < units.size()
                    && units.get(j).occupied()
                    && sameDevice(units.get(j).device(), u.device())) {
                j++;
            }
            double y = top + i * halfHeight;
            double h = (j - i) * halfHeight;
            JsonNode device = u.device();
            if (device == null) {
                out.append("<rect class=\"occupied\" x=\"")
                        .append(legend)
                        .append("\" y=\"")
                        .append(fmt(y))
                        .append("\" width=\"")
                        .append(width)
                        .append("\" height=\"")
                        .append(fmt(h))
                        .append("\"/>\n");
            } else {
                String name = device.path("display").asText(device.path("name").asText());
                out.append("<a xlink:href=\"")
                        .append(escape(
                                baseUrl + "/dcim/devices/" + device.path("id").asLong() + "/"))
                        .append("\" target=\"_parent\"><rect class=\"device\" x=\"")
                        .append(legend)
                        .append("\" y=\"")
                        .append(fmt(y))
                        .append("\" width=\"")
                        .append(width)
                        .append("\" height=\"")
                        .append(fmt(h))
                        .append("\"><title>")
                        .append(escape(name))
                        .append("</title></rect><text x=\"")
                        .append(legend + width / 2)
                        .append("\" y=\"")
                        .append(fmt(y + h / 2 + 4))
                        .append("\" text-anchor=\"middle\">")
                        .append(escape(name))
                        .append("</text></a>\n");
            }
            i = j;
        }
        return out.toString();
    }

    private static boolean sameDevice(JsonNode a, JsonNode b) {
        return a == null
                ? b == null
                : b != null && a.path("id").asLong() == b.path("id").asLong();
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
