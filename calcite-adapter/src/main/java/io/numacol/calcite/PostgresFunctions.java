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
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code now()} and {@code gen_random_uuid()}, which schemas written for PostgreSQL
 * use as column DEFAULTs, and its {@code current_schema}, which migration tools ask. {@code now()} is read as CURRENT_TIMESTAMP (the validator replaces the
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

    private PostgresFunctions() {
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
        if (call.getOperator().getName().equalsIgnoreCase(SqlStdOperatorTable.CURRENT_SCHEMA.getName()) && call.operandCount() == 0
                && (call.getOperator() == SqlStdOperatorTable.CURRENT_SCHEMA || call.getOperator() instanceof SqlUnresolvedFunction)) {
            // a VARCHAR, as Calcite types CURRENT_SCHEMA, not the CHAR of a literal
            SqlParserPos pos = call.getParserPosition();
            return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createCharString(schema, pos),
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, schema.length(), pos), pos));
        }
        return rewrite(call);
    }
}
