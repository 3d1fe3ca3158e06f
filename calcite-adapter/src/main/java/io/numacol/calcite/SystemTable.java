package io.numacol.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;
import java.util.function.Function;

/** A read-only table of {@code sys} or {@code information_schema}, its rows computed on each scan; every column nullable. */
final class SystemTable extends AbstractTable implements ScannableTable {
    record Col(String name, SqlTypeName type) {
    }

    private final List<Col> columns;
    private final Function<DataContext, List<Object[]>> rows;

    SystemTable(List<Col> columns, Function<DataContext, List<Object[]>> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    static Col col(String name, SqlTypeName type) {
        return new Col(name, type);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder b = factory.builder();
        for (Col c : columns) {
            b.add(c.name(), factory.createTypeWithNullability(factory.createSqlType(c.type()), true));
        }
        return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows.apply(root));
    }

    /** So that DatabaseMetaData.getTables(.., {"TABLE"}), as tools list a user's tables, leaves them out. */
    @Override
    public Schema.TableType getJdbcTableType() {
        return Schema.TableType.SYSTEM_TABLE;
    }
}
