package io.numacol.calcite.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * A DECIMAL Calcite computes, at its type's scale (CalciteDefects 16). Calcite's ROUND(x, 1) of a
 * DECIMAL(5, 2) gives 39.0 and its quotients carry 16 digits, and its hash operators compare
 * BigDecimals with {@code equals}, which tells 39.0 from 39.00. Called by Calcite's generated code.
 */
public final class CanonicalDecimal {
    private static final SqlUserDefinedFunction FUNCTION = new SqlUserDefinedFunction(
            new SqlIdentifier("$NUMACOL_SCALE", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0,
            InferTypes.RETURN_TYPE, null, ScalarFunctionImpl.create(CanonicalDecimal.class, "scale"));

    private CanonicalDecimal() {
    }

    /** {@code value} at {@code scale}: more fraction digits (a quotient's) truncated, as numacol's quotients are. */
    public static BigDecimal scale(BigDecimal value, int scale) {
        return value == null ? null : value.setScale(scale, RoundingMode.DOWN);
    }

    /** {@code e}, a DECIMAL, at its type's scale. */
    static RexNode of(RexBuilder rexBuilder, RexNode e) {
        RelDataType type = e.getType();
        RexNode scale = rexBuilder.makeExactLiteral(BigDecimal.valueOf(type.getScale()),
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.INTEGER));
        return rexBuilder.makeCall(type, FUNCTION, List.of(e, scale));
    }
}
