package io.pdgateway.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Byte-level top-level edits: untouched members and the blanks between them keep their bytes, a set replaces a value in
 * place or appends, a remove keeps the commas right, and anything that is not one JSON object is refused.
 */
class TopLevelJsonTest {

    record Scenario(String name, String input, Consumer<TopLevelJson> edits, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> edits() {
        return Stream.of(
                new Scenario("set in place keeps blanks", "{ \"a\" : 1 , \"b\":[1, 2] }", e -> e.set("a", 2),
                        "{ \"a\" : 2 , \"b\":[1, 2] }"),
                new Scenario("set appends a new key last", "{\"a\":1}", e -> e.set("b", true), "{\"a\":1,\"b\":true}"),
                new Scenario("set on an empty object", "{ }", e -> e.set("a", 1), "{\"a\":1 }"),
                new Scenario("remove the first member drops its comma", "{\"a\":1, \"b\":2}", e -> e.remove("a"),
                        "{ \"b\":2}"),
                new Scenario("remove the last member", "{\"a\":1, \"b\":2}", e -> e.remove("b"), "{\"a\":1}"),
                new Scenario("remove a middle member", "{\"a\":1,\"b\":{\"x\":[]},\"c\":3}", e -> e.remove("b"),
                        "{\"a\":1,\"c\":3}"),
                new Scenario("remove everything, then append", "{\"a\":1}", e -> e.remove("a").set("b", 2),
                        "{\"b\":2}"),
                new Scenario("remove an absent key changes nothing", "{\"a\":1}", e -> e.remove("z"), "{\"a\":1}"),
                new Scenario("a string is escaped", "{\"a\":1}", e -> e.set("s", "say \"hi\"\n"),
                        "{\"a\":1,\"s\":\"say \\\"hi\\\"\\n\"}"),
                new Scenario("a non-ASCII string and key go in as UTF-8", "{\"a\":1}",
                        e -> e.set("k\u00e9", "\u4e16 \\"),
                        "{\"a\":1,\"k\u00e9\":\"\u4e16 \\\\\"}"),
                new Scenario("edits that add more than they remove", "{\"a\":\"" + "x".repeat(300) + "\"}",
                        e -> e.set("b", "y".repeat(200)).set("a", 1),
                        "{\"a\":1,\"b\":\"" + "y".repeat(200) + "\"}"),
                new Scenario("numbers and unicode before the edit stay exact",
                        "{\"t\":0.70,\"seed\":9007199254740993,\"m\":\"h\u00e9llo \u4e16\u754c\",\"n\":1}",
                        e -> e.set("n", 2),
                        "{\"t\":0.70,\"seed\":9007199254740993,\"m\":\"h\u00e9llo \u4e16\u754c\",\"n\":2}"),
                new Scenario("a raw value goes in as given", "{\"p\":\"x\"}", e -> e.setRaw("p", bytes("[1,2,3]")),
                        "{\"p\":[1,2,3]}"),
                new Scenario("blanks and newlines around members survive",
                        "{\n  \"a\": 1,\n  \"b\": \"two\",\n  \"c\": null\n}\n", e -> e.remove("b").set("c", 3),
                        "{\n  \"a\": 1,\n  \"c\": 3\n}\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("edits")
    void edit_producesExactBytes(Scenario scenario) throws Exception {
        TopLevelJson json = TopLevelJson.parse(bytes(scenario.input()));
        scenario.edits().accept(json);
        assertThat(new String(json.toBytes(), StandardCharsets.UTF_8)).isEqualTo(scenario.expected());
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", "{\"a\":1", "[1,2]", "\"text\"", "{\"a\":1} {}", "{\"a\":}", "nul"})
    void notOneObject_refused(String input) {
        assertThatThrownBy(() -> TopLevelJson.parse(bytes(input))).isInstanceOf(EngineProtocolException.class);
    }

    @Test
    void duplicateControlledKey_refusedNamingIt_otherDuplicatesAllowed() throws Exception {
        TopLevelJson json = TopLevelJson.parse(bytes("{\"x\":1,\"x\":2,\"stream\":true,\"stream\":false}"));
        assertThatThrownBy(() -> json.requireUnique(List.of("stream")))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("\"stream\"");
        json.requireUnique(List.of("max_tokens"));
    }

    @Test
    void objectMember_readInTheSamePass_editsToItsOwnBytes() throws Exception {
        TopLevelJson answer = TopLevelJson.parse(bytes("{\"id\":1, \"kv\" : { \"host\": \"a\", \"ids\": [1, 2] } ,"
                + "\"n\":{\"x\":1}}\n"), java.util.Set.of("kv"));
        assertThat(new String(answer.object("kv").set("host", "b").toBytes(), StandardCharsets.UTF_8))
                .isEqualTo("{ \"host\": \"b\", \"ids\": [1, 2] }");
        assertThat(new String(answer.object("kv").remove("ids").set("port", 5).toBytes(), StandardCharsets.UTF_8))
                .as("each object() is a fresh copy").isEqualTo("{ \"host\": \"a\",\"port\":5 }");
        assertThat(answer.object("n")).as("not asked for").isNull();
        assertThat(new String(answer.toBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":1, \"kv\" : { \"host\": "
                + "\"a\", \"ids\": [1, 2] } ,\"n\":{\"x\":1}}\n");
    }

    @Test
    void objectMember_theLastValueCounts_andOnlyAnObject() throws Exception {
        java.util.Set<String> kv = java.util.Set.of("kv");
        assertThat(TopLevelJson.parse(bytes("{\"kv\":{\"a\":1},\"kv\":null}"), kv).object("kv")).isNull();
        assertThat(TopLevelJson.parse(bytes("{\"kv\":[1]}"), kv).object("kv")).isNull();
        assertThat(TopLevelJson.parse(bytes("{\"x\":2}"), kv).object("kv")).isNull();
        assertThat(new String(TopLevelJson.parse(bytes("{\"kv\":7,\"kv\":{\"a\":1}}"), kv).object("kv").toBytes(),
                StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
    }

    @Test
    void rawValue_isTheValueAsSent() throws Exception {
        TopLevelJson json = TopLevelJson.parse(bytes("{\"messages\": [ {\"content\":\"hi\"} ] ,\"n\":1}"));
        assertThat(new String(json.rawValue("messages"), StandardCharsets.UTF_8)).isEqualTo("[ {\"content\":\"hi\"} ]");
        assertThat(json.rawValue("absent")).isNull();
        assertThat(json.has("n")).isTrue();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
