package io.numacol.calcite.ddl;

import io.numacol.calcite.CheckExpressions;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.NotNullViolationException;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.IntegralCodec;
import io.numacol.storage.types.StorageKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * ALTER TABLE ... ALTER [COLUMN] column SET NOT NULL | DROP NOT NULL | SET DEFAULT | DROP DEFAULT |
 * [SET DATA] TYPE, as PostgreSQL takes them: the table is rebuilt with the column changed ({@link
 * Database#alterTable}, its keys, foreign keys and checks kept as they are), so SET NOT NULL finds
 * a stored NULL as an INSERT would and refuses the ALTER, the table untouched; a DEFAULT applies
 * to the INSERTs after it and changes no stored row.
 */
final class ColumnAlteration {
    private ColumnAlteration() {
    }

    /** SET NOT NULL ({@code notNull}) or DROP NOT NULL of {@code column}. */
    static void setNotNull(Database database, Table table, String column, boolean notNull) {
        TableSchema schema = table.schema();
        int i = position(table, column);
        ColumnDef c = schema.column(i);
        if (!notNull) {
            for (TableSchema.KeyDef k : schema.keys()) {
                if (k.primary() && k.columns().contains(i)) {
                    throw new DdlException("42P16", "column \"" + c.name() + "\" is in a primary key: drop " + k.name()
                            + " first (ALTER TABLE " + table.name() + " DROP CONSTRAINT " + k.name() + ")");
                }
            }
            if (c.identity() != null) {
                throw new DdlException("42P16", "column \"" + c.name() + "\" of relation \"" + table.name() + "\" is an identity column, "
                        + "which is NOT NULL");
            }
        }
        if (c.nullable() == !notNull) {
            return; // as PostgreSQL: nothing to do is no error
        }
        try {
            replace(database, table, i, c.withNullable(!notNull));
        } catch (NotNullViolationException e) {
            throw new DdlException("23502", "column \"" + c.name() + "\" of relation \"" + table.name() + "\" contains null values: "
                    + "give those rows a value (or delete them) before SET NOT NULL", e);
        }
    }

    /**
     * SET DEFAULT {@code text} (a literal's text as DEFAULT reads it, null for NULL; or, {@code
     * expression}, a DEFAULT expression's text) or, {@code drop}, DROP DEFAULT of {@code column}; a
     * literal is checked against the column's type here, an expression when it was planned.
     */
    static void setDefault(Database database, Table table, String column, String text, boolean expression, boolean drop,
                           ZoneId zone) {
        int i = position(table, column);
        ColumnDef c = table.schema().column(i);
        if (c.identity() != null && !drop) {
            throw new DdlException("42P16", "column \"" + c.name() + "\" of relation \"" + table.name() + "\" is an identity column, "
                    + "which takes its values from its sequence and no DEFAULT");
        }
        if (drop && c.identity() != null) {
            return; // an identity column has no DEFAULT to drop
        }
        if (!expression) { // an expression was checked against the column when the statement was planned (DefaultValues)
            try {
                DdlParser.defaultValue(c, text, zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("DEFAULT of column " + e.getMessage(), e);
            }
        }
        replace(database, table, i, new ColumnDef(c.name(), c.type(), c.nullable(), text, null, expression));
    }

    /**
     * [SET DATA] TYPE {@code type} of {@code column}: each stored value cast as CAST(value AS type)
     * casts it (through its text, a fraction rounded to a whole number for an integral type); a
     * value that does not convert refuses the ALTER (22P02, 22003) and the table stays as it was.
     * Refused (0A000) on a column a key, foreign key or check uses, whose meaning a new type would
     * change underneath them, and on an identity column.
     */
    static void setType(Database database, Table table, String column, ColumnType type, ZoneId zone) {
        TableSchema schema = table.schema();
        int i = position(table, column);
        ColumnDef c = schema.column(i);
        String refusal = "cannot alter type of column \"" + c.name() + "\" of relation \"" + table.name() + "\": ";
        for (TableSchema.KeyDef k : schema.keys()) {
            if (k.columns().contains(i)) {
                throw new DdlException("0A000", refusal + "constraint " + k.name() + " uses it; drop the constraint, alter the column, "
                        + "then add it again");
            }
        }
        for (TableSchema.ForeignKeyDef f : schema.foreignKeys()) {
            if (f.columns().contains(i)) {
                throw new DdlException("0A000", refusal + "foreign key " + f.name() + " uses it; drop the constraint, alter the column, "
                        + "then add it again");
            }
        }
        for (TableSchema.CheckDef k : schema.checks()) {
            if (CheckExpressions.columns(k.expression(), schema).stream().anyMatch(c.name()::equalsIgnoreCase)) {
                throw new DdlException("0A000", refusal + "check constraint " + k.name() + " uses it; drop the constraint, alter the "
                        + "column, then add it again");
            }
        }
        if (c.identity() != null) {
            throw new DdlException("0A000", refusal + "it is an identity column");
        }
        io.numacol.storage.Partitioning partitioning = database.partitioning(table);
        if (partitioning != null && java.util.Arrays.stream(partitioning.keyColumns()).anyMatch(k -> k == i)) {
            // the partitioning deals by the stored values of the key's type (a RANGE's bounds are of it)
            throw new DdlException("0A000", refusal + "the table is placed " + database.placement(table) + " by it; SET PLACEMENT "
                    + "another way, alter the column, then place it again");
        }
        if (c.type().equals(type)) {
            return;
        }
        // a DEFAULT expression stays one (checked against the new type when the statement was planned); a literal is cast
        ColumnDef changed = new ColumnDef(c.name(), type, c.nullable(), c.defaultText(), null, c.defaultExpression());
        if (!c.defaultExpression()) {
            try {
                DdlParser.defaultValue(changed, c.defaultText(), zone);
            } catch (IllegalArgumentException e) {
                throw new DdlException("42804", "default for column \"" + c.name() + "\" cannot be cast to " + type + " ("
                        + e.getMessage() + "): ALTER COLUMN " + c.name() + " DROP DEFAULT first", e);
            }
        }
        ColumnType from = c.type();
        boolean rounded = type.codec() instanceof IntegralCodec && !(from.codec() instanceof IntegralCodec)
                && from.storageKind() != StorageKind.STRING;
        List<ColumnDef> next = new ArrayList<>(schema.columns());
        next.set(i, changed);
        database.alterTable(table, table.name(), new TableSchema(next, schema.keys(), schema.foreignKeys(), schema.checks()), row -> {
            Object[] out = row.clone();
            if (row[i] != null) {
                String text = from.codec().toText(from, row[i]);
                if (rounded) { // CAST(2.5 AS INTEGER) is 3, where reading "2.5" as an INTEGER would refuse it
                    text = new BigDecimal(text).setScale(0, RoundingMode.HALF_UP).toPlainString();
                }
                try {
                    out[i] = Appender.valueOfText(changed, text, zone);
                } catch (IllegalArgumentException e) {
                    // the words of the value's refusal (not a valid ..., out of range) say its SQLSTATE
                    throw new IllegalArgumentException("column " + c.name() + " of table " + table.name() + ": stored value " + text
                            + " cannot be cast to " + type + ": " + e.getMessage(), e);
                }
            }
            return out;
        }, n -> n, true);
    }

    /** The position of {@code column} in {@code table}, or 42703. */
    static int position(Table table, String column) {
        int i = table.schema().indexOf(column);
        if (i < 0) {
            throw new DdlException("42703", "column \"" + column + "\" of relation \"" + table.name() + "\" does not exist");
        }
        return i;
    }

    /** {@code table} rebuilt with {@code changed} at position {@code i}, every constraint kept. */
    private static void replace(Database database, Table table, int i, ColumnDef changed) {
        TableSchema schema = table.schema();
        List<ColumnDef> next = new ArrayList<>(schema.columns());
        next.set(i, changed);
        database.alterTable(table, table.name(), new TableSchema(next, schema.keys(), schema.foreignKeys(), schema.checks()),
                row -> row, n -> n, true);
    }
}
