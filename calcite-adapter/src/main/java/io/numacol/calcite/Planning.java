package io.numacol.calcite;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;

/**
 * What numacol's schemas ask of the planning above them: a view's columns are those of its query
 * as numacol reads it. The planner reads the schemas, so they cannot call it by name; the
 * connection hands theirs in ({@code NumacolPrepare} implements this).
 */
public interface Planning {
    /** The row type of the query {@code sql}, its names read in {@code context}. */
    RelDataType rowType(CalcitePrepare.Context context, String sql);
}
