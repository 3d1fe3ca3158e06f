package io.numacol.calcite.ddl;

import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.impl.SqlParserImpl;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;

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
            return calciteParser(sql);
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
        };
        parser.setOriginalSql(sql);
        return parser;
    }

    private static SqlNode refuseUnsupported(SqlNode node) {
        if (node.getKind() == SqlKind.MERGE) {
            throw new UnsupportedOperationException("numacol does not support MERGE yet: tables take INSERT, UPDATE, DELETE and COPY");
        }
        return hasUnaryPlus(node) ? node.accept(UNARY_PLUS) : node;
    }

    /** Whether a unary plus is anywhere in {@code node}: most statements then go through uncopied. */
    private static boolean hasUnaryPlus(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                found[0] |= call.getKind() == SqlKind.PLUS_PREFIX;
                return found[0] ? null : super.visit(call);
            }
        });
        return found[0];
    }

    /**
     * Drops unary plus, which changes no value: Calcite would cast a string operand to a number
     * ({@code + col IS NULL} failed on 'abc' as it ran), where SQLite, HSQLDB and H2 take
     * {@code + x} as {@code x} for any type.
     */
    private static final SqlShuttle UNARY_PLUS = new SqlShuttle() {
        @Override
        public SqlNode visit(SqlCall call) {
            return call.getKind() == SqlKind.PLUS_PREFIX ? call.operand(0).accept(this) : super.visit(call);
        }
    };

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
