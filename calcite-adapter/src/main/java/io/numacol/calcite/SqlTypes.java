package io.numacol.calcite;

import io.numacol.storage.ColumnType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;

/**
 * numacol column types as Calcite types, and stored values as Calcite's internal Java values
 * (DATE as days since the epoch in an int, DECIMAL as BigDecimal).
 */
public final class SqlTypes {
    private SqlTypes() {
    }

    public static RelDataType toRelType(RelDataTypeFactory factory, ColumnType type, boolean nullable) {
        RelDataType t = switch (type.kind()) {
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            // numacol keeps CHAR values without their trailing spaces (PAD SPACE by stripping, see
            // ColumnType) and reads them back so. To Calcite a CHAR(n) value is padded to n, and it
            // pads literals it compares with it: 'EUROPE' would never equal a stored 'EUROPE'.
            // As VARCHAR(n) the unpadded values compare right, as in DuckDB, where CHAR is VARCHAR.
            case CHAR -> factory.createSqlType(SqlTypeName.VARCHAR, type.length());
            case VARCHAR -> factory.createSqlType(SqlTypeName.VARCHAR, type.length());
        };
        return factory.createTypeWithNullability(t, nullable);
    }

    /** A stored long (see {@link ColumnType#storageKind()}) as Calcite's internal value. */
    public static Object internal(ColumnType type, long stored) {
        return switch (type.kind()) {
            case BOOLEAN -> stored != 0;
            case INTEGER -> (int) stored;
            case DATE -> (int) stored;
            case DECIMAL -> BigDecimal.valueOf(stored, type.scale());
            default -> stored;
        };
    }
}
