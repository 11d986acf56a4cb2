package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeldBodiesTest {
    @Test
    void holdsUpToTheBound_thenRefusesWithoutCounting() {
        HeldBodies bodies = new HeldBodies(1_000);
        HeldBodies.Account a = bodies.open();
        HeldBodies.Account b = bodies.open();

        assertThat(a.hold(600)).isTrue();
        assertThat(b.hold(500)).isFalse();
        assertThat(b.hold(400)).isTrue();
        assertThat(bodies.held()).isEqualTo(1_000);
    }

    @Test
    void oneBodyAlwaysFitsWhenNothingElseIsHeld() {
        HeldBodies bodies = new HeldBodies(1_000);
        HeldBodies.Account big = bodies.open();

        assertThat(big.hold(5_000)).isTrue();
        assertThat(bodies.open().hold(1)).isFalse();
        big.release();
        assertThat(bodies.held()).isZero();
    }

    @Test
    void releasingTwiceGivesBackOnce_andAReleasedAccountHoldsNothingMore() {
        HeldBodies bodies = new HeldBodies(1_000);
        HeldBodies.Account a = bodies.open();
        HeldBodies.Account b = bodies.open();
        a.hold(300);
        a.hold(200);
        b.hold(100);

        a.release();
        a.release();

        assertThat(bodies.held()).isEqualTo(100);
        assertThat(a.hold(10)).isFalse();
        assertThat(bodies.held()).isEqualTo(100);
    }

    @Test
    void aBoundOfZeroIsRefused() {
        assertThatThrownBy(() -> new HeldBodies(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
