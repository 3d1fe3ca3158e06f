package io.numacol.calcite.ddl;

import io.numacol.calcite.PostgresFunctions;
import io.numacol.calcite.QueryCancel;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.impl.SimpleCharStream;
import org.apache.calcite.sql.parser.impl.SqlParserImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/** Calcite's core parser, with numacol's DDL recognised first. */
public final class NumacolParserFactory implements SqlParserImplFactory {
    public static final NumacolParserFactory FACTORY = new NumacolParserFactory();

    private NumacolParserFactory() {
    }

    @Override
    public SqlAbstractParserImpl getParser(Reader stream) {
        String sql = read(stream);
        DdlStatement ddl;
        try {
            ddl = DdlParser.parse(sql);
        } catch (IllegalArgumentException e) {
            return failing(sql, e);
        }
        if (ddl == null) {
            return calciteParser(FromlessSelect.rewrite(PostgresFunctions.bareCurrentSchema(sql)));
        }
        return new SqlParserImpl(new StringReader(sql)) {
            @Override
            public SqlNode parseSqlStmtEof() {
                return ddl;
            }

            @Override
            public SqlNodeList parseSqlStmtList() {
                return new SqlNodeList(List.of(ddl), SqlParserPos.ZERO);
            }
        };
    }

    /**
     * Whether {@code sql} is numacol DDL (CREATE/DROP TABLE, COPY, CALL dbgen), which runs as it
     * is executed and returns no rows.
     *
     * @throws IllegalArgumentException when it starts as numacol DDL but is malformed, saying where
     */
    public static boolean isDdl(String sql) {
        return DdlParser.parse(sql) != null;
    }

    @Override
    public DdlExecutor getDdlExecutor() {
        return NumacolDdlExecutor.INSTANCE;
    }

    /** Calcite's parser, refusing MERGE, which numacol tables do not take yet, before it is planned. */
    private static SqlAbstractParserImpl calciteParser(String sql) {
        SqlParserImpl parser = new SqlParserImpl(new StringReader(sql)) {
            @Override
            public SqlNode parseSqlStmtEof() throws Exception {
                return refuseUnsupported(super.parseSqlStmtEof());
            }

            @Override
            public SqlNodeList parseSqlStmtList() throws Exception {
                SqlNodeList list = super.parseSqlStmtList();
                list.forEach(NumacolParserFactory::refuseUnsupported);
                return list;
            }

            @Override
            public SqlParseException normalizeException(Throwable ex) {
                return shortened(super.normalizeException(ex));
            }
        };
        parser.setOriginalSql(sql);
        if (sql.length() > DEFAULT_BUFFER) {
            parser.token_source.ReInit(wholeText(sql));
        }
        return parser;
    }

    /** Characters read between two checks whether the statement being parsed was canceled or timed out, minus one. */
    private static final int STOP_CHECK_MASK = 0xFFFF;

    /** The character buffer JavaCC's stream starts with; it grows by as much again as a token needs it. */
    private static final int DEFAULT_BUFFER = 4096;

    /**
     * A character stream whose buffer holds all of {@code sql} from the start: JavaCC's grows by
     * 2,048 characters at a time, copying what it holds each time, so a 10 MB string literal (one
     * token) took over 60 s to scan; the same value as a parameter was instant. It stops a
     * statement canceled or timed out while it is parsed (every 64 K characters read), which
     * JavaCC's parser never asks.
     */
    private static SimpleCharStream wholeText(String sql) {
        return new SimpleCharStream(new StringReader(sql), 1, 1, sql.length() + 1) {
            private int read;

            {
                setTabSize(1); // as Calcite sets the stream it makes
            }

            @Override
            public char readChar() throws IOException {
                if ((++read & STOP_CHECK_MASK) == 0) {
                    QueryCancel.current().check();
                }
                return super.readChar();
            }
        };
    }

    /** Most a syntax error lists of what could have come instead; more is a list nobody reads. */
    private static final int EXPECTED_SHOWN = 8;

    /**
     * {@code e} with its list of what the parser expected instead cut to a line: after a statement's
     * first word Calcite lists some 200 tokens, one per line, which buried the message (where the
     * error is) in the shell.
     */
    private static SqlParseException shortened(SqlParseException e) {
        String message = e.getMessage();
        int list = message == null ? -1 : message.indexOf("\nWas expecting");
        if (list < 0) {
            return e;
        }
        List<String> expected = List.copyOf(e.getExpectedTokenNames());
        String head = message.substring(0, list).strip();
        String tail = expected.isEmpty() ? "" : expected.size() <= EXPECTED_SHOWN ? " Expected one of: " + String.join(", ", expected) + "."
                : " Expected one of " + expected.size() + " tokens, such as " + String.join(", ", expected.subList(0, EXPECTED_SHOWN)) + ".";
        return new SqlParseException(head + tail, e.getPos(), e.getExpectedTokenSequences(), e.getTokenImages(), e.getCause());
    }

    private static SqlNode refuseUnsupported(SqlNode node) {
        if (node.getKind() == SqlKind.MERGE) {
            throw new UnsupportedOperationException("numacol does not support MERGE yet: tables take INSERT, UPDATE, DELETE and COPY");
        }
        return needsRewrite(node) ? node.accept(REWRITE) : node;
    }

    /** Whether anything {@link #REWRITE} changes is in {@code node}: most statements then go through uncopied. */
    private static boolean needsRewrite(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                found[0] |= call.getKind() == SqlKind.PLUS_PREFIX || call.getOperator() == SqlStdOperatorTable.MINUS;
                return found[0] ? null : super.visit(call);
            }

            @Override
            public Void visit(SqlDataTypeSpec type) {
                found[0] |= zoned(type) != null;
                return null;
            }

            @Override
            public Void visit(SqlLiteral literal) {
                found[0] |= literal instanceof SqlUnknownLiteral unknown
                        && (unknown.tag.toUpperCase(Locale.ROOT).endsWith("WITH TIME ZONE") || shortened(unknown) != null);
                return null;
            }
        });
        return found[0];
    }

    /**
     * Drops unary plus, which changes no value: Calcite would cast a string operand to a number
     * ({@code + col IS NULL} failed on 'abc' as it ran), where SQLite, HSQLDB and H2 take
     * {@code + x} as {@code x} for any type. Makes {@code TIMESTAMP WITH TIME ZONE} and {@code
     * TIMESTAMPTZ} numacol's instant, which is Calcite's {@code TIMESTAMP WITH LOCAL TIME ZONE}:
     * Calcite's own TIMESTAMP WITH TIME ZONE has no arithmetic, comparison or storage, and
     * {@code CAST(ts AS TIMESTAMP WITH TIME ZONE)} gave the wall clock as if in UTC. A literal
     * {@code TIMESTAMP WITH TIME ZONE '..'} is its text cast to an instant, which reads an
     * offset or else the session's zone (Calcite wanted a zone name, always). A TIMESTAMP or TIME
     * literal without seconds, or with a T, is written as Calcite reads it ({@link #shortened}).
     * Binary minus is {@link DatetimeMinus}, which also subtracts dates and times.
     */
    private static final SqlShuttle REWRITE = new SqlShuttle() {
        @Override
        public SqlNode visit(SqlCall call) {
            if (call.getOperator() == SqlStdOperatorTable.MINUS) {
                return DatetimeMinus.INSTANCE.createCall(call.getParserPosition(), call.operand(0).accept(this), call.operand(1).accept(this));
            }
            return call.getKind() == SqlKind.PLUS_PREFIX ? call.operand(0).accept(this) : super.visit(call);
        }

        @Override
        public SqlNode visit(SqlDataTypeSpec type) {
            SqlDataTypeSpec instant = zoned(type);
            return instant == null ? type : instant;
        }

        @Override
        public SqlNode visit(SqlLiteral literal) {
            if (!(literal instanceof SqlUnknownLiteral unknown)) {
                return literal;
            }
            String whole = shortened(unknown);
            if (whole != null) {
                return SqlLiteral.createUnknown(unknown.tag, whole, literal.getParserPosition());
            }
            if (!unknown.tag.toUpperCase(Locale.ROOT).endsWith("WITH TIME ZONE")) {
                return literal;
            }
            if (!unknown.tag.toUpperCase(Locale.ROOT).startsWith("TIMESTAMP WITH TIME ZONE")) {
                throw new UnsupportedOperationException(ColumnType.TIME_WITH_TIME_ZONE_REFUSED);
            }
            SqlParserPos pos = literal.getParserPosition();
            return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createCharString(unknown.getValue(), pos),
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, pos), pos));
        }
    };

    /** A TIMESTAMP or TIME literal's text as Calcite reads it, when it is not so already (see {@link TimeLiterals#calciteText}). */
    private static String shortened(SqlUnknownLiteral literal) {
        String tag = literal.tag.toUpperCase(Locale.ROOT);
        return tag.equals("TIMESTAMP") ? TimeLiterals.calciteText(literal.getValue(), SqlTypeName.TIMESTAMP)
                : tag.equals("TIME") ? TimeLiterals.calciteText(literal.getValue(), SqlTypeName.TIME) : null;
    }

    /** {@code type} as numacol's instant when it names a zoned TIMESTAMP, else null; TIME WITH TIME ZONE refused. */
    private static SqlDataTypeSpec zoned(SqlDataTypeSpec type) {
        SqlTypeNameSpec name = type.getTypeNameSpec();
        SqlParserPos pos = type.getParserPosition();
        if (name instanceof SqlBasicTypeNameSpec basic && basic.getTypeName().getSimple().equalsIgnoreCase(SqlTypeName.TIME_TZ.getName())) {
            throw new UnsupportedOperationException(ColumnType.TIME_WITH_TIME_ZONE_REFUSED);
        }
        int precision;
        if (name instanceof SqlBasicTypeNameSpec basic && basic.getTypeName().getSimple().equalsIgnoreCase(SqlTypeName.TIMESTAMP_TZ.getName())) {
            precision = basic.getPrecision();
        } else if (name instanceof SqlUserDefinedTypeNameSpec udt && udt.getTypeName().isSimple()
                && udt.getTypeName().getSimple().equalsIgnoreCase("TIMESTAMPTZ")) {
            precision = RelDataType.PRECISION_NOT_SPECIFIED;
        } else {
            return null;
        }
        return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, precision, pos),
                type.getTimeZone(), type.getNullable(), pos);
    }

    /** A parser that reports a DDL syntax error the way Calcite reports its own. */
    private static SqlAbstractParserImpl failing(String sql, IllegalArgumentException error) {
        return new SqlParserImpl(new StringReader(sql)) {
            @Override
            public SqlNode parseSqlStmtEof() {
                throw error;
            }

            @Override
            public SqlNodeList parseSqlStmtList() {
                throw error;
            }
        };
    }

    private static String read(Reader stream) {
        try {
            StringBuilder sb = new StringBuilder();
            char[] buffer = new char[4096];
            for (int n; (n = stream.read(buffer)) > 0; ) {
                sb.append(buffer, 0, n);
            }
            return sb.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
