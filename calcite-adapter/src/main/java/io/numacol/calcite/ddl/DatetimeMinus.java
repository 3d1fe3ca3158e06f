package io.numacol.calcite.ddl;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Binary minus as DuckDB and PostgreSQL take it: Calcite's, and also the difference of two
 * dates (their days apart, a BIGINT) or of two times, timestamps or instants (an INTERVAL DAY
 * TO SECOND), which Calcite refuses unless written {@code (a - b) DAY TO SECOND}. The parser
 * puts it in the place of Calcite's minus ({@code NumacolParserFactory}); {@link #CONVERTLETS}
 * turns it back into Calcite's expressions.
 */
public final class DatetimeMinus extends SqlMonotonicBinaryOperator {
    public static final DatetimeMinus INSTANCE = new DatetimeMinus();

    /** The types whose values subtract to a span; each only from its own type. */
    private static final Set<SqlTypeName> SUBTRACTABLE = Set.of(SqlTypeName.DATE, SqlTypeName.TIME, SqlTypeName.TIMESTAMP,
            SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private DatetimeMinus() {
        super("-", SqlKind.MINUS, 40, true, DatetimeMinus::returnType, InferTypes.FIRST_KNOWN, new OperandChecker());
    }

    /** As Calcite's operators, but without looking "-" up again: Calcite's table would put its own minus back. */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
        }
        return validateOperands(validator, scope, call);
    }

    /** Calcite's convertlets, and this operator's: Calcite's minus, or the differences above. */
    public static final SqlRexConvertletTable CONVERTLETS = call -> call.getOperator() == INSTANCE
            ? DatetimeMinus::convert : StandardConvertletTable.INSTANCE.get(call);

    /** The type two operands subtract to when they are datetimes of one type, else null. */
    private static SqlTypeName spanOf(RelDataType a, RelDataType b) {
        SqlTypeName name = a.getSqlTypeName();
        return SUBTRACTABLE.contains(name) && b.getSqlTypeName() == name
                ? name == SqlTypeName.DATE ? SqlTypeName.BIGINT : SqlTypeName.INTERVAL_DAY_SECOND : null;
    }

    private static RelDataType returnType(SqlOperatorBinding binding) {
        RelDataType a = binding.getOperandType(0);
        RelDataType b = binding.getOperandType(1);
        SqlTypeName span = spanOf(a, b);
        if (span == null) {
            return ReturnTypes.NULLABLE_SUM.inferReturnType(binding);
        }
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType type = span == SqlTypeName.BIGINT ? factory.createSqlType(SqlTypeName.BIGINT)
                : factory.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, -1, TimeUnit.SECOND, 3, SqlParserPos.ZERO));
        return factory.createTypeWithNullability(type, a.isNullable() || b.isNullable());
    }

    private static RexNode convert(SqlRexContext cx, SqlCall call) {
        RexBuilder rex = cx.getRexBuilder();
        // what the validator typed, but an expression of GROUP BY 1 is a copy it did not type
        RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(call);
        RelDataType a = cx.getValidator().getValidatedNodeTypeIfKnown(call.operand(0));
        RelDataType b = cx.getValidator().getValidatedNodeTypeIfKnown(call.operand(1));
        RexNode left = null;
        RexNode right = null;
        if (type == null || a == null || b == null) {
            left = cx.convertExpression(call.operand(0));
            right = cx.convertExpression(call.operand(1));
            a = left.getType();
            b = right.getType();
            type = rex.deriveReturnType(INSTANCE, List.of(left, right));
        }
        SqlTypeName span = spanOf(a, b);
        if (span == null) { // Calcite's minus, converted as Calcite converts it
            SqlCall minus = SqlStdOperatorTable.MINUS.createCall(call.getParserPosition(), call.getOperandList());
            cx.getValidator().setValidatedNodeType(minus, type);
            return requireNonNull(StandardConvertletTable.INSTANCE.get(minus), "minus").convertCall(cx, minus);
        }
        if (left == null) {
            left = cx.convertExpression(call.operand(0));
            right = cx.convertExpression(call.operand(1));
        }
        if (span == SqlTypeName.BIGINT) { // a DATE is its day number: their difference is the days apart, and fits an INTEGER
            RelDataTypeFactory factory = rex.getTypeFactory();
            RelDataType integer = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.INTEGER), type.isNullable());
            RexNode days = rex.makeCall(integer, SqlStdOperatorTable.MINUS, List.of(
                    rex.makeReinterpretCast(factory.createTypeWithNullability(integer, a.isNullable()), left, rex.makeLiteral(false)),
                    rex.makeReinterpretCast(factory.createTypeWithNullability(integer, b.isNullable()), right, rex.makeLiteral(false))));
            return rex.makeCast(type, days);
        }
        return rex.makeCall(type, SqlStdOperatorTable.MINUS_DATE, List.of(left, right)); // milliseconds apart, as Calcite's own (a - b) DAY TO SECOND
    }

    /** Calcite's minus operands, or two datetimes of one type. */
    private static final class OperandChecker implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            if (spanOf(binding.getOperandType(0), binding.getOperandType(1)) != null) {
                return true;
            }
            return OperandTypes.MINUS_OPERATOR.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return OperandTypes.MINUS_OPERATOR.getAllowedSignatures(op, opName) + SqlOperator.NL + "'<DATETIME> - <DATETIME>'";
        }
    }
}
