package io.pdgateway.workload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report is one self-contained file: no script, stylesheet, image or font from anywhere else; the charts
 * are inline SVG (well-formed, one line per run); text from the run is escaped.
 */
class HtmlReportWriterTest {
    @TempDir
    Path dir;

    @Test
    void page_isSelfContained() throws Exception {
        Path file = dir.resolve("report.html");
        HtmlReportWriter.write(Reports.document("pd/token_load", "standard/random"), file);
        String html = Files.readString(file);

        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").doesNotContain("<script", "<link", "<img",
                "@import", "url(");
        // The only URL is the SVG namespace (an identifier, never fetched).
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://");
    }

    @Test
    void charts_areWellFormedSvg_withOneLinePerRun() throws Exception {
        String html = HtmlReportWriter.render(Reports.document("a", "b", "c"), List.of());
        Matcher svg = Pattern.compile("<svg.*?</svg>", Pattern.DOTALL).matcher(html);
        int charts = 0;
        while (svg.find()) {
            String chart = svg.group();
            DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(chart.getBytes(StandardCharsets.UTF_8)));
            assertThat(chart.split("<polyline", -1)).hasSize(4);
            charts++;
        }
        assertThat(charts).isEqualTo(9); // five latency CDFs, four per-second charts
    }

    @Test
    void textFromTheRun_isEscaped() {
        String html = HtmlReportWriter.render(Reports.document("<b>x</b>"), List.of());

        assertThat(html).doesNotContain("<b>x</b>").contains("&lt;b&gt;x&lt;/b&gt;").contains("a &lt;test&gt; report");
    }
}
