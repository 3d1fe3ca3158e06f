package io.numacol.calcite;

import io.numacol.storage.Catalog;
import io.numacol.storage.NamedSequence;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PostgreSQL's {@code nextval('name')}, {@code currval('name')} and {@code setval('name', n)}.
 * The validator replaces each call, before it types it, by a call of numacol's own function with
 * the sequence's {@link NamedSequence#id} and the session's {@link Session#id} as numbers: the
 * name is looked up once, in the statement's schema, and the generated code reaches the sequence
 * and the session's last numbers (currval's) by them. A statement with such a call is never a
 * cached plan's template ({@code SqlTemplate} takes the names as volatile), since its numbers
 * are the statement's.
 */
public final class SequenceCalls {
    /** The names the validator replaces, upper-cased; {@code SqlTemplate} lists them too, as volatile. */
    public static final Set<String> NAMES = Set.of("NEXTVAL", "CURRVAL", "SETVAL");

    private static final SqlUserDefinedFunction NEXTVAL = function("nextval", 3);
    /**
     * A number of its own for each nextval call written in a statement, its third argument: two
     * calls in one row ({@code SELECT nextval('s'), nextval('s')}) then differ, and the generated
     * code, which computes an expression it meets twice once, calls the sequence twice, as
     * PostgreSQL does.
     */
    private static final AtomicLong CALL_SITES = new AtomicLong();
    private static final SqlUserDefinedFunction CURRVAL = function("currval", 2);
    private static final SqlUserDefinedFunction SETVAL = function("setval", 3);

    /** The functions the calls become: in the validator's operator table, where it looks a function's name up again to type it. */
    public static final List<SqlOperator> OPERATORS = List.of(NEXTVAL, CURRVAL, SETVAL);

    private SequenceCalls() {
    }

    /** Not deterministic, so never folded into a constant while planning, nor taken once for many rows. */
    private static SqlUserDefinedFunction function(String method, int arity) {
        List<SqlTypeFamily> numbers = Collections.nCopies(arity, SqlTypeFamily.NUMERIC);
        SqlOperandMetadata operands = OperandTypes.operandMetadata(numbers,
                types -> Collections.nCopies(arity, types.createSqlType(SqlTypeName.BIGINT)), i -> "arg" + i, i -> false);
        return new SqlUserDefinedFunction(new SqlIdentifier("$NUMACOL_SEQ_" + method.toUpperCase(Locale.ROOT), SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION, ReturnTypes.BIGINT, InferTypes.RETURN_TYPE, operands,
                ScalarFunctionImpl.create(SequenceCalls.class, method)) {
            @Override
            public boolean isDeterministic() {
                return false;
            }

            @Override
            public boolean isDynamicFunction() {
                return true;
            }
        };
    }

    /** A connection's sequence state: the number each sequence last gave it (currval's). */
    public static final class Session {
        private static final AtomicLong IDS = new AtomicLong();
        private static final Map<Long, WeakReference<Session>> BY_ID = new ConcurrentHashMap<>();

        private final long id = IDS.incrementAndGet();
        private final Map<Long, Long> last = new ConcurrentHashMap<>();

        public Session() {
            BY_ID.values().removeIf(r -> r.get() == null); // closed connections' sessions: one sweep per new connection
            BY_ID.put(id, new WeakReference<>(this));
        }

        static Session byId(long id) {
            WeakReference<Session> ref = BY_ID.get(id);
            Session s = ref == null ? null : ref.get();
            if (s == null) {
                throw new IllegalStateException("the connection that prepared this statement is closed: run it again");
            }
            return s;
        }
    }

    /**
     * The call of numacol's function that does what {@code call} asks, if it is nextval, currval
     * or setval of a sequence named by a string; null for any other call.
     *
     * @param schema the schema an unqualified sequence name is in (the session's)
     * @throws IllegalArgumentException the name is no string literal, or names no sequence
     */
    public static SqlNode rewrite(SqlCall call, Catalog catalog, String schema, Session session) {
        if ((call.getKind() == SqlKind.NEXT_VALUE || call.getKind() == SqlKind.CURRENT_VALUE) && call.operandCount() == 1
                && call.operand(0) instanceof SqlIdentifier id) {
            // the standard's NEXT VALUE FOR s (and CURRENT VALUE FOR s): nextval('s'), with the name as an identifier
            List<String> names = id.names;
            NamedSequence sequence = find(catalog, names.size() > 1 ? names.get(names.size() - 2) : schema, names.getLast(), id.toString());
            return sequenceCall(call.getKind() == SqlKind.NEXT_VALUE ? "NEXTVAL" : "CURRVAL", sequence, session, call);
        }
        if (!(call.getOperator() instanceof SqlUnresolvedFunction f)) {
            return null;
        }
        String name = f.getName().toUpperCase(Locale.ROOT);
        if (!NAMES.contains(name)) {
            return null;
        }
        List<SqlNode> operands = call.getOperandList();
        int arity = name.equals("SETVAL") ? 2 : 1;
        if (operands.size() != arity || !(operands.getFirst() instanceof SqlCharStringLiteral literal)) {
            throw new IllegalArgumentException(name.toLowerCase(Locale.ROOT) + " takes the sequence's name as a string literal"
                    + (arity == 2 ? " and the value" : "") + ", as " + name.toLowerCase(Locale.ROOT) + "('my_sequence'"
                    + (arity == 2 ? ", 42" : "") + "): numacol looks the name up once, when it plans the statement");
        }
        NamedSequence sequence = find(catalog, schema, literal.getValueAs(String.class));
        return sequenceCall(name, sequence, session, call);
    }

    /** The call of numacol's function {@code name} (NEXTVAL, CURRVAL or SETVAL) of {@code sequence}, for {@code call}. */
    private static SqlNode sequenceCall(String name, NamedSequence sequence, Session session, SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        SqlLiteral id = SqlLiteral.createExactNumeric(Long.toString(sequence.id()), pos);
        SqlLiteral sessionId = SqlLiteral.createExactNumeric(Long.toString(session.id), pos);
        return switch (name) {
            case "NEXTVAL" -> new SqlBasicCall(NEXTVAL, List.of(id, sessionId,
                    SqlLiteral.createExactNumeric(Long.toString(CALL_SITES.incrementAndGet()), pos)), pos);
            case "CURRVAL" -> new SqlBasicCall(CURRVAL, List.of(id, sessionId), pos);
            default -> new SqlBasicCall(SETVAL, List.of(id, sessionId, call.operand(1)), pos);
        };
    }

    /** The sequence {@code text} names as PostgreSQL reads a regclass: {@code name} or {@code schema.name}, either maybe quoted. */
    private static NamedSequence find(Catalog catalog, String schema, String text) {
        String[] parts = text.trim().split("\\.", 2);
        return find(catalog, parts.length == 2 ? unquoted(parts[0]) : schema, unquoted(parts[parts.length - 1]), text);
    }

    /** The sequence {@code name} of schema {@code inSchema}, as {@code text} named it. */
    private static NamedSequence find(Catalog catalog, String inSchema, String name, String text) {
        return catalog.findSequence(inSchema, name).orElseThrow(() -> new IllegalArgumentException(
                "relation \"" + text + "\" does not exist: schema " + inSchema + " has no sequence " + name
                        + (catalog.find(inSchema, name).isPresent() ? " (it is a table)" : "; CREATE SEQUENCE " + name + " first")));
    }

    private static String unquoted(String part) {
        String p = part.trim();
        return p.length() > 1 && p.startsWith("\"") && p.endsWith("\"") ? p.substring(1, p.length() - 1).replace("\"\"", "\"") : p;
    }

    // ---- what the generated code calls

    /** nextval: the sequence's next number, remembered as the session's for currval; {@code site} tells calls apart ({@link #CALL_SITES}). */
    public static long nextval(long sequence, long session, long site) {
        long n = NamedSequence.byId(sequence).next();
        Session.byId(session).last.put(sequence, n);
        return n;
    }

    /** currval: the number nextval last gave this session from the sequence; refused (55000) before the first. */
    public static long currval(long sequence, long session) {
        NamedSequence s = NamedSequence.byId(sequence);
        Long n = Session.byId(session).last.get(sequence);
        if (n == null) {
            throw new IllegalStateException("currval of sequence \"" + s.def().name() + "\" is not yet defined in this session:"
                    + " call nextval('" + s.def().name() + "') first");
        }
        return n;
    }

    /** setval: the sequence's next number is the one after {@code value}; currval gives {@code value}, as PostgreSQL's. */
    public static long setval(long sequence, long session, long value) {
        NamedSequence.byId(sequence).set(value);
        Session.byId(session).last.put(sequence, value);
        return value;
    }
}
