package io.numacol.wal;

import io.numacol.storage.types.ColumnType;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Logger;

/** Column types, sample values and log reading the write-ahead log's tests share. */
final class WalTesting {
    private WalTesting() {
    }

    /** A column type of each kind, with parameters where the kind takes them. */
    static ColumnType typeOf(ColumnType.Kind kind) {
        return switch (kind) {
            case BOOLEAN -> ColumnType.booleanType();
            case TINYINT -> ColumnType.tinyint();
            case SMALLINT -> ColumnType.smallint();
            case INTEGER -> ColumnType.integer();
            case BIGINT -> ColumnType.bigint();
            case REAL -> ColumnType.real();
            case DOUBLE -> ColumnType.doubleType();
            case DECIMAL -> ColumnType.decimal(18, 4);
            case DATE -> ColumnType.date();
            case TIMESTAMP -> ColumnType.timestamp(3);
            case TIMESTAMP_TZ -> ColumnType.timestampTz(3);
            case TIME -> ColumnType.time(3);
            case CHAR -> ColumnType.charType(8);
            case VARCHAR -> ColumnType.varchar(64);
            case VARBINARY -> ColumnType.varbinary(16);
            case UUID -> ColumnType.uuid();
        };
    }

    /**
     * Java values of a kind, the extremes of its range among them, as the codec reads them back
     * (so a value that survives the log equals its sample). Every kind must have a case: a new
     * kind fails to compile here until its samples are given.
     */
    static List<Object> samples(ColumnType.Kind kind) {
        return switch (kind) {
            case BOOLEAN -> List.of(true, false);
            case TINYINT -> List.of(Byte.MIN_VALUE, (byte) -1, (byte) 0, Byte.MAX_VALUE);
            case SMALLINT -> List.of(Short.MIN_VALUE, (short) 0, Short.MAX_VALUE);
            case INTEGER -> List.of(Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE);
            case BIGINT -> List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE);
            case REAL -> List.of(-Float.MAX_VALUE, -1.5f, -0.0f, 0.0f, Float.MIN_VALUE, Float.MAX_VALUE,
                    Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.NaN);
            case DOUBLE -> List.of(-Double.MAX_VALUE, -0.0, 0.0, Double.MIN_VALUE, Math.PI, Double.MAX_VALUE,
                    Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN);
            case DECIMAL -> List.of(new BigDecimal("-99999999999999.9999"), new BigDecimal("-0.0001"), new BigDecimal("0.0000"),
                    new BigDecimal("12.3400"), new BigDecimal("99999999999999.9999"));
            case DATE -> List.of(LocalDate.of(1, 1, 1), LocalDate.of(1970, 1, 1), LocalDate.of(2024, 2, 29), LocalDate.of(9999, 12, 31));
            case TIMESTAMP -> List.of(LocalDateTime.of(1, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
                    LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000));
            case TIMESTAMP_TZ -> List.of(Instant.parse("0001-01-01T00:00:00Z"), Instant.ofEpochMilli(-1), Instant.EPOCH,
                    Instant.parse("9999-12-31T23:59:59.999Z"));
            case TIME -> List.of(LocalTime.MIDNIGHT, LocalTime.NOON, LocalTime.of(23, 59, 59, 999_000_000));
            case CHAR -> List.of("", "a", "ß é 😀", "12345678");
            case VARCHAR -> List.of("", "plain", "\u0000 nul", "ünïcödé 中文 😀 \uFFFF", "x".repeat(64));
            case VARBINARY -> List.of(new byte[0], new byte[] {0}, new byte[] {(byte) 0xFF, 0, (byte) 0x80, 0x7F}, allBytes(16));
            case UUID -> List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(0x123e4567e89b12d3L, 0xa456426614174000L));
        };
    }

    private static byte[] allBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 17 - 128);
        }
        return b;
    }

    /** The stored form of a Java value, as the codecs make it (Long, Double or String). */
    static Object stored(ColumnType type, Object java) {
        if (java == null) {
            return null;
        }
        return switch (type.storageKind()) {
            case LONG -> type.toLong(java);
            case DOUBLE -> type.toDouble(java);
            case STRING -> type.toStringValue(java);
        };
    }

    /** A stored value back as its Java value. */
    static Object java(ColumnType type, Object stored) {
        if (stored == null) {
            return null;
        }
        return switch (stored) {
            case Long l -> type.toJava(l.longValue());
            case Double d -> type.toJava(d.doubleValue());
            case String s -> type.toJava(s);
            default -> throw new IllegalArgumentException(stored + " is no stored value");
        };
    }

    /** A batch of random rows over every kind, a NULL in about one value of five. */
    static RowBatch randomBatch(SplittableRandom random, int rows) {
        List<ColumnType> types = new ArrayList<>();
        for (ColumnType.Kind k : ColumnType.Kind.values()) {
            types.add(typeOf(k));
        }
        RowBatch.Builder b = RowBatch.builder(types);
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[types.size()];
            for (int c = 0; c < row.length; c++) {
                ColumnType.Kind k = types.get(c).kind();
                List<Object> s = samples(k);
                row[c] = random.nextInt(5) == 0 ? null : stored(types.get(c), s.get(random.nextInt(s.size())));
            }
            b.addStored(row);
        }
        return b.build();
    }

    /** Every record of a log directory, in order. */
    static List<LogEntry> readAll(Path dir) throws IOException {
        List<LogEntry> all = new ArrayList<>();
        try (LogReader r = LogReader.open(dir)) {
            for (LogEntry e = r.next(); e != null; e = r.next()) {
                all.add(e);
            }
        }
        return all;
    }

    static List<LogRecord> records(List<LogEntry> entries) {
        return entries.stream().map(LogEntry::record).toList();
    }

    /** Something that may throw IOException. */
    interface IoAction {
        void run() throws IOException;
    }

    /** The messages {@code source}'s System.Logger logs while {@code action} runs (System.Logger goes to java.util.logging here). */
    static List<String> logged(Class<?> source, IoAction action) throws IOException {
        List<String> lines = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(source.getName());
        logger.addHandler(capture);
        try {
            action.run();
        } finally {
            logger.removeHandler(capture);
        }
        return lines;
    }
}
