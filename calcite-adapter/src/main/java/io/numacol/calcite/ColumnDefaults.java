package io.numacol.calcite;

import io.numacol.storage.Catalog;
import io.numacol.storage.Sequence;
import io.numacol.storage.TableSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * What the planner gives a column an INSERT leaves out (or sets to {@code DEFAULT}): its DEFAULT
 * literal, cast from its text to the column's type, its DEFAULT expression ({@link
 * DefaultExpressions}) validated and converted as the statement's own expressions are, or the next number of an identity column's
 * sequence, taken as each row is made. A GENERATED ALWAYS identity column is DEFAULT to Calcite
 * too, not STORED: Calcite's converter takes a STORED column's value as missing from the source
 * row, so {@code VALUES (DEFAULT, 4)} would give the next column the DEFAULT's place (and store
 * (1, 0)). {@code ModifyValidator} refuses a value given such a column instead.
 */
public final class ColumnDefaults extends NullInitializerExpressionFactory {
    /** {@code $NUMACOL_NEXTVAL(sequence id)}: not deterministic, so never folded into a constant while planning. */
    private static final SqlUserDefinedFunction NEXTVAL = new SqlUserDefinedFunction(
            new SqlIdentifier("$NUMACOL_NEXTVAL", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.BIGINT, InferTypes.RETURN_TYPE,
            null, ScalarFunctionImpl.create(ColumnDefaults.class, "nextval")) {
        @Override
        public boolean isDeterministic() {
            return false;
        }

        @Override
        public boolean isDynamicFunction() {
            return true;
        }
    };

    private final TableSchema schema;
    private final Catalog catalog;
    /** The table's schema: a DEFAULT's nextval('s') names a sequence of it. */
    private final String schemaName;

    ColumnDefaults(TableSchema schema, Catalog catalog, String schemaName) {
        this.schema = schema;
        this.catalog = catalog;
        this.schemaName = schemaName;
    }

    /** The next number of the sequence of {@link Sequence#id} {@code id}: what generated code calls. */
    public static long nextval(long id) {
        return Sequence.byId(id).next();
    }

    @Override
    public ColumnStrategy generationStrategy(RelOptTable table, int column) {
        if (column < schema.size()) {
            TableSchema.ColumnDef c = schema.column(column);
            if (c.identity() != null) {
                return ColumnStrategy.DEFAULT; // ALWAYS too: see the class's comment
            }
            if (c.defaultText() != null) {
                return ColumnStrategy.DEFAULT;
            }
        }
        return super.generationStrategy(table, column);
    }

    @Override
    public RexNode newColumnDefaultValue(RelOptTable table, int column, InitializerContext context) {
        if (column >= schema.size()) {
            return super.newColumnDefaultValue(table, column, context);
        }
        TableSchema.ColumnDef c = schema.column(column);
        RexBuilder rex = context.getRexBuilder();
        RelDataType type = table.getRowType().getFieldList().get(column).getType();
        if (c.identity() != null) {
            RexNode next = rex.makeCall(NEXTVAL, rex.makeBigintLiteral(java.math.BigDecimal.valueOf(c.identity().sequence().id())));
            return rex.makeCast(type, next);
        }
        if (c.defaultExpression()) {
            // validated and converted with the statement's functions; a call that is not deterministic
            // (nextval, gen_random_uuid) runs for each row, CURRENT_TIMESTAMP is the statement's
            SqlNode ready = DefaultExpressions.ready(DefaultExpressions.parse(c.defaultText()), catalog, schemaName);
            SqlNode validated = context.validateExpression(table.getRowType(), ready);
            return rex.makeCast(type, context.convertExpression(validated));
        }
        if (c.defaultText() != null) {
            return rex.makeCast(type, rex.makeLiteral(c.defaultText()));
        }
        return super.newColumnDefaultValue(table, column, context);
    }
}
