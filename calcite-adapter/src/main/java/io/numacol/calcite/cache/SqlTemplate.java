package io.numacol.calcite.cache;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A query's text with the literals that a plan does not depend on replaced by parameters, and
 * their values: {@code WHERE b = 7} and {@code WHERE b = 8} share the template {@code WHERE b =
 * CAST(? AS INTEGER)}. Each parameter is cast to its literal's own type, so that the template
 * types and compares every expression as the text did ({@code b = 7.5} over an INTEGER b stays a
 * DECIMAL comparison that no row passes, not a parameter of b's type that 7.5 does not fit).
 *
 * <p>Taken are numbers, character strings and DATE literals that are an operand of a comparison,
 * BETWEEN or an IN list in a WHERE clause or a join's ON condition, beside an operand that is not
 * a literal (a comparison of two literals is a constant the planner folds). Literals elsewhere
 * change a plan's shape (LIMIT, ordinals in GROUP BY and ORDER BY) or must match between clauses
 * (an expression in both the select list and GROUP BY), and stay. A statement with parameters
 * of its own, or with a function whose value is not the same at each execution, is no template.
 */
public record SqlTemplate(String sql, List<Object> values) {
    /** Calls compared against literals: their literal operands become parameters. */
    private static final Set<SqlKind> COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.BETWEEN,
            SqlKind.IN, SqlKind.NOT_IN);
    private static final Pattern NUMBER = Pattern.compile("-?\\s*[0-9.]+([eE][-+]?[0-9]+)?");
    private static final Pattern DATE = Pattern.compile("(?i)DATE\\s*'(\\d{4}-\\d{2}-\\d{2})'");
    /**
     * Names of the functions whose value changes between executions ({@code CURRENT_DATE}, {@code
     * RAND}): the parser leaves calls unresolved, and {@code CURRENT_DATE} an identifier.
     */
    private static final Set<String> VOLATILE = SqlStdOperatorTable.instance().getOperatorList().stream()
            .filter(op -> op.isDynamicFunction() || !op.isDeterministic())
            .map(op -> op.getName().toUpperCase(Locale.ROOT))
            .collect(Collectors.collectingAndThen(Collectors.toSet(), names -> {
                // io.numacol.calcite.SequenceCalls's, named here as this package may not depend on that one: each
                // statement takes its own numbers, and a sequence's name is looked up as it is planned, no parameter
                names.addAll(List.of("NEXTVAL", "CURRVAL", "SETVAL"));
                return Set.copyOf(names);
            }));
    private static final SqlTypeFactoryImpl TYPES = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);

    /**
     * Most literals a template replaces: each becomes a {@code CAST(? AS type)} that is typed,
     * converted and bound at every execution, so a 100,000-element IN list of literals planned
     * several times slower as a template than as written; a statement with more is cached by its
     * own text.
     */
    static final int MAX_VALUES = 512;

    /**
     * The template of {@code sql} (its own text with no values when nothing is replaced), or null
     * when it is no query, does not parse, or reads a value that changes between executions.
     */
    public static SqlTemplate of(String sql, SqlParser.Config parser) {
        SqlNode node;
        try {
            node = SqlParser.create(sql, parser).parseQuery();
        } catch (SqlParseException | RuntimeException e) {
            return null; // the planner reports it, on the statement as written
        }
        if (!node.isA(SqlKind.QUERY)) {
            return null;
        }
        Finder finder = new Finder();
        finder.visit(node, false);
        if (finder.volatileCall) {
            return null;
        }
        if (finder.ownParameters || finder.literals.isEmpty() || finder.literals.size() > MAX_VALUES) {
            return new SqlTemplate(sql, List.of());
        }
        int[] lineStarts = lineStarts(sql);
        List<Replacement> replacements = new ArrayList<>();
        for (SqlLiteral literal : finder.literals) {
            Replacement r = replacement(sql, lineStarts, literal);
            if (r == null) {
                return new SqlTemplate(sql, List.of()); // a literal not where the parser said: keep the text
            }
            replacements.add(r);
        }
        replacements.sort(Comparator.comparingInt(Replacement::from));
        StringBuilder text = new StringBuilder(sql.length() + 24 * replacements.size());
        List<Object> values = new ArrayList<>(replacements.size());
        int at = 0;
        for (Replacement r : replacements) {
            if (r.from() < at) {
                return new SqlTemplate(sql, List.of());
            }
            text.append(sql, at, r.from()).append("CAST(? AS ").append(r.type()).append(')');
            values.add(r.value());
            at = r.to();
        }
        text.append(sql, at, sql.length());
        return new SqlTemplate(text.toString(), List.copyOf(values));
    }

    private record Replacement(int from, int to, String type, Object value) {
    }

    /** Finds the literals to replace, and whether the statement has parameters or volatile calls. */
    private static final class Finder {
        final List<SqlLiteral> literals = new ArrayList<>();
        boolean ownParameters;
        boolean volatileCall;

        /** {@code condition}: whether {@code node} is (a part of) a WHERE or ON condition made of AND, OR and NOT. */
        void visit(SqlNode node, boolean condition) {
            switch (node) {
                case null -> { }
                case SqlDynamicParam p -> ownParameters = true;
                case SqlSelect select -> {
                    visit(select.getSelectList(), false);
                    visit(select.getFrom(), false);
                    visit(select.getWhere(), true);
                    visit(select.getGroup(), false);
                    visit(select.getHaving(), false);
                    visit(select.getWindowList(), false);
                    visit(select.getOrderList(), false);
                    visit(select.getOffset(), false);
                    visit(select.getFetch(), false);
                }
                case SqlJoin join -> {
                    visit(join.getLeft(), false);
                    visit(join.getRight(), false);
                    visit(join.getCondition(), true);
                }
                case SqlNodeList list -> list.forEach(n -> visit(n, false));
                case SqlIdentifier id -> volatileCall |= id.isSimple() && VOLATILE.contains(id.getSimple().toUpperCase(Locale.ROOT));
                case SqlCall call -> {
                    SqlOperator op = call.getOperator();
                    volatileCall |= VOLATILE.contains(op.getName().toUpperCase(Locale.ROOT));
                    boolean logic = condition && call.isA(Set.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT));
                    if (condition && COMPARISONS.contains(call.getKind())) {
                        compared(call);
                    }
                    for (SqlNode operand : call.getOperandList()) {
                        visit(operand, logic);
                    }
                }
                default -> { }
            }
        }

        /** The literal operands of a comparison, if not all of its operands are literals. */
        private void compared(SqlCall call) {
            List<SqlLiteral> found = new ArrayList<>();
            boolean other = false;
            for (SqlNode operand : call.getOperandList()) {
                if (operand instanceof SqlNodeList list && call.isA(Set.of(SqlKind.IN, SqlKind.NOT_IN))) {
                    for (SqlNode item : list) {
                        if (parameterizable(item)) {
                            found.add((SqlLiteral) item);
                        }
                    }
                } else if (parameterizable(operand)) {
                    found.add((SqlLiteral) operand);
                } else if (!(operand instanceof SqlLiteral)) {
                    other = true;
                }
            }
            if (other) {
                literals.addAll(found);
            }
        }

        private static boolean parameterizable(SqlNode node) {
            return node instanceof SqlNumericLiteral
                    || (node instanceof SqlCharStringLiteral s && s.getValueAs(NlsString.class).getCharsetName() == null
                            && !s.getValueAs(NlsString.class).getValue().isEmpty() && s.getValueAs(NlsString.class).getValue().chars().allMatch(c -> c < 128))
                    || node instanceof SqlDateLiteral
                    || (node instanceof SqlUnknownLiteral u && u.tag.equalsIgnoreCase("DATE"));
        }
    }

    /** Where {@code literal} is in {@code sql}, its type as SQL and its value; null if its text is not where its position says. */
    private static Replacement replacement(String sql, int[] lineStarts, SqlLiteral literal) {
        SqlParserPos pos = literal.getParserPosition();
        if (pos.getLineNum() < 1 || pos.getEndLineNum() > lineStarts.length || pos.getLineNum() > lineStarts.length) {
            return null;
        }
        int from = lineStarts[pos.getLineNum() - 1] + pos.getColumnNum() - 1;
        int to = lineStarts[pos.getEndLineNum() - 1] + pos.getEndColumnNum();
        if (from < 0 || to > sql.length() || from >= to) {
            return null;
        }
        String text = sql.substring(from, to);
        if (literal instanceof SqlUnknownLiteral unknown) { // DATE '...', typed by the validator
            try {
                literal = unknown.resolve(SqlTypeName.DATE);
            } catch (RuntimeException e) {
                return null; // not a date: the validator says so, on the text as written
            }
        }
        RelDataType type = literal.createSqlType(TYPES);
        return switch (literal) {
            case SqlNumericLiteral n when NUMBER.matcher(text).matches() -> {
                BigDecimal value = n.getValueAs(BigDecimal.class);
                if (new BigDecimal(text.replaceAll("\\s", "")).compareTo(value) != 0) {
                    yield null;
                }
                yield switch (type.getSqlTypeName()) {
                    case INTEGER -> new Replacement(from, to, "INTEGER", value.intValueExact());
                    case BIGINT -> new Replacement(from, to, "BIGINT", value.longValueExact());
                    case DECIMAL -> new Replacement(from, to, "DECIMAL(" + type.getPrecision() + ", " + type.getScale() + ")", value);
                    case DOUBLE -> new Replacement(from, to, "DOUBLE", value.doubleValue());
                    default -> null;
                };
            }
            case SqlCharStringLiteral s when text.equals("'" + s.getValueAs(NlsString.class).getValue().replace("'", "''") + "'") ->
                    new Replacement(from, to, "CHAR(" + s.getValueAs(NlsString.class).getValue().length() + ")", s.getValueAs(NlsString.class).getValue());
            case SqlDateLiteral d -> {
                // the parser's position may end at the keyword: the literal is the keyword and its string
                DateString date = d.getValueAs(DateString.class);
                var m = DATE.matcher(sql).region(from, sql.length());
                yield m.lookingAt() && m.group(1).equals(date.toString()) && type.getSqlTypeName() == SqlTypeName.DATE
                        ? new Replacement(from, m.end(), "DATE", date.getDaysSinceEpoch()) : null;
            }
            default -> null;
        };
    }

    private static int[] lineStarts(String sql) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }
}
