package io.numacol.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.tools.RelRunner;

import java.time.ZoneId;
import java.util.List;

/** Preparation contexts that differ from a statement's own in what names resolve against, and a context's time zone. */
public final class PrepareContexts {
    private PrepareContexts() {
    }

    /**
     * {@code context}, with names read against {@code root} and, unqualified, in the schema of
     * {@code defaultSchemaPath}: a view's query is read where it was created, and a statement
     * planned within another sees the catalog as it is now.
     */
    public static CalcitePrepare.Context of(CalcitePrepare.Context context, CalciteSchema root, List<String> defaultSchemaPath) {
        return new CalcitePrepare.Context() {
            @Override
            public JavaTypeFactory getTypeFactory() {
                return context.getTypeFactory();
            }

            @Override
            public CalciteSchema getRootSchema() {
                return root;
            }

            @Override
            public CalciteSchema getMutableRootSchema() {
                return context.getMutableRootSchema();
            }

            @Override
            public List<String> getDefaultSchemaPath() {
                return defaultSchemaPath;
            }

            @Override
            public CalciteConnectionConfig config() {
                return context.config();
            }

            @Override
            public CalcitePrepare.SparkHandler spark() {
                return context.spark();
            }

            @Override
            public DataContext getDataContext() {
                return context.getDataContext();
            }

            @Override
            public List<String> getObjectPath() {
                return context.getObjectPath();
            }

            @Override
            public RelRunner getRelRunner() {
                return context.getRelRunner();
            }
        };
    }

    /** The session's time zone: the connection's {@code timeZone}, else the JVM's (as Calcite's DataContext has it). */
    public static ZoneId zone(CalcitePrepare.Context context) {
        return zone(context.config());
    }

    /** {@link #zone(CalcitePrepare.Context)} from a connection's configuration. */
    public static ZoneId zone(CalciteConnectionConfig config) {
        String id = config.timeZone();
        return id == null ? ZoneId.systemDefault() : ZoneId.of(id);
    }
}
