package io.numacol.exec;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;

/** The running state of one aggregate in one group; task-local, merged at the end. */
abstract sealed class Accumulator {

    static Accumulator create(AggregateCall call) {
        Accumulator inner = switch (call.kind()) {
            case COUNT_STAR -> new Count(true);
            case COUNT -> new Count(false);
            case SUM, SUM0 -> new Sum();
            case MIN -> new Extreme(1);
            case MAX -> new Extreme(-1);
        };
        return call.distinct() ? new Distinct(inner) : inner;
    }

    /** A fresh accumulator for each call of the aggregate. */
    static Accumulator[] create(Aggregation agg) {
        return agg.calls().stream().map(Accumulator::create).toArray(Accumulator[]::new);
    }

    /** A COUNT a vectorized task kept in a long. */
    static Accumulator count(long count) {
        Count c = new Count(true);
        c.count = count;
        return c;
    }

    /**
     * An exact SUM a vectorized task kept as unscaled {@code exact} plus what overflowed into
     * {@code spilled}; {@code scale} is -1 for integers. Null when {@code nonNull} is 0.
     */
    static Accumulator exactSum(long nonNull, long exact, BigDecimal spilled, int scale) {
        Sum s = new Sum();
        s.any = nonNull > 0;
        s.exact = exact;
        s.scale = scale;
        s.scaleSet = true;
        s.big = spilled;
        return s;
    }

    static Accumulator doubleSum(long nonNull, double sum) {
        Sum s = new Sum();
        s.any = nonNull > 0;
        s.isDouble = true;
        s.dbl = sum;
        return s;
    }

    /** MIN ({@code sign} 1) or MAX (-1) that a vectorized task found, null over no values. */
    static Accumulator extreme(int sign, Object best) {
        Extreme e = new Extreme(sign);
        e.add(best);
        return e;
    }

    abstract void add(Object value);

    abstract void merge(Accumulator other);

    abstract Object result();

    static final class Count extends Accumulator {
        private final boolean star;
        private long count;

        Count(boolean star) {
            this.star = star;
        }

        @Override
        void add(Object value) {
            if (star || value != null) {
                count++;
            }
        }

        @Override
        void merge(Accumulator other) {
            count += ((Count) other).count;
        }

        @Override
        Object result() {
            return count;
        }
    }

    /**
     * SUM, exact for integers and decimals: unscaled longs while they fit (a DECIMAL's values
     * share one scale), BigDecimal once a sum overflows or scales differ; doubles as doubles.
     * Null over no values.
     */
    static final class Sum extends Accumulator {
        private static final int INTEGERS = -1;
        private boolean any;
        /** The sum so far at {@link #scale}, while it fits a long (beside {@link #big} after that). */
        private long exact;
        /** The scale of {@link #exact}, {@link #INTEGERS} for integers (a long sum); the first value sets it. */
        private int scale = INTEGERS;
        private boolean scaleSet;
        private BigDecimal big;
        private boolean isDouble;
        private double dbl;

        @Override
        void add(Object value) {
            switch (value) {
                case null -> {
                    return;
                }
                case Double d -> {
                    isDouble = true;
                    dbl += d;
                }
                case Float f -> {
                    isDouble = true;
                    dbl += f;
                }
                case BigDecimal b -> {
                    // a negative scale (1.5E+2) is no scale of a DECIMAL column, and would read as INTEGERS
                    if (big == null && b.scale() >= 0 && (!scaleSet || scale == b.scale()) && b.precision() <= 18) {
                        scaleSet = true;
                        scale = b.scale();
                        addExact(b.unscaledValue().longValue());
                    } else {
                        big = decimal().add(b);
                    }
                }
                case Number n -> {
                    if (big == null && (!scaleSet || scale == INTEGERS)) {
                        scaleSet = true;
                        addExact(n.longValue());
                    } else {
                        big = decimal().add(BigDecimal.valueOf(n.longValue()));
                    }
                }
                default -> throw new IllegalArgumentException("SUM of a non-number: " + value);
            }
            any = true;
        }

        private void addExact(long v) {
            long r = exact + v;
            if (((exact ^ r) & (v ^ r)) < 0) { // overflow: go on in BigDecimal
                big = decimal().add(BigDecimal.valueOf(v, Math.max(scale, 0)));
            } else {
                exact = r;
            }
        }

        /** The sum so far as a BigDecimal; {@link #exact} starts again from 0. */
        private BigDecimal decimal() {
            BigDecimal base = BigDecimal.valueOf(exact, Math.max(scale, 0));
            exact = 0;
            return big == null ? base : big.add(base);
        }

        @Override
        void merge(Accumulator other) {
            Sum s = (Sum) other;
            if (s.any) {
                add(s.result());
            }
        }

        @Override
        Object result() {
            if (!any) {
                return null;
            }
            if (isDouble) {
                return dbl;
            }
            if (big != null) {
                return big.add(BigDecimal.valueOf(exact, Math.max(scale, 0)));
            }
            return scale == INTEGERS ? (Object) exact : BigDecimal.valueOf(exact, scale);
        }
    }

    static final class Extreme extends Accumulator {
        private final int sign;
        private Object best;

        Extreme(int sign) {
            this.sign = sign;
        }

        @Override
        @SuppressWarnings("unchecked")
        void add(Object value) {
            if (value != null && (best == null || sign * InternalValues.compare(best, value) > 0)) {
                best = value;
            }
        }

        @Override
        void merge(Accumulator other) {
            add(((Extreme) other).best);
        }

        @Override
        Object result() {
            return best;
        }
    }

    /** COUNT/SUM/... (DISTINCT): a set of values (never vids: dictionaries differ per part). */
    static final class Distinct extends Accumulator {
        private final Accumulator inner;
        private final Set<Object> values = new HashSet<>();

        Distinct(Accumulator inner) {
            this.inner = inner;
        }

        @Override
        void add(Object value) {
            if (value != null) {
                // one value whatever its scale (2.5 and 2.50), at no negative scale (150, not 1.5E+2)
                values.add(value instanceof BigDecimal b ? plain(b.stripTrailingZeros()) : value);
            }
        }

        private static BigDecimal plain(BigDecimal b) {
            return b.scale() < 0 ? b.setScale(0) : b;
        }

        @Override
        void merge(Accumulator other) {
            values.addAll(((Distinct) other).values);
        }

        @Override
        Object result() {
            values.forEach(inner::add);
            return inner.result();
        }
    }
}
