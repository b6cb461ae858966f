package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/puzzle"
)

// shardFiles runs solve --shard k/n for k = 1..n and writes each answer
// to a file of dir; it returns the files.
func shardFiles(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var files []string
	for k := 1; k <= n; k++ {
		a := append([]string{"solve"}, args...)
		a = append(a, "--shard", strconv.Itoa(k)+"/"+strconv.Itoa(n), "--quiet")
		status, out, errOut := runCLI(a...)
		if status != 0 {
			t.Fatalf("%v: status %d, %s", a, status, errOut)
		}
		name := filepath.Join(dir, strings.NewReplacer(":", "_", "/", "_").Replace(args[0])+"-"+strconv.Itoa(k)+"of"+strconv.Itoa(n)+".json")
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

// TestShardsCombineToTheCount: every splitting counter, run in N shards
// through the CLI and combined, gives the uninterrupted count, which is
// the published one where there is one.
func TestShardsCombineToTheCount(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args   []string
		shards int
	}{
		{[]string{"queens:14"}, 7},
		{[]string{"pieces:7x8:K3Q1B2R2N3"}, 5},
		{[]string{"tour:6x6:a1:closed", "--task", "count"}, 3},
		{[]string{"tour:8x6:a1:closed", "--task", "count", "--heuristic", "split"}, 4},
		{[]string{"tour:6x6:*", "--task", "count", "--heuristic", "split"}, 4},
		{[]string{"queens:10", "--backend", "sat"}, 4},
	}
	for _, c := range cases {
		files := shardFiles(t, dir, c.shards, c.args...)
		status, out, errOut := runCLI(append([]string{"combine", "--format", "json"}, files...)...)
		if status != 0 {
			t.Fatalf("combine %v: status %d, %s", c.args, status, errOut)
		}
		var got combined
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		status, out, errOut = runCLI(append([]string{"solve", "--format", "json", "--quiet"}, c.args...)...)
		if status != 0 {
			t.Fatalf("solve %v: %s", c.args, errOut)
		}
		var whole struct{ Count *big.Int }
		if err := json.Unmarshal([]byte(out), &whole); err != nil || whole.Count == nil {
			t.Fatalf("solve %v: %q %v", c.args, out, err)
		}
		if got.Count.Cmp(whole.Count) != 0 || got.Shards != c.shards || got.Status != "ok" {
			t.Errorf("%v: %d shards combine to %s (%d shards, %s), uninterrupted %s", c.args, c.shards, got.Count, got.Shards, got.Status, whole.Count)
		}
		spec := puzzle.MustParse(c.args[0])
		if known, ok := puzzle.KnownCount(spec, puzzle.Count); ok && got.Count.Cmp(new(big.Int).SetUint64(known)) != 0 {
			t.Errorf("%v: combined %s, published %d", c.args, got.Count, known)
		}
	}
}

// TestCombineRefusesBadShardSets: a missing, a duplicated, a foreign, an
// unfinished shard, or a file that is no shard, each give one line and
// exit status 2.
func TestCombineRefusesBadShardSets(t *testing.T) {
	dir := t.TempDir()
	q12 := shardFiles(t, dir, 3, "queens:12")
	q11 := shardFiles(t, dir, 3, "queens:11")
	q12in2 := shardFiles(t, dir, 2, "queens:12", "--threads", "1")
	// An unfinished shard, its checksum made anew (as solve would have).
	var sa shardAnswer
	data, _ := os.ReadFile(q12[2])
	if err := json.Unmarshal(data, &sa); err != nil {
		t.Fatal(err)
	}
	sa.Status, sa.Count = "timeout", nil
	sa.Checksum = sa.sum()
	unfinishedJSON, _ := json.Marshal(sa)
	unfinished := filepath.Join(dir, "unfinished.json")
	os.WriteFile(unfinished, unfinishedJSON, 0o644)
	// A count edited by hand, as in 14200 made 24200 (a shard's count
	// with a digit changed), and a shard of the format without checksum.
	count := regexp.MustCompile(`"count":(\d+)`).FindSubmatch(data)
	if count == nil {
		t.Fatalf("no count in %s", data)
	}
	n, _ := strconv.Atoi(string(count[1]))
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, bytes.Replace(data, count[0], []byte(fmt.Sprintf(`"count":%d`, n+10000)), 1), 0o644)
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, bytes.Replace(data, []byte(`"format":"boardsat-shard-2"`), []byte(`"format":"boardsat-shard-1"`), 1), 0o644)
	notShard := filepath.Join(dir, "plain.json")
	_, plain, _ := runCLI("solve", "queens:8", "--format", "json")
	os.WriteFile(notShard, []byte(plain), 0o644)
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", q12[:2], "missing shard 3/3"},
		{"duplicated", []string{q12[0], q12[1], q12[1], q12[2]}, "shard 2/3 given twice"},
		{"foreign", []string{q12[0], q11[1], q12[2]}, "not shards of one count: instance queens:12 vs queens:11"},
		{"other split", []string{q12[0], q12in2[1]}, "not shards of one count: shards 3 vs 2"},
		{"unfinished", []string{q12[0], q12[1], unfinished}, "did not finish (status timeout"},
		{"not a shard", []string{notShard}, "is not a shard answer"},
		{"edited", []string{q12[0], q12[1], edited}, edited + " does not match its checksum"},
		{"format 1", []string{q12[0], q12[1], old}, old + " is a shard answer of format boardsat-shard-1, without the checksum"},
		{"no file", []string{filepath.Join(dir, "nope.json")}, "no such file"},
		{"none", nil, "want the shard answers"},
	}
	for _, c := range cases {
		status, out, errOut := runCLI(append([]string{"combine"}, c.files...)...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2 and one line with %q", c.name, status, out, errOut, c.want)
		}
	}
	if status, out, _ := runCLI(append([]string{"combine"}, q12...)...); status != 0 || !strings.Contains(out, "count:         14200\n") {
		t.Errorf("combine of the three shards: %d %q", status, out)
	}
}

// TestSplitFlagsRefused: a shard of a strategy that does not split, or of
// a task that is no count, is refused with one line and exit status 2.
func TestSplitFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "queens:10", "--heuristic", "bitboard", "--shard", "1/2"}, "does not split its count"},
		{[]string{"solve", "queens:10", "--task", "first", "--shard", "1/2"}, "are for counts"},
		{[]string{"solve", "queens:10", "--shard", "3/2"}, "bad shard"},
		{[]string{"solve", "queens:10", "--mem", "lots"}, "bad memory size"},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, status, out, errOut, c.want)
		}
	}
}

// TestProgressLines: when stderr is not a terminal, a long count prints
// plain progress lines (here every millisecond), and --quiet none.
func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	oldOut, oldTerm, oldEvery := progressOut, progressTerminal, progressEvery
	progressOut, progressTerminal, progressEvery = lockedWriter{&mu, &buf}, false, time.Millisecond
	defer func() { progressOut, progressTerminal, progressEvery = oldOut, oldTerm, oldEvery }()
	if status, _, errOut := runCLI("solve", "queens:13", "--threads", "1"); status != 0 {
		t.Fatal(errOut)
	}
	line := regexp.MustCompile(`^queens:13: (\d+/\d+ subproblems \(\d+\.\d%\), )?elapsed \d+:\d\d, (ETA \d+:\d\d|working, no estimate)$`)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("progress %q: want several lines", buf.String())
	}
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("progress line %q", l)
		}
	}
	buf.Reset()
	runCLI("solve", "queens:13", "--threads", "1", "--quiet")
	if buf.Len() != 0 {
		t.Errorf("--quiet printed %q", buf.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// boardsatExe returns a program named boardsat, in a temporary
// directory of its own, for tests that need a real process (kill, memory
// limit, a solver definition that runs boardsat from PATH): a link to this
// test binary, which acts as the command itself (TestMain, testMainEnv),
// the one way these tests run a child boardsat, without a build per test.
func boardsatExe(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "boardsat")
	if err := os.Symlink(self, exe); err != nil {
		t.Fatal(err)
	}
	return exe
}

// checkpointDone returns how many subproblems a checkpoint file records.
func checkpointDone(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var f struct{ Done [][2]uint64 }
	if json.Unmarshal(data, &f) != nil {
		return -1
	}
	return len(f.Done)
}

// TestCheckpointSurvivesSIGKILL kills a checkpointed count three times,
// each time after its checkpoint has grown, restarts it with the same
// command, and checks that the final count is the published one.
func TestCheckpointSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and counts queens:16")
	}
	exe := boardsatExe(t)
	ck := filepath.Join(t.TempDir(), "q16.ck")
	args := []string{"solve", "queens:16", "--threads", "1", "--format", "json", "--quiet",
		"--checkpoint", ck, "--checkpoint-every", "50ms"}
	last := 0
	for kill := 1; kill <= 3; kill++ {
		cmd := exec.Command(exe, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Minute)
		for checkpointDone(ck) <= last && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Kill() // SIGKILL
		cmd.Wait()
		n := checkpointDone(ck)
		if n <= last {
			t.Fatalf("kill %d: checkpoint did not grow past %d (now %d)", kill, last, n)
		}
		last = n
	}
	out, err := exec.Command(exe, args...).Output()
	if err != nil {
		t.Fatalf("resumed count: %v", err)
	}
	var ans struct{ Count uint64 }
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("resumed count: %q %v", out, err)
	}
	if known, _ := puzzle.KnownCount(puzzle.MustParse("queens:16"), puzzle.Count); ans.Count != known {
		t.Errorf("count after three kills %d, published %d", ans.Count, known)
	}
	// The checkpoint belongs to queens:16: another count refuses it.
	bad := exec.Command(exe, "solve", "queens:15", "--quiet", "--checkpoint", ck)
	var stderr bytes.Buffer
	bad.Stderr = &stderr
	if err := bad.Run(); bad.ProcessState.ExitCode() != 2 || !strings.Contains(stderr.String(), "foreign checkpoint") {
		t.Errorf("queens:15 with the queens:16 checkpoint: %v, %q", err, stderr.String())
	}
}

// TestSolveMemoryLimit: solve --mem ends a count that passes the limit with
// status memout and exit status 4.
func TestSolveMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	cmd := exec.Command(exe, "solve", "queens:14", "--quiet", "--mem", "1M")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	if cmd.ProcessState.ExitCode() != answer.ExitMemout || !strings.Contains(stderr.String(), "memout") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("--mem 1M: exit %d, stderr %q", cmd.ProcessState.ExitCode(), stderr.String())
	}
	// Large boards count in flat memory: one queen on 300x300 and on the
	// largest board, within --mem 100M, peak RSS (getrusage) under 100 MB.
	for spec, want := range map[string]uint64{"pieces:300x300:Q1": 90000, "pieces:4096x4096:Q1": 4096 * 4096} {
		cmd := exec.Command(exe, "solve", spec, "--quiet", "--mem", "100M", "--format", "json")
		out, err := cmd.Output()
		var ans struct{ Count uint64 }
		if err != nil || json.Unmarshal(out, &ans) != nil || ans.Count != want {
			t.Errorf("%s --mem 100M: %v %q, want count %d", spec, err, out, want)
			continue
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss >= 100<<10 {
			t.Errorf("%s: peak RSS %d KB, want under 100 MB", spec, ru.Maxrss)
		}
	}
}

// TestLargeBoardsRefusedUpFront: a strategy whose tables grow with
// squares x squares, or a SAT formula on a board past its bound, is
// refused before it allocates, with one line and exit status 2.
func TestLargeBoardsRefusedUpFront(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "pieces:300x300:Q1", "--heuristic", "copies"}, "squares x squares bit tables: 300x300 would need"},
		{[]string{"solve", "pieces:300x300:Q1", "--heuristic", "lookahead-lifted"}, "limit 256 MB"},
		{[]string{"solve", "pieces:101x100:Q1", "--backend", "sat"}, "refuses boards of more than 10000 squares"},
		{[]string{"solve", "queens:101", "--backend", "sat", "--task", "first"}, "refuses boards of more than 10000 squares"},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, status, out, errOut, c.want)
		}
	}
}

// TestTamperedCheckpointRefusedCLI: a finished count's checkpoint with 1
// added to every partial count is refused in one line (exit 2), where it
// used to give a wrong count with status ok; the untouched file resumes.
func TestTamperedCheckpointRefusedCLI(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "q10.ck")
	if status, _, errOut := runCLI("solve", "queens:10", "--quiet", "--checkpoint", ck); status != 0 {
		t.Fatalf("queens:10 --checkpoint: %d %q", status, errOut)
	}
	orig, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(orig, &f); err != nil {
		t.Fatal(err)
	}
	for _, d := range f["done"].([]any) {
		pair := d.([]any)
		pair[1] = pair[1].(float64) + 1
	}
	tampered, _ := json.Marshal(f)
	os.WriteFile(ck, tampered, 0o644)
	status, out, errOut := runCLI("solve", "queens:10", "--quiet", "--checkpoint", ck)
	if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "does not match its checksum") {
		t.Errorf("tampered checkpoint: exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	os.WriteFile(ck, orig, 0o644)
	status, out, _ = runCLI("solve", "queens:10", "--quiet", "--checkpoint", ck, "--format", "json")
	known, _ := puzzle.KnownCount(puzzle.MustParse("queens:10"), puzzle.Count)
	if status != 0 || !strings.Contains(out, fmt.Sprintf(`"count":%d,`, known)) {
		t.Errorf("untouched checkpoint: exit %d, %s", status, out)
	}
}

// TestNeverSilent: with progress on, a SAT count by blocking clauses,
// which has no subproblems to count, reports as working with no estimate
// and the models so far; compare in a log reports only runs that last.
func TestNeverSilent(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	oldOut, oldTerm, oldEvery := progressOut, progressTerminal, progressEvery
	progressOut, progressTerminal, progressEvery = lockedWriter{&mu, &buf}, false, time.Millisecond
	defer func() { progressOut, progressTerminal, progressEvery = oldOut, oldTerm, oldEvery }()
	text := func() string { mu.Lock(); defer mu.Unlock(); return buf.String() }
	if status, _, errOut := runCLI("solve", "queens:9", "--backend", "sat", "--task", "count", "--solver", "gophersat-blocking"); status != 0 {
		t.Fatal(errOut)
	}
	line := regexp.MustCompile(`^queens:9: elapsed \d+:\d\d, working, no estimate(, \d+ projected models, one blocking clause each)?$`)
	lines := strings.Split(strings.TrimSpace(text()), "\n")
	noted := false
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("progress line %q", l)
		}
		noted = noted || strings.Contains(l, "projected models")
	}
	if !noted {
		t.Errorf("no line names the models so far:\n%s", text())
	}
	mu.Lock()
	buf.Reset()
	mu.Unlock()
	// compare in a log (stderr not a terminal): no line per variant; a
	// run that lasts past Every (here 1 ms) is reported, naming its
	// variant, and quick runs (Every an hour) print nothing at all.
	status, out, errOut := runCLI("compare", "queens:5")
	if status != 0 {
		t.Fatalf("compare: %d %s", status, errOut)
	}
	meterLine := regexp.MustCompile(`^compare queens:5: (\d+)/(\d+) variants \(.*, (\S+)$`)
	for _, l := range strings.Split(strings.TrimSpace(text()), "\n") {
		m := meterLine.FindStringSubmatch(l)
		if m == nil || !strings.Contains(out, "  "+m[3]+" ") {
			t.Errorf("compare progress line %q is not a meter line naming a variant of the report", l)
		}
	}
	mu.Lock()
	buf.Reset()
	mu.Unlock()
	progressEvery = time.Hour
	if runCLI("compare", "queens:5"); text() != "" {
		t.Errorf("compare of quick runs printed into a log:\n%s", text())
	}
	progressEvery = time.Millisecond
	runCLI("compare", "queens:5", "--quiet")
	if text() != "" {
		t.Errorf("compare --quiet printed %q", text())
	}
}
