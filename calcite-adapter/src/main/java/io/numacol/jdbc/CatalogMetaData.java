package io.numacol.jdbc;

import io.numacol.calcite.NumacolTypeSystem;
import io.numacol.calcite.SequenceCalls;
import io.numacol.calcite.plan.NumacolPrepare;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedTableMacro;

import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rows of {@code DatabaseMetaData.getTableTypes}, {@code getTypeInfo} and {@code
 * getFunctions}, as numacol has them: Calcite's named only TABLE and VIEW though getTables gives
 * numacol's {@code sys} and {@code information_schema} tables as SYSTEM TABLE, offered 49 Calcite
 * types (UTINYINT, MULTISET, GEOMETRY...) that CREATE TABLE refuses, and listed no function.
 */
final class CatalogMetaData {
    private CatalogMetaData() {
    }

    static final List<String> TABLE_TYPE_COLUMNS = List.of("TABLE_TYPE");
    static final List<String> TYPE_INFO_COLUMNS = List.of("TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX", "LITERAL_SUFFIX",
            "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE", "AUTO_INCREMENT",
            "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "NUM_PREC_RADIX");
    static final List<String> FUNCTION_COLUMNS = List.of("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE",
            "SPECIFIC_NAME");

    /** A row of getTableTypes; Calcite's result sets read it by field name. */
    public static final class TableTypeRow {
        public final String tableType;

        TableTypeRow(String tableType) {
            this.tableType = tableType;
        }
    }

    /**
     * Every TABLE_TYPE getTables gives, ordered by name as JDBC says: numacol's tables, its views,
     * and the {@code sys} and {@code information_schema} tables.
     */
    static List<TableTypeRow> tableTypes() {
        return Stream.of(Schema.TableType.SYSTEM_TABLE, Schema.TableType.TABLE, Schema.TableType.VIEW)
                .map(t -> t.jdbcName).sorted().map(TableTypeRow::new).toList();
    }

    /** A row of getTypeInfo, with JDBC's spelling of every field (Avatica's MetaTypeInfo has no CREATE_PARAMS). */
    public static final class TypeInfoRow {
        public final String typeName;
        public final int dataType;
        public final Integer precision;
        public final String literalPrefix;
        public final String literalSuffix;
        public final String createParams;
        public final short nullable = (short) DatabaseMetaData.typeNullable;
        public final boolean caseSensitive;
        public final short searchable = (short) DatabaseMetaData.typeSearchable;
        public final boolean unsignedAttribute = false;
        public final boolean fixedPrecScale = false;
        public final boolean autoIncrement;
        public final String localTypeName;
        public final Short minimumScale;
        public final Short maximumScale;
        public final Integer sqlDataType = null;
        public final Integer sqlDatetimeSub = null;
        public final Integer numPrecRadix;

        TypeInfoRow(String typeName, int dataType, Integer precision, String literalPrefix, String createParams, boolean autoIncrement,
                    Integer maximumScale, int numPrecRadix) {
            this.typeName = typeName;
            this.dataType = dataType;
            this.precision = precision;
            this.literalPrefix = literalPrefix;
            this.literalSuffix = literalPrefix == null ? null : "'";
            this.createParams = createParams;
            this.caseSensitive = dataType == Types.CHAR || dataType == Types.VARCHAR;
            this.autoIncrement = autoIncrement;
            this.localTypeName = typeName;
            this.minimumScale = maximumScale == null ? null : (short) 0;
            this.maximumScale = maximumScale == null ? null : maximumScale.shortValue();
            this.numPrecRadix = numPrecRadix;
        }
    }

    /**
     * One row per type CREATE TABLE takes (numacol's column types, {@link ColumnType.Kind}), by
     * the name getColumns gives its columns, ordered by DATA_TYPE as JDBC says. PRECISION is the
     * largest COLUMN_SIZE a column of it can have; IDENTITY columns are SMALLINT, INTEGER or BIGINT.
     */
    static List<TypeInfoRow> typeInfo() {
        int maxLength = NumacolTypeSystem.INSTANCE.getMaxPrecision(SqlTypeName.VARCHAR);
        int fraction = ColumnType.MAX_TIMESTAMP_PRECISION;
        List<TypeInfoRow> rows = new ArrayList<>();
        for (ColumnType.Kind kind : ColumnType.Kind.values()) {
            TypeInfoRow row = switch (kind) {
                case BOOLEAN -> new TypeInfoRow("BOOLEAN", Types.BOOLEAN, 1, null, null, false, null, 10);
                case TINYINT -> new TypeInfoRow("TINYINT", Types.TINYINT, 3, null, null, false, 0, 10);
                case SMALLINT -> new TypeInfoRow("SMALLINT", Types.SMALLINT, 5, null, null, true, 0, 10);
                case INTEGER -> new TypeInfoRow("INTEGER", Types.INTEGER, 10, null, null, true, 0, 10);
                case BIGINT -> new TypeInfoRow("BIGINT", Types.BIGINT, 19, null, null, true, 0, 10);
                case REAL -> new TypeInfoRow("REAL", Types.REAL, 24, null, null, false, null, 2);
                case DOUBLE -> new TypeInfoRow("DOUBLE", Types.DOUBLE, 53, null, null, false, null, 2);
                case DECIMAL -> new TypeInfoRow("DECIMAL", Types.DECIMAL, ColumnType.MAX_DECIMAL_PRECISION, null, "precision,scale", false,
                        ColumnType.MAX_DECIMAL_PRECISION, 10);
                case DATE -> new TypeInfoRow("DATE", Types.DATE, 10, "DATE '", null, false, 0, 10);
                case TIME -> new TypeInfoRow("TIME", Types.TIME, ColumnDescription.of(Types.TIME, "TIME", fraction, null).columnSize(),
                        "TIME '", "precision", false, fraction, 10);
                case TIMESTAMP -> new TypeInfoRow("TIMESTAMP", Types.TIMESTAMP,
                        ColumnDescription.of(Types.TIMESTAMP, "TIMESTAMP", fraction, null).columnSize(), "TIMESTAMP '", "precision", false,
                        fraction, 10);
                case TIMESTAMP_TZ -> new TypeInfoRow(InstantMetaData.TYPE_NAME, Types.TIMESTAMP_WITH_TIMEZONE,
                        ColumnDescription.of(Types.TIMESTAMP_WITH_TIMEZONE, "", fraction, null).columnSize(),
                        "TIMESTAMP WITH TIME ZONE '", "precision", false, fraction, 10);
                case CHAR -> new TypeInfoRow("CHAR", Types.CHAR, maxLength, "'", "length", false, null, 10);
                case VARCHAR -> new TypeInfoRow("VARCHAR", Types.VARCHAR, maxLength, "'", "length", false, null, 10);
                case VARBINARY -> new TypeInfoRow("VARBINARY", Types.VARBINARY, maxLength, "X'", "length", false, null, 10);
                case UUID -> new TypeInfoRow("UUID", SqlTypeName.UUID.getJdbcOrdinal(), 36, null, null, false, null, 10);
            };
            rows.add(row);
        }
        rows.sort(Comparator.comparingInt((TypeInfoRow r) -> r.dataType));
        return rows;
    }

    /**
     * One row per function a statement of a connection of {@code config} can call (its {@code fun}
     * libraries and numacol's own: nextval, date_trunc, gen_random_uuid...), by name; operators
     * written as symbols or keywords ({@code +}, {@code IS NULL}, {@code CASE}) are not
     * functions. They belong to no catalog or schema: a {@code schemaPattern} other than null,
     * {@code %} or {@code ""} (JDBC's "without a schema") finds none. Names match {@code namePattern} (a LIKE pattern, null for all)
     * ignoring case, as numacol resolves them.
     */
    static List<FunctionRow> functions(CalciteConnectionConfig config, String catalog, String schemaPattern, String namePattern) {
        if ((catalog != null && !catalog.isEmpty()) || (schemaPattern != null && !schemaPattern.equals("%") && !schemaPattern.isEmpty())) {
            return List.of();
        }
        Pattern name = namePattern == null ? null : like(namePattern);
        Map<String, FunctionRow> byName = new TreeMap<>();
        for (SqlOperator op : NumacolPrepare.functions(config).getOperatorList()) {
            if (!(op instanceof SqlFunction f) || !isCalledByName(f)) {
                continue;
            }
            String n = f.getName().toUpperCase(Locale.ROOT);
            if (name != null && !name.matcher(n).matches()) {
                continue;
            }
            boolean table = f instanceof SqlTableFunction || f instanceof SqlUserDefinedTableMacro;
            short type = (short) (table ? DatabaseMetaData.functionReturnsTable : DatabaseMetaData.functionNoTable);
            byName.putIfAbsent(n, new FunctionRow(n, remarks(f), type));
        }
        for (String sequenceCall : SequenceCalls.NAMES) { // rewritten to numacol's own before they are typed, which are named $NUMACOL_SEQ_...
            if (name == null || name.matcher(sequenceCall).matches()) {
                byName.putIfAbsent(sequenceCall, new FunctionRow(sequenceCall, "sequence function", (short) DatabaseMetaData.functionNoTable));
            }
        }
        return new ArrayList<>(byName.values());
    }

    /** Whether {@code f} is written as a name and its arguments, or as a bare name (CURRENT_DATE). */
    private static boolean isCalledByName(SqlFunction f) {
        SqlSyntax syntax = f.getSyntax();
        return (syntax == SqlSyntax.FUNCTION || syntax == SqlSyntax.FUNCTION_ID || syntax == SqlSyntax.FUNCTION_STAR)
                && f.getName().matches("[A-Za-z_][A-Za-z0-9_]*")
                && !f.getName().endsWith("_ON_NULL"); // Calcite's internal JSON_ARRAYAGG_ABSENT_ON_NULL...
    }

    private static String remarks(SqlFunction f) {
        if (f.isAggregator()) {
            return "aggregate function";
        }
        return f.requiresOver() ? "window function" : f.getFunctionType().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " function";
    }

    /** A JDBC LIKE pattern ({@code %}, {@code _}, {@code \} escapes) as a regular expression, ignoring case. */
    static Pattern like(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    /** A row of getFunctions, as JDBC spells its fields. */
    public static final class FunctionRow {
        public final String functionCat = null;
        public final String functionSchem = null;
        public final String functionName;
        public final String remarks;
        public final short functionType;
        public final String specificName;

        FunctionRow(String functionName, String remarks, short functionType) {
            this.functionName = functionName;
            this.remarks = remarks;
            this.functionType = functionType;
            this.specificName = functionName;
        }
    }
}
