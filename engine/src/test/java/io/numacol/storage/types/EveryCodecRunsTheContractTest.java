package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A new type's codec is not done until its test runs the contract: XCodec is tested by XCodecTest. */
class EveryCodecRunsTheContractTest {
    @Test
    void everyKindsCodecHasAContractTest() throws ClassNotFoundException {
        for (ColumnType.Kind kind : ColumnType.Kind.values()) {
            String test = TypeCodecContract.class.getPackageName() + "." + kind.codec().getClass().getSimpleName() + "Test";
            assertThat(TypeCodecContract.class.isAssignableFrom(Class.forName(test))).as(test).isTrue();
        }
    }
}
