package doccheck

import (
	"strings"
	"testing"
)

// unclosedSpan returns the first line number of each paragraph of a
// Markdown text (outside fenced code blocks) that holds an odd number of
// backticks: a code span opened and never closed, which renders the rest
// of the paragraph as code or as a stray backtick.
func unclosedSpan(text string) []int {
	var bad []int
	fence, start, ticks := "", 0, 0
	end := func() {
		if ticks%2 == 1 {
			bad = append(bad, start)
		}
		start, ticks = 0, 0
	}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			end()
			fence = trimmed[:3]
			continue
		}
		if strings.TrimSpace(line) == "" {
			end()
			continue
		}
		if start == 0 {
			start = i + 1
		}
		ticks += strings.Count(line, "`") - strings.Count(line, "\\`")
	}
	end()
	return bad
}

// TestCodeSpansClosed: no paragraph of README.md or docs/ leaves a code
// span open (a sentence cut off in an unclosed backtick).
func TestCodeSpansClosed(t *testing.T) {
	for _, file := range userDocs(t) {
		for _, n := range unclosedSpan(readDoc(t, file)) {
			t.Errorf("%s:%d: a paragraph with an unclosed code span (an odd number of backticks)", file, n)
		}
	}
}

// TestUnclosedSpanCatches: the check finds the cut sentence it is for,
// and passes spans closed on the next line and fenced blocks.
func TestUnclosedSpanCatches(t *testing.T) {
	text := "A `closed` span, and one `across\nlines` closed.\n\n```sh\necho `date\n```\n\nThe table shows; `results plot --x\n\n## Next\n"
	if got := unclosedSpan(text); len(got) != 1 || got[0] != 8 {
		t.Errorf("unclosed spans at lines %v, want [8]", got)
	}
}
