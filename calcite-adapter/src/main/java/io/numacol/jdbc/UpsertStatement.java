package io.numacol.jdbc;

import io.numacol.calcite.cache.BoundParameters;
import io.numacol.calcite.dml.OnConflict;
import io.numacol.calcite.dml.Upsert;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Enumerator;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A prepared {@code INSERT ... ON CONFLICT} ({@link OnConflict}): the INSERT as Calcite plans it,
 * and for DO UPDATE a query Calcite plans for the SET values and the WHERE over two rows given as
 * parameters, the existing row (named as the table or its alias) and the proposed one ({@code
 * EXCLUDED}), so that they are computed and checked as any query's expressions are. The user's
 * statement has the INSERT's parameters, then the clause's; {@link Upsert} does the rest.
 *
 * @param clause      the clause
 * @param insert      the INSERT's statement
 * @param assignments the SET and WHERE query's statement, or null for DO NOTHING
 * @param width       the table's columns (each row passed to the query takes as many parameters)
 * @param signature   what the user's statement shows: the INSERT's, with the clause's parameters after its own
 */
record UpsertStatement(OnConflict clause, Meta.StatementHandle insert, Meta.StatementHandle assignments, int width,
                       Meta.Signature signature) {
    private static final String EXISTING = "numacol$existing";
    private static final String PROPOSED = "numacol$excluded";

    /**
     * The query computing DO UPDATE's SET values for {@code schema}'s rows, one row if the WHERE
     * holds, none if not: {@code 2 * columns} parameters for the two rows, then the clause's own.
     * A column named without a table is the existing row's, as in PostgreSQL; a SET value that is
     * a lone parameter or NULL is typed as its column.
     */
    static String assignmentsQuery(OnConflict clause, TableSchema schema) {
        StringBuilder columns = new StringBuilder();
        StringBuilder casts = new StringBuilder();
        for (int c = 0; c < schema.size(); c++) {
            columns.append(c == 0 ? "" : ", ").append(quoted(schema.column(c).name()));
            casts.append(c == 0 ? "" : ", ").append("CAST(? AS ").append(sqlType(schema.column(c).type())).append(')');
        }
        StringBuilder sql = new StringBuilder("WITH ").append(quoted(EXISTING)).append('(').append(columns).append(") AS (VALUES (")
                .append(casts).append(")), ").append(quoted(PROPOSED)).append('(').append(columns).append(") AS (VALUES (")
                .append(casts).append(")) SELECT ");
        String alias = quoted(clause.alias());
        for (int j = 0; j < clause.setColumns().size(); j++) {
            int c = schema.indexOf(clause.setColumns().get(j));
            if (c < 0) {
                throw new IllegalArgumentException("column \"" + clause.setColumns().get(j) + "\" of relation \""
                        + clause.table().getLast() + "\" does not exist");
            }
            String value = clause.setValues().get(j).strip();
            sql.append(j == 0 ? "" : ", ");
            if (value.equals("?") || value.equalsIgnoreCase("NULL")) {
                // typed as the column, as an UPDATE's SET c = ? is (Calcite types an expression's parameters from the other operands)
                sql.append("CASE WHEN TRUE THEN ").append(value).append(" ELSE ").append(alias).append('.')
                        .append(quoted(schema.column(c).name())).append(" END");
            } else {
                sql.append('(').append(qualified(value, schema, alias)).append(')');
            }
        }
        sql.append(" FROM ").append(quoted(EXISTING)).append(" AS ").append(alias).append(", ").append(quoted(PROPOSED))
                .append(" AS \"EXCLUDED\"");
        if (clause.where() != null) {
            sql.append(" WHERE ").append(qualified(clause.where(), schema, alias)); // no row: the existing row stays as it is
        }
        return sql.toString();
    }

    /** {@code expression} with every column of the table named alone qualified by {@code alias}. */
    private static String qualified(String expression, TableSchema schema, String alias) {
        return OnConflict.qualify(expression, name -> schema.indexOf(name) >= 0, alias);
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** The column's type as Calcite's CAST spells it. */
    private static String sqlType(ColumnType type) {
        String spelled = type.codec().spell(type);
        return switch (type.kind()) {
            case TIMESTAMP_TZ -> "TIMESTAMP WITH LOCAL TIME ZONE";
            default -> spelled.toUpperCase(Locale.ROOT);
        };
    }

    /** The user's statement's parameters: the INSERT's, then the clause's (after the two rows' of the query). */
    static List<AvaticaParameter> parameters(Meta.Signature insert, Meta.Signature assignments, int width) {
        List<AvaticaParameter> all = new ArrayList<>(insert.parameters);
        if (assignments != null) {
            all.addAll(assignments.parameters.subList(2 * width, assignments.parameters.size()));
        }
        return all;
    }

    /** The INSERT's parameters of an execution's {@code values}. */
    List<TypedValue> insertValues(List<TypedValue> values) {
        return values.subList(0, Math.min(values.size(), insert.signature.parameters.size()));
    }

    /**
     * DO UPDATE's evaluation with the clause's parameters of an execution's {@code values}, made
     * to fit their types as any query's are; null for DO NOTHING.
     */
    Upsert.Assignments assignments(List<TypedValue> values, ZoneId zone) {
        if (assignments == null) {
            return null;
        }
        int own = insert.signature.parameters.size();
        // the two rows' parameters are set per conflict, as internal values (the lambda below)
        List<TypedValue> all = new ArrayList<>(Collections.nCopies(2 * width, TypedValue.ofLocal(ColumnMetaData.Rep.OBJECT, null)));
        all.addAll(values.subList(Math.min(own, values.size()), values.size()));
        List<TypedValue> fitted = ParameterValues.fit(assignments.signature, all, zone);
        Object[] locals = new Object[fitted.size()];
        for (int i = 2 * width; i < locals.length; i++) {
            locals[i] = fitted.get(i) == null ? null : fitted.get(i).toLocal();
        }
        CalciteSignature<?> query = (CalciteSignature<?>) assignments.signature;
        return (existing, proposed, root) -> {
            Object[] parameters = locals.clone();
            System.arraycopy(existing, 0, parameters, 0, width);
            System.arraycopy(proposed, 0, parameters, width, width);
            try (Enumerator<?> rows = query.enumerable(new BoundParameters(root, Arrays.asList(parameters))).enumerator()) {
                if (!rows.moveNext()) {
                    return null; // the WHERE does not hold
                }
                Object row = rows.current();
                return row instanceof Object[] array ? array : new Object[]{row};
            }
        };
    }
}
