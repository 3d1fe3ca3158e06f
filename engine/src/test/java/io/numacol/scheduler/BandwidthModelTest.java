package io.numacol.scheduler;

import io.numacol.database.DatabaseConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bandwidth model's time is its own definition, so its lower bounds are exact: a read never
 * returns before its node could have served it. Upper bounds depend on the machine and are not
 * tested.
 */
class BandwidthModelTest {
    private static final long MB = 1_000_000;

    @Test
    void aReadWaitsForItsBytesAndARemoteOneTwice() {
        BandwidthModel model = new BandwidthModel(2, 100 * MB); // 1 MB: 10 ms local, 20 ms remote
        assertThat(model.cost(MB, false)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
        assertThat(model.cost(MB, true)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        long start = System.nanoTime();
        model.read(0, MB, 0);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
        start = System.nanoTime();
        model.read(1, MB, 0);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void readsOfOneNodeQueue() {
        BandwidthModel model = new BandwidthModel(2, 100 * MB);
        long start = System.nanoTime();
        CompletableFuture<?> a = CompletableFuture.runAsync(() -> model.read(0, 2 * MB, 0));
        CompletableFuture<?> b = CompletableFuture.runAsync(() -> model.read(0, 2 * MB, 0));
        CompletableFuture.allOf(a, b).join();
        assertThat(System.nanoTime() - start).as("two 20 ms reads of one node, one after the other")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
    }

    @Test
    void interleavedReadsTakeAShareOfEveryNode() {
        BandwidthModel model = new BandwidthModel(4, 100 * MB);
        long start = System.nanoTime();
        model.read(-1, 4 * MB, 0); // 1 MB of each node: 10 ms local, 20 ms from each of the three others, in parallel
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        start = System.nanoTime();
        model.read(2, MB, 2); // node 2 served its share of the interleaved read already
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
    }

    @Test
    void bandwidthsParseWithUnits() {
        assertThat(BandwidthModel.parse("800m")).isEqualTo(800 * MB);
        assertThat(BandwidthModel.parse(" 2G")).isEqualTo(2_000 * MB);
        assertThat(BandwidthModel.parse("500k")).isEqualTo(500_000);
        assertThat(BandwidthModel.parse("12345")).isEqualTo(12_345);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "-5m", "0", "1.5g", "99999999999g"})
    void badBandwidthsAreRefusedByName(String text) {
        assertThatThrownBy(() -> BandwidthModel.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeBandwidth").hasMessageContaining("'" + text + "'");
    }

    @Test
    void onlyAFakeTopologyTakesTheModel() {
        Properties p = new Properties();
        p.setProperty("topology", "fake:4");
        p.setProperty("nodeBandwidth", "800m");
        assertThat(DatabaseConfig.fromProperties(p).nodeBandwidth()).isEqualTo(800 * MB);
        p.setProperty("topology", "real");
        assertThatThrownBy(() -> DatabaseConfig.fromProperties(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fake topology");
    }
}
