package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
)

// fixtureCSV is a real bench run (see results/testdata).
const fixtureCSV = "../testdata/bench.csv"

// chromium returns the path of the Chromium binary, skipping the test
// where there is none (failing it under CI=true, where CI installs it).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: CI installs it (.ci/run), the browser tests of the HTML report need it")
	}
	t.Skip("no chromium on PATH: the HTML report's browser tests need it (apt-get install chromium)")
	return ""
}

// browser starts a headless Chromium with its own profile directory and
// returns a context driving one tab, and a function that returns what the
// page wrote to the console as an error or warning (uncaught exceptions
// and failed loads, such as a request to the network, included). Cleanup
// cancels the context (which ends the browser) and fails the test if any
// process of that profile is still alive after.
func browser(t *testing.T) (context.Context, func() []string) {
	exe := chromium(t)
	profile := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.UserDataDir(profile),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelTab := chromedp.NewContext(alloc)
	var mu sync.Mutex
	var problems []string
	done := make(chan struct{})
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		<-done
		// No browser process outlives the test: pgrep looks for the
		// profile directory in the command lines (it never kills).
		deadline := time.Now().Add(10 * time.Second)
		for {
			out, _ := exec.Command("pgrep", "-f", profile).Output()
			if len(bytes.TrimSpace(out)) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("chromium processes outlived the test: %s", out)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	messages := chromedp.Console(tab) // starts the browser
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning || m.IsException() {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s: %s %s", m.Type, m.Text, m.URL))
				mu.Unlock()
			}
		}
	}()
	return tab, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(problems)
	}
}

// writeReport writes the report of the fixture (and B, when given) into a
// temporary directory and returns its file URL.
func writeReport(t *testing.T, rows, b []results.Row) string {
	t.Helper()
	var buf bytes.Buffer
	o := Options{Time: report.TimeWall, PAR: 2, Spread: report.SpreadCI, Files: []string{"bench.csv"}, B: b, LabelA: "old", LabelB: "new"}
	if err := Write(&buf, rows, o); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

func fixture(t *testing.T) []results.Row {
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// column returns the text of column i (0-based) of the per-run table's
// shown rows, in page order.
func column(i int) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll('#runs tbody tr')).filter(r => !r.hidden).map(r => r.cells[%d].textContent)`, i)
}

// tab drives one browser tab for a test, failing it on any error.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func (b tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b tab) strs(expr string) []string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (b tab) text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("%s: %v", sel, err)
	}
	return v
}

func (b tab) tipHidden() bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("tip").hidden`))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// onScreen is a chart mark's centre on the screen, and its name.
type onScreen struct {
	X, Y float64
	Name string
}

// uncovered returns a mark matched by sel that no other mark covers (the
// element at its centre is itself), scrolled into view.
func (b tab) uncovered(sel string) onScreen {
	b.t.Helper()
	m, err := chromedp.Run(b.ctx, chromedp.Evaluate[onScreen](`(() => {
		for (const m of document.querySelectorAll('`+sel+`')) {
			m.scrollIntoView({block: "center"});
			const r = m.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
			if (document.elementFromPoint(x, y) === m) return {X: x, Y: y, Name: m.dataset.name};
		}
		return null; })()`))
	if err != nil || m.Name == "" {
		b.t.Fatalf("no uncovered mark %s: %v", sel, err)
	}
	return m
}

// TestReportInBrowser loads the report in headless Chromium, sorts and
// filters the per-run table, hovers a chart's mark, hides and shows a
// variant by its legend entry, and checks what shows each time, and that
// the page logged no error and no warning.
func TestReportInBrowser(t *testing.T) {
	rows := fixture(t)
	url := writeReport(t, rows, nil)
	ctx, problems := browser(t)
	b := tab{t, ctx}
	b.do("load", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#runs")))
	sortAndFilter(b, rows)
	hoverAndLegend(b)
	if p := problems(); len(p) > 0 {
		t.Errorf("the page logged problems:\n%s", strings.Join(p, "\n"))
	}
}

// sortAndFilter sorts the run table by wall seconds, up then down, and
// filters it to a SAT variant's runs on queens:6.
func sortAndFilter(b tab, rows []results.Row) {
	t := b.t
	head := report.RunsTable(rows).Header
	idx := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %s", name)
		}
		return i
	}
	wall := idx("wall_s")
	header := chromedp.CSS(fmt.Sprintf("#runs thead th:nth-child(%d)", wall+1))
	before := b.strs(column(wall))
	b.do("sort", chromedp.Click(header))
	asc := b.strs(column(wall))
	b.do("sort again", chromedp.Click(header))
	desc := b.strs(column(wall))
	if len(before) != len(rows) {
		t.Fatalf("%d rows shown of %d runs", len(before), len(rows))
	}
	isSorted := func(xs []string, up bool) bool {
		for i := 1; i < len(xs); i++ {
			var a, b float64
			fmt.Sscan(xs[i-1], &a)
			fmt.Sscan(xs[i], &b)
			if up && a > b || !up && a < b {
				return false
			}
		}
		return true
	}
	if isSorted(before, true) || !isSorted(asc, true) || !isSorted(desc, false) || len(asc) != len(rows) {
		t.Errorf("wall seconds: file order sorted %v, one click ascending %v, two clicks descending %v",
			isSorted(before, true), isSorted(asc, true), isSorted(desc, false))
	}
	want := 0
	for _, r := range rows {
		if strings.HasPrefix(r.Variant, "sat/") && r.Instance == "queens:6" {
			want++
		}
	}
	b.do("filter", chromedp.SendKeys(chromedp.CSS("#runs-filter"), "sat/ queens:6"))
	variants, instances := b.strs(column(idx("variant"))), b.strs(column(idx("instance")))
	count := b.text("#runs-count")
	if want == 0 || len(variants) != want || count != fmt.Sprintf("%d of %d runs", want, len(rows)) {
		t.Errorf("filter sat/ queens:6: %d rows shown, count %q; want %d of %d", len(variants), count, want, len(rows))
	}
	for i := range variants {
		if !strings.HasPrefix(variants[i], "sat/") || instances[i] != "queens:6" {
			t.Errorf("filter shows %s on %s", variants[i], instances[i])
		}
	}
}

// hoverAndLegend hovers a native/plain mark of the first cactus, then
// hides native/plain by its legend entry and shows it again.
func hoverAndLegend(b tab) {
	t := b.t
	mk := b.uncovered(`#cactus-0 g.series[data-variant="native/plain"] circle`)
	b.do("hover", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, mk.X, mk.Y))
	if tip, hidden := b.text("#tip"), b.tipHidden(); hidden || tip != mk.Name || !strings.HasPrefix(tip, "native/plain · queens:") {
		t.Errorf("hovering the mark %q shows %q (hidden %v)", mk.Name, tip, hidden)
	}
	b.do("hover away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
	if !b.tipHidden() {
		t.Errorf("the tooltip stays after the mouse left the mark")
	}
	shown := `Array.from(document.querySelectorAll('g.series')).filter(g => getComputedStyle(g).display !== "none").map(g => g.dataset.variant)`
	key := chromedp.CSS(`button.key[data-variant="native/plain"]`)
	all := b.strs(shown)
	b.do("legend", chromedp.Click(key))
	off := b.strs(shown)
	pressed, err := chromedp.Run(b.ctx, chromedp.AttributeValue(key, "aria-pressed"))
	if err != nil {
		t.Fatal(err)
	}
	nPlain := 0
	for _, v := range all {
		if v == "native/plain" {
			nPlain++
		}
	}
	if nPlain == 0 || len(off) != len(all)-nPlain || slices.Contains(off, "native/plain") || pressed.Value != "false" {
		t.Errorf("legend click: %d series shown before (%d native/plain), %d after, pressed %q", len(all), nPlain, len(off), pressed.Value)
	}
	b.do("legend again", chromedp.Click(key))
	if on := b.strs(shown); len(on) != len(all) {
		t.Errorf("second legend click: %d series shown, want %d", len(on), len(all))
	}
}

// TestComparisonInBrowser loads the report of two files, B twice as slow
// as A in every run, and checks the comparison: a row per instance,
// variant and task both ran, each with ratio 2, and a mark of the A
// against B chart that names its run and ratio on hover.
func TestComparisonInBrowser(t *testing.T) {
	rows := fixture(t)
	b := make([]results.Row, len(rows))
	for i, r := range rows {
		r.Seconds *= 2
		b[i] = r
	}
	url := writeReport(t, rows, b)
	ctx, problems := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#compare-0"))); err != nil {
		t.Fatal(err)
	}
	ratios, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#compare-0 tbody tr')).map(r => r.cells[10].textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	groups := len(report.Summarize(rows, report.TimeWall))
	solvedBoth := 0
	for _, r := range ratios {
		if r == "2" {
			solvedBoth++
		} else if r != "" {
			t.Errorf("ratio %q, want 2 (or none where unsolved)", r)
		}
	}
	if len(ratios) != groups || solvedBoth == 0 {
		t.Errorf("%d comparison rows (%d with ratio 2), want one per each of the %d groups", len(ratios), solvedBoth, groups)
	}
	mk := tab{t, ctx}.uncovered("#compare circle.mark")
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, mk.X, mk.Y)); err != nil {
		t.Fatal(err)
	}
	tip, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#tip")))
	if err != nil || tip != mk.Name || !strings.Contains(tip, "B/A 2") {
		t.Errorf("hovering the comparison mark %q shows %q (%v)", mk.Name, tip, err)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("the page logged problems:\n%s", strings.Join(p, "\n"))
	}
}
