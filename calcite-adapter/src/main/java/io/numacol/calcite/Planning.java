package io.numacol.calcite;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;

/**
 * What numacol's schemas and DDL ask of the planning above them: a view's columns are those of
 * its query as numacol reads it, and CREATE TABLE AS fills its table with a planned INSERT. The
 * planner reads the schemas and parses with the DDL's parser, so neither can call it by name; the
 * connection hands it in with its schemas ({@code NumacolPrepare} implements this).
 */
public interface Planning {
    /** The row type of the query {@code sql}, its names read in {@code context}. */
    RelDataType rowType(CalcitePrepare.Context context, String sql);

    /** The statement {@code sql} planned in {@code context}, ready to run. */
    CalcitePrepare.CalciteSignature<Object> prepare(CalcitePrepare.Context context, String sql);
}
