package io.numacol.storage;

import io.numacol.storage.types.ColumnType.Kind;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The column type as a descriptor: its spelling, the type-name parser, the parameters each kind
 * takes. What values each type takes and how they are stored is its codec's contract
 * ({@code io.numacol.storage.types.TypeCodecContract} and a subclass per type).
 */
class ColumnTypeTest {

    // ---- parsing and printing

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "boolean;           BOOLEAN",
            "bool;              BOOLEAN",
            "tinyint;           TINYINT",
            "int1;              TINYINT",
            "SmallInt;          SMALLINT",
            "INT2;              SMALLINT",
            "INTEGER;           INTEGER",
            "int;               INTEGER",
            "int4;              INTEGER",
            "BigInt;            BIGINT",
            "int8;              BIGINT",
            "double;            DOUBLE",
            "' double  precision '; DOUBLE",
            "float8;            DOUBLE",
            "decimal(15, 2);    DECIMAL(15,2)",
            "' DECIMAL ( 18 , 18 ) '; DECIMAL(18,18)",
            "decimal(1,0);      DECIMAL(1,0)",
            "numeric(7);        DECIMAL(7,0)",
            "date;              DATE",
            "real;              REAL",
            "float4;            REAL",
            "float(1);          REAL",
            "' FLOAT ( 24 ) ';  REAL",
            "timestamp;         TIMESTAMP(3)",
            "' Timestamp ( 0 ) '; TIMESTAMP(0)",
            "datetime;          TIMESTAMP(3)",
            "time;              TIME(3)",
            "' Time ( 0 ) ';    TIME(0)",
            "'time(2) without time zone'; TIME(2)",
            "'timestamp(2) without  time zone'; TIMESTAMP(2)",
            "char(1);           CHAR(1)",
            "VARCHAR(25);       VARCHAR(25)",
            "varchar(2147483647); VARCHAR(2147483647)",
            "varbinary(16);     VARBINARY(16)",
            "'binary varying (4)'; VARBINARY(4)",
            "uuid;              UUID"})
    void parsesAndPrintsSqlSpelling(String spec, String printed) {
        ColumnType type = ColumnType.parse(spec);
        assertThat(type).hasToString(printed);
        assertThat(ColumnType.parse(type.toString())).isEqualTo(type);
    }

    @Test
    void factoriesMatchTheParser() {
        assertThat(ColumnType.booleanType()).isEqualTo(ColumnType.parse("BOOLEAN"));
        assertThat(ColumnType.tinyint()).isEqualTo(ColumnType.parse("TINYINT"));
        assertThat(ColumnType.smallint()).isEqualTo(ColumnType.parse("SMALLINT"));
        assertThat(ColumnType.integer()).isEqualTo(ColumnType.parse("INTEGER"));
        assertThat(ColumnType.bigint()).isEqualTo(ColumnType.parse("BIGINT"));
        assertThat(ColumnType.doubleType()).isEqualTo(ColumnType.parse("DOUBLE"));
        assertThat(ColumnType.doubleType()).isEqualTo(ColumnType.parse("FLOAT")).isEqualTo(ColumnType.parse("float(53)"))
                .isEqualTo(ColumnType.parse("FLOAT(25)"));
        assertThat(ColumnType.decimal(15, 2)).isEqualTo(ColumnType.parse("DECIMAL(15,2)"));
        assertThat(ColumnType.date()).isEqualTo(ColumnType.parse("DATE"));
        assertThat(ColumnType.charType(10)).isEqualTo(ColumnType.parse("CHAR(10)"));
        assertThat(ColumnType.varchar(25)).isEqualTo(ColumnType.parse("VARCHAR(25)"));
        assertThat(ColumnType.decimal(15, 2).precision()).isEqualTo(15);
        assertThat(ColumnType.decimal(15, 2).scale()).isEqualTo(2);
        assertThat(ColumnType.varchar(25).length()).isEqualTo(25);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "BOOLEAN;     LONG",
            "TINYINT;     LONG",
            "SMALLINT;    LONG",
            "INTEGER;     LONG",
            "BIGINT;      LONG",
            "DECIMAL(9,3); LONG",
            "DATE;        LONG",
            "DOUBLE;      DOUBLE",
            "REAL;        DOUBLE",
            "CHAR(3);     STRING",
            "VARCHAR(3);  STRING",
            "VARBINARY(3); STRING",
            "UUID;        STRING"})
    void storageKindPerType(String spec, StorageKind storage) {
        assertThat(ColumnType.parse(spec).storageKind()).isEqualTo(storage);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "decimal(19,2);   DECIMAL precision must be between 1 and 18, got 19",
            "decimal(0);      DECIMAL precision must be between 1 and 18, got 0",
            "decimal(5,6);    DECIMAL scale must be between 0 and the precision 5, got 6",
            "decimal(5,-1);   DECIMAL scale must be between 0 and the precision 5, got -1",
            "decimal;         DECIMAL needs a precision",
            "varchar(0);      VARCHAR length must be at least 1, got 0",
            "char(-3);        CHAR length must be at least 1, got -3",
            "varchar;         VARCHAR takes exactly one parameter",
            "char(3,1);       CHAR takes exactly one parameter",
            "integer(5);      INTEGER takes no parameters",
            "date(1,2);       DATE takes no parameters",
            "varchar(99999999999); parameter 99999999999 is too large",
            "text;            unknown type TEXT",
            "decimal(15,2;    expected a type name with optional parameters",
            "'';              expected a type name with optional parameters",
            "double precision(3); expected a type name with optional parameters",
            "smallint(2);     SMALLINT takes no parameters",
            "varchar(x);      expected a type name with optional parameters",
            "float(0);        FLOAT takes one parameter, its binary digits from 1 to 53",
            "real(4);         REAL takes no parameters",
            "float(54);       FLOAT takes one parameter, its binary digits from 1 to 53",
            "float(30,2);     FLOAT takes one parameter",
            "timestamp(6);    numacol keeps times to the millisecond",
            "timestamp(1,2);  TIMESTAMP takes one parameter",
            "timestamptz(4);  numacol keeps times to the millisecond",
            "timestamp without local time zone; write WITHOUT TIME ZONE",
            "time with time zone; TIME WITH TIME ZONE is not supported",
            "time(4);         numacol keeps times to the millisecond",
            "time(1,2);       TIME takes one parameter",
            "binary(4);       use VARBINARY(n)",
            "varbinary;       VARBINARY takes exactly one parameter",
            "uuid(16);        UUID takes no parameters"})
    void rejectsBadSpecsNamingThem(String spec, String why) {
        assertThatThrownBy(() -> ColumnType.parse(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bad column type '" + spec + "'")
                .hasMessageContaining(why);
    }

    @Test
    void constructorRejectsParametersAKindDoesNotHave() {
        assertThatThrownBy(() -> new ColumnType(Kind.INTEGER, 5, 0, 0))
                .hasMessageContaining("INTEGER takes no precision, scale or length");
        assertThatThrownBy(() -> new ColumnType(Kind.VARCHAR, 3, 0, 10)).hasMessageContaining("VARCHAR has no precision");
        assertThatThrownBy(() -> new ColumnType(Kind.DECIMAL, 5, 2, 7)).hasMessageContaining("DECIMAL has no length");
        assertThatThrownBy(() -> new ColumnType(null, 0, 0, 0)).isInstanceOf(NullPointerException.class);
    }
}
