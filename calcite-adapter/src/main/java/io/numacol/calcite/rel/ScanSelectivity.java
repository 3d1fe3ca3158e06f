package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.cache.PlanCache;
import io.numacol.exec.ColumnFilter;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.CyclicMetadataException;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.SchemaPlus;

import java.util.ArrayList;
import java.util.List;

/**
 * The share of a numacol table's rows a condition keeps, from the table's dictionaries ({@link
 * ColumnFilter#selectivity}): {@code o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE
 * '1995-01-01'} keeps the 365 of 2,406 dates, {@code n_name = 'FRANCE'} one of 25 names. Calcite
 * guesses a fixed 0.25 for any range and 0.15 for any equality, so join ordering saw a year of
 * orders and one nation as alike. Conditions numacol cannot say as vid predicates, and those
 * that compare with a parameter whose value is not known while planning, keep Calcite's guess;
 * a plan-cache template's parameters are read as the literals of the statement it was made for
 * ({@link PlanCache#peekedValues}).
 */
public final class ScanSelectivity implements MetadataHandler<BuiltInMetadata.Selectivity> {
    @Override
    public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
        return BuiltInMetadata.Selectivity.DEF;
    }

    /** Called reflectively by Calcite's metadata dispatch. */
    public Double getSelectivity(TableScan scan, RelMetadataQuery mq, RexNode predicate) {
        NumacolTable numacol = scan.getTable().unwrap(NumacolTable.class);
        if (predicate == null || numacol == null) {
            return RelMdUtil.guessSelectivity(predicate);
        }
        List<ColumnType> types = NumacolQuery.columnTypes(numacol.table());
        RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
        List<Object> peeked = PlanCache.peekedValues();
        double guessed = 1;
        List<RexNode> known = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            RexNode expanded = RexUtil.expandSearch(rexBuilder, null, conjunct);
            if (Predicates.supports(expanded, types)) {
                known.add(expanded);
            } else {
                guessed *= RelMdUtil.guessSelectivity(conjunct);
            }
        }
        if (known.isEmpty()) {
            return guessed;
        }
        RexNode condition = RexUtil.composeConjunction(rexBuilder, known);
        try (TableSnapshot snapshot = numacol.table().snapshot()) {
            // together: conditions on one column are not independent (a range's two bounds)
            double share = Predicates.bind(condition, types, new Peeked(peeked)).selectivity(snapshot.parts());
            // at least a row: a value no part holds now may be inserted while the plan is cached, and
            // Calcite's distinct-value estimate of no rows at all is NaN
            return guessed * Math.max(share, 1.0 / Math.max(1, snapshot.rowCount()));
        } catch (RuntimeException e) { // UnknownValue; a value the column refuses fails the statement when it runs, not its plan
            return guessed * RelMdUtil.guessSelectivity(condition);
        }
    }

    /**
     * A planner set's selectivity as its plan's: Calcite asks a filter's input, which in the
     * cost-based search is a set, and guesses for a set.
     */
    public Double getSelectivity(RelSubset subset, RelMetadataQuery mq, RexNode predicate) {
        try {
            return mq.getSelectivity(subset.stripped(), predicate);
        } catch (CyclicMetadataException e) {
            return RelMdUtil.guessSelectivity(predicate);
        }
    }

    /**
     * A converter keeps its input's rows: without this, a condition of Calcite's operators above
     * one was guessed while the same condition pushed into numacol's scan was not, and the two
     * plans of one result had unlike row counts to be compared by.
     */
    public Double getSelectivity(NumacolToEnumerableConverter converter, RelMetadataQuery mq, RexNode predicate) {
        return mq.getSelectivity(converter.getInput(), predicate);
    }

    /** A rewrite program's vertex as the plan it holds. */
    public Double getSelectivity(HepRelVertex vertex, RelMetadataQuery mq, RexNode predicate) {
        return mq.getSelectivity(vertex.stripped(), predicate);
    }

    /** A parameter whose value is not known while planning. */
    private static final class UnknownValue extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownValue() {
            super(null, null, false, false);
        }
    }

    /** Parameters' values as far as known while planning; only {@code get} is read by {@link Predicates}. */
    private record Peeked(List<Object> values) implements DataContext {
        @Override
        public Object get(String name) {
            int i = Integer.parseInt(name, 1, name.length(), 10);
            if (values == null || i >= values.size()) {
                throw new UnknownValue();
            }
            return values.get(i);
        }

        @Override
        public SchemaPlus getRootSchema() {
            throw new UnsupportedOperationException();
        }

        @Override
        public JavaTypeFactory getTypeFactory() {
            throw new UnsupportedOperationException();
        }

        @Override
        public QueryProvider getQueryProvider() {
            throw new UnsupportedOperationException();
        }
    }
}
