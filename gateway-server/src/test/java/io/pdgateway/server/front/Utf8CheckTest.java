package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The byte check refuses exactly what Java's strict UTF-8 decoder refuses, at the same byte. */
class Utf8CheckTest {
    private static final byte[][] BAD = {
        {(byte) 0xff}, {(byte) 0x80}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
        {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xe2, (byte) 0x82},
    };
    private static final byte[][] GOOD = {
        "\u00e9".getBytes(StandardCharsets.UTF_8), "\u4e2d".getBytes(StandardCharsets.UTF_8),
        "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8),
    };

    @Test
    void everyPosition_aroundTheEightByteWindows_agreesWithTheDecoder() {
        for (int at = 0; at < 40; at++) {
            for (byte[] bad : BAD) {
                byte[] body = ascii(at, bad, 40 - at);
                assertThat(Utf8Check.firstInvalid(body)).as("bad at %d", at).isEqualTo(decoderError(body));
                assertThat(Utf8Check.firstInvalid(body)).isEqualTo(at);
            }
            for (byte[] good : GOOD) {
                assertThat(Utf8Check.firstInvalid(ascii(at, good, 40 - at))).as("good at %d", at).isEqualTo(-1);
            }
        }
    }

    @Test
    void randomBytes_agreeWithTheDecoder() {
        SplittableRandom random = new SplittableRandom(20_261_203L);
        for (int i = 0; i < 20_000; i++) {
            byte[] body = new byte[random.nextInt(1, 48)];
            for (int j = 0; j < body.length; j++) {
                // Mostly ASCII, as prompts are, so the eight-byte steps and the byte steps both run.
                body[j] = (byte) (random.nextInt(10) < 8 ? random.nextInt(0x20, 0x7f) : random.nextInt(256));
            }
            assertThat(Utf8Check.firstInvalid(body)).isEqualTo(decoderError(body));
        }
    }

    private static byte[] ascii(int before, byte[] middle, int after) {
        byte[] body = new byte[before + middle.length + after];
        java.util.Arrays.fill(body, (byte) 'a');
        System.arraycopy(middle, 0, body, before, middle.length);
        return body;
    }

    /** Where Java's strict decoder first fails, or -1. */
    private static int decoderError(byte[] body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(body.length * 2);
        var result = decoder.decode(in, out, true);
        if (result.isError()) {
            return in.position();
        }
        try {
            decoder.flush(out);
        } catch (RuntimeException e) {
            throw new AssertionError(e);
        }
        return -1;
    }
}
