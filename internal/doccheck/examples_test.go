package doccheck

import (
	"regexp"
	"strings"
	"testing"
)

// shCompound matches the start of a shell compound command (a loop or a
// condition) and its end.
var (
	shCompoundStart = regexp.MustCompile(`^\s*(for|while|until|if|case)\b`)
	shCompoundEnd   = regexp.MustCompile(`\b(done|fi|esac)\b`)
)

// TestShBlocksOneCommandALine checks the sh blocks of README.md and docs/,
// which make readme-examples runs line by line, each line on its own: no
// line continued onto the next, and no loop or condition that ends on a
// later line. A command that cannot run as written belongs in a text
// block.
func TestShBlocksOneCommandALine(t *testing.T) {
	for _, file := range userDocs(t) {
		in := false
		for i, line := range strings.Split(readDoc(t, file), "\n") {
			switch {
			case line == "```sh":
				in = true
				continue
			case strings.HasPrefix(line, "```"):
				in = false
				continue
			}
			if !in {
				continue
			}
			code, _, _ := strings.Cut(line, " #")
			code = strings.TrimRight(code, " ")
			if strings.HasSuffix(code, `\`) {
				t.Errorf("%s:%d: a sh line continued onto the next (make readme-examples runs each line alone): %s", file, i+1, line)
			}
			if shCompoundStart.MatchString(code) && !shCompoundEnd.MatchString(code) {
				t.Errorf("%s:%d: a loop or condition not ended on its line: %s", file, i+1, line)
			}
		}
	}
}
