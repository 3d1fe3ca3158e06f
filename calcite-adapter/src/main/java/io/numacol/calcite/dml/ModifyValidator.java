package io.numacol.calcite.dml;

import io.numacol.calcite.NumacolTable;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Calcite's validator, with the source of an UPDATE or DELETE made for numacol's copy-on-write
 * (see {@code io.numacol.database.TableRewrite}): every row of the table, not only the rows
 * the WHERE keeps, and a last column that says whether the statement changes the row.
 * <ul>
 *   <li>{@code DELETE FROM t WHERE c}: {@code SELECT *, CASE WHEN c THEN TRUE ELSE FALSE END FROM t}.</li>
 *   <li>{@code UPDATE t AS x SET a = e WHERE c}: {@code SELECT x.col, .., CASE WHEN x.m THEN e END,
 *       .., x.m FROM (SELECT *, CASE WHEN c THEN TRUE ELSE FALSE END AS m FROM t AS x) AS x}: the
 *       WHERE is evaluated once per row, and a new value computed only where it holds (1 / x on
 *       a row with x = 0 that the WHERE drops fails nothing). For a literal or a parameter
 *       ({@code SET a = NULL}, {@code SET a = ?}) the CASE has ELSE x.a, which types the value.
 *       Where a value has a subquery, each value has a copy of the WHERE instead (see below).</li>
 * </ul>
 */
public final class ModifyValidator extends CalciteSqlValidator {
    private static final String MODIFIED = "numacol$modified";

    public ModifyValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
                           Config config) {
        super(opTab, catalogReader, typeFactory, config);
    }

    @Override
    protected SqlSelect createSourceSelectForDelete(SqlDelete call) {
        SqlNodeList select = new SqlNodeList(SqlParserPos.ZERO);
        select.add(SqlIdentifier.star(SqlParserPos.ZERO));
        select.add(SqlValidatorUtil.addAlias(modified(call.getCondition()), MODIFIED));
        return new SqlSelect(SqlParserPos.ZERO, null, select, source(call.getTargetTable(), call.getAlias()),
                null, null, null, null, null, null, null, null, null);
    }

    @Override
    protected SqlSelect createSourceSelectForUpdate(SqlUpdate call) {
        SqlNode condition = call.getCondition();
        SqlIdentifier target = (SqlIdentifier) call.getTargetTable();
        SqlValidatorTable table = condition == null ? null : getCatalogReader().getTable(target.names);
        if (table == null || call.getSourceExpressionList().stream().anyMatch(ModifyValidator::hasSubQuery)) {
            // no WHERE (or no such table, which validation reports): every row changes. A value
            // with a subquery: Calcite does not decorrelate it over the derived table below (its
            // correlate then fails to compile), so each value gets a copy of the WHERE, which
            // agrees with the flag but for a WHERE that is not deterministic (RAND()) or reads a
            // table another statement changes meanwhile
            SqlNodeList select = new SqlNodeList(SqlParserPos.ZERO);
            select.add(SqlIdentifier.star(SqlParserPos.ZERO));
            addValues(call, select, List.of(), condition == null ? null : () -> copy(condition));
            select.add(SqlValidatorUtil.addAlias(modified(condition), MODIFIED));
            return new SqlSelect(SqlParserPos.ZERO, null, select, source(target, call.getAlias()),
                    null, null, null, null, null, null, null, null, null);
        }
        // the WHERE is evaluated once, in a derived table under the table's own alias, and each
        // value is computed where its flag holds: a copy per value could disagree with the flag
        // (RAND(), a subquery over a table another statement changes meanwhile)
        String alias = call.getAlias() != null ? call.getAlias().getSimple() : target.names.getLast();
        SqlNodeList inner = new SqlNodeList(SqlParserPos.ZERO);
        inner.add(SqlIdentifier.star(SqlParserPos.ZERO));
        inner.add(SqlValidatorUtil.addAlias(modified(condition), MODIFIED));
        SqlSelect flagged = new SqlSelect(SqlParserPos.ZERO, null, inner, SqlValidatorUtil.addAlias(target, alias),
                null, null, null, null, null, null, null, null, null);
        SqlNodeList select = new SqlNodeList(SqlParserPos.ZERO);
        for (RelDataTypeField column : table.getRowType().getFieldList()) {
            select.add(new SqlIdentifier(List.of(alias, column.getName()), SqlParserPos.ZERO));
        }
        SqlIdentifier flag = new SqlIdentifier(List.of(alias, MODIFIED), SqlParserPos.ZERO);
        addValues(call, select, List.of(alias), () -> flag.clone(SqlParserPos.ZERO));
        select.add(SqlValidatorUtil.addAlias(flag.clone(SqlParserPos.ZERO), MODIFIED));
        return new SqlSelect(SqlParserPos.ZERO, null, select, SqlValidatorUtil.addAlias(flagged, alias),
                null, null, null, null, null, null, null, null, null);
    }

    /**
     * The UPDATE's values, each as {@code CASE WHEN when THEN value END} where there is a {@code
     * when} (a new node per value). A literal or a parameter is typed with its column (named
     * under {@code qualifier}), given as the ELSE (a literal the column's type cannot take fails
     * as the statement is converted, naming it); any other value keeps its own type, for numacol
     * to check as it stores it.
     */
    private static void addValues(SqlUpdate call, SqlNodeList select, List<String> qualifier, Supplier<SqlNode> when) {
        List<SqlNode> values = call.getSourceExpressionList();
        for (int i = 0; i < values.size(); i++) {
            SqlNode value = values.get(i);
            if (when != null) {
                SqlIdentifier target = (SqlIdentifier) call.getTargetColumnList().get(i);
                List<String> column = new ArrayList<>(qualifier);
                column.add(target.names.getLast());
                SqlNode typed = SqlUtil.isLiteral(value, true) || value instanceof SqlDynamicParam
                        ? new SqlIdentifier(column, target.getParserPosition()) : SqlLiteral.createNull(SqlParserPos.ZERO);
                value = new SqlCase(value.getParserPosition(), null, SqlNodeList.of(when.get()), SqlNodeList.of(value), typed);
            }
            // unique aliases, as Calcite's own: SET x = y would otherwise name two columns y
            select.add(SqlValidatorUtil.addAlias(value, SqlUtil.deriveAliasFromOrdinal(i)));
        }
    }

    @Override
    public void validateInsert(SqlInsert insert) {
        super.validateInsert(insert);
        requireNumacolTable(insert, insert.getTargetTable());
    }

    @Override
    public void validateUpdate(SqlUpdate call) {
        super.validateUpdate(call);
        requireNumacolTable(call, call.getTargetTable());
    }

    @Override
    public void validateDelete(SqlDelete call) {
        super.validateDelete(call);
        requireNumacolTable(call, call.getTargetTable());
    }

    /** Only numacol's tables take rows: not views, nor the sys tables, which show the database's state. */
    private void requireNumacolTable(SqlNode statement, SqlNode target) {
        SqlValidatorNamespace namespace = getNamespace(statement);
        SqlValidatorTable table = namespace == null ? null : namespace.getTable();
        if (table != null && table.unwrap(NumacolTable.class) == null) {
            throw new IllegalArgumentException(target + " takes no " + statement.getKind()
                    + ": it is a view or a sys table, not a table of numacol's");
        }
    }

    /**
     * Calcite's check of an UPDATE's source against its columns, less the source's last column
     * (whether the row changes), which no column is assigned, and without the casts Calcite would
     * add where numacol checks the value itself as an INSERT's: a CAST to VARCHAR(5) would cut
     * {@code 'toolong'} silently, one to INTEGER would round 1.5.
     */
    @Override
    protected void checkTypeAssignment(SqlValidatorScope sourceScope, SqlValidatorTable table, RelDataType sourceRowType,
                                       RelDataType targetRowType, SqlNode query) {
        if (query instanceof SqlUpdate && sourceRowType.getFieldCount() == targetRowType.getFieldCount() + 1
                && sourceRowType.getFieldList().getLast().getName().equals(MODIFIED)) {
            List<RelDataTypeField> fields = sourceRowType.getFieldList();
            List<RelDataTypeField> targets = targetRowType.getFieldList();
            List<RelDataType> types = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                RelDataType source = fields.get(i).getType();
                RelDataType target = targets.get(i).getType();
                boolean checked = NumacolTableModifyRule.checkedByNumacol(source, target) || (i >= table.getRowType().getFieldCount()
                        && SqlTypeName.CHAR_TYPES.contains(source.getSqlTypeName()) && SqlTypeUtil.isNumeric(target)); // ModifyTarget parses
                types.add(checked ? typeFactory.createTypeWithNullability(target, source.isNullable()) : source);
            }
            sourceRowType = typeFactory.createStructType(types, fields.subList(0, targets.size()).stream().map(RelDataTypeField::getName).toList());
        }
        super.checkTypeAssignment(sourceScope, table, sourceRowType, targetRowType, query);
    }

    /**
     * The parameters in the order of their index: Calcite lists them in the order it meets them
     * in the statement's tree, where the source above puts an UPDATE's condition before its
     * first value; the copies of a parameter count once.
     */
    @Override
    public RelDataType getParameterRowType(SqlNode sqlQuery) {
        TreeMap<Integer, RelDataType> types = new TreeMap<>();
        sqlQuery.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlDynamicParam param) {
                if (!types.containsKey(param.getIndex())) {
                    types.put(param.getIndex(), getValidatedNodeType(param));
                }
                return param;
            }
        });
        List<String> names = new ArrayList<>();
        types.keySet().forEach(i -> names.add("?" + i));
        return typeFactory.createStructType(List.copyOf(types.values()), names);
    }

    /** Whether {@code node} has a query in it. */
    private static boolean hasSubQuery(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                found[0] |= call instanceof SqlSelect || call.getKind() == SqlKind.WITH || call.getKind() == SqlKind.UNION
                        || call.getKind() == SqlKind.VALUES;
                return found[0] ? call : super.visit(call);
            }
        });
        return found[0];
    }

    private static SqlNode source(SqlNode table, SqlIdentifier alias) {
        return alias == null ? table : SqlValidatorUtil.addAlias(table, alias.getSimple());
    }

    private static SqlNode modified(SqlNode condition) {
        if (condition == null) {
            return SqlLiteral.createBoolean(true, SqlParserPos.ZERO);
        }
        return new SqlCase(condition.getParserPosition(), null, SqlNodeList.of(condition),
                SqlNodeList.of(SqlLiteral.createBoolean(true, SqlParserPos.ZERO)), SqlLiteral.createBoolean(false, SqlParserPos.ZERO));
    }


    /** A deep copy of {@code node}: the validator rewrites what it validates in place, so no node may appear twice. */
    private static SqlNode copy(SqlNode node) {
        return node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlLiteral literal) {
                return literal.clone(literal.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlIdentifier id) {
                return id.clone(id.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlDataTypeSpec type) {
                return type.clone(type.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlDynamicParam param) {
                return param.clone(param.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlIntervalQualifier qualifier) {
                return qualifier.clone(qualifier.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlCall call) {
                CallCopyingArgHandler copying = new CallCopyingArgHandler(call, true);
                call.getOperator().acceptCall(this, call, false, copying);
                return copying.result();
            }

            @Override
            public SqlNode visit(SqlNodeList list) {
                List<SqlNode> copied = new ArrayList<>(list.size());
                for (SqlNode n : list) {
                    copied.add(n == null ? null : n.accept(this));
                }
                return SqlNodeList.of(list.getParserPosition(), copied);
            }
        });
    }
}
