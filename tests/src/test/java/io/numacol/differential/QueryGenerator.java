package io.numacol.differential;

import io.numacol.differential.RandomSchema.Column;
import io.numacol.differential.RandomSchema.Table;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Seeded random SELECTs over a {@link RandomSchema}, covering what numacol accepts: joins of every
 * kind (equi and non-equi conditions, derived tables), subqueries (IN, NOT IN, EXISTS, correlated
 * and scalar, in WHERE, HAVING and the select list), set operations, grouping with HAVING and
 * FILTER, DISTINCT, CASE, COALESCE, NULLIF, casts, string, date and numeric functions, and ORDER
 * BY with NULLS FIRST/LAST, LIMIT and OFFSET.
 *
 * <p>Left out, because the engines define them differently (the SQL standard leaves them to the
 * implementation or they differ by type rules, not by correctness):
 * <ul>
 *   <li>integer division (DuckDB answers in DOUBLE, Calcite truncates; AVG of integers is a DOUBLE in both);</li>
 *   <li>a CAST of a DOUBLE to an integer (DuckDB rounds half to even, numacol half away from zero,
 *       as both do for DECIMALs), a CAST of a double, a DECIMAL or a BOOLEAN to a string
 *       (formatting);</li>
 *   <li>ROUND(d, n) of a DECIMAL(p, s): numacol's type keeps scale s (as Calcite and H2 do), DuckDB's
 *       has scale n, so a common type with it differs (the H2 second opinion tells them apart);</li>
 *   <li>values that overflow their type, negative SUBSTRING starts (DuckDB counts from the end);</li>
 *   <li>DECIMAL quotients and averages beyond the select list of the outermost query: numacol
 *       keeps 6 fraction digits where DuckDB computes a DOUBLE, so a comparison with such a value,
 *       or a sort by it, may tip either way. In the select list they compare within one unit of
 *       the sixth digit;</li>
 *   <li>a LIMIT without an ORDER BY of every output column (any rows are right).</li>
 * </ul>
 */
final class QueryGenerator {
    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};
    private static final String[] PATTERNS = {"a%", "%b", "_b%", "%a%b%", "", "%", "a", "b!%%' ESCAPE '!", "%é%", "__", "A%",
            "%😀%", "_😀%", "Мос%"};
    private static final String[] STRINGS = {"", "a", "b", "ab", "abc", "zz", "éé", "a b", "B", "bb", "Москва", "😀", "a😀b"};

    private final RandomSchema schema;
    private final SplittableRandom random;
    private int aliases;

    QueryGenerator(RandomSchema schema, long seed) {
        this.schema = schema;
        this.random = new SplittableRandom(seed);
    }

    /** A column of a table in scope, as an expression names it. */
    record Ref(String sql, RandomSchema.Type type) {
    }

    /** The columns a query's expressions may name: its own, then (for a subquery) the outer query's. */
    record Scope(List<Ref> refs, Scope outer) {
        List<Ref> of(RandomSchema.Type type, boolean withOuter) {
            List<Ref> out = new ArrayList<>();
            for (Ref r : refs) {
                if (r.type() == type) {
                    out.add(r);
                }
            }
            if (withOuter && outer != null) {
                out.addAll(outer.of(type, false));
            }
            return out;
        }
    }

    /** A generated query: its text, the types of its columns and a bound of its rows. */
    record Query(Sql sql, List<RandomSchema.Type> types, long rows) {
    }

    Sql query() {
        boolean setOperation = random.nextInt(6) == 0;
        Query first = select(2, null, !setOperation, random.nextInt(4) == 0, setOperation);
        Sql body = first.sql();
        if (setOperation) {
            Query second = select(1, first.types(), false, true, true);
            String op = new String[]{"UNION", "UNION ALL", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"}[random.nextInt(6)];
            body = Sql.text(first.sql(), " " + op + " ", second.sql()).or(first.sql());
        }
        return Sql.text(body, orderBy(first.types()));
    }

    /** ORDER BY some or all columns; a LIMIT only with every column in the ORDER BY (ties would let either engine pick other rows). */
    private Sql orderBy(List<RandomSchema.Type> types) {
        if (random.nextInt(3) != 0) {
            return Sql.EMPTY;
        }
        boolean limit = random.nextBoolean();
        List<Integer> columns = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            columns.add(i);
        }
        Collections.shuffle(columns, new Random(random.nextLong()));
        int count = limit ? columns.size() : random.nextInt(1, columns.size() + 1);
        List<Sql> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(Sql.text("c" + columns.get(i) + (random.nextBoolean() ? " ASC" : " DESC")
                    + (random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST")));
        }
        Sql order = Sql.text(" ORDER BY ", Sql.list(", ", keys));
        if (limit) {
            String rows = " LIMIT " + random.nextInt(0, 12) + (random.nextInt(3) == 0 ? " OFFSET " + random.nextInt(0, 5) : "");
            return Sql.text(order, rows).or(Sql.EMPTY);
        }
        return order.or(Sql.EMPTY);
    }

    /**
     * A SELECT. {@code shape} fixes the column types (a set operation's second branch), {@code top}
     * allows the inexact values (averages, quotients) that only the outermost select list may show,
     * {@code branch} says it is a set operation's branch.
     */
    private Query select(int depth, List<RandomSchema.Type> shape, boolean top, boolean noAverages, boolean branch) {
        boolean inexact = top && !noAverages;
        // Set operations type each column as both branches' least restrictive type; for DECIMALs
        // whose digits together pass the maximum precision (19 in Calcite, 38 in DuckDB) each engine
        // gives up digits of its own choosing. An explicit common type leaves no choice.
        From from = from(depth);
        Scope scope = new Scope(from.refs(), null);
        Sql where = random.nextInt(3) == 0 ? Sql.EMPTY
                : Sql.text(" WHERE ", cond(scope, depth, true)).or(Sql.EMPTY);
        int width = shape != null ? shape.size() : random.nextInt(1, 5);
        List<RandomSchema.Type> types = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            types.add(shape != null ? shape.get(i) : anyType(scope));
        }
        List<Sql> items = new ArrayList<>();
        Sql tail;
        String distinct = "";
        if (random.nextInt(5) < 2) {
            List<Key> keys = new ArrayList<>();
            int keyCount = random.nextInt(0, 4);
            for (int i = 0; i < keyCount; i++) {
                // a key from the scope: Calcite reads a numeric literal in GROUP BY as an ordinal, DuckDB only an integer
                Ref ref = scope.refs().get(random.nextInt(scope.refs().size()));
                Sql key = random.nextInt(4) == 0 ? expr(ref.type(), scope, 1) : Sql.EMPTY;
                if (!key.render().matches(".*\\ba\\d+\\..*")) {
                    key = Sql.of(ref.type().name(), ref.sql());
                }
                keys.add(new Key(key, ref.type()));
            }
            for (int i = 0; i < width; i++) {
                items.add(Sql.text(common(aggregated(types.get(i), scope, keys, depth, inexact && random.nextInt(4) == 0), branch && types.get(i) == RandomSchema.Type.DEC), " AS c" + i));
            }
            List<Sql> keySql = new ArrayList<>();
            for (Key key : keys) {
                keySql.add(key.sql());
            }
            Sql groupBy = keys.isEmpty() ? Sql.EMPTY : Sql.text(" GROUP BY ", Sql.list(", ", keySql));
            Sql having = random.nextInt(3) != 0 ? Sql.EMPTY
                    : Sql.text(" HAVING ", aggregatedCond(scope, keys, depth)).or(Sql.EMPTY);
            tail = Sql.text(groupBy, having);
        } else {
            if (random.nextInt(6) == 0) {
                distinct = "DISTINCT ";
            }
            for (int i = 0; i < width; i++) {
                Sql value = random.nextInt(12) == 0 && depth > 0 ? scalarSubquery(types.get(i), scope, depth - 1)
                        : inexact && types.get(i) == RandomSchema.Type.DEC && random.nextInt(6) == 0
                        ? Sql.of("DEC", "(", expr(RandomSchema.Type.DEC, scope, 1), " / ", new String[]{"3", "7", "2.5", "-4"}[random.nextInt(4)], ")")
                        : expr(types.get(i), scope, 2);
                items.add(Sql.text(common(value, branch && types.get(i) == RandomSchema.Type.DEC), " AS c" + i));
            }
            tail = Sql.EMPTY;
        }
        Sql sql = Sql.text("SELECT " + distinct, Sql.list(", ", items), " FROM ", from.sql(), where, tail);
        return new Query(sql, types, from.rows());
    }

    private static Sql common(Sql value, boolean decimal) {
        return decimal ? Sql.of("DEC", "CAST(", value, " AS DECIMAL(18,4))") : value;
    }

    private record Key(Sql sql, RandomSchema.Type type) {
    }

    /** A FROM clause, its columns and a bound of its rows. */
    private record From(Sql sql, List<Ref> refs, long rows) {
    }

    /** The most rows a FROM clause may give: more would only measure memory, not answers. */
    private static final long MAX_ROWS = 2_000_000;

    /** One to three tables or derived tables, joined by any kind with equi and other conditions. */
    private From from(int depth) {
        From left = fromItem(depth);
        int joins = random.nextInt(4) == 0 ? 0 : random.nextInt(3) == 0 ? 2 : 1;
        for (int j = 0; j < joins; j++) {
            From right = fromItem(depth);
            if (left.rows() * Math.max(1, right.rows()) > MAX_ROWS) {
                break;
            }
            List<Ref> refs = new ArrayList<>(left.refs());
            refs.addAll(right.refs());
            Scope both = new Scope(refs, null);
            String kind = new String[]{"JOIN", "JOIN", "LEFT JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "INNER JOIN"}[random.nextInt(8)];
            Sql on;
            if (kind.equals("CROSS JOIN")) {
                on = Sql.EMPTY;
            } else {
                List<Sql> conditions = new ArrayList<>();
                int equalities = random.nextInt(5) == 0 ? 0 : random.nextInt(4) == 0 ? 2 : 1;
                for (int e = 0; e < equalities; e++) {
                    conditions.add(equality(left.refs(), right.refs()));
                }
                if (conditions.isEmpty() || random.nextInt(3) == 0) {
                    conditions.add(cond(both, 1, false));
                }
                on = Sql.text(" ON ", Sql.list(" AND ", conditions));
            }
            Sql sql = Sql.text(left.sql(), " " + kind + " ", right.sql(), on).or(left.sql());
            left = new From(sql, refs, left.rows() * Math.max(1, right.rows()));
        }
        return left;
    }

    private Sql equality(List<Ref> left, List<Ref> right) {
        for (int attempt = 0; attempt < 8; attempt++) {
            Ref a = left.get(random.nextInt(left.size()));
            List<Ref> partners = new ArrayList<>();
            for (Ref r : right) {
                if (comparable(r.type(), a.type())) {
                    partners.add(r);
                }
            }
            if (!partners.isEmpty()) {
                Ref b = partners.get(random.nextInt(partners.size()));
                return Sql.text(a.sql() + " = " + b.sql()).or(Sql.text("TRUE"));
            }
        }
        return Sql.text("TRUE");
    }

    private static boolean comparable(RandomSchema.Type a, RandomSchema.Type b) {
        return a == b || (a.numeric() && b.numeric());
    }

    private From fromItem(int depth) {
        String alias = "a" + aliases++;
        if (depth > 0 && random.nextInt(6) == 0) {
            Query inner = select(depth - 1, null, false, true, false);
            List<Ref> refs = new ArrayList<>();
            for (int i = 0; i < inner.types().size(); i++) {
                refs.add(new Ref(alias + ".c" + i, inner.types().get(i)));
            }
            return new From(Sql.text("(", inner.sql(), ") AS " + alias), refs, inner.rows());
        }
        Table table = schema.tables.get(random.nextInt(schema.tables.size()));
        List<Ref> refs = new ArrayList<>();
        for (Column c : table.columns()) {
            refs.add(new Ref(alias + "." + c.name(), c.type()));
        }
        return new From(Sql.text(table.name() + " AS " + alias), refs, table.rows());
    }

    /** A type the scope has a column of, mostly. */
    private RandomSchema.Type anyType(Scope scope) {
        if (random.nextInt(5) != 0) {
            Ref r = scope.refs().get(random.nextInt(scope.refs().size()));
            return r.type();
        }
        List<RandomSchema.Type> types = List.of(RandomSchema.Type.values());
        return types.get(random.nextInt(types.size()));
    }

    private Sql column(RandomSchema.Type type, Scope scope) {
        List<Ref> refs = scope.of(type, random.nextInt(3) == 0);
        if (refs.isEmpty()) {
            return literal(type);
        }
        return Sql.of(type.name(), refs.get(random.nextInt(refs.size())).sql()).or(literal(type));
    }

    Sql literal(RandomSchema.Type type) {
        if (random.nextInt(25) == 0) {
            return Sql.of(type.name(), "CAST(NULL AS " + sqlType(type) + ")");
        }
        if (random.nextInt(400) == 0) { // a plain statement's parameter marker: every engine refuses it (numacol bound NULL)
            return Sql.of(type.name(), "CAST(? AS " + sqlType(type) + ")");
        }
        return Sql.of(type.name(), switch (type) {
            case INT -> Integer.toString(random.nextInt(-4, 6));
            case DEC -> random.nextInt(-40, 60) + "." + random.nextInt(0, 10) + random.nextInt(0, 10);
            case DBL -> (random.nextInt(-80, 80) / 8.0) + "E0";
            case DATE -> "DATE '" + LocalDate.of(2022, 1, 1).plusDays(random.nextInt(-40, 60)) + "'";
            case STR -> "'" + STRINGS[random.nextInt(STRINGS.length)] + "'";
            case BOOL -> random.nextBoolean() ? "TRUE" : "FALSE";
            case TS -> "TIMESTAMP '" + TIMESTAMP_TEXT.format(LocalDate.of(2022, 1, 1).atStartOfDay().plusMinutes(random.nextInt(-40, 60) * 37L))
                    + (random.nextInt(4) == 0 ? ".25" : "") + "'";
            case TSTZ -> "TIMESTAMP WITH TIME ZONE '" + TIMESTAMP_TEXT.format(LocalDate.of(2022, 1, 1).atStartOfDay()
                    .plusMinutes(random.nextInt(-40, 60) * 37L)) + new String[]{"", "+00", "-05", "+05:30"}[random.nextInt(4)] + "'";
        });
    }

    private static String sqlType(RandomSchema.Type type) {
        return switch (type) {
            case INT -> "INTEGER";
            case DEC -> "DECIMAL(12,2)";
            case DBL -> "DOUBLE";
            case DATE -> "DATE";
            case STR -> "VARCHAR";
            case BOOL -> "BOOLEAN";
            case TS -> "TIMESTAMP";
            case TSTZ -> "TIMESTAMP WITH TIME ZONE";
        };
    }

    /** An expression of {@code type} over the scope's columns. */
    Sql expr(RandomSchema.Type type, Scope scope, int depth) {
        if (depth <= 0 || random.nextInt(10) < 4) {
            return random.nextInt(5) == 0 ? literal(type) : column(type, scope);
        }
        String t = type.name();
        int d = depth - 1;
        int pick = random.nextInt(10);
        if (pick == 0) {
            return Sql.of(t, "CASE WHEN ", cond(scope, d, false), " THEN ", expr(type, scope, d), " ELSE ", expr(type, scope, d), " END");
        }
        if (pick == 1) {
            return Sql.of(t, "COALESCE(", expr(type, scope, d), ", ", expr(type, scope, d), ")");
        }
        if (pick == 2 && type != RandomSchema.Type.BOOL) {
            return Sql.of(t, "NULLIF(", expr(type, scope, d), ", ", literal(type), ")");
        }
        return switch (type) {
            case INT -> {
                int form = random.nextInt(8);
                yield switch (form) {
                    case 3 -> random.nextInt(3) == 0
                            ? Sql.of(t, "EXTRACT(" + new String[]{"DAY", "HOUR", "MINUTE"}[random.nextInt(3)] + " FROM ",
                            expr(random.nextBoolean() ? RandomSchema.Type.TS : RandomSchema.Type.TSTZ, scope, d), ")")
                            : Sql.of(t, "EXTRACT(" + new String[]{"YEAR", "MONTH", "DAY"}[random.nextInt(3)] + " FROM ", expr(RandomSchema.Type.DATE, scope, d), ")");
                    case 4 -> Sql.of(t, "CHAR_LENGTH(", expr(RandomSchema.Type.STR, scope, d), ")");
                    case 5 -> arithmetic(ABS, type, scope, d);
                    case 6 -> Sql.of(t, "(- ", expr(type, scope, d), ")");
                    case 7 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.DEC, scope, d), " AS INTEGER)"); // rounds half away from zero
                    default -> arithmetic(form, type, scope, d);
                };
            }
            case DEC -> {
                int form = random.nextInt(7);
                yield switch (form) {
                    case 3 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.INT, scope, d), " AS DECIMAL(12,2))");
                    case 6 -> Sql.of(t, "CAST(", expr(type, scope, d), " AS DECIMAL(16,1))"); // fewer fraction digits: rounds
                    case 4 -> Sql.of(t, "ROUND(", expr(type, scope, d), ", 1)");
                    case 5 -> arithmetic(ABS, type, scope, d);
                    default -> arithmetic(form, type, scope, d);
                };
            }
            case DBL -> {
                int form = random.nextInt(5);
                yield switch (form) {
                    case 3 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.INT, scope, d), " AS DOUBLE)");
                    case 4 -> arithmetic(ABS, type, scope, d);
                    default -> arithmetic(form, type, scope, d);
                };
            }
            case DATE -> random.nextInt(4) == 0 ? Sql.of(t, "CAST(", expr(random.nextBoolean() ? RandomSchema.Type.TS : RandomSchema.Type.TSTZ,
                    scope, d), " AS DATE)")
                    : Sql.of(t, "CAST(", expr(type, scope, d), random.nextBoolean() ? " + " : " - ", "INTERVAL '"
                    + random.nextInt(0, 40) + "' " + (random.nextInt(3) == 0 ? "MONTH" : "DAY") + " AS DATE)");
            case TS -> switch (random.nextInt(4)) {
                case 0 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.DATE, scope, d), " AS TIMESTAMP)");
                case 1 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.TSTZ, scope, d), " AS TIMESTAMP)");
                default -> Sql.of(t, "(", expr(type, scope, d), random.nextBoolean() ? " + " : " - ", "INTERVAL '"
                        + random.nextInt(0, 50) + "' " + new String[]{"MINUTE", "HOUR", "DAY", "MONTH"}[random.nextInt(4)] + ")");
            };
            // days and months count on the session's wall clock, hours elapse
            case TSTZ -> switch (random.nextInt(3)) {
                case 0 -> Sql.of(t, "CAST(", expr(RandomSchema.Type.TS, scope, d), " AS TIMESTAMP WITH TIME ZONE)");
                default -> Sql.of(t, "(", expr(type, scope, d), random.nextBoolean() ? " + " : " - ", "INTERVAL '"
                        + random.nextInt(0, 50) + "' " + new String[]{"MINUTE", "HOUR", "DAY", "MONTH"}[random.nextInt(4)] + ")");
            };
            case STR -> switch (random.nextInt(6)) {
                case 0 -> Sql.of(t, "UPPER(", expr(type, scope, d), ")");
                case 1 -> Sql.of(t, "LOWER(", expr(type, scope, d), ")");
                case 2 -> Sql.of(t, "SUBSTRING(", expr(type, scope, d), " FROM " + random.nextInt(1, 4) + " FOR " + random.nextInt(0, 4) + ")");
                case 3 -> Sql.of(t, "(", expr(type, scope, d), " || ", expr(type, scope, d), ")");
                case 4 -> Sql.of(t, "TRIM(", expr(type, scope, d), ")");
                default -> Sql.of(t, "CAST(", expr(RandomSchema.Type.INT, scope, d), " AS VARCHAR)");
            };
            case BOOL -> Sql.of(t, "(", cond(scope, d, false), ")");
        };
    }

    private static final DateTimeFormatter TIMESTAMP_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private static final int ABS = 3;

    /** What every numeric type has: 0 a sum, 1 a difference, 2 a product with a small integer, {@link #ABS}. */
    private Sql arithmetic(int pick, RandomSchema.Type type, Scope scope, int d) {
        String t = type.name();
        return switch (pick) {
            case 0 -> Sql.of(t, "(", expr(type, scope, d), " + ", expr(type, scope, d), ")");
            case 1 -> Sql.of(t, "(", expr(type, scope, d), " - ", expr(type, scope, d), ")");
            case 2 -> Sql.of(t, "(", expr(type, scope, d), " * " + random.nextInt(-3, 4) + ")");
            default -> Sql.of(t, "ABS(", expr(type, scope, d), ")");
        };
    }

    /** A condition over the scope; subqueries only where SQL takes them (WHERE, HAVING). */
    Sql cond(Scope scope, int depth, boolean subqueries) {
        int pick = random.nextInt(subqueries && depth > 0 ? 14 : 12);
        RandomSchema.Type type = anyType(scope);
        Sql c = switch (pick) {
            case 0, 1, 2 -> {
                String op = type == RandomSchema.Type.BOOL ? (random.nextBoolean() ? "=" : "<>") : COMPARISONS[random.nextInt(COMPARISONS.length)];
                Sql right = random.nextInt(3) == 0 ? expr(type, scope, 1) : literal(type);
                yield Sql.of("BOOL", expr(type, scope, Math.min(depth, 1)), " " + op + " ", right);
            }
            case 3 -> Sql.of("BOOL", expr(type, scope, Math.min(depth, 1)), random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 4 -> type == RandomSchema.Type.BOOL ? column(type, scope)
                    : Sql.of("BOOL", expr(type, scope, Math.min(depth, 1)), random.nextBoolean() ? " BETWEEN " : " NOT BETWEEN ",
                    literal(type), " AND ", literal(type));
            case 5 -> {
                List<Sql> values = new ArrayList<>();
                int n = random.nextInt(1, 5);
                for (int i = 0; i < n; i++) {
                    values.add(literal(type == RandomSchema.Type.BOOL ? RandomSchema.Type.INT : type));
                }
                RandomSchema.Type t = type == RandomSchema.Type.BOOL ? RandomSchema.Type.INT : type;
                yield Sql.of("BOOL", expr(t, scope, Math.min(depth, 1)), random.nextBoolean() ? " IN (" : " NOT IN (", Sql.list(", ", values), ")");
            }
            case 6 -> Sql.of("BOOL", expr(RandomSchema.Type.STR, scope, Math.min(depth, 1)), random.nextBoolean() ? " LIKE '" : " NOT LIKE '",
                    PATTERNS[random.nextInt(PATTERNS.length)] + "'");
            case 7 -> depth > 0 ? Sql.of("BOOL", "(NOT ", cond(scope, depth - 1, subqueries), ")") : column(RandomSchema.Type.BOOL, scope);
            case 8, 9 -> depth > 0 ? Sql.of("BOOL", "(", cond(scope, depth - 1, subqueries), random.nextBoolean() ? " AND " : " OR ",
                    cond(scope, depth - 1, subqueries), ")") : column(RandomSchema.Type.BOOL, scope);
            case 10 -> Sql.of("BOOL", column(RandomSchema.Type.BOOL, scope), " IS " + (random.nextBoolean() ? "NOT " : "")
                    + (random.nextBoolean() ? "TRUE" : "FALSE"));
            case 11 -> Sql.of("BOOL", expr(type, scope, Math.min(depth, 1)), random.nextBoolean() ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ",
                    random.nextBoolean() ? literal(type) : expr(type, scope, 1));
            default -> subqueryCond(scope, depth - 1);
        };
        return c.or(Sql.text("TRUE"));
    }

    /** EXISTS, IN or a comparison with a scalar subquery, correlated or not. */
    private Sql subqueryCond(Scope scope, int depth) {
        Table table = schema.tables.get(random.nextInt(schema.tables.size()));
        String alias = "s" + aliases++;
        List<Ref> refs = new ArrayList<>();
        for (Column c : table.columns()) {
            refs.add(new Ref(alias + "." + c.name(), c.type()));
        }
        Scope inner = new Scope(refs, scope);
        Sql where = subqueryWhere(inner, scope, depth);
        Ref value = refs.get(random.nextInt(refs.size()));
        return switch (random.nextInt(5)) {
            case 0, 1 -> Sql.of("BOOL", random.nextBoolean() ? "EXISTS (" : "NOT EXISTS (", "SELECT 1 FROM " + table.name() + " AS " + alias, where, ")");
            case 2, 3 -> Sql.of("BOOL", expr(value.type(), scope, 1), random.nextBoolean() ? " IN (" : " NOT IN (",
                    "SELECT " + value.sql() + " FROM " + table.name() + " AS " + alias, where, ")");
            default -> {
                RandomSchema.Type t = value.type() == RandomSchema.Type.BOOL ? RandomSchema.Type.INT : value.type();
                String op = COMPARISONS[random.nextInt(COMPARISONS.length)];
                yield Sql.of("BOOL", expr(t, scope, 1), " " + op + " ", scalarSubquery(t, scope, depth));
            }
        };
    }

    private Sql subqueryWhere(Scope inner, Scope outer, int depth) {
        List<Sql> conditions = new ArrayList<>();
        if (random.nextInt(3) != 0) {
            conditions.add(equality(inner.refs(), outer.refs()));
        }
        if (random.nextBoolean()) {
            conditions.add(cond(inner, Math.max(depth, 0), depth > 0));
        }
        return conditions.isEmpty() ? Sql.EMPTY : Sql.text(" WHERE ", Sql.list(" AND ", conditions)).or(Sql.EMPTY);
    }

    /** An aggregate of a table, correlated or not: one row always, so a scalar subquery. */
    private Sql scalarSubquery(RandomSchema.Type type, Scope scope, int depth) {
        Table table = schema.tables.get(random.nextInt(schema.tables.size()));
        String alias = "s" + aliases++;
        List<Ref> refs = new ArrayList<>();
        for (Column c : table.columns()) {
            refs.add(new Ref(alias + "." + c.name(), c.type()));
        }
        Scope inner = new Scope(refs, scope);
        Sql aggregate = aggregateCall(type, new Scope(refs, null), false);
        return Sql.of(type.name(), "(SELECT ", aggregate, " FROM " + table.name() + " AS " + alias, subqueryWhere(inner, scope, depth), ")")
                .or(literal(type));
    }

    /** A value of a grouped query: a group key, an aggregate, or arithmetic and CASE over them. */
    private Sql aggregated(RandomSchema.Type type, Scope scope, List<Key> keys, int depth, boolean average) {
        List<Key> matching = new ArrayList<>();
        for (Key k : keys) {
            if (k.type() == type) {
                matching.add(k);
            }
        }
        int pick = random.nextInt(10);
        if (!matching.isEmpty() && pick < 3) {
            return matching.get(random.nextInt(matching.size())).sql();
        }
        if (average && type == RandomSchema.Type.DBL && random.nextInt(3) == 0) { // an average of integers is a DOUBLE
            return Sql.of(type.name(), "AVG(", argument(RandomSchema.Type.INT, scope), ")");
        }
        if (average && (type == RandomSchema.Type.DEC || type == RandomSchema.Type.DBL)) {
            return Sql.of(type.name(), "AVG(", argument(type, scope), ")");
        }
        if (depth > 0 && pick == 3 && type.numeric()) {
            return Sql.of(type.name(), "(", aggregated(type, scope, keys, depth - 1, false), random.nextBoolean() ? " + " : " - ",
                    aggregated(type, scope, keys, depth - 1, false), ")");
        }
        if (depth > 0 && pick == 4 && type != RandomSchema.Type.BOOL) {
            return Sql.of(type.name(), "CASE WHEN ", aggregatedCond(scope, keys, depth - 1), " THEN ",
                    aggregated(type, scope, keys, depth - 1, false), " ELSE ", aggregated(type, scope, keys, depth - 1, false), " END");
        }
        if (type == RandomSchema.Type.BOOL) {
            return aggregatedCond(scope, keys, depth);
        }
        return aggregateCall(type, scope, true);
    }

    private Sql aggregateCall(RandomSchema.Type type, Scope scope, boolean filter) {
        String t = type.name();
        String distinct = random.nextInt(6) == 0 ? "DISTINCT " : "";
        Sql call = switch (type) {
            case INT -> switch (random.nextInt(5)) {
                case 0 -> Sql.of(t, "COUNT(*)");
                case 1 -> Sql.of(t, "COUNT(" + distinct, argument(anyType(scope), scope), ")");
                case 2 -> Sql.of(t, "SUM(" + distinct, argument(type, scope), ")");
                default -> Sql.of(t, random.nextBoolean() ? "MIN(" : "MAX(", argument(type, scope), ")");
            };
            case DEC, DBL -> random.nextInt(3) == 0 ? Sql.of(t, "SUM(" + distinct, argument(type, scope), ")")
                    : Sql.of(t, random.nextBoolean() ? "MIN(" : "MAX(", argument(type, scope), ")");
            case DATE, STR, TS, TSTZ -> Sql.of(t, random.nextBoolean() ? "MIN(" : "MAX(", argument(type, scope), ")");
            case BOOL -> Sql.of(t, "(COUNT(*) > ", literal(RandomSchema.Type.INT), ")");
        };
        if (filter && type != RandomSchema.Type.BOOL && random.nextInt(8) == 0) {
            return Sql.of(t, call, " FILTER (WHERE ", cond(scope, 1, false), ")").or(call);
        }
        return call;
    }

    /**
     * An aggregate's argument, which a shrinker may simplify but not lift in the aggregate's place:
     * without its aggregate a scalar subquery may give many rows, a legitimate error.
     */
    private Sql argument(RandomSchema.Type type, Scope scope) {
        return Sql.text(expr(type, scope, 1));
    }

    private Sql aggregatedCond(Scope scope, List<Key> keys, int depth) {
        RandomSchema.Type type = random.nextBoolean() ? RandomSchema.Type.INT : anyType(scope);
        if (type == RandomSchema.Type.BOOL) {
            type = RandomSchema.Type.INT;
        }
        Sql c = switch (random.nextInt(depth > 0 ? 5 : 3)) {
            case 0, 1 -> Sql.of("BOOL", aggregated(type, scope, keys, depth, false), " " + COMPARISONS[random.nextInt(COMPARISONS.length)] + " ",
                    literal(type));
            case 2 -> Sql.of("BOOL", aggregated(type, scope, keys, depth, false), " IS NULL");
            default -> Sql.of("BOOL", "(", aggregatedCond(scope, keys, depth - 1), random.nextBoolean() ? " AND " : " OR ",
                    aggregatedCond(scope, keys, depth - 1), ")");
        };
        return c.or(Sql.text("TRUE"));
    }
}
