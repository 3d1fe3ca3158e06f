package io.numacol.calcite.plan;

import io.numacol.calcite.NumacolSchema;
import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.Planning;
import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.PostgresFunctions;
import io.numacol.calcite.SequenceCalls;
import io.numacol.calcite.cache.PlanCache;
import io.numacol.calcite.ddl.DatetimeMinus;
import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.calcite.dml.CheckedCastRexBuilder;
import io.numacol.calcite.dml.DmlRules;
import io.numacol.calcite.dml.LiteralInsert;
import io.numacol.calcite.dml.ModifyValidator;
import io.numacol.calcite.dml.TimeCasts;
import io.numacol.calcite.plan.rewrite.CheckedArithmetic;
import io.numacol.calcite.plan.rewrite.FixedRules;
import io.numacol.calcite.plan.rewrite.NullComparisons;
import io.numacol.calcite.plan.rewrite.OptionalRewrites;
import io.numacol.calcite.plan.rewrite.PlanFunctions;
import io.numacol.calcite.plan.rewrite.SingleRemapTrimmer;
import io.numacol.calcite.rel.EnumerableRowLimit;
import io.numacol.calcite.rel.NumacolRel;
import io.numacol.calcite.rel.NumacolRules;
import io.numacol.calcite.rel.NumacolTableScan;
import io.numacol.calcite.rel.NumacolToEnumerableConverter;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUuidLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.TimestampString;

import java.lang.reflect.Type;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Calcite's statement preparation with numacol's planner rules added to every planner; also the
 * {@link Planning} the connection hands its schemas.
 */
public final class NumacolPrepare extends CalcitePrepareImpl implements Planning {

    /**
     * The parser of views (their check at CREATE VIEW and their expansion where used) reads SQL
     * as the driver's connections do: numacol's parser, identifiers as written, matched ignoring
     * case, lenient conformance. Calcite's default would upper-case a view's column names.
     */
    public static final SqlParser.Config VIEW_PARSER = SqlParser.config()
            .withParserFactory(NumacolParserFactory.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false).withConformance(SqlConformanceEnum.LENIENT);

    /** Functions numacol adds to Calcite's standard ones. */
    private static final SqlOperatorTable NUMACOL_FUNCTIONS = SqlOperatorTables.of(
            java.util.stream.Stream.concat(java.util.stream.Stream.of(TimeCasts.DATE_TRUNC, PostgresFunctions.GEN_RANDOM_UUID),
                    SequenceCalls.OPERATORS.stream()).toList());

    /**
     * Queries come from the database's plan cache ({@link PlanCache}) where the connection has
     * one: planned once per normalized text, run with each statement's literals. An INSERT of
     * literal rows is not planned at all ({@link LiteralInsert}).
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        NumacolSchema main = main(context);
        LiteralInsert literal = main == null ? null
                : LiteralInsert.recognize(query.sql, main.database(), context.getDefaultSchemaPath(), PrepareContexts.zone(context));
        if (literal != null) {
            return (CalciteSignature<T>) literal.signature(query.sql, context.getTypeFactory(), context.getRootSchema());
        }
        PlanCache cache = query.sql == null || main == null ? null : main.planCache();
        if (cache == null) {
            return super.prepareSql(context, query, elementType, maxRowCount);
        }
        return cache.signature(query.sql, VIEW_PARSER, context.getDefaultSchemaPath(), PrepareContexts.zone(context), maxRowCount, elementType,
                sql -> super.prepareSql(context, Query.of(sql), elementType, maxRowCount));
    }

    /** The functions a connection of {@code config} calls: its {@code fun} libraries (SQL's standard ones by default) and numacol's. */
    public static SqlOperatorTable functions(CalciteConnectionConfig config) {
        return SqlOperatorTables.chain(config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()), NUMACOL_FUNCTIONS);
    }

    @Override
    public RelDataType rowType(Context context, String sql) {
        return parse(context, sql).rowType;
    }

    /** A numacol table's scan, in numacol's convention so the operators above it can run in the engine. */
    @Override
    public RelNode scan(RelOptCluster cluster, RelOptTable relOptTable, NumacolTable table) {
        return new NumacolTableScan(cluster, cluster.traitSetOf(NumacolRel.CONVENTION), relOptTable, table);
    }

    @Override
    public CalciteSignature<Object> prepare(Context context, String sql) {
        return prepareSql(context, Query.of(sql), Object[].class, -1);
    }

    private static NumacolSchema main(Context context) {
        CalciteSchema main = context.getRootSchema().getSubSchema(NumacolSchema.NAME, true);
        return main != null && main.schema instanceof NumacolSchema numacol ? numacol : null;
    }

    @Override
    protected SqlParser createParser(String sql) {
        return createParser(sql, VIEW_PARSER);
    }

    /** Every rule numacol adds; each feature contributes its list here. */
    static List<RelOptRule> rules() {
        List<RelOptRule> rules = new ArrayList<>();
        rules.addAll(NumacolRules.RULES);
        rules.addAll(DmlRules.RULES);
        rules.addAll(JoinPlanning.rules());
        return rules;
    }

    /**
     * Clusters whose casts of literals fail with the value named instead of cutting or failing
     * late, and whose metadata knows numacol's distinct counts ({@link KeyMetadata#PROVIDER}):
     * the cost-based phase picks each hash join's build side from those estimates too.
     */
    @Override
    protected RelOptCluster createCluster(RelOptPlanner planner, RexBuilder rexBuilder) {
        RelOptCluster cluster = super.createCluster(planner, rexBuilder instanceof CheckedCastRexBuilder checked ? checked
                : new CheckedCastRexBuilder(rexBuilder.getTypeFactory(), ZoneId.systemDefault()));
        cluster.setMetadataProvider(KeyMetadata.PROVIDER);
        return cluster;
    }

    /** Calcite's preparing statement, optimizing with {@link JoinPlanning#program()} instead of Calcite's standard program. */
    @Override
    protected CalcitePreparingStmt getPreparingStmt(CalcitePrepare.Context context, Type elementType,
                                                    CalciteCatalogReader catalogReader, RelOptPlanner planner) {
        JavaTypeFactory typeFactory = context.getTypeFactory();
        EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM;
        SqlRexConvertletTable convertlets = DatetimeMinus.CONVERTLETS;
        return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
                createCluster(planner, new CheckedCastRexBuilder(typeFactory, PrepareContexts.zone(context))), EnumerableConvention.INSTANCE,
                convertlets) {
            @Override
            protected Program getProgram() {
                return JoinPlanning.program();
            }

            /*
             * A plan that numacol runs whole is bound to its {@code NumacolQuery} directly: the code
             * Calcite would generate and compile for it only calls the query (a fifth of an
             * uncached short statement's time went to generating and compiling it).
             */
            @Override
            protected PreparedResult implement(RelRoot root) {
                if (!(root.rel instanceof NumacolToEnumerableConverter converter) || !root.isRefTrivial()
                        || root.kind.belongsTo(SqlKind.DML)) {
                    PlanCache.planned(root.rel, true);
                    return super.implement(root.withRel(EnumerableRowLimit.apply(
                            UuidOrder.apply(CheckedArithmetic.apply(PlanFunctions.characters(root.rel))))));
                }
                PlanCache.planned(root.rel, false);
                Hook.PLAN_BEFORE_IMPLEMENTATION.run(root);
                Bindable<?> bindable = converter.bindable();
                boolean scalar = !(bindable instanceof ArrayBindable);
                return new PreparedResultImpl(root.rel.getRowType(), Objects.requireNonNull(parameterRowType),
                        Objects.requireNonNull(fieldOrigins),
                        root.collation.getFieldCollations().isEmpty() ? List.of() : List.of(root.collation),
                        root.rel, null, false) {
                    @Override
                    public String getCode() {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public Bindable<?> getBindable(Meta.CursorFactory cursorFactory) {
                        return bindable;
                    }

                    @Override
                    public Type getElementType() {
                        return scalar ? Object.class : Object[].class;
                    }
                };
            }

            /*
             * Calcite's validator, with UPDATE and DELETE reading the whole table ({@link ModifyValidator})
             * and a UUID compared with a string as a UUID ({@link NumacolTypeCoercion}).
             */
            @Override
            protected SqlValidator createSqlValidator(Prepare.CatalogReader reader, UnaryOperator<SqlValidator.Config> transform) {
                CalciteConnectionConfig config = context.config();
                SqlOperatorTable operators = SqlOperatorTables.chain(functions(config), reader);
                NumacolSchema main = main(context);
                List<String> path = context.getDefaultSchemaPath();
                String schema = path.isEmpty() ? NumacolSchema.NAME : path.getLast();
                Function<SqlCall, SqlNode> calls = main == null ? call -> PostgresFunctions.rewrite(call, schema) : call -> {
                    SqlNode sequence = SequenceCalls.rewrite(call, main.database().catalog(), schema, main.sequenceSession());
                    return sequence != null ? sequence : PostgresFunctions.rewrite(call, schema);
                };
                return new ModifyValidator(operators, (CalciteCatalogReader) reader, context.getTypeFactory(),
                        transform.apply(SqlValidator.Config.DEFAULT
                                .withLenientOperatorLookup(config.lenientOperatorLookup())
                                .withConformance(config.conformance())
                                .withDefaultNullCollation(config.defaultNullCollation())
                                .withIdentifierExpansion(true)
                                .withTypeCoercionFactory(NumacolTypeCoercion::new)), calls);
            }

            /*
             * Calcite's converter, except that an INSERT's literals are checked as assignments, and
             * that a query's RelBuilder never merges a projection into the one below (a Calcite
             * defect, see the package {@code io.numacol.calcite.plan.rewrite}: a correlated subquery in the select list is rebuilt on the lower
             * projection with the merged field numbers); the planner merges projections later. DML
             * keeps merging: its literals are checked as they are cast into the VALUES.
             */
            @Override
            protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator, Prepare.CatalogReader reader,
                                                             SqlToRelConverter.Config config) {
                RelOptCluster cluster = createCluster(planner, new CheckedCastRexBuilder(typeFactory, PrepareContexts.zone(context)));
                SqlToRelConverter dml = new SqlToRelConverter(this, validator, reader, cluster, convertlets, config) {
                    @Override
                    protected RelNode convertInsert(SqlInsert call) {
                        valuesLiterals(call.getSource(), validator, PrepareContexts.zone(context));
                        return CheckedCastRexBuilder.assigning(cluster.getRexBuilder(), () -> super.convertInsert(call));
                    }

                    /* An UPDATE whose source has one more column than Calcite's (the row id), as {@link ModifyValidator} made it. */
                    @Override
                    protected RelRoot convertQueryRecursive(SqlNode query, boolean top, RelDataType targetRowType) {
                        if (!(query instanceof SqlUpdate update)) {
                            return super.convertQueryRecursive(query, top, targetRowType);
                        }
                        RelOptTable target = getTargetTable(update);
                        RelNode source = convertSelect(update.getSourceSelect(), false);
                        int width = target.getRowType().getFieldCount();
                        List<String> columns = new ArrayList<>();
                        List<RexNode> values = new ArrayList<>();
                        for (SqlNode column : update.getTargetColumnList()) {
                            RelDataTypeField field = SqlValidatorUtil.getTargetField(target.getRowType(), typeFactory,
                                    (SqlIdentifier) column, reader, target);
                            columns.add(Objects.requireNonNull(field, () -> "no column " + column).getName());
                            values.add(RexInputRef.of(width + values.size(), source.getRowType()));
                        }
                        return RelRoot.of(LogicalTableModify.create(target, reader, source, TableModify.Operation.UPDATE,
                                columns, values, false), SqlKind.UPDATE);
                    }
                };
                SqlToRelConverter.Config unmerged = config.withInSubQueryThreshold(Integer.MAX_VALUE).addRelBuilderConfigTransform(c -> c.withBloat(-1))
                        .withRelBuilderFactory(RelBuilder.proto(Contexts.of(NullComparisons.PROJECTS)));
                return new SqlToRelConverter(this, validator, reader, cluster, convertlets, unmerged) {
                    @Override
                    public RelRoot convertQuery(SqlNode query, boolean needsValidation, boolean top) {
                        if (query.getKind().belongsTo(SqlKind.DML)) {
                            return dml.convertQuery(query, needsValidation, top);
                        }
                        // validated once: the validator rewrites the top node (an ORDER BY over a UNION
                        // becomes a SELECT), and a second conversion must start from what it returned
                        SqlNode validated = needsValidation ? validator.validate(query) : query;
                        LiteralInLists.mark(validated, validator);
                        try {
                            RelRoot root = super.convertQuery(validated, false, top);
                            return root.withRel(UuidOrder.windows(CheckedArithmetic.wideWindowSums(root.rel)));
                        } catch (AssertionError e) {
                            if (!NullComparisons.isNullComparisonInPredicates(e)) {
                                throw e;
                            }
                            // NullComparisons: converted again without simplifying as it builds
                            return new SqlToRelConverter(this.viewExpander, validator, reader, cluster, convertlets,
                                    unmerged.addRelBuilderConfigTransform(c -> c.withSimplify(false)))
                                    .convertQuery(validated, false, top);
                        }
                    }

                    /* Decorrelated, or left correlated where Calcite's decorrelator fails ({@link OptionalRewrites}). */
                    @Override
                    public RelNode decorrelate(SqlNode query, RelNode rootRel) {
                        return OptionalRewrites.unlessItFails(rootRel, () -> super.decorrelate(query, rootRel));
                    }

                    /* Calcite's trimmer without its double remapping of a projection's variables ({@link SingleRemapTrimmer}). */
                    @Override
                    protected RelFieldTrimmer newFieldTrimmer() {
                        return new SingleRemapTrimmer(validator, unmerged.getRelBuilderFactory().create(cluster, null)
                                .transform(unmerged.getRelBuilderConfigTransform()));
                    }

                    /* A long IN list of literals straight into one SEARCH ({@link LiteralInLists}). */
                    @Override
                    protected RexNode convertExtendedExpression(SqlNode node, Blackboard bb) {
                        RexNode in = LiteralInLists.convert(node, bb::convertExpression, rexBuilder);
                        return in != null ? in : super.convertExtendedExpression(node, bb);
                    }

                    /* Trimmed, or whole where Calcite's field trimmer fails ({@link OptionalRewrites}). */
                    @Override
                    public RelNode trimUnusedFields(boolean ordered, RelNode rootRel) {
                        return OptionalRewrites.unlessItFails(rootRel, () -> super.trimUnusedFields(ordered, rootRel));
                    }
                };
            }
        };
    }

    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext,
                                          org.apache.calcite.plan.Context externalContext,
                                          RelOptCostFactory costFactory) {
        // the planner's events ask the statement's stop: Statement.cancel() and the timeout stop a long search
        // (not through a CancelFlag in its context, see PlanningStop)
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        planner.addListener(new PlanningStop(QueryCancel.current()));
        FixedRules.replaceRules(planner);
        rules().forEach(planner::addRule);
        return planner;
    }

    /**
     * In a VALUES column of UUIDs ({@code (1, UUID '..'), (2, '..')}) the strings as UUID literals:
     * Calcite keeps them as strings in a UUID column, which its collation metadata then compares
     * with the UUIDs and fails (ClassCastException). In a column of instants (strings beside a NULL,
     * see {@code NumacolTypeFactory}) the strings as instants read in the session's {@code zone}:
     * Calcite would make each a literal of the column's type holding the string.
     */
    private static void valuesLiterals(SqlNode source, SqlValidator validator, ZoneId zone) {
        if (source.getKind() != SqlKind.VALUES) {
            return;
        }
        List<RelDataTypeField> fields = validator.getValidatedNodeType(source).getFieldList();
        for (SqlNode row : ((SqlCall) source).getOperandList()) {
            if (!(row instanceof SqlCall r) || r.getKind() != SqlKind.ROW) {
                continue;
            }
            for (int i = 0; i < r.operandCount() && i < fields.size(); i++) {
                RelDataType type = fields.get(i).getType();
                if (type.getSqlTypeName() == SqlTypeName.UUID && r.operand(i) instanceof SqlCharStringLiteral text) {
                    String canonical = ColumnType.uuid().toStringValue(text.getValueAs(String.class));
                    r.setOperand(i, new SqlUuidLiteral(UUID.fromString(canonical), text.getParserPosition()));
                }
                if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && r.operand(i) instanceof SqlCharStringLiteral text) {
                    int precision = Math.min(Math.max(type.getPrecision(), 0), ColumnType.MAX_TIMESTAMP_PRECISION);
                    String value = text.getValueAs(String.class);
                    long millis;
                    try {
                        millis = ColumnType.timestampTz(precision).toLong(value, zone);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("value " + e.getMessage(), e);
                    }
                    r.setOperand(i, SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                            TimestampString.fromMillisSinceEpoch(millis), precision, text.getParserPosition()));
                }
            }
        }
    }
}
