package io.numacol.jdbc;

import io.numacol.storage.CatalogView;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;
import org.apache.calcite.jdbc.CalciteResultSet;


import java.sql.SQLException;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calcite's JDBC object factory, which also keeps the signature of each prepared statement it
 * makes: {@link NumacolMeta} runs prepared DDL and batched INSERTs by it, and the handle Avatica
 * passes to {@code Meta.execute} carries none (Calcite keeps it in its server's statement, out
 * of reach outside Calcite's package). With it goes the catalog version it was planned
 * at (its {@link CatalogView}'s), so that a plan made before a table was altered or dropped, or
 * any other DDL, is made again before it runs.
 *
 * <p>Its result sets read DATE, TIME and TIMESTAMP values into java.sql values in the JVM's zone,
 * as JDBC says: a wall clock is the same whatever the session's {@code timeZone}. Avatica would
 * read them in the session's zone, so that {@code getTimestamp} of 02:30 in a New York session on
 * a UTC JVM gave 07:30.
 */
public final class NumacolJdbcFactory extends CalciteJdbc41Factory {
    private record Key(String connectionId, int statementId) {
        Key(Meta.StatementHandle h) {
            this(h.connectionId, h.id);
        }
    }

    private record Prepared(Meta.Signature signature, long catalogVersion) {
    }

    private final Map<Key, Prepared> prepared = new ConcurrentHashMap<>();

    /** JDBC 4.3, which the driver's connections, statements and result sets implement (Calcite's factory said 4.1). */
    public NumacolJdbcFactory() {
        super(4, 3);
    }

    @Override
    public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
                                                         Meta.Signature signature, int resultSetType,
                                                         int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        AvaticaPreparedStatement statement = super.newPreparedStatement(connection, h, signature, resultSetType,
                resultSetConcurrency, resultSetHoldability);
        if (signature != null) {
            CatalogView view = CatalogView.current(); // the connection prepares in one (ConnectionProxy)
            prepared.put(new Key(statement.handle), new Prepared(signature, view == null ? -1 : view.version()));
        }
        return statement;
    }

    @Override
    public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
                                         TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        return super.newResultSet(statement, state, signature, TimeZone.getDefault(), firstFrame);
    }

    /** The signature statement {@code h} was prepared with, or null if it is not a prepared statement. */
    Meta.Signature signature(Meta.StatementHandle h) {
        Prepared p = prepared.get(new Key(h));
        return p == null ? null : p.signature();
    }

    /** The catalog version prepared statement {@code h} was planned at (-1: unknown, or not a prepared statement). */
    long catalogVersion(Meta.StatementHandle h) {
        Prepared p = prepared.get(new Key(h));
        return p == null ? -1 : p.catalogVersion();
    }

    /** Statement {@code h}'s plan was made again (a table it reads changed): {@code signature} is its new one. */
    void replanned(Meta.StatementHandle h, Meta.Signature signature, long catalogVersion) {
        prepared.replace(new Key(h), new Prepared(signature, catalogVersion));
    }

    void closed(Meta.StatementHandle h) {
        prepared.remove(new Key(h));
    }

    /** A connection closed: its statements' signatures go, closed or not. */
    void closed(Meta.ConnectionHandle ch) {
        prepared.keySet().removeIf(k -> k.connectionId().equals(ch.id));
    }
}
