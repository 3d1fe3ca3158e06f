package io.numacol.storage.types;

/** The messages of values a codec refuses, each naming the value and the column type. */
final class ValueErrors {
    private ValueErrors() {
    }

    static IllegalArgumentException wrongType(ColumnType type, Object value, String expected) {
        return new IllegalArgumentException("value " + Describe.value(value) + " (" + value.getClass().getName()
                + ") cannot be stored as " + type + ": expected " + expected);
    }

    static IllegalArgumentException outOfRange(ColumnType type, Object value) {
        return new IllegalArgumentException("value " + Describe.value(value) + " is out of range for " + type);
    }

    static IllegalArgumentException doesNotFit(ColumnType type, Object value) {
        return new IllegalArgumentException(Describe.value(value) + " does not fit " + type);
    }

    static IllegalArgumentException notFinite(ColumnType type, Object value) {
        return new IllegalArgumentException("value " + value + " is not a finite number, as " + type + " requires");
    }

    static IllegalArgumentException badStored(ColumnType type, long stored, String expected) {
        return new IllegalArgumentException("stored value " + stored + " is not a " + type + " value: expected " + expected);
    }
}
