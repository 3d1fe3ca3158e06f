package io.numacol.calcite.plan;

import io.numacol.calcite.CheckExpressions;
import io.numacol.calcite.InvalidCheckException;
import io.numacol.calcite.NumacolTypeFactory;
import io.numacol.calcite.SequenceCalls;
import io.numacol.calcite.SqlTypes;
import io.numacol.calcite.ddl.DatetimeMinus;
import io.numacol.calcite.dml.CheckedCastRexBuilder;
import io.numacol.calcite.dml.TimeCasts;
import io.numacol.calcite.plan.rewrite.CanonicalValues;
import io.numacol.calcite.plan.rewrite.CheckedArithmetic;
import io.numacol.calcite.plan.rewrite.NullableCasts;
import io.numacol.calcite.plan.rewrite.PlanFunctions;
import io.numacol.exec.InternalValues;
import io.numacol.storage.CheckCompiler;
import io.numacol.storage.RowCheck;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import com.google.common.collect.ImmutableList;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * numacol's {@link CheckCompiler}: each CHECK constraint is read as the select list of {@code
 * SELECT expression FROM t} over a table of the schema's columns, by numacol's parser, validator
 * and converter (so names, types, functions and casts resolve as in a query), rewritten as the
 * expressions of the plans Calcite runs are ({@link NullableCasts}, {@link CanonicalValues},
 * {@link PlanFunctions}, {@link CheckedArithmetic}), and all of a table's checks compiled into one
 * method by Calcite's {@link RexExecutorImpl}, run per row on the values as Calcite's code holds
 * them ({@link InternalValues}). The catalog keeps the compiled form per version of the table, so
 * a table's checks compile once (a few milliseconds of Janino) and a row costs one call.
 *
 * <p>Refused as PostgreSQL refuses them (SQLSTATE 42P17, {@link InvalidCheckException}): a
 * subquery, an aggregate or window function, a parameter, a column qualified by a table (a check
 * sees one row of its own table), and a function whose answer is not the row's alone
 * (CURRENT_DATE, RAND, the sequences'); an expression that is not BOOLEAN is 42804. A TIMESTAMP
 * WITH TIME ZONE read as a wall clock is read in UTC: a check gives a row the same answer in
 * every session.
 */
public final class CheckConstraints implements CheckCompiler {
    /** The one compiler; it keeps nothing between calls. */
    public static final CheckConstraints COMPILER = new CheckConstraints();

    /** The name of the table of the schema's columns that the checks are read over, which no user's check can name. */
    private static final String TABLE = "numacol$check";
    /** The functions a check may call: SQL's standard ones and numacol's DATE_TRUNC (not the sequences', which count). */
    private static final SqlOperatorTable FUNCTIONS = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(TimeCasts.DATE_TRUNC));
    private static final CalciteConnectionConfig CONFIG = config();

    private CheckConstraints() {
    }

    private static CalciteConnectionConfig config() {
        Properties p = new Properties();
        p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        p.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), SqlConformanceEnum.LENIENT.name());
        return new CalciteConnectionConfigImpl(p);
    }

    @Override
    public RowCheck compile(TableSchema schema) {
        List<TableSchema.CheckDef> checks = schema.checks();
        JavaTypeFactory types = new NumacolTypeFactory();
        RelDataType rowType = SqlTypes.columns(types, schema).build();
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        root.add(TABLE, new AbstractTable() {
            @Override
            public RelDataType getRowType(RelDataTypeFactory factory) {
                return rowType;
            }
        });
        CalciteCatalogReader reader = new CalciteCatalogReader(root, List.of(), types, CONFIG);
        RexBuilder rexBuilder = new CheckedCastRexBuilder(types, ZoneOffset.UTC);
        VolcanoPlanner planner = new VolcanoPlanner(); // plans nothing: it knows the convention the Calc below is of
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(planner, rexBuilder);
        List<RexNode> expressions = new ArrayList<>();
        for (TableSchema.CheckDef check : checks) {
            expressions.add(expression(check, reader, types, cluster));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            names.add("check" + i);
        }
        RexProgram program = runnable(cluster, rowType, expressions, names);
        List<RexNode> runnable = program.getProjectList().stream().map(program::expandLocalRef).toList();
        Function1<DataContext, Object[]> code;
        try {
            code = RexExecutorImpl.getExecutable(rexBuilder, runnable, rowType).getFunction();
        } catch (RuntimeException e) {
            throw new InvalidCheckException("the CHECK constraints of the table (" + names(checks) + ") cannot be compiled: "
                    + e.getMessage(), InvalidCheckException.INVALID_DEFINITION, e);
        }
        return new Compiled(checks, code, types, read(runnable), schema.columns().stream().map(TableSchema.ColumnDef::type)
                .toArray(ColumnType[]::new), rowType.getFieldList().stream().map(RelDataTypeField::getType).toArray(RelDataType[]::new));
    }

    @Override
    public String renamed(String expression, TableSchema schema, UnaryOperator<String> rename) {
        return CheckExpressions.renamed(expression, schema, rename);
    }

    /** One check read, validated and converted: a BOOLEAN expression over the table's columns. */
    private static RexNode expression(TableSchema.CheckDef check, CalciteCatalogReader reader, JavaTypeFactory types,
                                      RelOptCluster cluster) {
        String named = "check constraint \"" + check.name() + "\"";
        SqlNode statement;
        try {
            CheckExpressions.parse(check.expression()); // one expression, its syntax errors placed in it
            // numacol's parser makes binary minus, unary plus and zoned timestamps numacol's, as in a query
            statement = SqlParser.create("SELECT " + check.expression() + "\nFROM \"" + TABLE + "\"", NumacolPrepare.VIEW_PARSER)
                    .parseStmt();
        } catch (SqlParseException | IllegalArgumentException e) {
            throw new IllegalArgumentException(named + ": " + e.getMessage(), e);
        }
        if (!(statement instanceof SqlSelect select) || select.getSelectList().size() != 1 || select.getWhere() != null
                || select.getGroup() != null || select.getHaving() != null || select.getWindowList().size() != 0
                || select.getOrderList() != null || select.getFetch() != null || select.getOffset() != null
                || !(select.getFrom() instanceof SqlIdentifier from) || !from.isSimple() || !from.getSimple().equals(TABLE)) {
            throw new IllegalArgumentException("syntax error in " + named + ": CHECK takes one expression in parentheses, "
                    + "not (" + check.expression() + ")");
        }
        refuseWhatNeedsMoreThanTheRow(select.getSelectList().get(0), named);
        SqlValidator validator = SqlValidatorUtil.newValidator(SqlOperatorTables.chain(FUNCTIONS, reader), reader, types,
                SqlValidator.Config.DEFAULT.withConformance(SqlConformanceEnum.LENIENT).withIdentifierExpansion(true)
                        .withTypeCoercionFactory(NumacolTypeCoercion::new));
        SqlNode validated;
        RelDataType type;
        try {
            validated = validator.validate(select);
            type = validator.getValidatedNodeType(validated).getFieldList().get(0).getType();
        } catch (CalciteContextException e) {
            // its message places the error in the SELECT this class wrote; the validator's own says what it is
            throw new InvalidCheckException(named + ": " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), null, e);
        } catch (RuntimeException e) {
            throw new InvalidCheckException(named + ": " + e.getMessage(), null, e);
        }
        if (validator.isAggregate((SqlSelect) validated)) {
            throw new InvalidCheckException(named + ": aggregate functions are not allowed in check constraints",
                    InvalidCheckException.INVALID_DEFINITION, null);
        }
        if (type.getSqlTypeName() != SqlTypeName.BOOLEAN) {
            throw new InvalidCheckException("argument of CHECK must be type boolean, not type "
                    + type.getFullTypeString().replace(" NOT NULL", "").toLowerCase(Locale.ROOT) + " (" + named + ")",
                    InvalidCheckException.NOT_BOOLEAN, null);
        }
        SqlToRelConverter converter = new SqlToRelConverter((rowType, queryString, schemaPath, viewPath) -> {
            throw new UnsupportedOperationException("a check reads no view");
        }, validator, reader, cluster, DatetimeMinus.CONVERTLETS, SqlToRelConverter.config()
                .withTrimUnusedFields(false).withExpand(false).withInSubQueryThreshold(Integer.MAX_VALUE));
        RelRoot converted = converter.convertQuery(validated, false, true);
        if (!(converted.rel instanceof Project project) || !(project.getInput() instanceof TableScan) || project.getProjects().size() != 1) {
            throw new InvalidCheckException(named + ": (" + check.expression() + ") is not an expression over one row",
                    InvalidCheckException.INVALID_DEFINITION, null);
        }
        RexNode e = project.getProjects().getFirst();
        String fixed = notTheRowsAlone(e);
        if (fixed != null) {
            throw new InvalidCheckException(named + ": " + fixed + " does not depend on the row alone (a check must give a row "
                    + "the same answer whenever it runs)", InvalidCheckException.INVALID_DEFINITION, null);
        }
        return e;
    }

    /** Refuses, in the expression as parsed, a subquery, a window, a parameter and a qualified column: a check reads one row. */
    private static void refuseWhatNeedsMoreThanTheRow(SqlNode expression, String named) {
        expression.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                String why = call instanceof SqlSelect || call.getKind().belongsTo(SqlKind.QUERY)
                        || call.getKind() == SqlKind.EXISTS || call.getKind() == SqlKind.SCALAR_QUERY
                        ? "cannot use subquery in check constraint"
                        : call.getKind() == SqlKind.OVER ? "window functions are not allowed in check constraints" : null;
                if (why == null && SequenceCalls.NAMES.contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                    why = call.getOperator().getName() + " takes a sequence's next number, which is not the row's alone";
                }
                if (why != null) {
                    throw new InvalidCheckException(named + ": " + why, InvalidCheckException.INVALID_DEFINITION, null);
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlDynamicParam param) {
                throw new InvalidCheckException(named + ": a check takes no parameters (?)", InvalidCheckException.INVALID_DEFINITION, null);
            }

            @Override
            public Void visit(SqlIdentifier id) {
                if (!id.isSimple()) {
                    throw new InvalidCheckException(named + ": a check reads the columns of its own row: name " + id.names.getLast()
                            + " without " + String.join(".", id.names.subList(0, id.names.size() - 1)) + ".",
                            InvalidCheckException.INVALID_DEFINITION, null);
                }
                return null;
            }
        });
    }

    /** The first call in {@code e} whose answer is not its operands' alone (CURRENT_DATE, RAND), by name; null if none. */
    private static String notTheRowsAlone(RexNode e) {
        String[] found = {null};
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (found[0] == null && (!call.getOperator().isDeterministic() || call.getOperator().isDynamicFunction())) {
                    found[0] = call.getOperator().getName();
                }
                return super.visitCall(call);
            }
        });
        return found[0];
    }

    /**
     * Expressions over a row of {@code rowType} as the projection of a Calc of Calcite's, rewritten
     * as numacol rewrites the Calcs Calcite runs in a plan: the same expression gives a check (or
     * a RETURNING, {@link ReturningProjection}) the answer a query gives.
     */
    static RexProgram runnable(RelOptCluster cluster, RelDataType rowType, List<RexNode> expressions, List<String> names) {
        RelNode input = EnumerableValues.create(cluster, rowType, ImmutableList.of());
        RelNode calc = EnumerableCalc.create(input, RexProgram.create(rowType, expressions, null, names, cluster.getRexBuilder()));
        RelNode rewritten = CheckedArithmetic.apply(PlanFunctions.characters(CanonicalValues.canonicalValues(NullableCasts.strongCasts(calc))));
        if (!(rewritten instanceof Calc c)) {
            throw new IllegalStateException("the rewrites of a row's Calc gave " + rewritten);
        }
        return c.getProgram();
    }

    /** The columns {@code expressions} read, by position. */
    private static int[] read(List<RexNode> expressions) {
        BitSet read = new BitSet();
        for (RexNode e : expressions) {
            e.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitInputRef(RexInputRef ref) {
                    read.set(ref.getIndex());
                    return null;
                }

                @Override
                public Void visitLocalRef(RexLocalRef ref) {
                    throw new IllegalStateException("a check's expression is expanded");
                }
            });
        }
        return read.stream().toArray();
    }

    private static String names(List<TableSchema.CheckDef> checks) {
        return String.join(", ", checks.stream().map(TableSchema.CheckDef::name).toList());
    }

    /**
     * A table's checks compiled: {@code code} gives each check's answer for the row a {@link Row}
     * holds. The generated method keeps no state, so threads run it at once, each with its own
     * row.
     */
    private record Compiled(List<TableSchema.CheckDef> checks, Function1<DataContext, Object[]> code, JavaTypeFactory types,
                            int[] read, ColumnType[] columnTypes, RelDataType[] relTypes) implements RowCheck {
        @Override
        public TableSchema.CheckDef failed(Object[] stored) {
            Object[] values = new Object[stored.length];
            for (int c : read) {
                values[c] = internal(stored[c], columnTypes[c], relTypes[c]);
            }
            // a check reads no clock (CURRENT_TIMESTAMP is refused in one), and UTC for the few functions that ask
            Object[] answers = code.apply(new RowContext(values, types, RowContext.UTC, 0));
            for (int i = 0; i < answers.length; i++) {
                if (Boolean.FALSE.equals(answers[i])) { // NULL passes, as SQL says
                    return checks.get(i);
                }
            }
            return null;
        }

        /** A stored value as Calcite's generated code holds it. */
        private static Object internal(Object stored, ColumnType type, RelDataType relType) {
            return switch (stored) {
                case null -> null;
                case Long l -> InternalValues.ofStored(type, l);
                case Double d -> InternalValues.ofStored(type, d);
                default -> SqlTypes.fromKept(stored, relType);
            };
        }
    }

}
