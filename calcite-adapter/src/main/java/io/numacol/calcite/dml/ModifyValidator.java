package io.numacol.calcite.dml;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.QueryCancel;
import io.numacol.storage.IdentityViolationException;
import io.numacol.storage.NotNullViolationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import io.numacol.storage.TableSchema;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
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
import java.util.function.Function;

/**
 * Calcite's validator, with the source of an UPDATE or DELETE made for numacol's deletion bitmaps
 * (see {@code io.numacol.database.TableChange}): the rows the WHERE keeps, each with its row id,
 * read from the table extended with {@link NumacolTable#ROW_ID}.
 * <ul>
 *   <li>{@code DELETE FROM t WHERE c}: {@code SELECT "numacol$rowid" FROM t EXTEND ("numacol$rowid"
 *       BIGINT) WHERE c}.</li>
 *   <li>{@code UPDATE t AS x SET a = e WHERE c}: {@code SELECT x.col, .., e, .., x."numacol$rowid"
 *       FROM t EXTEND (..) AS x WHERE c}: the table's columns, the new values (Calcite takes the
 *       values from the end of the list, and numacol's converter from after the columns), the row
 *       id last. A literal or a parameter ({@code SET a = NULL}, {@code SET a = ?}) is given as
 *       {@code CASE WHEN TRUE THEN value ELSE x.a END}, which types it as the column.</li>
 * </ul>
 * Rows the statement leaves alone are never read into Calcite's rows: they stay where they are,
 * as they are stored. It is every statement's validator, so it also types the parameters nothing
 * around them types as PostgreSQL does ({@link #inferUnknownTypes}).
 */
public final class ModifyValidator extends CalciteSqlValidator {

    /** Replaces a call before it is typed (nextval('s') by numacol's call of the sequence's number), or gives null. */
    private final Function<SqlCall, SqlNode> calls;

    public ModifyValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
                           Config config) {
        this(opTab, catalogReader, typeFactory, config, call -> null);
    }

    public ModifyValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
                           Config config, Function<SqlCall, SqlNode> calls) {
        super(opTab, catalogReader, typeFactory, config);
        this.calls = calls;
    }

    @Override
    protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
        // CURRENT_SCHEMA, written without parentheses, is a name until Calcite expands it, after this (only it is
        // looked up: the one such function the calls replace, and a lookup per name of every statement would cost)
        SqlCall nullary = node instanceof SqlIdentifier id && id.isSimple() && !id.isComponentQuoted(0)
                && id.getSimple().equalsIgnoreCase("CURRENT_SCHEMA") ? makeNullaryCall(id) : null;
        if (nullary != null) {
            SqlNode replaced = calls.apply(nullary);
            if (replaced != null) {
                return replaced;
            }
        }
        if (node instanceof SqlCall call) {
            SqlNode replaced = calls.apply(call);
            if (replaced != null) {
                return replaced;
            }
            if (call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.INTERSECT || call.getKind() == SqlKind.EXCEPT) {
                for (SqlNode operand : call.getOperandList()) {
                    markColumnParameters(operand);
                }
            }
        }
        return super.performUnconditionalRewrites(node, underFrom);
    }

    /**
     * Parameters that are whole columns of a set operation's branch ({@code SELECT ? ... UNION
     * SELECT n ...}): PostgreSQL types them from the other branches' column, and text would turn
     * the column to text (an INTEGER column then sorted as 1, 10, 5), so they are refused unless
     * cast ({@link #inferUnknownTypes}). By identity: the validator is the statement's own.
     */
    private final java.util.Set<SqlNode> setColumnParameters = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private void markColumnParameters(SqlNode branch) {
        SqlNode query = branch instanceof org.apache.calcite.sql.SqlOrderBy o ? o.query : branch;
        if (query instanceof SqlSelect select) {
            for (SqlNode item : select.getSelectList()) {
                SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
                if (value instanceof SqlDynamicParam) {
                    setColumnParameters.add(value);
                }
            }
        }
    }

    /** Expressions typed, to stop a statement being validated every {@link QueryCancel#CHECK_MASK} + 1 of them. */
    private int typed;

    /** Calcite's, stopping a canceled statement or one past its timeout: a 100,000-element IN list is as many expressions to type. */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        if ((++typed & QueryCancel.CHECK_MASK) == 0) {
            QueryCancel.current().check();
        }
        return super.deriveType(scope, expr);
    }

    /**
     * A parameter nothing around it gives a type ({@code SELECT ?}, {@code upper(?)}, a CASE whose
     * every branch is a parameter) is typed as PostgreSQL types an unknown: as text, a VARCHAR, to
     * which any value converts ({@code ParameterValues}). Calcite refused such a statement at prepare
     * ("Illegal use of dynamic parameter"). A CASE's parameter branches beside string literals are
     * text too: Calcite gave them the literals' CHAR(n), which cut {@code 'cheap'} beside
     * {@code THEN 'dear'} to {@code 'chea'}. A whole column of a set operation's branch is not
     * (see {@link #setColumnParameters}): it stays refused unless cast.
     */
    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
        boolean unknown = inferredType.equals(getUnknownType());
        if (unknown && node instanceof SqlDynamicParam) {
            if (setColumnParameters.contains(node)) {
                throw newValidationError(node, org.apache.calcite.util.Static.RESOURCE.dynamicParamIllegal());
            }
            super.inferUnknownTypes(text(), scope, node);
            return;
        }
        if (node instanceof SqlCase c) {
            RelDataType type = parameterBranchType(c, unknown ? null : inferredType);
            if (type != null) {
                for (SqlNode branch : branches(c)) {
                    if (branch instanceof SqlDynamicParam) {
                        super.inferUnknownTypes(type, scope, branch);
                    }
                }
            }
        }
        super.inferUnknownTypes(inferredType, scope, node);
    }

    /**
     * The type of the parameters among {@code c}'s branches where numacol gives it: the context's
     * ({@code context}, null if none) or text when no other branch has a type but NULL, text when
     * every other branch is a string literal; null to leave it to Calcite (from the other branches).
     */
    private RelDataType parameterBranchType(SqlCase c, RelDataType context) {
        boolean parameter = false;
        boolean typed = false;
        boolean onlyStrings = true;
        for (SqlNode branch : branches(c)) {
            if (branch instanceof SqlDynamicParam) {
                parameter = true;
            } else if (branch != null && !SqlUtil.isNullLiteral(branch, false)) {
                typed = true;
                onlyStrings &= branch instanceof SqlCharStringLiteral;
            }
        }
        if (!parameter) {
            return null;
        }
        if (!typed) {
            return context != null ? context : text();
        }
        return context == null && onlyStrings ? text() : null;
    }

    /** The THEN values and the ELSE of {@code c}. */
    private static List<SqlNode> branches(SqlCase c) {
        List<SqlNode> branches = new ArrayList<>(c.getThenOperands());
        branches.add(c.getElseOperand());
        return branches;
    }

    /**
     * Calcite's, with a parameter for OFFSET or LIMIT (FETCH) typed BIGINT, as PostgreSQL types it,
     * where Calcite typed it INTEGER: {@code LIMIT ?} bound to 3,000,000,000 was refused as out of
     * range. The plans count such rows in longs ({@link io.numacol.calcite.rel.EnumerableRowLimit}).
     */
    @Override
    protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
        super.validateSelect(select, targetRowType);
        for (SqlNode count : new SqlNode[] {select.getOffset(), select.getFetch()}) {
            if (count instanceof SqlDynamicParam) {
                setValidatedNodeType(count, getTypeFactory().createSqlType(SqlTypeName.BIGINT));
            }
        }
    }

    /** PostgreSQL's text: what an untyped parameter is taken for. */
    private RelDataType text() {
        return getTypeFactory().createTypeWithNullability(getTypeFactory().createSqlType(SqlTypeName.VARCHAR), true);
    }

    @Override
    protected SqlSelect createSourceSelectForDelete(SqlDelete call) {
        SqlNodeList select = new SqlNodeList(SqlParserPos.ZERO);
        select.add(new SqlIdentifier(NumacolTable.ROW_ID, SqlParserPos.ZERO));
        return new SqlSelect(SqlParserPos.ZERO, null, select, withRowIds(call.getTargetTable(), call.getAlias()),
                call.getCondition(), null, null, null, null, null, null, null, null);
    }

    @Override
    protected SqlSelect createSourceSelectForUpdate(SqlUpdate call) {
        SqlIdentifier target = (SqlIdentifier) call.getTargetTable();
        SqlValidatorTable table = getCatalogReader().getTable(target.names);
        String alias = call.getAlias() != null ? call.getAlias().getSimple() : target.names.getLast();
        SqlNodeList select = new SqlNodeList(SqlParserPos.ZERO);
        if (table == null) {
            select.add(SqlIdentifier.star(SqlParserPos.ZERO)); // validation reports the missing table
        } else {
            for (RelDataTypeField column : table.getRowType().getFieldList()) {
                select.add(new SqlIdentifier(List.of(alias, column.getName()), SqlParserPos.ZERO));
            }
        }
        addValues(call, select, alias);
        select.add(new SqlIdentifier(List.of(alias, NumacolTable.ROW_ID), SqlParserPos.ZERO));
        return new SqlSelect(SqlParserPos.ZERO, null, select, withRowIds(target, new SqlIdentifier(alias, SqlParserPos.ZERO)),
                call.getCondition(), null, null, null, null, null, null, null, null);
    }

    /** {@code table EXTEND ("numacol$rowid" BIGINT) [AS alias]}. */
    private static SqlNode withRowIds(SqlNode table, SqlIdentifier alias) {
        SqlNode extended = SqlStdOperatorTable.EXTEND.createCall(SqlParserPos.ZERO, table, SqlNodeList.of(
                new SqlIdentifier(NumacolTable.ROW_ID, SqlParserPos.ZERO),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, SqlParserPos.ZERO), SqlParserPos.ZERO)));
        return alias == null ? extended : SqlValidatorUtil.addAlias(extended, alias.getSimple());
    }

    /**
     * The UPDATE's values. A literal or a parameter is typed with its column (named under {@code
     * alias}), as {@code CASE WHEN TRUE THEN value ELSE column END} (a literal the column's type
     * cannot take fails as the statement is converted, naming it); any other value keeps its own
     * type, for numacol to check as it stores it.
     */
    private static void addValues(SqlUpdate call, SqlNodeList select, String alias) {
        List<SqlNode> values = call.getSourceExpressionList();
        for (int i = 0; i < values.size(); i++) {
            SqlNode value = values.get(i);
            if (SqlUtil.isLiteral(value, true) || value instanceof SqlDynamicParam) {
                SqlIdentifier target = (SqlIdentifier) call.getTargetColumnList().get(i);
                SqlNode column = new SqlIdentifier(List.of(alias, target.names.getLast()), target.getParserPosition());
                value = new SqlCase(value.getParserPosition(), null, SqlNodeList.of(SqlLiteral.createBoolean(true, SqlParserPos.ZERO)),
                        SqlNodeList.of(value), column);
            }
            // unique aliases, as Calcite's own: SET x = y would otherwise name two columns y
            select.add(SqlValidatorUtil.addAlias(value, SqlUtil.deriveAliasFromOrdinal(i)));
        }
    }

    @Override
    public void validateInsert(SqlInsert insert) {
        refuseValuesForAlwaysIdentity(insert);
        try {
            super.validateInsert(insert);
        } catch (CalciteContextException e) {
            throw refusedColumn(insert, e);
        }
        requireNumacolTable(insert, insert.getTargetTable());
    }

    /**
     * Refuses (SQLSTATE 428C9) an INSERT that gives a GENERATED ALWAYS identity column anything but
     * {@code DEFAULT}: a value in a VALUES row, or any row of a query. Calcite is told such a column
     * is DEFAULT, not STORED (see {@code ColumnDefaults}), so this check is numacol's.
     */
    private void refuseValuesForAlwaysIdentity(SqlInsert insert) {
        if (!(insert.getTargetTable() instanceof SqlIdentifier target)) {
            return;
        }
        SqlValidatorTable validatorTable = getCatalogReader().getTable(target.names);
        NumacolTable numacol = validatorTable == null ? null : validatorTable.unwrap(NumacolTable.class);
        if (numacol == null) {
            return;
        }
        TableSchema schema = numacol.table().schema();
        if (schema.columns().stream().noneMatch(c -> c.identity() != null && c.identity().always())) {
            return;
        }
        SqlNode source = insert.getSource();
        List<SqlNode> rows = source.getKind() == SqlKind.VALUES ? ((SqlCall) source).getOperandList() : null;
        SqlNodeList named = insert.getTargetColumnList();
        int count = named != null ? named.size() : schema.size();
        for (int i = 0; i < count; i++) {
            int column = named == null ? i : named.get(i) instanceof SqlIdentifier id ? schema.indexOf(id.names.getLast()) : -1;
            if (column < 0 || column >= schema.size()) {
                continue; // the validator reports an unknown column
            }
            TableSchema.ColumnDef def = schema.column(column);
            if (def.identity() == null || !def.identity().always()) {
                continue;
            }
            boolean given = rows == null;
            for (SqlNode row : rows == null ? List.<SqlNode>of() : rows) {
                SqlNode value = row.getKind() == SqlKind.ROW ? (((SqlCall) row).operandCount() > i ? ((SqlCall) row).operand(i) : null)
                        : i == 0 ? row : null;
                given |= value != null && value.getKind() != SqlKind.DEFAULT;
            }
            if (given) {
                throw new IdentityViolationException("cannot insert a non-DEFAULT value into column \"" + def.name()
                        + "\" of relation \"" + numacol.table().name() + "\": it is GENERATED ALWAYS AS IDENTITY", null);
            }
        }
    }

    private static final Pattern NOT_NULLABLE = Pattern.compile("Column '(.+)' has no default value and does not allow NULLs");
    private static final Pattern GENERATED = Pattern.compile("Cannot INSERT into generated column '(.+)'");

    /**
     * Calcite's refusal of an INSERT that leaves a NOT NULL column without a value, in
     * PostgreSQL's words (SQLSTATE 23502), and of one that gives a GENERATED ALWAYS column a
     * value (428C9); any other failure as it is.
     */
    private RuntimeException refusedColumn(SqlInsert insert, CalciteContextException e) {
        String message = String.valueOf(e.getMessage());
        SqlValidatorNamespace namespace = getNamespace(insert);
        SqlValidatorTable target = namespace == null ? null : namespace.getTable();
        NumacolTable table = target == null ? null : target.unwrap(NumacolTable.class);
        String tableName = table == null ? String.valueOf(insert.getTargetTable()) : table.table().name();
        Matcher m = NOT_NULLABLE.matcher(message);
        if (m.find()) {
            return NotNullViolationException.of(tableName, m.group(1), 0, e);
        }
        m = GENERATED.matcher(message);
        if (m.find()) {
            return new IdentityViolationException("cannot insert a non-DEFAULT value into column \"" + m.group(1)
                    + "\" of relation \"" + tableName + "\": it is GENERATED ALWAYS AS IDENTITY", e);
        }
        return e;
    }

    @Override
    public void validateUpdate(SqlUpdate call) {
        super.validateUpdate(call);
        requireNumacolTable(call, call.getTargetTable());
        refuseUpdateOfAlwaysIdentity(call);
    }

    /** Refuses (428C9, PostgreSQL's words) an UPDATE that sets a GENERATED ALWAYS identity column: its values are the counter's. */
    private void refuseUpdateOfAlwaysIdentity(SqlUpdate call) {
        SqlValidatorNamespace namespace = getNamespace(call);
        SqlValidatorTable target = namespace == null ? null : namespace.getTable();
        NumacolTable numacol = target == null ? null : target.unwrap(NumacolTable.class);
        if (numacol == null || call.getTargetColumnList() == null) {
            return;
        }
        TableSchema schema = numacol.table().schema();
        for (int i = 0; i < call.getTargetColumnList().size(); i++) {
            if (!(call.getTargetColumnList().get(i) instanceof SqlIdentifier id)) {
                continue;
            }
            int column = schema.indexOf(id.names.getLast());
            SqlNode value = call.getSourceExpressionList() == null ? null : call.getSourceExpressionList().get(i);
            if (column >= 0 && schema.column(column).identity() != null && schema.column(column).identity().always()
                    && (value == null || value.getKind() != SqlKind.DEFAULT)) {
                throw new IdentityViolationException("column \"" + schema.column(column).name()
                        + "\" can only be updated to DEFAULT: it is GENERATED ALWAYS AS IDENTITY", null);
            }
        }
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
     * (the row id), which no column is assigned, and without the casts Calcite would add where
     * numacol checks the value itself as an INSERT's: a CAST to VARCHAR(5) would cut {@code
     * 'toolong'} silently, one to INTEGER would round 1.5.
     */
    @Override
    protected void checkTypeAssignment(SqlValidatorScope sourceScope, SqlValidatorTable table, RelDataType sourceRowType,
                                       RelDataType targetRowType, SqlNode query) {
        if (query instanceof SqlUpdate && sourceRowType.getFieldCount() == targetRowType.getFieldCount() + 1
                && sourceRowType.getFieldList().getLast().getName().equals(NumacolTable.ROW_ID)) {
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
}
