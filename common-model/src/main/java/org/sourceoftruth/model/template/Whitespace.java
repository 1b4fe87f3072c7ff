package org.sourceoftruth.model.template;

/**
 * Jinja's whitespace settings of the environment (NetBox's {@code environment_params} of export
 * and config templates): {@code trim_blocks} drops the first newline after a block or comment tag,
 * {@code lstrip_blocks} strips spaces and tabs from the start of a line up to a block or comment
 * tag ({@code {%+} keeps them), {@code keep_trailing_newline} keeps the template's last newline.
 * Webhook templates use Jinja's defaults ({@link #DEFAULT}), as NetBox does.
 */
public record Whitespace(boolean trimBlocks, boolean lstripBlocks, boolean keepTrailingNewline) {
    public static final Whitespace DEFAULT = new Whitespace(false, false, false);
}
