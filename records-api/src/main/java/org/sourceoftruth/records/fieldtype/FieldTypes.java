package org.sourceoftruth.records.fieldtype;

import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

/**
 * The one mapping from a declared {@link Kind} to its {@link FieldType}. The switch is
 * exhaustive, so a kind without a type does not compile.
 */
public final class FieldTypes {
    static final TextType TEXT = new TextType(false);
    static final IntegerType INTEGER = new IntegerType();
    private static final TextType SLUG = new TextType(true);
    private static final DecimalType DECIMAL = new DecimalType();
    private static final BooleanType BOOLEAN = new BooleanType();
    private static final DateType DATE = new DateType();
    private static final DateTimeType DATETIME = new DateTimeType();
    private static final JsonType JSON = new JsonType();
    private static final ChoiceType CHOICE = new ChoiceType();
    private static final StringListType STRING_LIST = new StringListType();
    private static final IntegerListType INTEGER_LIST = new IntegerListType();
    private static final ForeignKeyType FK = new ForeignKeyType();
    private static final ManyToManyType M2M = new ManyToManyType();
    private static final TagsType TAGS = new TagsType();
    private static final CustomFieldsType CUSTOM_FIELDS = new CustomFieldsType();
    private static final CountType COUNT = new CountType();
    private static final ComputedType COMPUTED = new ComputedType();
    private static final NetworkType INET = new NetworkType(false);
    private static final NetworkType CIDR = new NetworkType(true);
    private static final GenericForeignKeyType GENERIC_FK = new GenericForeignKeyType();
    private static final ImageType IMAGE = new ImageType();

    private FieldTypes() {}

    public static FieldType of(Kind kind) {
        return switch (kind) {
            case STRING -> TEXT;
            case SLUG -> SLUG;
            case INTEGER -> INTEGER;
            case DECIMAL -> DECIMAL;
            case BOOLEAN -> BOOLEAN;
            case DATE -> DATE;
            case DATETIME -> DATETIME;
            case JSON -> JSON;
            case CHOICE -> CHOICE;
            case STRING_LIST -> STRING_LIST;
            case INTEGER_LIST -> INTEGER_LIST;
            case FK -> FK;
            case M2M -> M2M;
            case TAGS -> TAGS;
            case CUSTOM_FIELDS -> CUSTOM_FIELDS;
            case COUNT -> COUNT;
            case COMPUTED -> COMPUTED;
            case INET -> INET;
            case CIDR -> CIDR;
            case GENERIC_FK -> GENERIC_FK;
            case IMAGE -> IMAGE;
        };
    }

    public static FieldType of(Field f) {
        return of(f.kind);
    }
}
