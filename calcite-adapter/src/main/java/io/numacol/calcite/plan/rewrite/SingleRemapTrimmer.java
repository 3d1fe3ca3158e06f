package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.mapping.Mapping;

/**
 * <b>Correlation variables of a trimmed projection remapped twice.</b> Calcite's field trimmer remaps
 * the correlation variable of a projection's subquery by the input's mapping, then again by the
 * projection's output mapping wherever input and output have as many columns; the subquery then read
 * another column ({@code (SELECT MAX(..) FROM s WHERE s.c2 = a2.c3)} compared with a1.c0). numacol's
 * trimmer, which {@code NumacolPrepare} uses, leaves a projection's variables as the first
 * remapping left them: a projection's correlation variables read its input, which {@code
 * RelFieldTrimmer.trimFields(Project, ..)} already remapped; the output mapping applies to the
 * variables of other relations only.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 22 of the first group, "a correlated subquery in a derived table's select
 * list read another column once fields were trimmed"). Upstream issue: not filed.
 */
public final class SingleRemapTrimmer extends RelFieldTrimmer {
    public SingleRemapTrimmer(SqlValidator validator, RelBuilder relBuilder) {
        super(validator, relBuilder);
    }

    @Override
    protected TrimResult result(RelNode rel, Mapping mapping) {
        return rel instanceof Project ? new TrimResult(rel, mapping) : super.result(rel, mapping);
    }
}
