package io.numacol.calcite;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.ExtensibleTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * A numacol table for Calcite. It plans as the scan its connection's {@link Planning} makes, a
 * {@code NumacolTableScan} in numacol's convention, so filters, projections, aggregates and sorts
 * above it can run in the engine; even a bare scan runs there (through the converter), in
 * parallel tasks per part.
 *
 * <p>Extended with the one column {@link #ROW_ID} ({@code t EXTEND ("numacol$rowid" BIGINT)},
 * which only numacol's own UPDATE and DELETE sources write), its scan also puts out each row's
 * {@link io.numacol.storage.TablePart#rowId}: the rows the statement deletes.
 */
public final class NumacolTable extends AbstractTable implements TranslatableTable, ExtensibleTable {
    /** The extended column that names a row to UPDATE and DELETE. */
    public static final String ROW_ID = "numacol$rowid";

    private final Database database;
    private final Table table;
    private final boolean rowIds;
    private final Planning planning;

    public NumacolTable(Database database, Table table, Planning planning) {
        this(database, table, false, planning);
    }

    private NumacolTable(Database database, Table table, boolean rowIds, Planning planning) {
        this.database = database;
        this.table = table;
        this.rowIds = rowIds;
        this.planning = planning;
    }

    /** Whether the scan puts out {@link #ROW_ID} after the table's columns. */
    public boolean rowIds() {
        return rowIds;
    }

    @Override
    public org.apache.calcite.schema.Table extend(List<RelDataTypeField> fields) {
        if (fields.size() != 1 || !fields.getFirst().getName().equals(ROW_ID)
                || fields.getFirst().getType().getSqlTypeName() != SqlTypeName.BIGINT) {
            throw new IllegalArgumentException("table " + table.name() + " takes no extended columns");
        }
        return new NumacolTable(database, table, true, planning);
    }

    @Override
    public int getExtendedColumnOffset() {
        return table.schema().size();
    }

    public Table table() {
        return table;
    }

    public Database database() {
        return database;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder b = SqlTypes.columns(factory, table.schema());
        if (rowIds) {
            b.add(ROW_ID, factory.createSqlType(SqlTypeName.BIGINT));
        }
        return b.build();
    }

    /** Also the DEFAULTs and identities of the columns, for the planner to fill an INSERT's (see {@link ColumnDefaults}). */
    @Override
    public <C> C unwrap(Class<C> aClass) {
        if (aClass == org.apache.calcite.sql2rel.InitializerExpressionFactory.class
                && table.schema().columns().stream().anyMatch(TableSchema.ColumnDef::hasDefault)) {
            return aClass.cast(new ColumnDefaults(table.schema(), database.catalog(), table.schemaName()));
        }
        return super.unwrap(aClass);
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of((double) table.rowCount(), List.of());
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        PlanCache.reading(table);
        return planning.scan(context.getCluster(), relOptTable, this);
    }
}
