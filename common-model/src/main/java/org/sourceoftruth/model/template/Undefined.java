package org.sourceoftruth.model.template;

/**
 * Jinja's Undefined: what a missing key or attribute evaluates to. It prints as nothing, is
 * false, and iterates as an empty sequence, so templates written for NetBox behave the same.
 */
final class Undefined {
    static final Undefined INSTANCE = new Undefined();

    private Undefined() {}

    @Override
    public String toString() {
        return "";
    }
}
