package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTypeSystem;
import io.numacol.exec.LikePattern;
import io.numacol.exec.PlanNode;
import io.numacol.exec.RowPredicate;
import io.numacol.storage.types.ColumnType;
import com.google.common.collect.Range;
import org.apache.calcite.DataContext;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Calcite conditions as {@link RowPredicate}s, which the pipeline executor evaluates on values:
 * comparisons of two columns that compare by stored value, or of a column with a literal or
 * dynamic parameter (= and <> with a value the column's type cannot hold are FALSE and TRUE
 * where the column has a value); IS [NOT] NULL of a column; AND, OR, NOT; SEARCH,
 * expanded. What numacol can say as vid predicates goes to {@link Predicates}.
 */
final class RowConditions {
    /** Expands SEARCH (a CASE's condition comes unexpanded): its calls take their types from the Sarg's. */
    private static final RexBuilder REX_BUILDER = new RexBuilder(
            new SqlTypeFactoryImpl(NumacolTypeSystem.INSTANCE));

    private RowConditions() {
    }

    static boolean supports(RexNode condition, List<ColumnType> types) {
        return translate(condition, types, null) != null;
    }

    /** {@code condition} with this execution's parameter values. */
    static RowPredicate bind(RexNode condition, List<ColumnType> types, DataContext root) {
        RowPredicate p = translate(condition, types, root);
        if (p == null) {
            throw new IllegalStateException("not a numacol row condition: " + condition);
        }
        return p;
    }

    static List<ColumnType> types(RelNode rel) {
        return RowExpressions.chunkTypes(rel);
    }

    /** The predicate, or null when not translatable; {@code root} null only checks (constants are placeholders). */
    static RowPredicate translate(RexNode node, List<ColumnType> types, DataContext root) {
        if (node instanceof RexInputRef ref && types.get(ref.getIndex()) != null
                && types.get(ref.getIndex()).kind() == ColumnType.Kind.BOOLEAN) { // a BOOLEAN column: TRUE is 1
            return new RowPredicate.Compare(RowPredicate.Op.EQ, new RowPredicate.ColumnOperand(ref.getIndex()),
                    new RowPredicate.Constant(1L));
        }
        if (!(node instanceof RexCall call)) {
            return null;
        }
        List<RexNode> ops = call.getOperands();
        switch (call.getKind()) {
            case SEARCH -> {
                RowPredicate in = inValues(call, types, root);
                return in != null ? in : translate(RexUtil.expandSearch(REX_BUILDER, null, call), types, root);
            }
            case AND, OR -> {
                List<RowPredicate> parts = new ArrayList<>();
                for (RexNode op : ops) {
                    RowPredicate p = translate(op, types, root);
                    if (p == null) {
                        return null;
                    }
                    parts.add(p);
                }
                return call.getKind() == SqlKind.AND ? new RowPredicate.And(parts) : new RowPredicate.Or(parts);
            }
            case IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> {
                RowPredicate p = translate(ops.getFirst(), types, root);
                boolean truth = call.getKind() == SqlKind.IS_TRUE || call.getKind() == SqlKind.IS_NOT_TRUE;
                boolean negated = call.getKind() == SqlKind.IS_NOT_TRUE || call.getKind() == SqlKind.IS_NOT_FALSE;
                return p == null ? null : new RowPredicate.Is(p, truth ? RowPredicate.TRUE : RowPredicate.FALSE, negated);
            }
            case NOT -> {
                RowPredicate p = translate(ops.getFirst(), types, root);
                return p == null ? null : new RowPredicate.Not(p);
            }
            case LIKE -> {
                if (!(ops.getFirst() instanceof RexInputRef ref) || !Predicates.text(types.get(ref.getIndex()))
                        || !ops.subList(1, ops.size()).stream().allMatch(Predicates::isValue)) {
                    return null;
                }
                if (root == null) {
                    return new RowPredicate.Matches(ref.getIndex(), v -> false, "LIKE");
                }
                Object pattern = Predicates.value(ops.get(1), root);
                Object escape = ops.size() > 2 ? Predicates.value(ops.get(2), root) : null;
                if (pattern == null || (ops.size() > 2 && escape == null)) {
                    return new RowPredicate.Compare(RowPredicate.Op.EQ, new RowPredicate.ColumnOperand(ref.getIndex()),
                            new RowPredicate.Constant(null)); // LIKE NULL is unknown
                }
                return new RowPredicate.Matches(ref.getIndex(), LikePattern.compile(text(pattern), escape == null ? null : text(escape)),
                        "LIKE '" + text(pattern) + "'");
            }
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
                RexNode same = notDistinct(ops.get(0), ops.get(1));
                if (same == null) {
                    return null;
                }
                return translate(call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM ? same
                        : REX_BUILDER.makeCall(SqlStdOperatorTable.NOT, same), types, root);
            }
            case IS_NULL, IS_NOT_NULL -> {
                return ops.getFirst() instanceof RexInputRef ref && types.get(ref.getIndex()) != null
                        ? new RowPredicate.IsNull(ref.getIndex(), call.getKind() == SqlKind.IS_NOT_NULL) : null;
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                RowPredicate.Op op = switch (call.getKind()) {
                    case EQUALS -> RowPredicate.Op.EQ;
                    case NOT_EQUALS -> RowPredicate.Op.NE;
                    case LESS_THAN -> RowPredicate.Op.LT;
                    case LESS_THAN_OR_EQUAL -> RowPredicate.Op.LE;
                    case GREATER_THAN -> RowPredicate.Op.GT;
                    default -> RowPredicate.Op.GE;
                };
                RexNode a = ops.get(0);
                RexNode b = ops.get(1);
                if (a instanceof RexInputRef x && b instanceof RexInputRef y) {
                    ColumnType tx = types.get(x.getIndex());
                    ColumnType ty = types.get(y.getIndex());
                    return tx != null && ty != null && PlanNode.comparableKeys(tx, ty)
                            ? new RowPredicate.Compare(op, new RowPredicate.ColumnOperand(x.getIndex()),
                            new RowPredicate.ColumnOperand(y.getIndex())) : null;
                }
                if (!(a instanceof RexInputRef)) {
                    RexNode t = a;
                    a = b;
                    b = t;
                    op = switch (op) {
                        case LT -> RowPredicate.Op.GT;
                        case LE -> RowPredicate.Op.GE;
                        case GT -> RowPredicate.Op.LT;
                        case GE -> RowPredicate.Op.LE;
                        default -> op;
                    };
                }
                if (!(a instanceof RexInputRef ref) || !Predicates.isValue(b) || types.get(ref.getIndex()) == null
                        || !Predicates.comparable(a, b)) {
                    return null;
                }
                ColumnType type = types.get(ref.getIndex());
                RowPredicate.ColumnOperand column = new RowPredicate.ColumnOperand(ref.getIndex());
                if (root == null) {
                    return new RowPredicate.Compare(op, column, new RowPredicate.Constant(null));
                }
                Object value = Predicates.value(b, root);
                if (value == null) {
                    return new RowPredicate.Compare(op, column, new RowPredicate.Constant(null));
                }
                // a bound between two stored values rounds inward: x > 2.5 on integers is x > 2, x >= 2.5 is x >= 3
                RoundingMode mode = op == RowPredicate.Op.GE || op == RowPredicate.Op.LT ? RoundingMode.CEILING : RoundingMode.FLOOR;
                Predicates.Stored stored = Predicates.stored(type, value, mode);
                if (!stored.exact() && (op == RowPredicate.Op.EQ || op == RowPredicate.Op.NE)) {
                    return unequal(column, op == RowPredicate.Op.NE);
                }
                return new RowPredicate.Compare(op, column, new RowPredicate.Constant(stored.value()));
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Whether {@code search} is a column's IN (or NOT IN) list long enough to be tested by one
     * lookup ({@link RowPredicate.InValues}) rather than expanded into an OR of comparisons: an
     * OR of 100,000 is as many comparisons per row, and Calcite's code for it grows with its square.
     */
    static boolean manyPoints(RexCall search) {
        if (search.getKind() != SqlKind.SEARCH || !(search.getOperands().get(1) instanceof RexLiteral literal)) {
            return false;
        }
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        return sarg != null && (sarg.isPoints() || sarg.isComplementedPoints()) && sarg.pointCount >= MANY_POINTS;
    }

    /** The fewest points {@link #manyPoints} looks up rather than expands. */
    static final int MANY_POINTS = 8;

    /**
     * {@code column SEARCH points} as {@link RowPredicate.InValues} (NOT of it for complemented
     * points), with the Sarg's NULL rule; null when it is no such search. A point the column's
     * type cannot hold ({@code 7.5} for an INTEGER column) matches no row and is left out.
     */
    private static RowPredicate inValues(RexCall search, List<ColumnType> types, DataContext root) {
        if (!manyPoints(search) || !(search.getOperands().getFirst() instanceof RexInputRef ref)
                || types.get(ref.getIndex()) == null) {
            return null;
        }
        RexLiteral literal = (RexLiteral) search.getOperands().get(1);
        Sarg<?> sarg = Objects.requireNonNull(literal.getValueAs(Sarg.class));
        ColumnType type = types.get(ref.getIndex());
        // a complemented point set is stored as the ranges between its points: its complement is the points
        Set<? extends Range<?>> points = (sarg.isPoints() ? sarg.rangeSet : sarg.rangeSet.complement()).asRanges();
        if (!Predicates.comparable(ref, REX_BUILDER.makeLiteral(points.iterator().next().lowerEndpoint(), literal.getType(), true, true))) {
            return null;
        }
        Set<Object> values = new HashSet<>();
        if (root != null) {
            for (Range<?> point : points) {
                Object value = Predicates.value(REX_BUILDER.makeLiteral(point.lowerEndpoint(), literal.getType(), true, true), root);
                Predicates.Stored stored = Predicates.stored(type, value, RoundingMode.FLOOR);
                if (stored.exact()) {
                    values.add(stored.value());
                }
            }
        }
        RowPredicate in = new RowPredicate.InValues(ref.getIndex(), values);
        if (sarg.isComplementedPoints()) {
            in = new RowPredicate.Not(in);
        }
        return switch (sarg.nullAs) {
            case TRUE -> new RowPredicate.Or(List.of(new RowPredicate.IsNull(ref.getIndex(), false), in));
            case FALSE -> new RowPredicate.And(List.of(new RowPredicate.IsNull(ref.getIndex(), true), in));
            case UNKNOWN -> in;
        };
    }

    /**
     * A column compared by = or <> with a value its type cannot hold ({@code ia = 7.5}, the value
     * perhaps a parameter's): unequal to every stored value, so FALSE for = and TRUE for <>, and
     * unknown where the column is NULL.
     */
    private static RowPredicate unequal(RowPredicate.ColumnOperand column, boolean notEquals) {
        RowPredicate unknown = new RowPredicate.Compare(RowPredicate.Op.EQ, column, new RowPredicate.Constant(null));
        return notEquals
                ? new RowPredicate.Or(List.of(new RowPredicate.IsNull(column.column(), true), unknown))
                : new RowPredicate.And(List.of(new RowPredicate.IsNull(column.column(), false), unknown));
    }

    /**
     * {@code a IS NOT DISTINCT FROM b} in the predicates numacol evaluates, never unknown: both
     * NULL, or neither and equal (0.0 and -0.0 too; Calcite's own evaluation compares boxed
     * Doubles with equals, which tells them apart). Columns and constants only, else null.
     */
    private static RexNode notDistinct(RexNode a, RexNode b) {
        if (!(a instanceof RexInputRef)) {
            RexNode t = a;
            a = b;
            b = t;
        }
        if (!(a instanceof RexInputRef)) {
            return null;
        }
        RexNode aNull = REX_BUILDER.makeCall(SqlStdOperatorTable.IS_NULL, a);
        RexNode aValue = REX_BUILDER.makeCall(SqlStdOperatorTable.IS_NOT_NULL, a);
        RexNode equal = REX_BUILDER.makeCall(SqlStdOperatorTable.EQUALS, a, b);
        if (b instanceof RexLiteral literal) {
            return literal.isNull() ? aNull : REX_BUILDER.makeCall(SqlStdOperatorTable.AND, aValue, equal);
        }
        if (!(b instanceof RexInputRef)) {
            return null;
        }
        RexNode bNull = REX_BUILDER.makeCall(SqlStdOperatorTable.IS_NULL, b);
        RexNode bValue = REX_BUILDER.makeCall(SqlStdOperatorTable.IS_NOT_NULL, b);
        return REX_BUILDER.makeCall(SqlStdOperatorTable.OR, REX_BUILDER.makeCall(SqlStdOperatorTable.AND, aNull, bNull),
                REX_BUILDER.makeCall(SqlStdOperatorTable.AND, aValue, bValue, equal));
    }

    private static String text(Object value) {
        return value instanceof NlsString n ? n.getValue() : value.toString();
    }
}
