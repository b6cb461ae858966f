package doccheck

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's top directory, seen from this package.
const root = "../.."

// markdownFiles lists every *.md file of the repository, relative to root,
// skipping hidden directories (.git, .ci's caches) and build output.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "out" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "README.md") {
		t.Fatalf("README.md not found from %s (found %v)", root, files)
	}
	return files
}

var (
	// inlineLink matches [text](target) and ![alt](target); the target
	// stops at whitespace (a title may follow) or the closing parenthesis.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink matches a reference definition, [label]: target.
	refLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	// htmlLink matches href="..." and src="..." of inline HTML.
	htmlLink = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	// htmlAnchor matches an explicit anchor, <a id="..."> or name="...".
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// inlineCode matches a code span, whose text is not a link.
	inlineCode = regexp.MustCompile("`[^`]*`")
	// heading matches an ATX heading.
	heading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// userDocs lists the pages a user reads: README.md and every page under
// docs/, relative to root.
func userDocs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, file := range markdownFiles(t) {
		if file == "README.md" || strings.HasPrefix(file, "docs/") {
			out = append(out, file)
		}
	}
	return out
}

// prose returns the lines of a Markdown text outside fenced code blocks,
// with code spans blanked, each with its 1-based line number.
func prose(text string) (lines []string, numbers []int) {
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		lines = append(lines, inlineCode.ReplaceAllString(line, "``"))
		numbers = append(numbers, i+1)
	}
	return lines, numbers
}

// links returns every link target of a Markdown text, with its line.
func links(text string) (targets []string, numbers []int) {
	lines, nums := prose(text)
	for i, line := range lines {
		for _, re := range []*regexp.Regexp{inlineLink, htmlLink} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
				numbers = append(numbers, nums[i])
			}
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
			numbers = append(numbers, nums[i])
		}
	}
	return targets, numbers
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped (letters, digits, spaces, hyphens and underscores kept), spaces
// turned into hyphens.
func slug(title string) string {
	title = strings.ReplaceAll(title, "`", "")
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors returns the anchors a Markdown text defines: its headings' slugs
// (a repeated slug gets -1, -2, ... as on GitHub) and explicit HTML anchors.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	lines, _ := prose(text)
	for _, line := range lines {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
	}
	// Headings are read from the raw lines outside fences: code spans in a
	// heading are part of its text.
	fence := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			s := slug(m[1])
			if n := seen[s]; n > 0 {
				out[fmt.Sprintf("%s-%d", s, n)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
	}
	return out
}

// checkLink reports what is wrong with the link target of a Markdown file
// (relative to root), or "" when nothing is: a link with a scheme (a web
// address) is left alone; any other must name a file or directory inside
// the repository, and a fragment must name an anchor of its Markdown file.
func checkLink(file, target string, anchorsOf func(string) (map[string]bool, error)) string {
	if target == "" {
		return "empty link target"
	}
	u, err := url.Parse(target)
	if err != nil {
		return fmt.Sprintf("link %q does not parse: %v", target, err)
	}
	if u.Scheme == "file" {
		return fmt.Sprintf("link %q points outside the repository", target)
	}
	if u.Scheme != "" || u.Host != "" {
		return ""
	}
	path := u.Path
	if strings.HasPrefix(path, "/") {
		return fmt.Sprintf("link %q is absolute: write it relative to %s", target, file)
	}
	dest := file
	if path != "" {
		dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return fmt.Sprintf("link %q points outside the repository", target)
		}
		if _, err := os.Stat(filepath.Join(root, dest)); err != nil {
			return fmt.Sprintf("link %q: %s does not exist", target, dest)
		}
	}
	if u.Fragment != "" && strings.HasSuffix(dest, ".md") {
		a, err := anchorsOf(dest)
		if err != nil {
			return fmt.Sprintf("link %q: %v", target, err)
		}
		if !a[u.Fragment] {
			return fmt.Sprintf("link %q: %s has no heading or anchor %q", target, dest, u.Fragment)
		}
	}
	return ""
}

// TestLinks fails on every relative link of every Markdown file whose
// target does not exist, lies outside the repository or names a heading
// its page does not have.
func TestLinks(t *testing.T) {
	cache := map[string]map[string]bool{}
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := cache[file]; ok {
			return a, nil
		}
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil, err
		}
		cache[file] = anchors(string(data))
		return cache[file], nil
	}
	checked := 0
	for _, file := range markdownFiles(t) {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		targets, lines := links(string(data))
		for i, target := range targets {
			checked++
			if msg := checkLink(file, target, anchorsOf); msg != "" {
				t.Errorf("%s:%d: %s", file, lines[i], msg)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no links found: the link reader is broken")
	}
}

// TestLinksCatch holds the checker to the mistakes it exists for, on a
// made-up page: each bad link must be reported, each good one passed.
func TestLinksCatch(t *testing.T) {
	page := "# Title\n\n## Two words\n\n<a id=\"explicit\"></a>\n"
	anchorsOf := func(string) (map[string]bool, error) { return anchors(page), nil }
	cases := []struct {
		target string
		bad    bool
	}{
		{"docs/specs.md", false},
		{"docs/", false},
		{"https://example.org/x.md", false},
		{"#two-words", false},
		{"#explicit", false},
		{"#title", false},
		{"#missing", true},
		{"docs/no-such-page.md", true},
		{"../shared/DESIGN.md", true},
		{"/etc/passwd", true},
		{"file:///etc/passwd", true},
		{"", true},
	}
	for _, c := range cases {
		msg := checkLink("README.md", c.target, anchorsOf)
		if (msg != "") != c.bad {
			t.Errorf("checkLink(README.md, %q) = %q, want bad=%v", c.target, msg, c.bad)
		}
	}
	text := "[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md\n<img src=\"v.png\">\n"
	got, _ := links(text)
	if want := []string{"x.md", "w.md", "v.png"}; !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q (code spans and fences are not links)", got, want)
	}
}

// TestNoOrphanPages checks that every Markdown page under docs/ can be
// reached from README.md by following relative links, so that no page is
// written and then lost.
func TestNoOrphanPages(t *testing.T) {
	reached := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		targets, _ := links(string(data))
		for _, target := range targets {
			u, err := url.Parse(target)
			if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || !strings.HasSuffix(u.Path, ".md") {
				continue
			}
			dest := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), u.Path)))
			if !reached[dest] {
				if _, err := os.Stat(filepath.Join(root, dest)); err == nil {
					reached[dest] = true
					queue = append(queue, dest)
				}
			}
		}
	}
	for _, file := range markdownFiles(t) {
		if strings.HasPrefix(file, "docs/") && !reached[file] {
			t.Errorf("%s is not reached from README.md by any chain of links", file)
		}
	}
}
