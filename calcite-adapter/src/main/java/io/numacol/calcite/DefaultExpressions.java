package io.numacol.calcite;

import io.numacol.storage.Catalog;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;
import java.util.Set;

/**
 * The text of a column's DEFAULT expression (one that is not a literal value): read, refused
 * where PostgreSQL refuses it, and made ready for the validator. A DEFAULT reads no column and no
 * table: a column reference is 42P10, a subquery 0A000, an aggregate 42803, a window function
 * 42P20 and a parameter 42P02, PostgreSQL's codes. Its {@code nextval('s')} names the sequence in
 * the table's schema, looked up as each statement is planned; the numbers it takes are not any
 * connection's currval (they are taken for the table, under a session of the defaults' own).
 */
public final class DefaultExpressions {
    /** The sequence state of the numbers DEFAULTs take: a session no connection has, so never any connection's currval. */
    private static final SequenceCalls.Session SESSION = new SequenceCalls.Session();
    /** Calls whose answer differs each time: ALTER TABLE .. ADD COLUMN evaluates such a DEFAULT once per row. */
    private static final Set<String> VOLATILE = Set.of("NEXTVAL", "SETVAL", "GEN_RANDOM_UUID", "RAND", "RAND_INTEGER", "RANDOM");

    /** SQL's functions called without parentheses, which the parser reads as names: the validator makes them calls. */
    private static final Set<String> NILADIC = Set.of("CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "LOCALTIMESTAMP",
            "LOCALTIME", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER", "USER", "CURRENT_ROLE", "CURRENT_SCHEMA", "CURRENT_CATALOG",
            "CURRENT_PATH");

    private DefaultExpressions() {
    }

    /** Why a DEFAULT is refused: PostgreSQL's SQLSTATE and a message that says what to change. */
    public record Refusal(String sqlState, String message) {
    }

    /**
     * {@code expression} parsed alone, as one expression.
     *
     * @throws IllegalArgumentException when it is not (a syntax error, 42601), saying where in it
     */
    public static SqlNode parse(String expression) {
        return CheckExpressions.parse(expression, "DEFAULT " + expression);
    }

    /** Why {@code expression} cannot be a DEFAULT, or null when it can be (as far as its form goes; its type is the validator's). */
    public static Refusal refusal(SqlNode expression) {
        Refusal[] found = {null};
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (found[0] != null) {
                    return null;
                }
                if (call instanceof SqlSelect || call.getKind().belongsTo(SqlKind.QUERY) || call.getKind() == SqlKind.EXISTS
                        || call.getKind() == SqlKind.SCALAR_QUERY) {
                    found[0] = new Refusal("0A000", "cannot use subquery in DEFAULT expression");
                    return null;
                }
                if (call.getKind() == SqlKind.OVER) {
                    found[0] = new Refusal("42P20", "window functions are not allowed in DEFAULT expressions");
                    return null;
                }
                if (call.getOperator().isAggregator() || SqlKind.AGGREGATE.contains(call.getKind())
                        || Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "STRING_AGG", "ARRAY_AGG", "LISTAGG")
                        .contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                    found[0] = new Refusal("42803", "aggregate functions are not allowed in DEFAULT expressions");
                    return null;
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlDynamicParam param) {
                if (found[0] == null) {
                    found[0] = new Refusal("42P02", "there is no parameter in a DEFAULT expression: write the value itself, not ?");
                }
                return null;
            }

            @Override
            public Void visit(SqlIdentifier id) {
                if (found[0] == null && !(id.isSimple() && NILADIC.contains(id.getSimple().toUpperCase(Locale.ROOT)))) {
                    found[0] = new Refusal("42P10", "cannot use column reference in DEFAULT expression (" + id
                            + "): a DEFAULT reads no column; a value computed from the row's others is the INSERT's to give");
                }
                return null;
            }
        });
        return found[0];
    }

    /** Whether {@code expression} calls a function whose answer differs each time it is called (nextval, gen_random_uuid, RAND). */
    public static boolean isVolatile(SqlNode expression) {
        boolean[] found = {false};
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                found[0] |= VOLATILE.contains(call.getOperator().getName().toUpperCase(Locale.ROOT));
                return super.visit(call);
            }
        });
        return found[0];
    }

    /**
     * {@code expression} with {@code now()} read as CURRENT_TIMESTAMP and each sequence call made
     * numacol's, the sequences named looked up in {@code schema} of {@code catalog}.
     */
    public static SqlNode ready(SqlNode expression, Catalog catalog, String schema) {
        return expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode replaced = SequenceCalls.rewrite(call, catalog, schema, SESSION);
                if (replaced == null) {
                    replaced = PostgresFunctions.rewrite(call);
                }
                return replaced != null ? replaced : super.visit(call);
            }
        });
    }

    /**
     * {@code expression} as SQL text of the same type with each sequence call (BIGINT) written as
     * a BIGINT constant, gen_random_uuid() as a UUID and now() as CURRENT_TIMESTAMP: what a
     * DEFAULT's type is derived from, by a validator of SQL's standard functions, without taking a number.
     */
    public static String typeOnly(SqlNode expression) {
        SqlNode typed = expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (SequenceCalls.NAMES.contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                    return SqlStdOperatorTable.CAST.createCall(call.getParserPosition(),
                            SqlLiteral.createExactNumeric("0", call.getParserPosition()),
                            new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, call.getParserPosition()),
                                    call.getParserPosition()));
                }
                if (call.getOperator().getName().equalsIgnoreCase(PostgresFunctions.GEN_RANDOM_UUID.getName())) {
                    return SqlStdOperatorTable.CAST.createCall(call.getParserPosition(), SqlLiteral.createNull(call.getParserPosition()),
                            new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.UUID, call.getParserPosition()),
                                    call.getParserPosition()));
                }
                SqlNode now = PostgresFunctions.rewrite(call);
                return now != null ? now : super.visit(call);
            }
        });
        return typed.toSqlString(c -> c.withDialect(CalciteSqlDialect.DEFAULT)).getSql();
    }
}
