package org.sourceoftruth.records.engine.customfields;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The choices of a custom field choice set (NetBox's CustomFieldChoiceSet.choices): its base
 * choices (a predefined list), then its extra choices ({@code [value, label]} pairs), sorted by
 * label when the set orders alphabetically. Of NetBox's predefined lists only ISO 3166 (country
 * codes, from the JDK's locale data) is available here; IATA and UN/LOCODE are not bundled, and
 * a set cannot name them (the choice set declaration refuses them).
 */
public final class ChoiceSetChoices {
    public static final String ISO_3166 = "ISO_3166";

    /** A choice: the stored value and its label. */
    public record Choice(String value, String label) {}

    private ChoiceSetChoices() {}

    public static List<Choice> of(String baseChoices, JsonNode extraChoices, boolean alphabetical) {
        List<Choice> out = new ArrayList<>();
        if (ISO_3166.equals(baseChoices)) {
            for (String code : Locale.getISOCountries()) {
                out.add(new Choice(code, new Locale("", code).getDisplayCountry(Locale.ENGLISH)));
            }
        }
        if (extraChoices != null && extraChoices.isArray()) {
            for (JsonNode pair : extraChoices) {
                if (pair.isArray() && pair.size() == 2) {
                    out.add(new Choice(pair.get(0).asText(), pair.get(1).asText()));
                }
            }
        }
        if (alphabetical) {
            out.sort(Comparator.comparing(Choice::label));
        }
        return out;
    }

    /** The values only, as a custom field validates against them. */
    public static List<String> values(String baseChoices, JsonNode extraChoices) {
        return of(baseChoices, extraChoices, false).stream().map(Choice::value).toList();
    }
}
