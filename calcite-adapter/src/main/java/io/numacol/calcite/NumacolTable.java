package io.numacol.calcite;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.calcite.rel.NumacolRel;
import io.numacol.calcite.rel.NumacolTableScan;
import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.List;

/**
 * A numacol table for Calcite. It plans as a {@link NumacolTableScan} in numacol's convention, so
 * filters, projections, aggregates and sorts above it can run in the engine; even a bare scan
 * runs there (through the converter), in parallel tasks per part.
 */
public final class NumacolTable extends AbstractTable implements TranslatableTable {
    private final Database database;
    private final Table table;

    public NumacolTable(Database database, Table table) {
        this.database = database;
        this.table = table;
    }

    public Table table() {
        return table;
    }

    public Database database() {
        return database;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder b = factory.builder();
        for (TableSchema.ColumnDef c : table.schema().columns()) {
            b.add(c.name(), SqlTypes.toRelType(factory, c.type(), c.nullable()));
        }
        return b.build();
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of((double) table.rowCount(), List.of());
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        PlanCache.reading(table);
        return new NumacolTableScan(context.getCluster(), context.getCluster().traitSetOf(NumacolRel.CONVENTION),
                relOptTable, this);
    }
}
