package io.numacol.jdbc;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.io.Serial;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * numacol as a {@link DataSource}: what a pool or a framework configures by class name and bean
 * properties (HikariCP's {@code dataSourceClassName=io.numacol.jdbc.NumacolDataSource} with
 * {@code dataSource.url}, an application server's data source definition). Each connection is
 * the driver's for {@link #getUrl()} ({@code jdbc:numacol:} by default: a private in-memory
 * database per connection, so a pool wants {@code jdbc:numacol:mem:NAME} or a file database) with
 * the connection properties set here; {@code user} and {@code password} are passed on as the
 * driver takes them. Nothing is opened until a connection is asked for.
 */
public final class NumacolDataSource implements DataSource, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The driver every data source connects through: one, as DriverManager holds one. */
    private static final NumacolDriver DRIVER = new NumacolDriver();

    private String url = NumacolDriver.PREFIX;
    private String user;
    private String password;
    private String description;
    /** Connection properties beyond the URL's ({@code timeZone}, {@code close_delay}, ...), as the driver reads them. */
    private final Properties properties = new Properties();
    private int loginTimeout;
    /** JDBC's log writer: kept and answered, as numacol logs through java.util.logging and writes nothing to it. */
    private transient PrintWriter logWriter;

    public NumacolDataSource() {
    }

    public NumacolDataSource(String url) {
        setUrl(url);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connect(user, password);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return connect(username, password);
    }

    private Connection connect(String username, String pass) throws SQLException {
        Properties info = new Properties();
        info.putAll(properties);
        if (username != null) {
            info.setProperty("user", username);
        }
        if (pass != null) {
            info.setProperty("password", pass);
        }
        Connection connection = DRIVER.connect(url, info);
        if (connection == null) {
            throw new SQLException("NumacolDataSource url '" + url + "' is not a numacol URL: use jdbc:numacol:, "
                    + "jdbc:numacol:mem:NAME or jdbc:numacol:file:PATH", "08001");
        }
        return connection;
    }

    public String getUrl() {
        return url;
    }

    /** The JDBC URL connections are opened with; its {@code ;property=value} pairs are read as the driver reads them. */
    public void setUrl(String url) {
        if (url == null || !url.startsWith(NumacolDriver.PREFIX)) {
            throw new IllegalArgumentException("NumacolDataSource url '" + url + "' is not a numacol URL: use jdbc:numacol:, "
                    + "jdbc:numacol:mem:NAME or jdbc:numacol:file:PATH");
        }
        this.url = url;
    }

    /** {@link #getUrl()}, as H2's and PostgreSQL's data sources also spell it. */
    public String getURL() {
        return getUrl();
    }

    public void setURL(String url) {
        setUrl(url);
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }

    /** A copy of the connection properties given beyond the URL. */
    public Properties getProperties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }

    /** Connection properties beyond the URL's, added to those set before; a name the driver does not know fails at connect. */
    public void setProperties(Properties properties) {
        this.properties.putAll(properties);
    }

    /** One connection property ({@code timeZone}, {@code close_delay}, {@code memoryLimit}...), as the driver reads it. */
    public void setProperty(String name, String value) {
        properties.setProperty(name, value);
    }

    /** The session's time zone ({@code timeZone}): a zone name or an offset. */
    public void setTimeZone(String timeZone) {
        properties.setProperty("timeZone", timeZone);
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    /** Kept and answered: an embedded database opens without a network, so nothing waits that long. */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    /** numacol logs through java.util.logging under {@code io.numacol}. */
    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return Logger.getLogger("io.numacol");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface != null && iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("NumacolDataSource is not a wrapper for " + (iface == null ? "null" : iface.getName()), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface != null && iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "NumacolDataSource[" + url + "]";
    }
}
