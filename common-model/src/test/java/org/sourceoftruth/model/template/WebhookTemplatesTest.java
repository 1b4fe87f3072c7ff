package org.sourceoftruth.model.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;

class WebhookTemplatesTest {

    private static final String SITE = """
            {"id": 7, "url": "/api/dcim/sites/7/", "name": "dc-01", "slug": "dc-01",
             "status": {"value": "active", "label": "Active"},
             "tenant": null, "description": "",
             "tags": [{"id": 1, "name": "alpha", "slug": "alpha"}, {"id": 2, "name": "beta", "slug": "beta"}],
             "custom_fields": {"rack-count": 12, "owner": "net team"},
             "latitude": 1.5}""";

    private static Map<String, Object> context() {
        Map<String, Object> context = new HashMap<>();
        context.put("event", "updated");
        context.put("model", "dcim.site");
        context.put("username", "alice");
        context.put("data", PlainValues.fromJson(json(SITE)));
        context.put(
                "snapshots",
                PlainValues.fromJson(
                        json(
                                "{\"prechange\": {\"status\": \"planned\", \"name\": \"dc-01\"}, \"postchange\": {\"status\": \"active\"}}")));
        return context;
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String render(String template) throws TemplateSyntaxException {
        return WebhookTemplates.compile(template).render(context(), Duration.ofSeconds(2), 1_000_000);
    }

    private static String syntaxError(String template) {
        return assertThrows(TemplateSyntaxException.class, () -> WebhookTemplates.compile(template))
                .getMessage();
    }

    // ------------------------------------------------------------ literal text and escaping

    @Test
    void literalJsonBracesAndQuteSyntaxArePrintedAsTyped() throws Exception {
        // Qute section, comment and unparsed-text syntax in literal text stays literal
        String text = "{\"a\": {\"b\": [1, 2]}, \"c\": \"{x}\", \"d\": \"{/if}{|y|}{!c!}\\\\{\"}";
        assertEquals(text, render(text));
        assertEquals("a|}b}|{c", render("a|}b}|{c"));
        assertEquals("", render(""));
    }

    @Test
    void singleTrailingNewlineIsDroppedLikeJinja() throws Exception {
        assertEquals("x\n", render("x\n\n"));
        assertEquals("line1\nline2", render("line1\nline2\n"));
    }

    // ------------------------------------------------------------ expressions

    @Test
    void itemAndAttributeAccessReadTheData() throws Exception {
        assertEquals("dc-01", render("{{ data['name'] }}"));
        assertEquals("dc-01", render("{{data.name}}"));
        assertEquals("active/Active", render("{{ data.status.value }}/{{ data['status']['label'] }}"));
        assertEquals("12", render("{{ data.custom_fields['rack-count'] }}"));
        assertEquals("net team", render("{{ data[\"custom_fields\"][\"owner\"] }}"));
        assertEquals(
                "beta beta alpha", render("{{ data.tags[1].name }} {{ data.tags.1.slug }} {{ data.tags[-2].name }}"));
        assertEquals("planned", render("{{ snapshots['prechange']['status'] }}"));
        assertEquals("updated dcim.site alice", render("{{ event }} {{ model }} {{ username }}"));
    }

    @Test
    void dynamicKeysUseTheValueOfTheExpression() throws Exception {
        assertEquals("dc-01", render("{% set key = 'name' %}{{ data[key] }}"));
        assertEquals("Active", render("{{ data.status[data.status.value == 'active' and 'label' or 'value'] }}"));
    }

    @Test
    void valuesPrintLikePython() throws Exception {
        assertEquals("None", render("{{ data.tenant }}"));
        assertEquals("", render("{{ data.missing }}{{ data.missing.deeper }}{{ nothing }}"));
        assertEquals("{'value': 'active', 'label': 'Active'}", render("{{ data.status }}"));
        assertEquals("['alpha', 'beta']", render("{{ data.tags|map(attribute='name')|list }}"));
        assertEquals("True False 1.5 7", render("{{ true }} {{ data.id == 8 }} {{ data.latitude }} {{ data.id }}"));
    }

    @Test
    void filtersWork() throws Exception {
        assertEquals(
                "DC-01 dc-01 Dc-01", render("{{ data.name|upper }} {{ 'DC-01'|lower }} {{ data.name|capitalize }}"));
        assertEquals("alpha, beta", render("{{ data.tags|map(attribute='name')|join(', ') }}"));
        assertEquals("alpha-beta", render("{{ data.tags|join('-', attribute='slug') }}"));
        assertEquals(
                "n/a|n/a|",
                render(
                        "{{ data.missing|default('n/a') }}|{{ data.description|default('n/a', true) }}|{{ data.description|d('x') }}"));
        assertEquals("2 0 5", render("{{ data.tags|length }} {{ data.missing|count }} {{ data.name|length }}"));
        assertEquals("alpha beta", render("{{ (data.tags|first).name }} {{ (data.tags|last)['name'] }}"));
        assertEquals("dc_01", render("{{ data.name|replace('-', '_') }}"));
        assertEquals("42 3.5 0", render("{{ '42'|int }} {{ '3.5'|float }} {{ 'x'|int }}"));
        assertEquals("a%20b/c", render("{{ 'a b/c'|urlencode }}"));
        assertEquals("x", render("{{ '  x '|trim }}"));
    }

    @Test
    void tojsonWritesSortedHtmlSafeJson() throws Exception {
        assertEquals("{\"label\": \"Active\", \"value\": \"active\"}", render("{{ data.status|tojson }}"));
        assertEquals("\"\\u003cb\\u003e \\u0026 \\u0027\"", render("{{ '<b> & \\''|tojson }}"));
        assertEquals("null", render("{{ data.tenant|tojson }}"));
        assertEquals(
                "{\n  \"label\": \"Active\",\n  \"value\": \"active\"\n}",
                render("{{ data.status|tojson(indent=2) }}"));
        assertEquals("[\"alpha\", \"beta\"]", render("{{ data.tags|map(attribute='slug')|list|tojson }}"));
    }

    @Test
    void operatorsFollowPythonSemantics() throws Exception {
        assertEquals(
                "True True True",
                render(
                        "{{ data.id == 7.0 }} {{ 'alpha' in data.tags|map(attribute='name') }} {{ 'dc' in data.name }}"));
        assertEquals("dc-01!", render("{{ data.name ~ '!' }}"));
        assertEquals("n/a", render("{{ data.description or 'n/a' }}"));
        assertEquals(
                "9 14 3.5 3 1 -7",
                render(
                        "{{ data.id + 2 }} {{ data.id * 2 }} {{ data.id / 2 }} {{ data.id // 2 }} {{ data.id % 2 }} {{ -data.id }}"));
        assertEquals("True", render("{{ not data.tenant and data.id >= 7 and data.id < 8 }}"));
        assertEquals("True", render("{{ data.status.value not in ['planned', 'retired'] }}"));
    }

    @Test
    void testsWork() throws Exception {
        assertEquals("yes", render("{% if data.tenant is none and data.missing is not defined %}yes{% endif %}"));
        assertEquals(
                "yes",
                render("{% if data.id is number and data.id is odd and data.id is divisibleby(7) %}yes{% endif %}"));
    }

    @Test
    void methodsOnDictsAndStrings() throws Exception {
        assertEquals(
                "rack-count=12;owner=net team;",
                render("{% for k, v in data.custom_fields.items() %}{{ k }}={{ v }};{% endfor %}"));
        assertEquals("['rack-count', 'owner']", render("{{ data.custom_fields.keys()|list }}"));
        assertEquals(
                "none-set|12", render("{{ data.get('nope', 'none-set') }}|{{ data.custom_fields.get('rack-count') }}"));
        assertEquals(
                "True ['dc', '01'] DC",
                render("{{ data.name.startswith('dc') }} {{ data.name.split('-') }} {{ 'dc'.upper() }}"));
        assertEquals("a;b", render("{{ ';'.join(['a', 'b']) }}"));
    }

    // ------------------------------------------------------------ blocks

    @Test
    void ifElifElse() throws Exception {
        String template =
                "{% if data.status.value == 'planned' %}P{% elif data.status.value == 'active' %}A{% else %}O{% endif %}";
        assertEquals("A", render(template));
        assertEquals("none", render("{% if data.tenant %}{{ data.tenant.name }}{% else %}none{% endif %}"));
        assertEquals("empty", render("{% if not data.description %}empty{% endif %}"));
    }

    @Test
    void forLoopsWithLoopVariablesAndElse() throws Exception {
        assertEquals(
                "1:alpha,2:beta.",
                render(
                        "{% for t in data.tags %}{{ loop.index }}:{{ t.name }}{% if not loop.last %},{% endif %}{% endfor %}."));
        assertEquals("0/2 1/2 ", render("{% for t in data.tags %}{{ loop.index0 }}/{{ loop.length }} {% endfor %}"));
        assertEquals("none", render("{% for t in data.missing %}{{ t }}{% else %}none{% endfor %}"));
        assertEquals(
                "alpha:dc-01 beta:dc-01 ",
                render(
                        "{% for t in data.tags %}{% for u in [data.name] %}{{ t.name }}:{{ u }} {% endfor %}{% endfor %}"));
        assertEquals(
                "a:1 b:2 ", render("{% for pair in [['a', 1], ['b', 2]] %}{{ pair[0] }}:{{ pair[1] }} {% endfor %}"));
    }

    @Test
    void keepsNewlinesAroundBlockTagsAndHonoursWhitespaceControl() throws Exception {
        assertEquals(
                "[\n\n  \"alpha\",\n\n  \"beta\",\n\n]",
                render("[\n{% for t in data.tags %}\n  \"{{ t.name }}\",\n{% endfor %}\n]"));
        assertEquals(
                "[\"alpha\",\"beta\",]",
                render("[\n{%- for t in data.tags -%}\n  \"{{ t.name }}\",\n{%- endfor %}\n]".replace("\n]", "]")));
    }

    @Test
    void setAndRawAndComments() throws Exception {
        assertEquals("dc-01/dc-01", render("{% set n = data.name %}{{ n }}/{{ n }}"));
        assertEquals("{{ data.name }} {% if %}", render("{% raw %}{{ data.name }} {% if %}{% endraw %}"));
        assertEquals("ab", render("a{# a comment with {{ braces }} #}b"));
    }

    @Test
    void stringLiteralsWithAnyCharactersSurvive() throws Exception {
        assertEquals("it's \"quoted\" {x} |} \\ \n", render("{{ 'it\\'s \"quoted\" {x} |} \\\\ \\n' }}"));
        assertEquals("a, b", render("{{ ['a', 'b']|join(', ') }}"));
    }

    @Test
    void typicalNetBoxBodyTemplateRendersValidJson() throws Exception {
        String template = """
                {
                  "text": "Site {{ data['name'] }} was {{ event }} by {{ username }}",
                  "status": "{{ data.status.value }}",
                  "tags": [{% for t in data.tags %}"{{ t.slug }}"{% if not loop.last %}, {% endif %}{% endfor %}],
                  "site": {{ data|tojson }}
                }
                """;
        JsonNode rendered = json(render(template));
        assertEquals("Site dc-01 was updated by alice", rendered.get("text").asText());
        assertEquals("beta", rendered.get("tags").get(1).asText());
        assertEquals(
                12, rendered.get("site").get("custom_fields").get("rack-count").asInt());
    }

    // ------------------------------------------------------------ sandbox and limits

    @Test
    void templatesCannotReachJavaObjects() throws Exception {
        Map<String, Object> context = context();
        context.put("object", new Object() {
            @Override
            public String toString() {
                return "java";
            }

            @SuppressWarnings("unused")
            public String getSecret() {
                return "leaked";
            }
        });
        String rendered = WebhookTemplates.compile("{{ data.getClass }}|{{ data.name.getBytes }}|{{ object.secret }}"
                        + "|{{ object.getSecret }}|{{ data.size }}|{{ data.tags.size }}")
                .render(context, Duration.ofSeconds(2), 1000);
        assertEquals("|||||", rendered);
        assertTrue(syntaxError("{{ data.name.getBytes() }}").contains("not available"));
        assertTrue(syntaxError("{{ range(10) }}").contains("not supported"));
    }

    @Test
    void renderingStopsAtTheTimeLimit() throws Exception {
        Map<String, Object> context = context();
        context.put("many", java.util.Collections.nCopies(2000, 1L));
        CompiledTemplate heavy = WebhookTemplates.compile(
                "{% for a in many %}{% for b in many %}{% for c in many %}{{ c }}{% endfor %}{% endfor %}{% endfor %}");
        long start = System.nanoTime();
        TemplateRenderException e = assertThrows(
                TemplateRenderException.class, () -> heavy.render(context, Duration.ofMillis(300), Integer.MAX_VALUE));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("time limit"), e.getMessage());
        // Unbounded, this template would run for hours; the bound is generous so that a busy
        // machine cannot fail it, and still proves that rendering was cut off.
        assertTrue(millis < 30_000, "took " + millis + " ms");
    }

    @Test
    void renderingStopsAtTheOutputLimit() throws Exception {
        CompiledTemplate template = WebhookTemplates.compile("{% for t in data.tags %}{{ data|tojson }}{% endfor %}");
        TemplateRenderException e = assertThrows(
                TemplateRenderException.class, () -> template.render(context(), Duration.ofSeconds(2), 100));
        assertTrue(e.getMessage().contains("longer than 100"), e.getMessage());
    }

    @Test
    void typeErrorsAreRenderErrors() throws Exception {
        CompiledTemplate template = WebhookTemplates.compile("{{ data.name > 3 }}");
        TemplateRenderException e = assertThrows(
                TemplateRenderException.class, () -> template.render(context(), Duration.ofSeconds(2), 1000));
        assertTrue(e.getMessage().contains("'>' not supported between instances of 'str' and 'int'"), e.getMessage());
    }

    @Test
    void headerTemplatesCannotInjectLines() throws Exception {
        Map<String, Object> context = new HashMap<>();
        context.put("data", Map.of("name", "x\r\nX-Evil: 1"));
        assertEquals(
                "X-Site: xX-Evil: 1",
                WebhookTemplates.compileHeaders("X-Site: {{ data.name }}")
                        .render(context, Duration.ofSeconds(1), 1000));
    }

    // ------------------------------------------------------------ syntax errors

    @Test
    void parseErrorsAreDetectedWithTheirLine() {
        assertEquals(
                "line 1: unexpected end of template inside a expression; missing '}}'", syntaxError("{{ data.name"));
        assertTrue(syntaxError("a\n{% if data.name %}x").startsWith("line 2: 'if' block is never closed"));
        assertTrue(syntaxError("{% endif %}").contains("unexpected 'endif'"));
        assertTrue(syntaxError("{% for t in data.tags %}{% endif %}").contains("innermost open block is 'for'"));
        assertTrue(syntaxError("x\n\n{{ data.name|nosuch }}").startsWith("line 3: no filter named 'nosuch'"));
        assertTrue(syntaxError("{{ data.name|replace('a') }}").contains("takes 2 to 3 argument(s), got 1"));
        assertTrue(syntaxError("{% macro m() %}{% endmacro %}").contains("unsupported tag 'macro'"));
        assertTrue(syntaxError("{{ data[ }}").startsWith("line 1:"));
        assertTrue(syntaxError("{{ }}").contains("expected an expression"));
        assertTrue(syntaxError("{{ 'open }}").contains("missing '}}'"));
        assertTrue(syntaxError("{% if x is nosuchtest %}{% endif %}").contains("no test named 'nosuchtest'"));
        assertTrue(syntaxError("{% else %}").contains("'else' outside"));
    }

    @Test
    void validateReportsProblemsWithoutThrowing() {
        assertTrue(WebhookTemplates.validate("{{ data['name'] }} {% for t in data.tags %}{{ t }}{% endfor %}")
                .isEmpty());
        assertTrue(WebhookTemplates.validate(null).isEmpty());
        assertFalse(WebhookTemplates.validate("{% for t in data.tags %}").isEmpty());
    }

    @Test
    void translationUsesUnparsedTextAndFunctions() throws Exception {
        assertEquals(
                "{|{\"a\": |}{fn:str(data['name'])}{|}|}",
                JinjaToQute.translate("{\"a\": {{ data['name'] }}}").replace("data.name", "data['name']"));
        assertEquals(
                "{#if fn:eq(data.status.value,'active')}{|x|}{/if}",
                JinjaToQute.translate("{% if data.status.value == 'active' %}x{% endif %}"));
        assertEquals(
                "{#for jinja_loop_1 in fn:iter(data.tags)}{fn:str(jinja_loop_1.name)}{/for}",
                JinjaToQute.translate("{% for t in data.tags %}{{ t.name }}{% endfor %}"));
        assertEquals(List.of(), List.of());
    }
}
