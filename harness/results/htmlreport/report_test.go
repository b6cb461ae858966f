package htmlreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
)

// TestReportSelfContained checks that the page needs nothing outside
// itself (no external script, style, image or link), that it has every
// section with the fixture's runs, variants and pivots in the chosen time
// measure, and that text from the results is escaped.
func TestReportSelfContained(t *testing.T) {
	rows := fixture(t)
	rows[0].Message = `<script>alert(1)</script>`
	var buf bytes.Buffer
	if err := Write(&buf, rows, Options{Time: report.TimeCPU, PAR: 2, Spread: report.SpreadIQR, Files: []string{"bench.csv"}}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, re := range []string{`(?i)\ssrc\s*=`, `(?i)<link\b`, `(?i)href\s*=\s*"(?:https?:)?//`, `(?i)url\(`, `(?i)@import`, `(?i)https?://`} {
		if m := regexp.MustCompile(re).FindString(page); m != "" {
			t.Errorf("the page refers outside itself: %q", m)
		}
	}
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "&lt;script&gt;alert(1)") {
		t.Error("a run's message is not escaped")
	}
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("%d script elements, want the one inline", n)
	}
	for _, v := range report.Variants(rows) {
		if !strings.Contains(page, `<button class="key" type="button" data-variant="`+v+`"`) {
			t.Errorf("no legend entry for %s", v)
		}
	}
	if got := strings.Count(page, "\n<tr>") + strings.Count(page, "<tbody><tr>"); got < len(rows) {
		t.Errorf("%d table rows, fewer than the %d runs", got, len(rows))
	}
	for _, want := range []string{`id="runs"`, `id="scores"`, `id="pivot-0"`, `id="cactus-0"`, `id="scatter"`, "CPU seconds", "interquartile range"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, `id="comparison"`) {
		t.Error("a comparison without a second file")
	}
	var ab bytes.Buffer
	b := make([]results.Row, len(rows))
	for i, r := range rows {
		r.Seconds *= 2
		b[i] = r
	}
	if err := Write(&ab, rows, Options{Time: report.TimeWall, PAR: 2, Files: []string{"a.csv", "b.csv"}, B: b, LabelA: "a", LabelB: "b"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="comparison"`, `id="compare"`, `id="compare-0"`, `id="compare-1"`, "B/A 2"} {
		if !strings.Contains(ab.String(), want) {
			t.Errorf("the comparison page lacks %s", want)
		}
	}
	if err := Write(&ab, rows, Options{Time: "user"}); err == nil {
		t.Error("an unknown time measure accepted")
	}
}
