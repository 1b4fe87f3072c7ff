package org.sourceoftruth.model.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sourceoftruth.model.Json;

class ConditionsTest {

    private static final JsonNode PREFIX = json("""
            {"id": 12, "prefix": "10.1.0.0/24", "status": {"value": "active", "label": "Active"},
             "vlan": null, "mark_utilized": false, "weight": 2.5, "description": "core uplinks",
             "tags": [{"name": "Alpha", "slug": "alpha"}, {"name": "Beta", "slug": "beta"}],
             "sites": [{"region": {"slug": "eu"}}, {"region": {"slug": "us"}}],
             "custom_fields": {"ticket": "NET-42", "owners": ["ops", "net"]}}""");

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static boolean evaluate(String conditions) throws Exception {
        return Conditions.parse(json(conditions)).evaluate(PREFIX);
    }

    private static String invalid(String conditions) {
        return assertThrows(InvalidConditionException.class, () -> Conditions.parse(json(conditions)))
                .getMessage();
    }

    @Test
    void noConditionsAlwaysFire() throws Exception {
        assertSame(Conditions.ALWAYS, Conditions.parse(null));
        assertSame(Conditions.ALWAYS, Conditions.parse(json("null")));
        assertSame(Conditions.ALWAYS, Conditions.parse(json("{}")));
        assertTrue(Conditions.ALWAYS.evaluate(PREFIX));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                // eq is the default operator; strings, numbers, booleans, null, lists
                "{'attr': 'status.value', 'value': 'active'}                       | true",
                "{'attr': 'status.value', 'value': 'planned'}                      | false",
                "{'attr': 'id', 'value': 12.0}                                     | true",
                "{'attr': 'mark_utilized', 'value': false}                         | true",
                "{'attr': 'vlan', 'value': null}                                   | true",
                "{'attr': 'custom_fields.owners', 'value': ['ops', 'net']}         | true",
                // ordering
                "{'attr': 'id', 'value': 12, 'op': 'gt'}                           | false",
                "{'attr': 'id', 'value': 12, 'op': 'gte'}                          | true",
                "{'attr': 'weight', 'value': 3, 'op': 'lt'}                        | true",
                "{'attr': 'weight', 'value': 2.5, 'op': 'lte'}                     | true",
                // in: the data value is one of a list
                "{'attr': 'status.value', 'value': ['active', 'planned'], 'op': 'in'} | true",
                "{'attr': 'status.value', 'value': ['retired'], 'op': 'in'}        | false",
                // contains: substring, list membership, dict key
                "{'attr': 'description', 'value': 'uplink', 'op': 'contains'}      | true",
                "{'attr': 'custom_fields.owners', 'value': 'ops', 'op': 'contains'} | true",
                "{'attr': 'custom_fields', 'value': 'ticket', 'op': 'contains'}    | true",
                // regex is anchored at the start only (re.match)
                "{'attr': 'custom_fields.ticket', 'value': 'NET-\\\\d+', 'op': 'regex'} | true",
                "{'attr': 'custom_fields.ticket', 'value': '\\\\d+', 'op': 'regex'} | false",
                "{'attr': 'prefix', 'value': '10\\\\.1', 'op': 'regex'}             | true",
                // negate
                "{'attr': 'status.value', 'value': 'active', 'negate': true}       | false",
                "{'attr': 'id', 'value': 100, 'op': 'gt', 'negate': true}          | true",
                // a path through a list maps over it
                "{'attr': 'tags.slug', 'value': 'beta', 'op': 'contains'}          | true",
                "{'attr': 'tags.slug', 'value': ['alpha', 'beta']}                 | true",
                "{'attr': 'sites.region.slug', 'value': 'us', 'op': 'contains'}    | true",
                "{'attr': 'sites.region.slug', 'value': 'apac', 'op': 'contains'}  | false",
            })
    void singleConditions(String condition, boolean expected) throws Exception {
        assertEquals(expected, evaluate("{\"and\": [" + condition.replace('\'', '"') + "]}"));
    }

    @Test
    void setsCombineAndNestCaseInsensitively() throws Exception {
        String active = "{\"attr\": \"status.value\", \"value\": \"active\"}";
        String planned = "{\"attr\": \"status.value\", \"value\": \"planned\"}";
        String tagged = "{\"attr\": \"tags.slug\", \"value\": \"alpha\", \"op\": \"contains\"}";
        assertTrue(evaluate("{\"and\": [" + active + ", " + tagged + "]}"));
        assertFalse(evaluate("{\"AND\": [" + planned + ", " + tagged + "]}"));
        assertTrue(evaluate("{\"Or\": [" + planned + ", " + tagged + "]}"));
        assertFalse(evaluate("{\"or\": [" + planned + "]}"));
        assertTrue(evaluate("{\"and\": [" + tagged + ", {\"or\": [" + planned + ", " + active + "]}]}"));
        assertFalse(evaluate("{\"and\": [" + tagged + ", {\"or\": [" + planned + ", {\"and\": [" + planned + "]}]}]}"));
        assertTrue(evaluate("{\"and\": []}"));
        assertFalse(evaluate("{\"or\": []}"));
    }

    @Test
    void missingKeysStopTheRuleFromFiring() {
        String missing = "{\"attr\": \"status.nope\", \"value\": \"x\"}";
        String active = "{\"attr\": \"status.value\", \"value\": \"active\"}";
        assertEquals(
                "Invalid key path: status.nope",
                assertThrows(ConditionEvaluationException.class, () -> evaluate("{\"and\": [" + missing + "]}"))
                        .getMessage());
        // NetBox evaluates every member, so a missing key fails an "or" even when another branch matches
        assertThrows(ConditionEvaluationException.class, () -> evaluate("{\"or\": [" + active + ", " + missing + "]}"));
        // a null on the way counts as an empty object
        assertThrows(
                ConditionEvaluationException.class,
                () -> evaluate("{\"and\": [{\"attr\": \"vlan.vid\", \"value\": 5}]}"));
        // a list item without the key
        assertThrows(
                ConditionEvaluationException.class,
                () -> evaluate("{\"and\": [{\"attr\": \"tags.color\", \"value\": \"x\", \"op\": \"contains\"}]}"));
    }

    @Test
    void dataOfTheWrongTypeStopsTheRuleFromFiring() {
        ConditionEvaluationException e = assertThrows(
                ConditionEvaluationException.class,
                () -> evaluate("{\"and\": [{\"attr\": \"description\", \"value\": 3, \"op\": \"gt\"}]}"));
        assertTrue(e.getMessage().startsWith("Invalid data type at 'description' for 'gt' evaluation"), e.getMessage());
        assertThrows(
                ConditionEvaluationException.class,
                () -> evaluate("{\"and\": [{\"attr\": \"id\", \"value\": \"1\", \"op\": \"regex\"}]}"));
        assertThrows(
                ConditionEvaluationException.class,
                () -> evaluate("{\"and\": [{\"attr\": \"id\", \"value\": 1, \"op\": \"contains\"}]}"));
    }

    @Test
    void invalidDocumentsAreRejectedWithNetBoxMessages() {
        assertEquals("Ruleset must be a dictionary, not <class 'list'>.", invalid("[]"));
        assertEquals("Ruleset must have exactly one logical operator (found 2)", invalid("{\"and\": [], \"or\": []}"));
        assertEquals(
                "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.", invalid("{\"xor\": []}"));
        assertEquals(
                "Unknown operator: like. Must be one of: eq, gt, gte, lt, lte, in, contains, regex",
                invalid("{\"and\": [{\"attr\": \"a\", \"value\": \"b\", \"op\": \"like\"}]}"));
        assertEquals(
                "Invalid type for gt operation: <class 'str'>",
                invalid("{\"and\": [{\"attr\": \"a\", \"value\": \"b\", \"op\": \"gt\"}]}"));
        assertEquals(
                "Invalid type for in operation: <class 'int'>",
                invalid("{\"and\": [{\"attr\": \"a\", \"value\": 1, \"op\": \"in\"}]}"));
        assertEquals(
                "Unsupported value type: <class 'dict'>", invalid("{\"and\": [{\"attr\": \"a\", \"value\": {}}]}"));
        assertTrue(invalid("{\"and\": [{\"value\": 1}]}").contains("'attr'"));
        assertTrue(invalid("{\"and\": [{\"attr\": \"a\"}]}").contains("no 'value'"));
        assertTrue(invalid("{\"and\": [{\"attr\": \"a\", \"value\": 1, \"extra\": 2}]}")
                .contains("Unknown key 'extra'"));
        assertTrue(invalid("{\"and\": [{\"attr\": \"a\", \"value\": \"(\", \"op\": \"regex\"}]}")
                .startsWith("Invalid regular expression"));
        assertTrue(invalid("{\"and\": {\"attr\": \"a\", \"value\": 1}}").contains("must hold a list"));
        assertTrue(Conditions.validate(json("{\"or\": [{\"attr\": \"a\", \"value\": [1], \"op\": \"contains\"}]}"))
                .isEmpty());
        assertEquals(
                "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.",
                Conditions.validate(json("{\"not\": []}")).orElseThrow());
    }
}
