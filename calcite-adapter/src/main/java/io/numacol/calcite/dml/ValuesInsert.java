package io.numacol.calcite.dml;

import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

import java.util.Arrays;
import java.util.List;

/**
 * An {@code INSERT INTO t [(columns)] VALUES ...} into a table of {@code main}, read without
 * the planner: the table, the table column each value of a row fills, and the rows as parsed.
 * The paths that store such statements without planning ({@link LiteralInsert}, and the bulk
 * path of prepared batches) start from it.
 */
public record ValuesInsert(Table table, int[] columns, List<SqlNode> rows) {
    private static final SqlParser.Config PARSER = SqlParser.config()
            .withParserFactory(NumacolParserFactory.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED).withCaseSensitive(false);

    /**
     * {@code sql} read as such an INSERT into a table of {@code database}, or null (anything else,
     * an unknown or repeated column, text that does not parse: the planner reports it). A name
     * without schema is in {@code defaultSchema}, the connection's (null: none).
     */
    public static ValuesInsert parse(String sql, Database database, String defaultSchema) {
        if (sql == null || database == null || !sql.stripLeading().regionMatches(true, 0, "INSERT", 0, 6)) {
            return null;
        }
        SqlNode node;
        try {
            node = SqlParser.create(sql, PARSER).parseStmt();
        } catch (SqlParseException e) {
            return null;
        }
        if (!(node instanceof SqlInsert insert) || !(insert.getTargetTable() instanceof SqlIdentifier target)
                || !(insert.getSource() instanceof SqlBasicCall values) || values.getKind() != SqlKind.VALUES) {
            return null;
        }
        List<String> names = target.names;
        String schema = names.size() == 2 ? names.getFirst() : names.size() == 1 ? defaultSchema : null;
        Table table = schema == null ? null : database.catalog().find(schema, names.getLast()).orElse(null);
        int[] columns = table == null ? null : columns(insert, table.schema());
        return columns == null ? null : new ValuesInsert(table, columns, values.getOperandList());
    }

    /** The table column of each value of a row, or null (an unknown or repeated column). */
    private static int[] columns(SqlInsert insert, TableSchema schema) {
        if (insert.getTargetColumnList() == null) {
            int[] all = new int[schema.size()];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] columns = new int[insert.getTargetColumnList().size()];
        boolean[] seen = new boolean[schema.size()];
        for (int i = 0; i < columns.length; i++) {
            if (!(insert.getTargetColumnList().get(i) instanceof SqlIdentifier id) || !id.isSimple()) {
                return null;
            }
            columns[i] = schema.indexOf(id.getSimple());
            if (columns[i] < 0 || seen[columns[i]]) {
                return null;
            }
            seen[columns[i]] = true;
        }
        return columns;
    }

    /** {@code row} as a ROW of one value per named column, or null. */
    public SqlBasicCall row(SqlNode row) {
        return row instanceof SqlBasicCall call && call.getKind() == SqlKind.ROW && call.operandCount() == columns.length
                ? call : null;
    }
}
