package io.numacol.storage;

import io.numacol.storage.ColumnType.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void uuidStoresItsLowercaseTextAndReadsBackAsUuid() {
        ColumnType t = ColumnType.uuid();
        String canonical = "123e4567-e89b-12d3-a456-426614174000";
        assertThat(t.toStringValue(java.util.UUID.fromString(canonical))).isEqualTo(canonical);
        assertThat(t.toStringValue("123E4567-E89B-12D3-A456-426614174000")).isEqualTo(canonical);
        assertThat(t.toStringValue("{123e4567e89b12d3a456426614174000}")).isEqualTo(canonical);
        assertThat(t.toStringValue(" " + canonical + " ")).isEqualTo(canonical);
        assertThat(t.toJava(canonical)).isEqualTo(java.util.UUID.fromString(canonical));
        for (String bad : new String[] {"1-1-1-1-1", "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-42661417400g", ""}) {
            assertThatThrownBy(() -> t.toStringValue(bad)).hasMessageContaining("is not a valid UUID");
        }
        assertThatThrownBy(() -> t.toStringValue(5)).hasMessageContaining("cannot be stored as UUID");
        // the stored text orders as the unsigned 128 bits
        assertThat(StringDictionary.compare(t.toStringValue("f0000000-0000-0000-0000-000000000000"), canonical)).isPositive();
    }

    @Test
    void varbinaryStoresOneCharPerByteInUnsignedOrderAndChecksTheLengthInBytes() {
        ColumnType t = ColumnType.varbinary(3);
        byte[] bytes = {0, (byte) 0x80, (byte) 0xff};
        String stored = t.toStringValue(bytes);
        assertThat(stored).hasSize(3);
        assertThat((byte[]) t.toJava(stored)).isEqualTo(bytes);
        assertThat(StringDictionary.compare(t.toStringValue(new byte[] {(byte) 0x80}), t.toStringValue(new byte[] {0x7f})))
                .as("0x80 is 128").isPositive();
        assertThat(StringDictionary.compare(t.toStringValue(new byte[] {1}), t.toStringValue(new byte[] {1, 0}))).isNegative();
        assertThatThrownBy(() -> t.toStringValue(new byte[4])).hasMessageContaining("X'00000000' (4 bytes) is longer than VARBINARY(3)");
        assertThatThrownBy(() -> t.toStringValue("abc")).hasMessageContaining("expected a byte[]");
        assertThat(ColumnType.binaryFromText("\\x00FFab")).containsExactly(0, 0xff, 0xab);
        assertThat(ColumnType.binaryFromText("\\x")).isEmpty();
        for (String bad : new String[] {"00ff", "\\x0", "\\xzz", "x00"}) {
            assertThatThrownBy(() -> ColumnType.binaryFromText(bad)).hasMessageContaining("VARBINARY text");
        }
    }

    // ---- BOOLEAN

    @Test
    void booleanStoresZeroAndOne() {
        ColumnType t = ColumnType.booleanType();
        assertThat(t.toLong(true)).isEqualTo(1);
        assertThat(t.toLong(false)).isZero();
        assertThat(t.toJava(1)).isEqualTo(true);
        assertThat(t.toJava(0)).isEqualTo(false);
        assertThatThrownBy(() -> t.toLong(1)).hasMessageContaining("value 1 (java.lang.Integer) cannot be stored as BOOLEAN");
        assertThatThrownBy(() -> t.toLong("true")).hasMessageContaining("'true'");
        assertThatThrownBy(() -> t.toJava(2)).hasMessageContaining("stored value 2 is not a BOOLEAN value");
    }

    // ---- INTEGER and BIGINT

    @Test
    void integerAcceptsItsWholeRangeAndNothingBeyond() {
        ColumnType t = ColumnType.integer();
        assertThat(t.toLong(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(t.toLong(Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
        assertThat(t.toLong((long) Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(t.toLong((short) -7)).isEqualTo(-7);
        assertThat(t.toLong((byte) 9)).isEqualTo(9);
        assertThat(t.toLong(BigInteger.valueOf(-12))).isEqualTo(-12);
        assertThat(t.toLong(new BigDecimal("42.000"))).isEqualTo(42);
        assertThat(t.toLong(new BigDecimal("4.2E+1"))).isEqualTo(42);
        assertThat(t.toLong(BigDecimal.ZERO.setScale(5))).isZero();
        assertThatThrownBy(() -> t.toLong(Integer.MAX_VALUE + 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("value 2147483648 is out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(Integer.MIN_VALUE - 1L)).hasMessage("value -2147483649 is out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(3_000_000_000L)).hasMessage("value 3000000000 is out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("2147483648"))).hasMessageContaining("out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("42.5"))).hasMessage("value 42.5 is not a whole number, as INTEGER requires");
        assertThatThrownBy(() -> t.toLong(1.0)).hasMessageContaining("value 1.0 (java.lang.Double) cannot be stored as INTEGER");
        assertThatThrownBy(() -> t.toLong("12")).hasMessageContaining("'12' (java.lang.String) cannot be stored as INTEGER");
        assertThat(t.toJava(Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
        assertThatThrownBy(() -> t.toJava(Integer.MAX_VALUE + 1L)).hasMessageContaining("stored value 2147483648");
    }

    @Test
    void smallintAndTinyintAcceptTheirRangesAndReadBackAsShortAndByte() {
        ColumnType small = ColumnType.smallint();
        assertThat(small.toLong(Short.MAX_VALUE)).isEqualTo(Short.MAX_VALUE);
        assertThat(small.toLong((long) Short.MIN_VALUE)).isEqualTo(Short.MIN_VALUE);
        assertThat(small.toLong(new BigDecimal("-12.00"))).isEqualTo(-12);
        assertThatThrownBy(() -> small.toLong(32768)).hasMessage("value 32768 is out of range for SMALLINT");
        assertThatThrownBy(() -> small.toLong(-32769L)).hasMessage("value -32769 is out of range for SMALLINT");
        assertThat(small.toJava(-32768)).isEqualTo((short) -32768);
        assertThatThrownBy(() -> small.toJava(32768)).hasMessageContaining("stored value 32768");
        assertThat(small.holds(32767)).isTrue();
        assertThat(small.holds(32768)).isFalse();

        ColumnType tiny = ColumnType.tinyint();
        assertThat(tiny.toLong((byte) -128)).isEqualTo(-128);
        assertThat(tiny.toLong(127)).isEqualTo(127);
        assertThatThrownBy(() -> tiny.toLong(128)).hasMessage("value 128 is out of range for TINYINT");
        assertThatThrownBy(() -> tiny.toLong((short) -129)).hasMessage("value -129 is out of range for TINYINT");
        assertThat(tiny.toJava(127)).isEqualTo((byte) 127);
        assertThatThrownBy(() -> tiny.toJava(-129)).hasMessageContaining("stored value -129");
        assertThat(tiny.holds(-128)).isTrue();
        assertThat(tiny.holds(-129)).isFalse();
        assertThat(ColumnType.integer().holds(Integer.MIN_VALUE - 1L)).isFalse();
        assertThat(ColumnType.bigint().holds(Long.MIN_VALUE)).isTrue();
    }

    @Test
    void bigintAcceptsLongRangeAndRejectsWiderNumbersWithoutExpandingThem() {
        ColumnType t = ColumnType.bigint();
        assertThat(t.toLong(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(t.toLong(BigInteger.valueOf(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
        assertThat(t.toLong(new BigDecimal(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> t.toLong(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE)))
                .hasMessage("value 9223372036854775808 is out of range for BIGINT");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("9223372036854775808")))
                .hasMessage("value 9223372036854775808 is out of range for BIGINT");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("1E+999999999"))).hasMessage("value 1E+999999999 is out of range for BIGINT");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("1E-999999999"))).hasMessageContaining("not a whole number");
        assertThat(t.toJava(-5)).isEqualTo(-5L);
    }

    // ---- DECIMAL

    @ParameterizedTest
    @CsvSource({
            "15, 2, 12.34,       1234",
            "15, 2, 1.005,       101",
            "15, 2, -1.005,      -101",
            "15, 2, 1.0049999,   100",
            "15, 2, 0.004,       0",
            "15, 2, -0.005,      -1",
            "5,  2, 999.99,      99999",
            "5,  2, -999.994,    -99999",
            "5,  0, 12345,       12345",
            "3,  3, 0.9994,      999",
            "18, 0, 999999999999999999, 999999999999999999",
            "18, 18, -0.999999999999999999, -999999999999999999",
            "4,  2, 1E+1,        1000",
            "4,  2, 1E-999999999, 0"})
    void decimalRoundsHalfUpToItsScale(int precision, int scale, String value, long unscaled) {
        ColumnType t = ColumnType.decimal(precision, scale);
        assertThat(t.toLong(new BigDecimal(value))).isEqualTo(unscaled);
        assertThat(t.toLong(value)).isEqualTo(unscaled);
        assertThat(t.toJava(unscaled)).isEqualTo(BigDecimal.valueOf(unscaled, scale));
    }

    @ParameterizedTest
    @CsvSource({
            "5, 2, 12345.678",
            "5, 2, 1000",
            "5, 2, 999.995",
            "5, 2, -999.995",
            "3, 3, 0.9995",
            "18, 0, 1000000000000000000",
            "18, 2, 1E+999999999"})
    void decimalRejectsValuesWithTooManyDigits(int precision, int scale, String value) {
        ColumnType t = ColumnType.decimal(precision, scale);
        assertThatThrownBy(() -> t.toLong(new BigDecimal(value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(value + " does not fit DECIMAL(" + precision + "," + scale + ")");
    }

    @Test
    void decimalAcceptsIntegralAndFloatingInputsAndReadsBackWithItsScale() {
        ColumnType t = ColumnType.decimal(15, 2);
        assertThat(t.toLong(7)).isEqualTo(700);
        assertThat(t.toLong(-7L)).isEqualTo(-700);
        assertThat(t.toLong(BigInteger.TEN)).isEqualTo(1000);
        assertThat(t.toLong(2.675)).as("the double's shortest decimal form, not its binary expansion").isEqualTo(268);
        assertThat(t.toLong(0.1f)).isEqualTo(10);
        assertThat(t.toJava(1234)).isEqualTo(new BigDecimal("12.34"));
        assertThat(((BigDecimal) t.toJava(100)).scale()).isEqualTo(2);
        assertThatThrownBy(() -> t.toLong(12345.678e12)).hasMessage("1.2345678E16 does not fit DECIMAL(15,2)");
        assertThatThrownBy(() -> t.toLong(Double.NaN)).hasMessage("value NaN is not a finite number, as DECIMAL(15,2) requires");
        assertThatThrownBy(() -> t.toLong(Float.NEGATIVE_INFINITY)).hasMessageContaining("-Infinity is not a finite number");
        assertThatThrownBy(() -> t.toLong("12,5")).hasMessage("'12,5' is not a number, as DECIMAL(15,2) requires");
        assertThatThrownBy(() -> t.toLong(true)).hasMessageContaining("value true (java.lang.Boolean) cannot be stored as DECIMAL(15,2)");
        assertThatThrownBy(() -> t.toJava(1_000_000_000_000_000L)).hasMessageContaining("stored value 1000000000000000 is not a DECIMAL(15,2)");
    }

    // ---- DOUBLE

    @Test
    void doubleTakesAnyNumber() {
        ColumnType t = ColumnType.doubleType();
        assertThat(t.toDouble(1.5)).isEqualTo(1.5);
        assertThat(t.toDouble(1.5f)).isEqualTo(1.5);
        assertThat(t.toDouble(3)).isEqualTo(3.0);
        assertThat(t.toDouble(new BigDecimal("0.25"))).isEqualTo(0.25);
        assertThat(t.toDouble(Double.NaN)).isNaN();
        assertThat(t.toDouble(Double.NEGATIVE_INFINITY)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.toJava(-2.5)).isEqualTo(-2.5);
        assertThatThrownBy(() -> t.toDouble(new BigDecimal("1E+400"))).hasMessage("value 1E+400 is out of range for DOUBLE");
        assertThatThrownBy(() -> t.toDouble("1.5")).hasMessageContaining("'1.5' (java.lang.String) cannot be stored as DOUBLE");
    }

    @Test
    void timeStoresMillisecondsOfTheDayRoundedToItsPrecision() {
        ColumnType t = ColumnType.time(3);
        assertThat(t.toLong(LocalTime.MIDNIGHT)).isZero();
        assertThat(t.toLong(LocalTime.of(23, 59, 59, 999_000_000))).isEqualTo(86_399_999L);
        assertThat(t.toLong("01:02")).isEqualTo(3_720_000L);
        assertThat(t.toLong(" 01:02:03.4567 ")).as("rounded half up").isEqualTo(3_723_457L);
        assertThat(t.toLong(java.sql.Time.valueOf("10:11:12"))).isEqualTo(36_672_000L);
        assertThat(t.toJava(3_723_457L)).isEqualTo(LocalTime.of(1, 2, 3, 457_000_000));
        assertThat(ColumnType.time(0).toLong("10:00:00.5")).isEqualTo(36_001_000L);
        assertThat(ColumnType.time(0).toLong("10:00:00.4999")).isEqualTo(36_000_000L);
        assertThatThrownBy(() -> t.toLong("23:59:59.9996")).hasMessageContaining("out of range for TIME(3)");
        assertThatThrownBy(() -> ColumnType.time(0).toLong("23:59:59.5")).hasMessageContaining("out of range for TIME(0)");
        assertThatThrownBy(() -> t.toLong("24:00")).hasMessageContaining("'24:00' is not a valid TIME");
        assertThatThrownBy(() -> t.toLong(12)).hasMessageContaining("cannot be stored as TIME(3)");
        assertThatThrownBy(() -> t.toJava(86_400_000L)).hasMessageContaining("not a TIME(3) value");
        assertThatThrownBy(() -> t.toJava(-1L)).hasMessageContaining("not a TIME(3) value");
    }

    @Test
    void realRoundsToTheNearestFloatAndReadsBackAsFloat() {
        ColumnType t = ColumnType.real();
        assertThat(t.toDouble(0.1)).isEqualTo((double) 0.1f);
        assertThat(t.toDouble(new BigDecimal("0.1"))).isEqualTo((double) 0.1f);
        assertThat(t.toDouble(1.5f)).isEqualTo(1.5);
        assertThat(t.toDouble(16_777_217)).as("past 2^24 integers round to even").isEqualTo(16_777_216.0);
        assertThat(t.toDouble(Float.MAX_VALUE)).isEqualTo(Float.MAX_VALUE);
        assertThat(t.toDouble(1e-50)).as("below the smallest float: zero, as a cast gives").isEqualTo(0.0);
        assertThat(t.toDouble(Double.NaN)).isNaN();
        assertThat(t.toDouble(Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(t.toDouble(Float.NEGATIVE_INFINITY)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.toJava((double) 0.1f)).isEqualTo(0.1f);
        assertThatThrownBy(() -> t.toDouble(1e39)).hasMessage("value 1.0E39 is out of range for REAL");
        assertThatThrownBy(() -> t.toDouble(-4e38)).hasMessage("value -4.0E38 is out of range for REAL");
        assertThatThrownBy(() -> t.toDouble(new BigDecimal("1E+400"))).hasMessage("value 1E+400 is out of range for REAL");
        assertThatThrownBy(() -> t.toJava(0.1)).hasMessageContaining("stored value 0.1 is not a REAL value");
    }

    // ---- DATE

    @Test
    void dateStoresTheEpochDay() {
        ColumnType t = ColumnType.date();
        LocalDate day = LocalDate.of(1998, 12, 1);
        assertThat(t.toLong(day)).isEqualTo(day.toEpochDay());
        assertThat(t.toLong(java.sql.Date.valueOf(day))).isEqualTo(day.toEpochDay());
        assertThat(t.toLong("1998-12-01")).isEqualTo(day.toEpochDay());
        assertThat(t.toLong("1970-01-01")).isZero();
        assertThat(t.toLong("1969-12-31")).isEqualTo(-1);
        assertThat(t.toLong("2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(t.toJava(day.toEpochDay())).isEqualTo(day);
        assertThatThrownBy(() -> t.toJava(Long.MAX_VALUE)).hasMessageContaining("stored value " + Long.MAX_VALUE + " is not a DATE");
    }

    @Test
    void timestampStoresWallClockMillisecondsRoundedToItsPrecision() {
        ColumnType t = ColumnType.timestamp(3);
        LocalDateTime time = LocalDateTime.of(1998, 12, 1, 10, 11, 12, 345_000_000);
        long millis = time.toInstant(ZoneOffset.UTC).toEpochMilli();
        assertThat(t.toLong(time)).isEqualTo(millis);
        assertThat(t.toLong(java.sql.Timestamp.valueOf(time))).isEqualTo(millis);
        assertThat(t.toLong("1998-12-01 10:11:12.345")).isEqualTo(millis);
        assertThat(t.toLong("1998-12-01T10:11:12.3454")).isEqualTo(millis);
        assertThat(t.toLong("1998-12-01T10:11:12.3455")).isEqualTo(millis + 1);
        assertThat(t.toLong(" 1998-12-01 ")).isEqualTo(LocalDate.of(1998, 12, 1).toEpochDay() * 86_400_000L);
        assertThat(t.toLong(LocalDate.of(1970, 1, 1))).isZero();
        assertThat(t.toLong("1969-12-31 23:59:59.999")).isEqualTo(-1);
        assertThat(t.toLong("1969-12-31 23:59:59.9996")).as("rounds up across the epoch").isZero();
        assertThat(t.toJava(-1)).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000));
        assertThat(t.toJava(millis)).isEqualTo(time);
        assertThat(t.toJava(t.toLong("0001-01-01 00:00:00"))).isEqualTo(LocalDateTime.of(1, 1, 1, 0, 0));
        assertThat(t.toJava(t.toLong("9999-12-31 23:59:59.999"))).isEqualTo(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000));
        assertThatThrownBy(() -> t.toLong("9999-12-31 23:59:59.9995")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> t.toLong(LocalDateTime.of(0, 12, 31, 0, 0))).hasMessageContaining("out of range");
        assertThatThrownBy(() -> t.toLong("1998-12-01 25:00:00")).hasMessageContaining("is not a valid TIMESTAMP");
        assertThatThrownBy(() -> t.toLong(1000L)).hasMessageContaining("LocalDateTime");
        assertThatThrownBy(() -> t.toJava(Long.MAX_VALUE)).hasMessageContaining("is not a TIMESTAMP");

        ColumnType seconds = ColumnType.timestamp(0);
        assertThat(seconds.toJava(seconds.toLong("2024-05-05 10:11:12.5"))).isEqualTo(LocalDateTime.of(2024, 5, 5, 10, 11, 13));
        assertThat(seconds.toJava(seconds.toLong("2024-12-31 23:59:59.7"))).isEqualTo(LocalDateTime.of(2025, 1, 1, 0, 0));
        assertThat(ColumnType.timestamp(1).toLong("1970-01-01 00:00:00.04")).isZero();
        assertThat(ColumnType.timestamp(1).toLong("1970-01-01 00:00:00.05")).isEqualTo(100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29", "2024-02-30", "2024-13-01", "2024-00-10", "20240101", "1998-12-1", "yesterday", ""})
    void dateRejectsInvalidIsoStrings(String value) {
        assertThatThrownBy(() -> ColumnType.date().toLong(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + value + "' is not a valid DATE (expected yyyy-mm-dd)");
    }

    @Test
    void dateRejectsOtherTypes() {
        ColumnType t = ColumnType.date();
        assertThatThrownBy(() -> t.toLong(19000)).hasMessageContaining("value 19000 (java.lang.Integer) cannot be stored as DATE");
        // the legacy type, refused by name
        @SuppressWarnings("JavaUtilDate") java.util.Date legacy = new java.util.Date(0);
        assertThatThrownBy(() -> t.toLong(legacy)).hasMessageContaining("(java.util.Date) cannot be stored as DATE");
        assertThatThrownBy(() -> t.toLong(LocalDate.of(2024, 1, 1).atStartOfDay()))
                .hasMessageContaining("(java.time.LocalDateTime) cannot be stored as DATE");
    }

    // ---- CHAR and VARCHAR

    @Test
    void varcharCountsCodePointsAndKeepsSpaces() {
        ColumnType t = ColumnType.varchar(5);
        assertThat(t.toStringValue("abcde")).isEqualTo("abcde");
        assertThat(t.toStringValue("")).isEmpty();
        assertThat(t.toStringValue("ab  ")).isEqualTo("ab  ");
        assertThat(t.toStringValue("😀😀😀😀😀")).as("five code points in ten UTF-16 chars").hasSize(10);
        assertThat(t.toStringValue("é中😀ab")).isEqualTo("é中😀ab");
        assertThat(t.toJava("x")).isEqualTo("x");
        assertThatThrownBy(() -> t.toStringValue("abcdef"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'abcdef' (6 characters) is longer than VARCHAR(5)");
        assertThatThrownBy(() -> t.toStringValue("abcde ")).hasMessage("'abcde ' (6 characters) is longer than VARCHAR(5)");
        assertThatThrownBy(() -> t.toStringValue("😀😀😀😀😀😀")).hasMessageContaining("(6 characters) is longer than VARCHAR(5)");
        assertThatThrownBy(() -> t.toStringValue('a')).hasMessageContaining("value a (java.lang.Character) cannot be stored as VARCHAR(5)");
    }

    @Test
    void charStripsTrailingSpacesOnly() {
        ColumnType t = ColumnType.charType(3);
        assertThat(t.toStringValue("ab ")).isEqualTo("ab");
        assertThat(t.toStringValue("abc      ")).as("longer only by trailing spaces: fits").isEqualTo("abc");
        assertThat(t.toStringValue("   ")).isEmpty();
        assertThat(t.toStringValue(" a\t")).as("tabs are not padding").isEqualTo(" a\t");
        assertThatThrownBy(() -> t.toStringValue("abcd ")).hasMessage("'abcd ' (4 characters) is longer than CHAR(3)");
    }

    @Test
    void longValuesAreCutShortInMessages() {
        String huge = "x".repeat(100_000);
        assertThatThrownBy(() -> ColumnType.varchar(10).toStringValue(huge))
                .hasMessageStartingWith("'" + "x".repeat(40) + "...' (100000 characters) is longer than VARCHAR(10)")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(200));
    }

    @Test
    void stringsWithoutUtf8FormAreRejected() {
        assertThatThrownBy(() -> ColumnType.varchar(10).toStringValue("ab\uD800c"))
                .hasMessageContaining("unpaired surrogate U+D800 at index 2");
        assertThatThrownBy(() -> ColumnType.charType(10).toStringValue("\uDE00"))
                .hasMessageContaining("unpaired surrogate U+DE00 at index 0");
    }

    // ---- across kinds

    @ParameterizedTest
    @ValueSource(strings = {"BOOLEAN", "INTEGER", "BIGINT", "DECIMAL(5,2)", "DATE", "DOUBLE", "CHAR(2)", "VARCHAR(2)"})
    void nullIsNotAValue(String spec) {
        ColumnType t = ColumnType.parse(spec);
        Runnable convert = switch (t.storageKind()) {
            case LONG -> () -> t.toLong(null);
            case DOUBLE -> () -> t.toDouble(null);
            case STRING -> () -> t.toStringValue(null);
        };
        assertThatThrownBy(convert::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("null is not a " + spec + " value");
    }

    @Test
    void conversionsForAnotherStorageKindAreRefused() {
        assertThatThrownBy(() -> ColumnType.varchar(5).toLong("a"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("VARCHAR(5) values are stored as STRING, not LONG: toLong does not apply");
        assertThatThrownBy(() -> ColumnType.integer().toDouble(1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ColumnType.doubleType().toStringValue("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ColumnType.doubleType().toJava(1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ColumnType.date().toJava("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ColumnType.charType(1).toJava(1.0)).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void decimalRoundTripsRandomValues(long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            int precision = 1 + random.nextInt(ColumnType.MAX_DECIMAL_PRECISION);
            int scale = random.nextInt(precision + 1);
            ColumnType t = ColumnType.decimal(precision, scale);
            long limit = BigInteger.TEN.pow(precision).longValueExact();
            long unscaled = random.nextLong(-limit + 1, limit);
            BigDecimal value = BigDecimal.valueOf(unscaled, scale);
            assertThat(t.toLong(value)).as("%s in %s", value, t).isEqualTo(unscaled);
            assertThat(t.toLong(value.toPlainString())).isEqualTo(unscaled);
            assertThat(t.toJava(unscaled)).isEqualTo(value);
        }
    }

    @Test
    void timestampsWithTimeZoneAreInstantsReadWithTheirOffsetOrInTheGivenZone() {
        assertThat(ColumnType.parse("TIMESTAMP WITH TIME ZONE")).isEqualTo(ColumnType.timestampTz(3));
        assertThat(ColumnType.parse("timestamp(0) with time zone")).isEqualTo(ColumnType.timestampTz(0));
        assertThat(ColumnType.parse("TIMESTAMPTZ(1)")).isEqualTo(ColumnType.timestampTz(1));
        assertThat(ColumnType.parse("TIMESTAMP WITH LOCAL TIME ZONE")).isEqualTo(ColumnType.timestampTz(3));
        assertThat(ColumnType.parse(ColumnType.timestampTz(2).toString())).isEqualTo(ColumnType.timestampTz(2));
        assertThat(ColumnType.timestampTz(3).toString()).isEqualTo("TIMESTAMP(3) WITH TIME ZONE");
        ColumnType t = ColumnType.timestampTz(3);
        java.time.ZoneId ny = java.time.ZoneId.of("America/New_York");
        long noon = java.time.Instant.parse("2024-01-01T12:00:00Z").toEpochMilli();
        assertThat(t.toLong("2024-01-01 12:00:00Z")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01T13:00:00+01")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 17:30:00+0530")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 06:30:00-05:30")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 07:00:00 America/New_York")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 12:00:00 UTC")).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 12:00:00")).as("no offset: UTC unless a zone is given").isEqualTo(noon);
        assertThat(t.toLong("2024-01-01 07:00:00", ny)).isEqualTo(noon);
        assertThat(t.toLong("2024-01-01", ny)).isEqualTo(java.time.Instant.parse("2024-01-01T05:00:00Z").toEpochMilli());
        assertThat(t.toLong("2024-03-10 02:30:00", ny)).as("the gap moves forward")
                .isEqualTo(java.time.Instant.parse("2024-03-10T07:30:00Z").toEpochMilli());
        assertThat(t.toLong("2024-11-03 01:30:00", ny)).as("the overlap takes the later, standard time")
                .isEqualTo(java.time.Instant.parse("2024-11-03T06:30:00Z").toEpochMilli());
        assertThat(t.toLong(java.time.OffsetDateTime.parse("2024-01-01T14:00:00+02:00"))).isEqualTo(noon);
        assertThat(t.toLong(java.time.LocalDateTime.parse("2024-01-01T07:00:00"), ny)).isEqualTo(noon);
        assertThat(t.toLong(java.sql.Timestamp.from(java.time.Instant.ofEpochMilli(noon)))).isEqualTo(noon);
        assertThat(ColumnType.timestampTz(0).toLong(java.time.Instant.parse("2024-01-01T11:59:59.5Z"))).as("rounded half up")
                .isEqualTo(noon);
        assertThat(t.toJava(noon)).isEqualTo(java.time.Instant.ofEpochMilli(noon));
        assertThat(t.toLong(java.time.Instant.parse("1969-12-31T23:59:59.999Z"))).isEqualTo(-1L);
        assertThatThrownBy(() -> t.toLong("2024-01-01 12:00:00+25")).hasMessageContaining("has no valid time zone: +25");
        assertThatThrownBy(() -> t.toLong("2024-01-01 12:00:00 Mars/Olympus")).hasMessageContaining("has no valid time zone");
        assertThatThrownBy(() -> t.toLong("noon", ny)).hasMessageContaining("'noon' is not a valid TIMESTAMP WITH TIME ZONE")
                .hasMessageContaining("none for America/New_York");
        assertThatThrownBy(() -> t.toLong(java.time.Instant.parse("+10000-01-01T00:00:00Z"))).hasMessageContaining("out of range");
        assertThatThrownBy(() -> t.toLong(42)).hasMessageContaining("an Instant");
    }
}
