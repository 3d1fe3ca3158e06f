package io.numacol.jdbc;

import io.numacol.calcite.InformationSchema;
import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.MetaImpl.MetaColumn;

import java.sql.Types;

/**
 * A row of {@code DatabaseMetaData.getColumns} that says what Avatica's {@link MetaColumn} leaves
 * null or empty for every column: {@code COLUMN_DEF}, the column's DEFAULT as SQL text (as
 * {@code information_schema.columns.column_default} shows it), and {@code IS_AUTOINCREMENT} and
 * {@code IS_GENERATEDCOLUMN}, YES for an identity column. Schema tools (Liquibase's diff,
 * SchemaCrawler, an IDE's table editor) read the default from here. Avatica reads the row's
 * values by field name from the class the factory names, so these fields hide the ones of
 * {@link MetaColumn}, which are always null.
 */
public final class DescribedColumn extends MetaColumn {
    @SuppressWarnings("HidingField") // read reflectively by name: this field, not MetaColumn's null, is the row's value
    public final String columnDef;
    @SuppressWarnings("HidingField")
    public final String isAutoincrement;
    @SuppressWarnings("HidingField")
    public final String isGeneratedcolumn;

    DescribedColumn(String tableCat, String tableSchem, String tableName, String columnName, int dataType, String typeName,
                    Integer columnSize, Integer decimalDigits, int numPrecRadix, int nullable, Integer charOctetLength,
                    int ordinalPosition, String isNullable, TableSchema.ColumnDef column) {
        super(tableCat, tableSchem, tableName, columnName, dataType, typeName, columnSize, decimalDigits, numPrecRadix, nullable,
                charOctetLength, ordinalPosition, isNullable);
        this.columnDef = column == null ? null : InformationSchema.columnDefault(column, numeric(dataType));
        String identity = column == null ? "" : column.identity() != null ? "YES" : "NO";
        this.isAutoincrement = identity;
        this.isGeneratedcolumn = identity;
    }

    private static boolean numeric(int dataType) {
        return switch (dataType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC, Types.REAL, Types.FLOAT,
                 Types.DOUBLE -> true;
            default -> false;
        };
    }
}
