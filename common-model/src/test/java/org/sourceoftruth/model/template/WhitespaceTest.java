package org.sourceoftruth.model.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jinja's trim_blocks, lstrip_blocks and keep_trailing_newline, as Jinja 3 renders them. */
class WhitespaceTest {
    private static final String LOOP =
            "<ul>\n    {% for x in items %}\n    <li>{{ x }}</li>\n    {% endfor %}\n</ul>\n";

    private static String render(String template, Whitespace ws) throws TemplateSyntaxException {
        return WebhookTemplates.compile(template, ws)
                .render(Map.of("items", List.of("a", "b")), Duration.ofSeconds(2), 1_000_000);
    }

    @Test
    void defaultsAreJinjasDefaults() throws Exception {
        assertEquals("<ul>\n    \n    <li>a</li>\n    \n    <li>b</li>\n    \n</ul>", render(LOOP, Whitespace.DEFAULT));
    }

    @Test
    void trimBlocksDropsTheNewlineAfterABlockTag() throws Exception {
        assertEquals(
                "<ul>\n        <li>a</li>\n        <li>b</li>\n    </ul>",
                render(LOOP, new Whitespace(true, false, false)));
    }

    @Test
    void lstripBlocksStripsTheIndentBeforeABlockTag() throws Exception {
        assertEquals(
                "<ul>\n\n    <li>a</li>\n\n    <li>b</li>\n\n</ul>", render(LOOP, new Whitespace(false, true, false)));
        // {%+ keeps the indent; text before the tag on its line is no indent
        assertEquals("  x", render("  {%+ if true %}x{% endif %}", new Whitespace(false, true, false)));
        assertEquals("a x", render("a {% if true %}x{% endif %}", new Whitespace(false, true, false)));
    }

    @Test
    void bothGiveTheLinesWithoutTheTags() throws Exception {
        assertEquals("<ul>\n    <li>a</li>\n    <li>b</li>\n</ul>", render(LOOP, new Whitespace(true, true, false)));
        // a +%} keeps the newline; comments are trimmed too
        assertEquals("x\n\ny", render("{# c #}\nx\n{% if true +%}\ny{% endif %}", new Whitespace(true, true, false)));
    }

    @Test
    void keepTrailingNewlineKeepsIt() throws Exception {
        assertEquals("a\n", render("a\n", new Whitespace(false, false, true)));
        assertEquals("a", render("a\n", Whitespace.DEFAULT));
    }
}
