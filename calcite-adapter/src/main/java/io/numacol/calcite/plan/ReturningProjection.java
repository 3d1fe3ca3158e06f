package io.numacol.calcite.plan;

import io.numacol.calcite.NumacolTypeFactory;
import io.numacol.calcite.SequenceCalls;
import io.numacol.calcite.SqlTypes;
import io.numacol.calcite.ddl.DatetimeMinus;
import io.numacol.calcite.dml.CheckedCastRexBuilder;
import io.numacol.storage.TableSchema;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;

/**
 * The list of an {@code INSERT/UPDATE/DELETE ... RETURNING} with expressions in it, read as the
 * select list of {@code SELECT list FROM table} over one row of the table the statement writes:
 * parsed, validated and converted as a query's (names, types, functions and casts resolve as
 * there, with the connection's functions), then compiled with Calcite's {@link RexExecutorImpl}
 * into one method that computes the returned row from a stored one, as {@link CheckConstraints}
 * computes a check. The rows a RETURNING answers are no table's, so no plan could scan them.
 *
 * <p>Refused: a parameter ({@code ?}) and a subquery (0A000), an aggregate (42803) and a window
 * function (42P20), as PostgreSQL refuses the last two, and a sequence's function (0A000).
 * The result's column labels are PostgreSQL's: an alias, else a column's name, a function's name,
 * {@code case}, a cast's type, or {@code ?column?}.
 */
public final class ReturningProjection {
    /** What PostgreSQL labels an expression it has no name for. */
    public static final String UNNAMED = "?column?";

    private final List<String> labels;
    private final RelDataType inputType;
    private final RelDataType rowType;
    private final List<RexNode> expressions;
    private final RexBuilder rexBuilder;
    private final RelOptCluster cluster;
    private final JavaTypeFactory types;
    private final String select;
    private final TimeZone zone;

    private ReturningProjection(List<String> labels, RelDataType inputType, RelDataType rowType, List<RexNode> expressions,
                                RelOptCluster cluster, JavaTypeFactory types, String select, TimeZone zone) {
        this.labels = labels;
        this.inputType = inputType;
        this.rowType = rowType;
        this.expressions = expressions;
        this.rexBuilder = cluster.getRexBuilder();
        this.cluster = cluster;
        this.types = types;
        this.select = select;
        this.zone = zone;
    }

    /**
     * {@code list} read over the rows of table {@code schemaName.tableName} of {@code schema},
     * named {@code alias} in the list where the statement gave it one (else null).
     *
     * @param functions the connection's functions ({@link NumacolPrepare#functions})
     * @param zone      the session's time zone, in which the expressions read instants and the clock
     * @throws SQLException 42601 for a list that is no select list, 0A000/42803/42P20 for what a
     *                      RETURNING cannot hold; Calcite's validator's exceptions (an unknown
     *                      column or function) pass as they are, for the caller to give their states
     */
    public static ReturningProjection read(TableSchema schema, String schemaName, String tableName, String alias, String list,
                                           SqlOperatorTable functions, ZoneId zone) throws SQLException {
        String select = "SELECT " + list + "\nFROM " + quoted(schemaName) + "." + quoted(tableName)
                + (alias == null ? "" : " AS " + quoted(alias));
        SqlNode statement;
        try {
            statement = SqlParser.create(select, NumacolPrepare.VIEW_PARSER).parseStmt();
        } catch (SqlParseException e) {
            String message = String.valueOf(e.getMessage());
            int expected = message.indexOf("\nWas expecting"); // every token that could come, one a line
            throw new SQLSyntaxErrorException("syntax error in RETURNING " + list + ": "
                    + (expected < 0 ? message : message.substring(0, expected)).strip(), "42601", e);
        }
        if (!(statement instanceof SqlSelect query) || query.getWhere() != null || query.getGroup() != null
                || query.getHaving() != null || query.getWindowList().size() != 0 || query.getOrderList() != null
                || query.getFetch() != null || query.getOffset() != null || query.isDistinct()) {
            throw new SQLSyntaxErrorException("syntax error in RETURNING " + list + ": RETURNING takes a list of expressions", "42601");
        }
        List<SqlNode> items = List.copyOf(query.getSelectList().getList());
        try {
            for (SqlNode item : items) {
                refuseWhatNeedsMoreThanTheRow(item, list);
            }
        } catch (Refusal e) {
            throw (SQLException) e.getCause();
        }
        List<String> labels = new ArrayList<>();
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                for (int c = 0; c < schema.size(); c++) {
                    labels.add(schema.column(c).name());
                }
            } else {
                labels.add(label(item, schema));
            }
        }

        JavaTypeFactory types = new NumacolTypeFactory();
        RelDataType inputType = SqlTypes.columns(types, schema).build();
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        CalciteSchema sub = root.add(schemaName, new AbstractSchema());
        sub.add(tableName, new AbstractTable() {
            @Override
            public RelDataType getRowType(RelDataTypeFactory factory) {
                return inputType;
            }
        });
        CalciteCatalogReader reader = new CalciteCatalogReader(root, List.of(schemaName), types, CONFIG);
        RexBuilder rexBuilder = new CheckedCastRexBuilder(types, zone);
        VolcanoPlanner planner = new VolcanoPlanner(); // plans nothing: it knows the convention of the Calc compiled
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(planner, rexBuilder);
        SqlValidator validator = SqlValidatorUtil.newValidator(SqlOperatorTables.chain(functions, reader), reader, types,
                SqlValidator.Config.DEFAULT.withConformance(SqlConformanceEnum.LENIENT).withIdentifierExpansion(true)
                        .withTypeCoercionFactory(NumacolTypeCoercion::new));
        SqlNode validated = validator.validate(query);
        if (validator.isAggregate((SqlSelect) validated)) {
            throw new SQLSyntaxErrorException("aggregate functions are not allowed in RETURNING (" + list
                    + "): it answers each row the statement stored", "42803");
        }
        SqlToRelConverter converter = new SqlToRelConverter((type, queryString, schemaPath, viewPath) -> {
            throw new UnsupportedOperationException("a RETURNING reads no view");
        }, validator, reader, cluster, DatetimeMinus.CONVERTLETS, SqlToRelConverter.config()
                .withTrimUnusedFields(false).withExpand(false).withInSubQueryThreshold(Integer.MAX_VALUE));
        RelRoot converted = converter.convertQuery(validated, false, true);
        if (!(converted.rel instanceof Project project) || !(project.getInput() instanceof TableScan)) {
            throw new SQLFeatureNotSupportedException("RETURNING " + list + " is not a list of expressions over one row", "0A000");
        }
        return new ReturningProjection(List.copyOf(labels), inputType, project.getRowType(), List.copyOf(project.getProjects()),
                cluster, types, select, TimeZone.getTimeZone(zone));
    }

    /** The result's column labels, PostgreSQL's, one per column (a {@code *} gives every column of the table). */
    public List<String> labels() {
        return labels;
    }

    /** The table's row as the compiled code reads it: each stored value in Calcite's internal form of its field's type. */
    public RelDataType inputType() {
        return inputType;
    }

    /** The types of the returned columns, as this class's validator derived them. */
    public RelDataType rowType() {
        return rowType;
    }

    /** {@code SELECT list FROM table}: the query whose columns the connection's planner describes as the result's. */
    public String select() {
        return select;
    }

    /**
     * The list compiled, each column of the type {@code planned} gives it (a cast where the
     * connection's planner typed a column otherwise than this class's validator, so that the values
     * are those its metadata describes).
     */
    public Projector compile(RelDataType planned) {
        List<RexNode> typed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            RexNode e = expressions.get(i);
            RelDataType want = planned.getFieldList().get(i).getType();
            typed.add(SqlTypeUtil.equalSansNullability(types, e.getType(), want) ? e : rexBuilder.makeCast(want, e, true, false));
            names.add("returned" + i);
        }
        RexProgram program = CheckConstraints.runnable(cluster, inputType, typed, names);
        List<RexNode> runnable = program.getProjectList().stream().map(program::expandLocalRef).toList();
        Function1<DataContext, Object[]> code = RexExecutorImpl.getExecutable(rexBuilder, runnable, inputType).getFunction();
        return (row, now) -> code.apply(new RowContext(row, types, zone, now));
    }

    /**
     * The compiled list: the returned row of a stored one, both in Calcite's internal form, at
     * the statement's clock {@code now} (epoch milliseconds, what CURRENT_TIMESTAMP reads). The
     * code keeps no state: threads share it.
     */
    @FunctionalInterface
    public interface Projector {
        Object[] apply(Object[] row, long now);
    }

    /** Refuses, in the list as parsed, what a row alone cannot answer: a parameter, a subquery, a window, a sequence. */
    private static void refuseWhatNeedsMoreThanTheRow(SqlNode item, String list) {
        item.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind().belongsTo(SqlKind.QUERY) || call.getKind() == SqlKind.EXISTS
                        || call.getKind() == SqlKind.SCALAR_QUERY) {
                    throw refusal(new SQLFeatureNotSupportedException("RETURNING " + list + ": numacol takes no subquery in "
                            + "RETURNING; select from the table after the statement", "0A000"));
                }
                if (call.getKind() == SqlKind.OVER) {
                    throw refusal(new SQLSyntaxErrorException("window functions are not allowed in RETURNING (" + list + ")", "42P20"));
                }
                if (SequenceCalls.NAMES.contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                    throw refusal(new SQLFeatureNotSupportedException("RETURNING " + list + ": numacol calls no "
                            + call.getOperator().getName() + " in RETURNING; call it in the statement", "0A000"));
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlDynamicParam param) {
                throw refusal(new SQLFeatureNotSupportedException("RETURNING " + list + ": numacol takes no parameter (?) in "
                        + "RETURNING; return the column the parameter was stored in, or compute with it in the application", "0A000"));
            }
        });
    }

    private static RuntimeException refusal(SQLException e) {
        return new Refusal(e);
    }

    /** A refusal thrown out of the visitor, which can throw no checked exception; {@link #read} throws what it carries. */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refusal(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** PostgreSQL's label of a select item (its FigureColname): the alias, else what the expression names, else {@code ?column?}. */
    static String label(SqlNode item, TableSchema schema) {
        if (item.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
        }
        Named named = named(item, schema);
        return named == null ? UNNAMED : named.name();
    }

    /** A name an expression gives its column, {@code strong} unless it is a type's, which an enclosing cast's type replaces. */
    private record Named(String name, boolean strong) {
    }

    private static Named named(SqlNode node, TableSchema schema) {
        return switch (node) {
            case SqlIdentifier id -> {
                String last = id.names.getLast();
                int c = schema.indexOf(last);
                yield new Named(c >= 0 ? schema.column(c).name() : last, true);
            }
            case SqlLiteral literal -> switch (literal.getTypeName()) {
                // PostgreSQL reads these literals as casts of a string: 'true'::bool, '2024-01-01'::date
                case BOOLEAN -> new Named("bool", false);
                case DATE -> new Named("date", false);
                case TIME -> new Named("time", false);
                case TIMESTAMP -> new Named("timestamp", false);
                default -> literal.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME
                        || literal.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH
                        ? new Named("interval", false) : null;
            };
            case SqlCall call when call.getKind() == SqlKind.CAST -> {
                Named inner = named(call.operand(0), schema);
                if (inner != null && inner.strong()) {
                    yield inner;
                }
                yield call.operand(1) instanceof SqlDataTypeSpec spec ? new Named(typeName(spec), false) : inner;
            }
            case SqlCall call when call.getKind() == SqlKind.CASE -> new Named("case", true);
            case SqlCall call when call.getKind() == SqlKind.ROW -> new Named("row", true);
            case SqlCall call when call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR -> new Named("array", true);
            case SqlCall call when call.getOperator() instanceof SqlTrimFunction -> new Named(trimName(call), true);
            case SqlCall call when call.getOperator() instanceof SqlFunction f -> new Named(f.getName().toLowerCase(Locale.ROOT), true);
            default -> null;
        };
    }

    /** TRIM as PostgreSQL names it: the function it calls, btrim, ltrim or rtrim. */
    private static String trimName(SqlCall call) {
        if (call instanceof SqlBasicCall && call.operandCount() > 0 && call.operand(0) instanceof SqlLiteral flag
                && flag.getValue() instanceof SqlTrimFunction.Flag f) {
            return switch (f) {
                case LEADING -> "ltrim";
                case TRAILING -> "rtrim";
                case BOTH -> "btrim";
            };
        }
        return "btrim";
    }

    /** A cast's type as PostgreSQL names it in a label: its internal name (int4, float8, bpchar, ...). */
    private static String typeName(SqlDataTypeSpec spec) {
        String written = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        SqlTypeName type = SqlTypeName.get(written);
        return type == null ? written.toLowerCase(Locale.ROOT) : PG_NAMES.getOrDefault(type, type.getName().toLowerCase(Locale.ROOT));
    }

    private static final Map<SqlTypeName, String> PG_NAMES = Map.ofEntries(
            Map.entry(SqlTypeName.BOOLEAN, "bool"), Map.entry(SqlTypeName.TINYINT, "int2"), Map.entry(SqlTypeName.SMALLINT, "int2"),
            Map.entry(SqlTypeName.INTEGER, "int4"), Map.entry(SqlTypeName.BIGINT, "int8"), Map.entry(SqlTypeName.REAL, "float4"),
            Map.entry(SqlTypeName.FLOAT, "float8"), Map.entry(SqlTypeName.DOUBLE, "float8"), Map.entry(SqlTypeName.DECIMAL, "numeric"),
            Map.entry(SqlTypeName.CHAR, "bpchar"), Map.entry(SqlTypeName.VARCHAR, "varchar"), Map.entry(SqlTypeName.BINARY, "bytea"),
            Map.entry(SqlTypeName.VARBINARY, "bytea"), Map.entry(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, "timestamptz"));

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static final CalciteConnectionConfig CONFIG = config();

    private static CalciteConnectionConfig config() {
        Properties p = new Properties();
        p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        p.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), SqlConformanceEnum.LENIENT.name());
        return new CalciteConnectionConfigImpl(p);
    }

}
