package io.numacol.calcite;

import io.numacol.database.Database;
import io.numacol.storage.Column;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.List;

/**
 * A numacol table for Calcite. Scanning materializes rows part by part through the dictionaries:
 * the plain path every query can fall back to.
 */
public final class NumacolTable extends AbstractTable implements ScannableTable {
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
        return Statistics.of(table.rowCount(), List.of());
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return new RowEnumerator(table.snapshot(), QueryCancel.of(root));
            }
        };
    }

    /** Rows of a snapshot, part after part; closing it releases the snapshot. */
    private static final class RowEnumerator implements Enumerator<Object[]> {
        private final TableSnapshot snapshot;
        private final QueryCancel cancel;
        private final int columns;
        private int part;
        private int row = -1;
        private Object[] current;

        RowEnumerator(TableSnapshot snapshot, QueryCancel cancel) {
            this.snapshot = snapshot;
            this.cancel = cancel;
            this.columns = snapshot.table().schema().size();
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            List<TablePart> parts = snapshot.parts();
            while (part < parts.size()) {
                TablePart p = parts.get(part);
                if (++row < p.rowCount()) {
                    if ((row & QueryCancel.CHECK_MASK) == 0) {
                        cancel.check();
                    }
                    Object[] values = new Object[columns];
                    for (int c = 0; c < columns; c++) {
                        values[c] = value(p.column(c), row);
                    }
                    current = values;
                    return true;
                }
                part++;
                row = -1;
            }
            return false;
        }

        @Override
        public void reset() {
            part = 0;
            row = -1;
        }

        @Override
        public void close() {
            snapshot.close();
        }
    }

    /** A row's value as Calcite's internal representation, or null. */
    static Object value(Column column, int row) {
        int vid = column.indexVector().get(row);
        if (vid == column.nullVid()) {
            return null;
        }
        return switch (column.dictionary()) {
            case LongDictionary d -> SqlTypes.internal(column.type(), d.getLong(vid));
            case DoubleDictionary d -> d.getDouble(vid);
            case StringDictionary d -> d.getString(vid);
        };
    }
}
