package io.numacol.calcite;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code now()} and {@code gen_random_uuid()}, which schemas written for PostgreSQL
 * use as column DEFAULTs, its {@code current_schema}, which migration tools ask, and the
 * {@code current_database()}, {@code pg_get_constraintdef(c.oid)} and {@code
 * obj_description(c.oid, 'pg_class')} (of a {@link PgCatalog} row) that jOOQ's POSTGRES meta()
 * reads. {@code now()} is read as CURRENT_TIMESTAMP (the validator replaces the
 * call before typing it): the statement's start, as Calcite gives it, the same for every row of
 * it. {@code gen_random_uuid()} is a new random (version 4) UUID for each row.
 */
public final class PostgresFunctions {
    /** Not deterministic: never folded into a constant while planning, nor taken once for many rows. */
    public static final SqlUserDefinedFunction GEN_RANDOM_UUID = new SqlUserDefinedFunction(
            new SqlIdentifier("GEN_RANDOM_UUID", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(SqlTypeName.UUID),
            InferTypes.RETURN_TYPE,
            OperandTypes.operandMetadata(List.of(), types -> List.of(), i -> "arg" + i, i -> false), ScalarFunctionImpl.create(PostgresFunctions.class, "genRandomUuid")) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /** What {@code current_database()} answers: the catalog of numacol's metadata and information_schema. */
    private static final String DATABASE = "numacol";

    private PostgresFunctions() {
    }

    /**
     * A CAST of text to BOOLEAN as PostgreSQL reads it ({@link #textBoolean}): tools cast its
     * catalog's yes-or-no columns so ({@code cast(cycle_option as boolean)}), and Calcite's cast
     * takes only TRUE and FALSE.
     */
    public static final SqlUserDefinedFunction TEXT_BOOLEAN = new SqlUserDefinedFunction(
            new SqlIdentifier("$NUMACOL_TEXT_BOOLEAN", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE), InferTypes.RETURN_TYPE, null,
            ScalarFunctionImpl.create(PostgresFunctions.class, "textBoolean"));

    /**
     * {@code text} as a truth value, as PostgreSQL's boolean input reads it: true, yes, on, 1 or
     * false, no, off, 0, in any case and with blanks around, or a prefix of true, false, yes or no
     * (t, f, y, n...); null for null.
     *
     * @throws IllegalArgumentException (22P02) for any other text
     */
    public static Boolean textBoolean(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("on") || t.equals("1") || (!t.isEmpty() && ("true".startsWith(t) || "yes".startsWith(t)))) {
            return Boolean.TRUE;
        }
        if (t.equals("off") || t.equals("0") || (!t.isEmpty() && ("false".startsWith(t) || "no".startsWith(t)))) {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException("'" + text + "' is not a valid BOOLEAN: write true, false, yes, no, on, off, 1 or 0");
    }

    /** What generated code calls for {@code gen_random_uuid()}. */
    public static UUID genRandomUuid() {
        return UUID.randomUUID();
    }

    /** A call of {@code current_schema()}, or a quoted text or comment that may hold one and is skipped. */
    private static final Pattern CURRENT_SCHEMA_CALL = Pattern.compile(
            "'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\\*.*?\\*/|(?i)(?<![\\p{L}\\p{N}_$])current_schema\\s*\\(\\s*\\)", Pattern.DOTALL);

    /**
     * {@code sql} with each {@code current_schema()} written {@code current_schema} (padded with
     * spaces to its length, so that the parser's positions stay those of the text): PostgreSQL
     * takes both, Calcite's parser only the name, which {@link #rewrite(SqlCall, String)} then
     * answers.
     */
    public static String bareCurrentSchema(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("current_schema")) {
            return sql;
        }
        Matcher m = CURRENT_SCHEMA_CALL.matcher(sql);
        StringBuilder out = null;
        int last = 0;
        while (m.find()) {
            char first = sql.charAt(m.start());
            if (first == '\'' || first == '"' || first == '-' || first == '/') {
                continue;
            }
            out = out == null ? new StringBuilder(sql.length()) : out;
            out.append(sql, last, m.start()).append(sql, m.start(), m.start() + "current_schema".length())
                    .repeat(' ', m.end() - m.start() - "current_schema".length());
            last = m.end();
        }
        return out == null ? sql : out.append(sql, last, sql.length()).toString();
    }

    /** CURRENT_TIMESTAMP for a call of {@code now()}; null for any other call. */
    public static SqlNode rewrite(SqlCall call) {
        if (call.getOperator() instanceof SqlUnresolvedFunction f && f.getName().toUpperCase(Locale.ROOT).equals("NOW")
                && call.operandCount() == 0) {
            // as the parser reads CURRENT_TIMESTAMP written bare: a name the validator makes the call
            return new SqlIdentifier("CURRENT_TIMESTAMP", call.getParserPosition());
        }
        return null;
    }

    /**
     * As {@link #rewrite(SqlCall)}, and the session's schema for CURRENT_SCHEMA (PostgreSQL's
     * {@code current_schema} or {@code current_schema()}), which Calcite types but cannot run.
     *
     * @param schema the session's schema, the one an unqualified name is in
     */
    public static SqlNode rewrite(SqlCall call, String schema) {
        if (call.getOperator() instanceof SqlUnresolvedFunction f && call.operandCount() == 0
                && f.getName().equalsIgnoreCase("CURRENT_DATABASE")) {
            return varchar(DATABASE, call.getParserPosition()); // the catalog numacol's metadata and information_schema name
        }
        // a pg_constraint row's definition, a pg_catalog row's COMMENT: columns beside the oid they are asked by (PgCatalog)
        SqlNode column = rowColumn(call, "PG_GET_CONSTRAINTDEF", 1, "condef");
        if (column == null) {
            column = rowColumn(call, "OBJ_DESCRIPTION", 2, "description");
        }
        if (column != null) {
            return column;
        }
        if (call.getOperator().getName().equalsIgnoreCase(SqlStdOperatorTable.CURRENT_SCHEMA.getName()) && call.operandCount() == 0
                && (call.getOperator() == SqlStdOperatorTable.CURRENT_SCHEMA || call.getOperator() instanceof SqlUnresolvedFunction)) {
            return varchar(schema, call.getParserPosition());
        }
        return rewrite(call);
    }

    /**
     * For a call of {@code function} with {@code operands} operands whose first is a row's oid
     * ({@code x.oid}), that row's {@code column} ({@code x.column}); else null.
     */
    private static SqlNode rowColumn(SqlCall call, String function, int operands, String column) {
        if (call.getOperator() instanceof SqlUnresolvedFunction f && call.operandCount() == operands
                && f.getName().equalsIgnoreCase(function) && call.operand(0) instanceof SqlIdentifier oid
                && oid.names.size() >= 2 && oid.names.getLast().equalsIgnoreCase("oid")) {
            return oid.setName(oid.names.size() - 1, column);
        }
        return null;
    }

    /** {@code text} as a VARCHAR, as Calcite types CURRENT_SCHEMA, not the CHAR of a literal. */
    private static SqlNode varchar(String text, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createCharString(text, pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, text.length(), pos), pos));
    }
}
