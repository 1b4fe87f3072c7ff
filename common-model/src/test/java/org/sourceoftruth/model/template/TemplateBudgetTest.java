package org.sourceoftruth.model.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Templates that would overflow the stack, exhaust the heap or run for hours are stopped by the
 * parser's nesting bound and the render budget, each with a clear
 * message, and quickly: every heavy case runs under a preemptive timeout.
 */
class TemplateBudgetTest {

    /** Far more than any of these templates needs when it is stopped, far less than unbounded. */
    private static final Duration QUICKLY = Duration.ofSeconds(20);

    private static Map<String, Object> context() {
        Map<String, Object> context = new HashMap<>();
        context.put("data", Map.of("name", "dc-01", "tags", List.of("a", "b")));
        return context;
    }

    private static String problem(String template) {
        Optional<String> problem = assertTimeoutPreemptively(QUICKLY, () -> WebhookTemplates.validate(template));
        assertTrue(problem.isPresent(), "accepted: " + template.substring(0, Math.min(80, template.length())));
        return problem.get();
    }

    /** Renders with a generous time limit, so that only the memory and output bounds can stop it. */
    private static TemplateRenderException renderFails(String template) throws Exception {
        CompiledTemplate compiled = WebhookTemplates.compile(template);
        return assertTimeoutPreemptively(
                QUICKLY,
                () -> assertThrows(
                        TemplateRenderException.class,
                        () -> compiled.render(context(), Duration.ofSeconds(60), 1_000_000)));
    }

    // ------------------------------------------------------------ nesting (parse time)

    @Test
    void aThousandNestedParenthesesAreASyntaxErrorNotAStackOverflow() {
        String message = problem("{{ " + "(".repeat(1000) + "1" + ")".repeat(1000) + " }}");
        assertEquals("line 1: expression is nested more than 100 levels deep", message);
    }

    @Test
    void everyKindOfDeepExpressionIsRefused() {
        for (String expression : List.of(
                "[".repeat(1000) + "]".repeat(1000),
                "-".repeat(5000) + "1",
                "not ".repeat(5000) + "true",
                "1" + " + 1".repeat(20_000),
                "data.name" + "|upper".repeat(5000),
                "data" + ".a".repeat(5000),
                "data.name.replace(".repeat(1000) + "'a', 'b')".repeat(1000))) {
            assertTrue(
                    problem("{{ " + expression + " }}").contains("nested more than 100 levels deep"),
                    expression.substring(0, 30));
        }
    }

    @Test
    void deeplyNestedBlocksAndSetsAreRefused() {
        assertTrue(problem("{% if true %}".repeat(5000) + "{% endif %}".repeat(5000))
                .contains("nested more than 100 levels deep"));
        assertTrue(problem("{% for t in data.tags %}".repeat(5000) + "{% endfor %}".repeat(5000))
                .contains("nested more than 100 levels deep"));
        StringBuilder sets = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            sets.append("{% set v").append(i).append(" = ").append(i).append(" %}");
        }
        assertTrue(problem(sets.toString()).contains("nested more than 100 levels deep"));
    }

    @Test
    void moderateNestingStillWorks() throws Exception {
        assertEquals(
                "1",
                WebhookTemplates.compile("{{ " + "(".repeat(50) + "1" + ")".repeat(50) + " }}")
                        .render(context(), Duration.ofSeconds(2), 1000));
        assertEquals(
                "x",
                WebhookTemplates.compile("{% if true %}".repeat(50) + "x" + "{% endif %}".repeat(50))
                        .render(context(), Duration.ofSeconds(2), 1000));
    }

    @Test
    void hugeIntegerLiteralsAreRefused() {
        assertTrue(problem("{{ " + "9".repeat(100_000) + " }}").contains("more than 4300 digits"));
    }

    // ------------------------------------------------------------ memory (render time)

    @Test
    void doublingAStringStopsAtTheMemoryLimit() throws Exception {
        StringBuilder template = new StringBuilder("{% set s0 = 'x' * 1000000 %}");
        for (int i = 1; i <= 40; i++) {
            template.append("{% set s")
                    .append(i)
                    .append(" = s")
                    .append(i - 1)
                    .append(" ~ s")
                    .append(i - 1)
                    .append(" %}");
        }
        template.append("{{ s40|length }}");
        assertTrue(renderFails(template.toString()).getMessage().contains("memory limit"));
    }

    @Test
    void largeValuesMadeInALoopStopAtTheMemoryLimit() throws Exception {
        // each iteration's value is kept until the whole output is assembled
        TemplateRenderException e = renderFails("{% for c in ('x' * 100000)|list %}{{ 'y' * 1000000 }}{% endfor %}");
        assertTrue(e.getMessage().contains("memory limit"), e.getMessage());
    }

    @Test
    void valuesWithSharedPartsCannotBeExpandedWithoutBound() throws Exception {
        StringBuilder sets = new StringBuilder("{% set l0 = ['" + "x".repeat(100) + "'] %}");
        for (int i = 1; i <= 12; i++) {
            String previous = "l" + (i - 1);
            sets.append("{% set l")
                    .append(i)
                    .append(" = [")
                    .append((previous + ",").repeat(9))
                    .append(previous)
                    .append("] %}");
        }
        for (String print :
                List.of("{{ l12|tojson }}", "{{ l12 }}", "{{ l12|join(',') }}", "{{ l12|string|length }}")) {
            TemplateRenderException e = renderFails(sets + print);
            assertTrue(e.getMessage().contains("memory limit"), print + ": " + e.getMessage());
        }
    }

    @Test
    void stringFunctionsCannotMultiplyTheirInput() throws Exception {
        for (String template : List.of(
                "{{ ('x' * 1000000)|replace('', 'yyyyyyyyyy') }}",
                "{{ data|tojson(indent=100000000) }}",
                "{% set s = ('&' * 1000000)|e %}{% set t = s|e %}{% set u = t|e %}{{ u|length }}",
                "{% set l = ('x ' * 500000).split() %}{% set m = l + l + l + l %}{{ (m + m + m + m)|length }}")) {
            TemplateRenderException e = renderFails(template);
            assertTrue(e.getMessage().contains("memory limit"), template + ": " + e.getMessage());
        }
    }

    @Test
    void integersStopGrowingAtPythonsDigitLimit() throws Exception {
        StringBuilder template = new StringBuilder("{% set n0 = 99999999999 %}");
        for (int i = 1; i <= 40; i++) {
            template.append("{% set n")
                    .append(i)
                    .append(" = n")
                    .append(i - 1)
                    .append(" * n")
                    .append(i - 1)
                    .append(" %}");
        }
        template.append("{{ n40 }}");
        assertTrue(renderFails(template.toString()).getMessage().contains("more than 4300 digits"));
        // as Jinja's int filter, on input Python refuses to convert: the default
        assertEquals(
                "0|0",
                WebhookTemplates.compile("{{ ('9' * 100000)|int }}|{{ '1e999999999'|int }}")
                        .render(context(), Duration.ofSeconds(2), 1000));
    }

    // ------------------------------------------------------------ steps (render time)

    @Test
    void nestedLoopsStopAtTheStepLimit() throws Exception {
        CompiledTemplate loops = WebhookTemplates.compile("{% set l = ('x' * 1000)|list %}"
                + "{% for a in l %}{% for b in l %}{% for c in l %}.{% endfor %}{% endfor %}{% endfor %}");
        RenderLimits limits = new RenderLimits(Duration.ofMinutes(5), 100_000, 1_000_000, 64L << 20);
        TemplateRenderException e = assertTimeoutPreemptively(
                QUICKLY, () -> assertThrows(TemplateRenderException.class, () -> loops.render(context(), limits)));
        assertEquals("template rendering took more than its limit of 100000 steps", e.getMessage());
    }

    @Test
    void anOrdinaryTemplateFitsTheDefaultBudget() throws Exception {
        RenderLimits limits = new RenderLimits(Duration.ofSeconds(2), 200_000, 1 << 20, 32L << 20);
        assertEquals(
                "dc-01: a,b",
                WebhookTemplates.compile("{{ data.name }}: {{ data.tags|join(',') }}")
                        .render(context(), limits));
    }
}
