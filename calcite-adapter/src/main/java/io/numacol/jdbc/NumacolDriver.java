package io.numacol.jdbc;

import io.numacol.calcite.InformationSchema;
import io.numacol.calcite.PgCatalog;
import io.numacol.calcite.NumacolRootSchema;
import io.numacol.calcite.NumacolSchema;
import io.numacol.calcite.NumacolTypeFactory;
import io.numacol.calcite.NumacolTypeSystem;
import io.numacol.calcite.Planning;
import io.numacol.calcite.SysSchema;
import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.calcite.plan.CheckConstraints;
import io.numacol.calcite.plan.NumacolPrepare;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.avatica.HandlerImpl;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.Driver;
import org.apache.calcite.schema.SchemaPlus;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.calcite.config.CalciteConnectionProperty;
import java.util.stream.Stream;
import java.util.stream.Collectors;
import java.util.TreeSet;
import java.util.Set;
import java.util.Locale;
import java.util.Arrays;
import java.util.TimeZone;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import io.numacol.durability.DatabaseLockedException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code jdbc:numacol:[mem:NAME][;property=value...]}. Properties (URL or {@code Properties}):
 * {@code topology} ({@code real} or {@code fake:N}), {@code stealPolicy}, {@code groupsPerNode},
 * {@code rowsPerPart}, {@code scheduler} ({@code pool} or {@code inline}); see {@link DatabaseConfig}. {@code timeZone}
 * (a zone name or an offset; the JVM's by default) is the session's: TIMESTAMP WITH TIME ZONE values are shown in it,
 * and text without an offset is read in it. {@code close_delay} (seconds; H2's DB_CLOSE_DELAY) keeps a named
 * database after its last connection closes: {@code 0}, the default, drops it then; {@code N} keeps it N seconds
 * for a connection to come back; {@code -1} keeps it until the JVM ends or {@code SHUTDOWN}. Tables live in schema
 * {@code main}, the default; {@code sys} shows nodes, tables and columns. {@code jdbc:numacol:file:PATH} opens
 * the file database of directory PATH (created if missing), which outlives the process; {@code durability}
 * ({@code fsync}, the default, {@code flush} or {@code none}) says what its commits wait for; {@code
 * access_mode=read_only} opens it to read only, as several processes may at once. {@code metrics} ({@code global},
 * a name given to {@link NumacolMetrics#register}, or {@code none}) sends the database's Micrometer meters there.
 * {@code warmup} ({@code true}, the default, or {@code false}) on a JVM's first connection says whether
 * {@link Warmup} readies the planner and kernels beside the application.
 */
public final class NumacolDriver extends Driver {
    public static final String PREFIX = "jdbc:numacol:";
    private static final String NAME_PROPERTY = "numacol.database";
    static final String CLOSE_DELAY = "close_delay";
    private static final String[] DATABASE_PROPERTIES = {"topology", "stealPolicy", "groupsPerNode", "rowsPerPart", "memoryLimit",
        "nodeBandwidth", "placer", "placerPeriod", "stealThreshold", "scheduler", "externalAccess", "allowedDirectories", "durability",
        DatabaseRegistry.ACCESS_MODE, NumacolMetrics.PROPERTY};
    /** Every property numacol reads: the database's, then the connection's own. */
    private static final List<String> NUMACOL_PROPERTIES = Stream.concat(Arrays.stream(DATABASE_PROPERTIES),
            Stream.of("timeZone", "planCache", CLOSE_DELAY, Warmup.PROPERTY, "user", "password")).toList();
    private static final Set<String> NUMACOL_PROPERTIES_LOWER = NUMACOL_PROPERTIES.stream()
            .map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    /** Calcite's own connection properties, in any case, as Calcite reads them. */
    private static final Set<String> CALCITE_PROPERTIES = Arrays.stream(CalciteConnectionProperty.values())
            .map(CalciteConnectionProperty::camelName).collect(Collectors.toCollection(() -> new TreeSet<>(String.CASE_INSENSITIVE_ORDER)));

    private static final DatabaseRegistry REGISTRY = new DatabaseRegistry();
    private static final Map<AvaticaConnection, Database> OPEN = new ConcurrentHashMap<>();

    static {
        new NumacolDriver().register();
    }

    public NumacolDriver() {
        super(NumacolPrepare::new);
    }

    /** The database behind a numacol JDBC connection (the embedding API: appenders, metrics). */
    public static Database database(Connection connection) throws SQLException {
        Database db = OPEN.get(connection.unwrap(AvaticaConnection.class));
        if (db == null) {
            throw new SQLException("not an open numacol connection: " + connection);
        }
        return db;
    }

    /** The database behind an open connection of this driver, or null. */
    static Database openDatabase(AvaticaConnection connection) {
        return OPEN.get(connection);
    }

    /**
     * Closes the database of {@code connection} now (SQL's SHUTDOWN), whatever connections it has:
     * their statements fail with SQLState 08003 from then on.
     */
    static void shutdown(AvaticaConnection connection) {
        Database db = OPEN.get(connection);
        if (db != null) {
            REGISTRY.shutdown(db);
        }
    }

    /** Whether the named in-memory database {@code name} is open in this JVM. */
    static boolean isOpen(String name) {
        return REGISTRY.isOpen(name);
    }

    /** The close delay a connection asks for, in seconds, or null. */
    private static Integer closeDelay(Properties props) throws SQLException {
        String value = props.getProperty(CLOSE_DELAY);
        if (value == null) {
            return null;
        }
        try {
            int seconds = Integer.parseInt(value.strip());
            if (seconds >= DatabaseRegistry.KEEP) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new SQLException("close_delay=" + value + ": give the seconds a named database stays after its last connection "
                + "closes (0: none, the default), or -1 to keep it until SHUTDOWN or the JVM's end", "HY024");
    }

    /** Calcite's Meta plus numacol's bulk path for batched INSERT ... VALUES (?, ...). */
    @Override
    public Meta createMeta(AvaticaConnection connection) {
        return new NumacolMeta(connection, (NumacolJdbcFactory) factory);
    }

    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
        return NumacolJdbcFactory.class.getName();
    }

    @Override
    protected String getConnectStringPrefix() {
        return PREFIX;
    }

    @Override
    protected DriverVersion createDriverVersion() {
        return new DriverVersion("numacol JDBC driver", "0.1.0", "numacol", "0.1.0", true, 0, 1, 0, 1);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Properties props = new Properties();
        String rest = url.substring(PREFIX.length());
        int semicolon = rest.indexOf(';');
        String location = semicolon < 0 ? rest : rest.substring(0, semicolon);
        if (semicolon >= 0) {
            for (String pair : rest.substring(semicolon + 1).split(";")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new SQLException("in '" + url + "': '" + pair + "' is not property=value");
                }
                props.setProperty(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        if (info != null) {
            props.putAll(info);
        }
        h2Spellings(props);
        checkNames(url, props);
        closeDelay(props);
        boolean warmup = Warmup.wanted(props);
        if (location.startsWith("mem:")) {
            String name = location.substring("mem:".length());
            if (name.isEmpty()) {
                throw new SQLException("'" + url + "' names no database: use jdbc:numacol:mem:NAME");
            }
            props.setProperty(NAME_PROPERTY, name);
        } else if (location.startsWith(DatabaseRegistry.FILE)) {
            String path = location.substring(DatabaseRegistry.FILE.length());
            if (path.isBlank()) {
                throw new SQLException("'" + url + "' names no directory: use jdbc:numacol:file:PATH", "HY024");
            }
            try {
                // one database per directory in this JVM, however the URL spells it
                props.setProperty(NAME_PROPERTY, DatabaseRegistry.FILE + Path.of(path.strip()).toAbsolutePath().normalize());
            } catch (InvalidPathException e) {
                throw new SQLException("'" + url + "': '" + path + "' is not a directory name: " + e.getMessage(), "HY024", e);
            }
        } else if (!location.isEmpty()) {
            throw new SQLException("unknown numacol location '" + location + "' in '" + url
                    + "': use jdbc:numacol: (private), jdbc:numacol:mem:NAME (shared in memory) or jdbc:numacol:file:PATH (a file database)");
        }
        if (!location.startsWith(DatabaseRegistry.FILE)
                && (props.getProperty("durability") != null || props.getProperty(DatabaseRegistry.ACCESS_MODE) != null)) {
            throw new SQLException("in '" + url + "': " + (props.getProperty("durability") != null ? "durability" : "access_mode")
                    + " is a file database's (jdbc:numacol:file:PATH); this one is in memory", "HY024");
        }
        String zone = props.getProperty("timeZone");
        if (zone != null) {
            // Calcite reads the zone with java.util.TimeZone, which takes an unknown name or +01:00 for GMT
            try {
                props.setProperty("timeZone", TimeZone.getTimeZone(ZoneId.of(zone.strip())).getID());
            } catch (DateTimeException e) {
                throw new SQLException("in '" + url + "': unknown time zone '" + zone + "' in timeZone: use a zone name such as"
                        + " Europe/Berlin, or an offset such as +01:00 or UTC", e);
            }
        }
        // SQL as DuckDB and H2 users write it: identifiers ignore case, numacol's DDL and planner.
        props.putIfAbsent("caseSensitive", "false");
        props.putIfAbsent("unquotedCasing", "UNCHANGED");
        props.putIfAbsent("quotedCasing", "UNCHANGED");
        props.putIfAbsent("parserFactory", NumacolParserFactory.class.getName() + "#FACTORY");
        props.putIfAbsent("conformance", "LENIENT");
        props.putIfAbsent("typeSystem", NumacolTypeSystem.class.getName() + "#INSTANCE");
        // As UnregisteredDriver.connect, with numacol's type factory (Calcite's only takes a type system).
        // Calcite's own metadata schema reads the Meta as Calcite's class, which numacol wraps:
        // information_schema and sys answer what it would. Nothing under the root is cached: the
        // catalog's schemas, tables and views are looked up live.
        CalciteSchema root = CalciteSchema.createRootSchema(false, false, "", new NumacolRootSchema());
        AvaticaConnection connection = ((CalciteFactory) factory).newConnection(this, factory, PREFIX, props, root,
                new NumacolTypeFactory());
        handler.onConnectionInit(connection);
        if (warmup) {
            Warmup.startOnce(this);
        }
        return ConnectionProxy.wrap((CalciteConnection) connection);
    }

    /**
     * H2's {@code DB_CLOSE_DELAY} (any case) read as {@code close_delay}, which it is: a service
     * moving from H2 keeps its URL's {@code ;DB_CLOSE_DELAY=-1}. Both given is refused, as two
     * values of one property are.
     */
    private static void h2Spellings(Properties props) throws SQLException {
        for (String name : props.stringPropertyNames()) {
            if (name.equalsIgnoreCase("DB_CLOSE_DELAY")) {
                if (props.getProperty(CLOSE_DELAY) != null) {
                    throw new SQLException(name + " and " + CLOSE_DELAY + " are one property (H2's name and numacol's): give one",
                            "HY024");
                }
                props.setProperty(CLOSE_DELAY, props.getProperty(name));
                props.remove(name);
            }
        }
    }

    /**
     * The properties a connection may set: numacol's, {@code user} and {@code password} (which
     * tools and pools pass), and Calcite's own ({@code fun}, {@code lex}, ...). Anything else is
     * refused, as H2 and DuckDB do: a misspelled {@code memorylimit} or an unknown {@code persist}
     * was ignored, and the database opened without what was asked.
     */
    private static void checkNames(String url, Properties props) throws SQLException {
        for (String name : props.stringPropertyNames()) {
            boolean exact = NUMACOL_PROPERTIES.contains(name)
                    || (CALCITE_PROPERTIES.contains(name) && !NUMACOL_PROPERTIES_LOWER.contains(name.toLowerCase(Locale.ROOT)));
            if (exact) {
                continue;
            }
            String hint = NUMACOL_PROPERTIES.stream().filter(n -> n.equalsIgnoreCase(name)).findFirst()
                    .map(n -> " (did you mean " + n + "?)").orElse("");
            throw new SQLException("in '" + url + "': unknown connection property '" + name + "'" + hint
                    + "; numacol's are " + String.join(", ", NUMACOL_PROPERTIES) + ", and Calcite's own", "HY024");
        }
    }

    @Override
    protected Handler createHandler() {
        return new HandlerImpl() {
            @Override
            public void onConnectionInit(AvaticaConnection connection) throws SQLException {
                CalciteConnection calcite = connection.unwrap(CalciteConnection.class);
                Properties props = calcite.getProperties();
                Properties dbProps = new Properties();
                for (String key : DATABASE_PROPERTIES) {
                    if (props.getProperty(key) != null) {
                        dbProps.setProperty(key, props.getProperty(key));
                    }
                }
                Database db;
                try {
                    db = REGISTRY.acquire(props.getProperty(NAME_PROPERTY), dbProps, closeDelay(props));
                } catch (IllegalArgumentException e) {
                    throw new SQLException("cannot open numacol database: " + e.getMessage(), "HY024", e);
                } catch (DatabaseLockedException e) {
                    throw new SQLException("cannot open numacol database: " + e.getMessage(), "08001", e);
                } catch (UncheckedIOException e) {
                    throw new SQLException(e.getMessage(), SqlStates.state(e), e);
                }
                db.catalog().checkCompiler(CheckConstraints.COMPILER); // the tables' CHECK constraints, read as numacol's SQL reads them
                SchemaPlus root = calcite.getRootSchema();
                // the schemas type their views with numacol's planning, which sits above them
                Planning planning = new NumacolPrepare();
                ((NumacolRootSchema) root.unwrap(CalciteSchema.class).schema).bind(db, calcite, planning);
                root.add(NumacolSchema.NAME, new NumacolSchema(db, calcite, NumacolSchema.NAME, planning));
                root.add(SysSchema.NAME, new SysSchema(db));
                root.add(InformationSchema.NAME, new InformationSchema());
                root.add(PgCatalog.NAME, new PgCatalog());
                calcite.setSchema(NumacolSchema.NAME);
                OPEN.put(connection, db);
            }

            @Override
            public void onConnectionClose(AvaticaConnection connection) {
                // A query still running on the connection stops (it fails as cancelled) rather than
                // running on for nobody, holding the database's workers and memory.
                for (AvaticaStatement statement : List.copyOf(connection.statementMap.values())) {
                    try {
                        statement.cancel();
                    } catch (SQLException | RuntimeException e) {
                        // closing anyway
                    }
                }
                Database db = OPEN.remove(connection);
                if (db != null) {
                    try {
                        REGISTRY.release(connection.unwrap(CalciteConnection.class).getProperties().getProperty(NAME_PROPERTY), db);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
    }
}
