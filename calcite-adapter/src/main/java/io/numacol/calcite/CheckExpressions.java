package io.numacol.calcite;

import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The text of a CHECK constraint's expression, read for the columns it names: which they are (a
 * check's default name, PostgreSQL's {@code t_c_check} when it reads one column), and the same
 * expression with columns renamed (ALTER TABLE .. RENAME COLUMN, which a check follows). A column is
 * a simple identifier that names one of the table's columns, ignoring case as numacol's SQL does;
 * a renamed column is written in place of the old name and nothing else of the text changes.
 * Evaluating a check is {@code io.numacol.calcite.plan.CheckConstraints}'.
 */
public final class CheckExpressions {
    /** SQL as numacol's connections read it: identifiers as written, matched ignoring case. */
    private static final SqlParser.Config PARSER = SqlParser.config()
            .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false).withConformance(SqlConformanceEnum.LENIENT);
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private CheckExpressions() {
    }

    /**
     * The columns of {@code schema} that {@code expression} reads, as the schema spells them, each
     * once, in the order they first appear.
     *
     * @throws IllegalArgumentException when the expression is not SQL (a syntax error, 42601)
     */
    public static List<String> columns(String expression, TableSchema schema) {
        Set<String> names = new LinkedHashSet<>();
        for (SqlIdentifier id : columnReferences(expression, schema)) {
            names.add(schema.column(schema.indexOf(id.getSimple())).name());
        }
        return List.copyOf(names);
    }

    /**
     * {@code expression} with each column of {@code schema} it reads named as {@code rename} maps
     * the column's name (quoted where the new name needs it), the rest of the text as it was; null
     * when it reads a column {@code rename} maps to null.
     */
    public static String renamed(String expression, TableSchema schema, UnaryOperator<String> rename) {
        List<SqlIdentifier> references = columnReferences(expression, schema);
        references.sort(Comparator.comparingInt((SqlIdentifier id) -> id.getParserPosition().getLineNum())
                .thenComparingInt(id -> id.getParserPosition().getColumnNum()));
        int[] lineStarts = lineStarts(expression);
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (SqlIdentifier id : references) {
            String column = schema.column(schema.indexOf(id.getSimple())).name();
            String to = rename.apply(column);
            if (to == null) {
                return null;
            }
            SqlParserPos pos = id.getParserPosition();
            int start = lineStarts[pos.getLineNum() - 1] + pos.getColumnNum() - 1;
            int end = lineStarts[pos.getEndLineNum() - 1] + pos.getEndColumnNum();
            out.append(expression, at, start).append(to.equals(column) ? expression.substring(start, end) : identifier(to));
            at = end;
        }
        return out.append(expression, at, expression.length()).toString();
    }

    /** {@code name} as an identifier in SQL text: as it is when it is a plain word and no reserved one, else double-quoted. */
    public static String identifier(String name) {
        boolean plain = PLAIN.matcher(name).matches()
                && !SqlParser.create("", PARSER).getMetadata().isReservedWord(name.toUpperCase(Locale.ROOT));
        return plain ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * {@code expression} parsed alone, as one expression.
     *
     * @throws IllegalArgumentException when it is not (a syntax error, 42601), saying where in it
     */
    public static SqlNode parse(String expression) {
        return parse(expression, "CHECK (" + expression + ")");
    }

    /**
     * {@code expression} parsed alone, as one expression, as numacol's connections read SQL (a
     * CHECK's, a DEFAULT's); a syntax error (42601) names it as {@code shown} and says where in it.
     */
    public static SqlNode parse(String expression, String shown) {
        try {
            return SqlParser.create(expression, PARSER).parseExpression();
        } catch (SqlParseException e) {
            String message = String.valueOf(e.getMessage());
            int expected = message.indexOf("\nWas expecting"); // a list of every token that could come, one a line
            throw new IllegalArgumentException("syntax error in " + shown + ": "
                    + (expected < 0 ? message : message.substring(0, expected)).strip(), e);
        }
    }

    /** The simple identifiers of {@code expression} that name a column of {@code schema}, in no particular order. */
    private static List<SqlIdentifier> columnReferences(String expression, TableSchema schema) {
        List<SqlIdentifier> found = new ArrayList<>();
        parse(expression).accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.isSimple() && schema.indexOf(id.getSimple()) >= 0) {
                    found.add(id);
                }
                return null;
            }
        });
        return found;
    }

    /** The offset in {@code text} at which each line starts, lines ending as the parser counts them (at \n, \r\n or \r). */
    private static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }
}
