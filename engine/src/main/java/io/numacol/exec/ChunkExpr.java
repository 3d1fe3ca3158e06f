package io.numacol.exec;

import io.numacol.storage.CodePoints;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;

/**
 * One output column of a {@link PlanNode.Project}: an input column, a constant, arithmetic that
 * {@link NumericKernel} computes a chunk at a time, a field of a date, or a CASE. {@code type} is what the column holds:
 * a computed exact number is stored as a long at its expression's scale, an approximate one as a
 * double.
 */
public sealed interface ChunkExpr {

    ColumnType type();

    record Column(int column, ColumnType type) implements ChunkExpr {
    }

    /** A stored value of {@code type} (Long, Double or String), or null for NULL. */
    record Constant(Object stored, ColumnType type) implements ChunkExpr {
        public Constant {
            boolean fits = switch (type.storageKind()) {
                case LONG -> stored instanceof Long;
                case DOUBLE -> stored instanceof Double;
                case STRING -> stored instanceof String;
            };
            if (stored != null && !fits) {
                throw new IllegalArgumentException(stored + " is not a stored value of " + type);
            }
        }
    }

    record Numeric(NumericExpr expr, ColumnType type) implements ChunkExpr {
        public Numeric {
            NumericExpr.Type t = expr.type();
            boolean fits = t.approximate() ? type.storageKind() == StorageKind.DOUBLE
                    : type.storageKind() == StorageKind.LONG && type.scale() == t.scale();
            if (!fits) {
                throw new IllegalArgumentException(expr + " computes " + t.name() + ", not " + type);
            }
        }
    }

    enum DateField { YEAR, MONTH, DAY }

    /** EXTRACT of a field from a DATE column (epoch days), as a BIGINT. */
    record Extract(DateField field, int column, ColumnType type) implements ChunkExpr {
        public Extract {
            if (type.storageKind() != StorageKind.LONG || type.scale() != 0) {
                throw new IllegalArgumentException("EXTRACT gives an integer, not " + type);
            }
        }
    }

    /**
     * A DATE column (epoch days) plus a number of months, then of days: {@code d + INTERVAL 'n'
     * DAY}, {@code d - INTERVAL 'm' MONTH}. A month added to the 31st ends on the last day of a
     * shorter month, as in SQL.
     */
    record DateShift(int column, long months, long days, ColumnType type) implements ChunkExpr {
        public DateShift {
            if (type.kind() != ColumnType.Kind.DATE) {
                throw new IllegalArgumentException("a date shift gives a DATE, not " + type);
            }
        }

        /** {@code epochDay} shifted. */
        long of(long epochDay) {
            long shifted = months == 0 ? epochDay : LocalDate.ofEpochDay(epochDay).plusMonths(months).toEpochDay();
            return ColumnType.dateInRange(shifted + days);
        }
    }

    /**
     * CASE WHEN {@code conditions[0]} THEN {@code values[0]} ... ELSE {@code otherwise}: each
     * row takes the value of the first condition that is TRUE on it. Every value is stored alike:
     * {@code type}'s storage kind and scale.
     */
    record Case(List<RowPredicate> conditions, List<ChunkExpr> values, ChunkExpr otherwise, ColumnType type)
            implements ChunkExpr {
        public Case {
            conditions = List.copyOf(conditions);
            values = List.copyOf(values);
            if (conditions.size() != values.size() || conditions.isEmpty()) {
                throw new IllegalArgumentException("a CASE needs a value for each of its conditions, at least one");
            }
            for (ChunkExpr v : Stream.concat(values.stream(), Stream.of(otherwise)).toList()) {
                if (v.type().storageKind() != type.storageKind() || v.type().scale() != type.scale()) {
                    throw new IllegalArgumentException("a CASE of " + type + " cannot take a value of " + v.type());
                }
            }
        }
    }

    /** SUBSTRING of a string column from 1-based {@code start}, {@code length} characters (code points, {@link CodePoints}). */
    record Substring(int column, int start, int length, ColumnType type) implements ChunkExpr {
        public Substring {
            if (type.storageKind() != StorageKind.STRING || length < 0) {
                throw new IllegalArgumentException("SUBSTRING gives a string of a length of at least 0, not " + type + ", " + length);
            }
        }

        /** SQL's SUBSTRING(s FROM start FOR length): the chars at 1-based positions start .. start + length - 1 that exist. */
        public static String of(String s, int start, int length) {
            return CodePoints.substring(s, start, length);
        }
    }

    /** A condition's truth as a BOOLEAN: TRUE 1, FALSE 0, unknown NULL. */
    record Condition(RowPredicate predicate, ColumnType type) implements ChunkExpr {
        public Condition {
            if (type.kind() != ColumnType.Kind.BOOLEAN) {
                throw new IllegalArgumentException("a condition is a BOOLEAN, not " + type);
            }
        }
    }
}
