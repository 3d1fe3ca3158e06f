package io.numacol.calcite;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * PostgreSQL's {@code now()} and {@code gen_random_uuid()}, which schemas written for PostgreSQL
 * use as column DEFAULTs. {@code now()} is read as CURRENT_TIMESTAMP (the validator replaces the
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

    /** CURRENT_TIMESTAMP for a call of {@code now()}; null for any other call. */
    public static SqlNode rewrite(SqlCall call) {
        if (call.getOperator() instanceof SqlUnresolvedFunction f && f.getName().toUpperCase(Locale.ROOT).equals("NOW")
                && call.operandCount() == 0) {
            // as the parser reads CURRENT_TIMESTAMP written bare: a name the validator makes the call
            return new SqlIdentifier("CURRENT_TIMESTAMP", call.getParserPosition());
        }
        return null;
    }
}
