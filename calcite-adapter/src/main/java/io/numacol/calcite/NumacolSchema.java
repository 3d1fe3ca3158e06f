package io.numacol.calcite;

import io.numacol.database.Database;
import io.numacol.storage.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.Map;
import java.util.stream.Collectors;

/** Schema {@code main}: the database's tables, looked up live so DDL shows at once. */
public final class NumacolSchema extends AbstractSchema {
    public static final String NAME = "main";

    private final Database database;

    public NumacolSchema(Database database) {
        this.database = database;
    }

    public Database database() {
        return database;
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        return database.catalog().tables().stream()
                .collect(Collectors.toMap(Table::name, t -> new NumacolTable(database, t)));
    }

    @Override
    public boolean isMutable() {
        return true;
    }
}
