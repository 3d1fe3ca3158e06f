package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

import com.google.common.collect.Range;

import java.math.BigDecimal;

/**
 * <b>Invalid EXTRACT values.</b> Calcite's {@code DateRangeRules} rewrite {@code EXTRACT(YEAR FROM
 * d) > -1486} to FALSE because -1486 is no valid year; only {@code =} with an impossible value is
 * false. numacol's copy ({@link FixedRules}) takes only filters whose EXTRACTs are compared with
 * valid values for their unit, where it turns EXTRACT into a date range numacol scans as vids.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 2, "EXTRACT compared with a value no date has: only = is false"; case 47,
 * the rule reading the connection's config). Upstream issue: not filed.
 */
public final class ValidDateRangeRule {
    private ValidDateRangeRule() {
    }

    static final RelOptRule FILTER_DATE_RANGE = new DateRangeRules.FilterDateRangeRule(
            DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.DEFAULT.withDescription("FilterDateRangeRule:valid")
                    .as(DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return validExtracts(call.<Filter>rel(0).getCondition());
        }
    };

    /** Whether every EXTRACT the condition compares with a value is compared with a valid one for its unit. */
    static boolean validExtracts(RexNode condition) {
        Boolean valid = condition.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (comparison(call.getKind()) && call.getOperands().size() == 2) {
                    for (int i = 0; i < 2; i++) {
                        TimeUnitRange unit = extractUnit(call.getOperands().get(i));
                        if (unit != null && !valid(unit, call.getOperands().get(1 - i))) {
                            return false;
                        }
                    }
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.FALSE.equals(operand.accept(this))) { // leaves answer null
                        return false;
                    }
                }
                return true;
            }
        });
        return valid == null || valid;
    }

    private static boolean comparison(SqlKind kind) {
        return SqlKind.COMPARISON.contains(kind) || kind == SqlKind.SEARCH;
    }

    private static TimeUnitRange extractUnit(RexNode node) {
        while (node.getKind() == SqlKind.CAST) {
            node = ((RexCall) node).getOperands().getFirst();
        }
        if (node.getKind() == SqlKind.EXTRACT && ((RexCall) node).getOperands().getFirst() instanceof RexLiteral flag
                && flag.getValue() instanceof TimeUnitRange unit) {
            return unit;
        }
        return null;
    }

    /** A literal (or SEARCH argument) whose values are all valid for {@code unit}; anything else is not judged here. */
    private static boolean valid(TimeUnitRange unit, RexNode value) {
        while (value.getKind() == SqlKind.CAST) {
            value = ((RexCall) value).getOperands().getFirst();
        }
        if (!(value instanceof RexLiteral literal) || literal.isNull()) {
            return true;
        }
        if (literal.getValue() instanceof Sarg<?> sarg) {
            for (Range<?> range : sarg.rangeSet.asRanges()) {
                if ((range.hasLowerBound() && !valid(unit, range.lowerEndpoint()))
                        || (range.hasUpperBound() && !valid(unit, range.upperEndpoint()))) {
                    return false;
                }
            }
            return true;
        }
        return valid(unit, literal.getValue());
    }

    private static boolean valid(TimeUnitRange unit, Object value) {
        if (!(value instanceof BigDecimal number)) {
            return false; // a value the rule would have to convert: leave the filter as it is
        }
        if (number.stripTrailingZeros().scale() > 0) {
            return false;
        }
        long v = number.longValue();
        return switch (unit) {
            case YEAR -> v >= 1 && v <= 9999;
            case MONTH -> v >= 1 && v <= 12;
            case DAY -> v >= 1 && v <= 31;
            case HOUR -> v >= 0 && v <= 23;
            case MINUTE, SECOND -> v >= 0 && v <= 59;
            default -> false;
        };
    }
}
