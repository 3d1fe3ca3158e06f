package io.numacol.calcite;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * What numacol's schemas, tables and DDL ask of the planning above them: a view's columns are
 * those of its query as numacol reads it, a table plans as the scan of numacol's convention, and
 * CREATE TABLE AS fills its table with a planned INSERT. The planner and numacol's operators read
 * the schemas and tables, and the planner parses with the DDL's parser, so none of them can call
 * the planning by name; the connection hands it in with its schemas ({@code NumacolPrepare}
 * implements this).
 */
public interface Planning {
    /** The row type of the query {@code sql}, its names read in {@code context}. */
    RelDataType rowType(CalcitePrepare.Context context, String sql);

    /** The scan {@code table} plans as, in the cluster of the statement being converted. */
    RelNode scan(RelOptCluster cluster, RelOptTable relOptTable, NumacolTable table);

    /** The statement {@code sql} planned in {@code context}, ready to run. */
    CalcitePrepare.CalciteSignature<Object> prepare(CalcitePrepare.Context context, String sql);
}
