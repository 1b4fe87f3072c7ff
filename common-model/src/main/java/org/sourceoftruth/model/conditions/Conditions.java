package org.sourceoftruth.model.conditions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parser and validator for event-rule conditions. records-api calls {@link #validate(JsonNode)}
 * when a rule is saved; webhook-dispatcher calls {@link #parse(JsonNode)} when it loads rules.
 * The messages follow NetBox's wording.
 */
public final class Conditions {

    /** The condition of a rule without conditions: it always fires. */
    public static final Condition ALWAYS = new Always();

    private static final Set<String> RULE_KEYS = Set.of("attr", "value", "op", "negate");

    private Conditions() {}

    /** @return the save-time error for this document, or empty when it is valid */
    public static Optional<String> validate(JsonNode conditions) {
        try {
            parse(conditions);
            return Optional.empty();
        } catch (InvalidConditionException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * @param conditions the rule's {@code conditions} column; null, JSON null or an empty object
     *                   mean "no conditions"
     */
    public static Condition parse(JsonNode conditions) throws InvalidConditionException {
        if (conditions == null
                || conditions.isNull()
                || conditions.isMissingNode()
                || (conditions.isObject() && conditions.isEmpty())) {
            return ALWAYS;
        }
        return parseSet(conditions);
    }

    private static ConditionSet parseSet(JsonNode ruleset) throws InvalidConditionException {
        if (!ruleset.isObject()) {
            throw new InvalidConditionException(
                    "Ruleset must be a dictionary, not " + PythonSemantics.typeName(ruleset) + ".");
        }
        if (ruleset.size() != 1) {
            throw new InvalidConditionException(
                    "Ruleset must have exactly one logical operator (found " + ruleset.size() + ")");
        }
        Map.Entry<String, JsonNode> only = ruleset.fields().next();
        ConditionSet.Logic logic = switch (only.getKey().toLowerCase(Locale.ROOT)) {
            case "and" -> ConditionSet.Logic.AND;
            case "or" -> ConditionSet.Logic.OR;
            default ->
                throw new InvalidConditionException(
                        "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.");
        };
        if (!only.getValue().isArray()) {
            throw new InvalidConditionException("The '" + only.getKey() + "' set must hold a list of conditions, not "
                    + PythonSemantics.typeName(only.getValue()) + ".");
        }
        List<Condition> members = new ArrayList<>();
        for (JsonNode member : only.getValue()) {
            members.add(isRuleset(member) ? parseSet(member) : parseRule(member));
        }
        return new ConditionSet(logic, List.copyOf(members));
    }

    private static boolean isRuleset(JsonNode node) {
        if (!node.isObject() || node.size() != 1) {
            return false;
        }
        String key = node.fieldNames().next().toLowerCase(Locale.ROOT);
        return key.equals("and") || key.equals("or");
    }

    private static AttributeCondition parseRule(JsonNode rule) throws InvalidConditionException {
        if (!rule.isObject()) {
            throw new InvalidConditionException(
                    "A condition must be a dictionary, not " + PythonSemantics.typeName(rule) + ".");
        }
        for (Iterator<String> names = rule.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!RULE_KEYS.contains(name)) {
                throw new InvalidConditionException(
                        "Unknown key '" + name + "' in condition; allowed keys are " + "attr, value, op and negate.");
            }
        }
        JsonNode attr = rule.get("attr");
        if (attr == null || !attr.isTextual() || attr.textValue().isEmpty()) {
            throw new InvalidConditionException("A condition needs 'attr', a dotted path such as \"status.value\".");
        }
        if (!rule.has("value")) {
            throw new InvalidConditionException("The condition on '" + attr.textValue() + "' has no 'value'.");
        }
        JsonNode value = rule.get("value");
        JsonNode opNode = rule.get("op");
        String opName = opNode == null || opNode.isNull() ? "eq" : opNode.asText();
        Operator op = Operator.fromJsonName(opName)
                .orElseThrow(() -> new InvalidConditionException(
                        "Unknown operator: " + opName + ". Must be one of: " + Operator.allJsonNames()));
        Set<Operator> allowed = operatorsFor(value);
        if (allowed == null) {
            throw new InvalidConditionException("Unsupported value type: " + PythonSemantics.typeName(value));
        }
        if (!allowed.contains(op)) {
            throw new InvalidConditionException(
                    "Invalid type for " + op.jsonName() + " operation: " + PythonSemantics.typeName(value));
        }
        JsonNode negateNode = rule.get("negate");
        if (negateNode != null && !negateNode.isNull() && !negateNode.isBoolean()) {
            throw new InvalidConditionException("'negate' must be true or false.");
        }
        boolean negate = negateNode != null && negateNode.asBoolean(false);
        Pattern regex = null;
        if (op == Operator.REGEX) {
            try {
                regex = Pattern.compile(value.textValue());
            } catch (PatternSyntaxException e) {
                throw new InvalidConditionException(
                        "Invalid regular expression '" + value.textValue() + "': " + e.getDescription());
            }
        }
        return new AttributeCondition(
                attr.textValue(), List.of(attr.textValue().split("\\.", -1)), value, op, negate, regex);
    }

    /** NetBox's Condition.TYPES: which operators suit which value type (null: unsupported type). */
    private static Set<Operator> operatorsFor(JsonNode value) {
        if (value.isNull()) {
            return EnumSet.of(Operator.EQ);
        }
        if (value.isTextual()) {
            return EnumSet.of(Operator.EQ, Operator.CONTAINS, Operator.REGEX);
        }
        if (value.isBoolean()) {
            return EnumSet.of(Operator.EQ, Operator.CONTAINS);
        }
        if (value.isNumber()) {
            return EnumSet.of(Operator.EQ, Operator.GT, Operator.GTE, Operator.LT, Operator.LTE, Operator.CONTAINS);
        }
        if (value.isArray()) {
            return EnumSet.of(Operator.EQ, Operator.IN, Operator.CONTAINS);
        }
        return null;
    }

    /** See {@link #ALWAYS}. */
    static final class Always implements Condition {
        @Override
        public boolean evaluate(JsonNode data) {
            return true;
        }

        @Override
        public String toString() {
            return "always";
        }
    }
}
