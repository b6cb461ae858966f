package report

import (
	"bufio"
	"fmt"
	"github.com/boardsat/boardsat/harness/results"
	"io"
	"math"
	"strconv"
	"strings"
)

// BenchName returns the Go benchmark name of a row's group, in the
// key=value sub-benchmark form benchstat understands, named by the variant
// as requested (not by what ran: native/symmetric hands first-solution
// tasks to bitboard, and must not merge into native/bitboard):
// BenchmarkBoardsat/instance=queens:8/backend=native/heuristic=symmetric/task=count.
// A requested variant's fields are named after its backend (native:
// heuristic; sat: encoding, solver; gophersat-count: encoding). Rows
// without a variant fall back to the fields that ran. Empty fields are
// left out; '/' and spaces inside values become '_'.
func BenchName(r results.Row) string {
	kvs := [][2]string{{"instance", r.Instance}}
	certify := false
	if r.Variant != "" {
		variant, certified := strings.CutSuffix(r.Variant, "/certify")
		certify = certified
		parts := strings.Split(variant, "/")
		kvs = append(kvs, [2]string{"backend", parts[0]})
		keys := variantKeys[parts[0]]
		for i, p := range parts[1:] {
			k := "field" + strconv.Itoa(i+1)
			if i < len(keys) {
				k = keys[i]
			}
			kvs = append(kvs, [2]string{k, p})
		}
	} else {
		kvs = append(kvs, [2]string{"backend", r.Backend}, [2]string{"heuristic", r.Heuristic},
			[2]string{"encoding", r.Encoding}, [2]string{"solver", r.Solver})
	}
	kvs = append(kvs, [2]string{"task", r.Task})
	if certify {
		// A certified run (bench certify=true): its variant ends in /certify.
		kvs = append(kvs, [2]string{"certify", "true"})
	}
	clean := strings.NewReplacer("/", "_", " ", "_")
	var sb strings.Builder
	sb.WriteString("BenchmarkBoardsat")
	for _, kv := range kvs {
		if kv[1] != "" {
			sb.WriteString("/" + kv[0] + "=" + clean.Replace(kv[1]))
		}
	}
	return sb.String()
}

// variantKeys names the fields after the backend in a requested variant
// (bench's BACKEND/VALUE... form).
var variantKeys = map[string][]string{
	"native":          {"heuristic"},
	"sat":             {"encoding", "solver"},
	"gophersat-count": {"encoding"},
}

// WriteBenchfmt writes the solved runs as Go benchmark result lines, one per
// run (one iteration each): wall time as sec/op, CPU time (user+sys) as
// cpu-sec/op, peak RSS as peak-RSS-B, and nodes, conflicts and decisions per
// op when reported, so that "benchstat old.txt new.txt" compares two result
// files. Configuration lines come from the sessions, if given.
func WriteBenchfmt(w io.Writer, rows []results.Row, sessions []results.Session) error {
	bw := bufio.NewWriter(w)
	if len(sessions) > 0 {
		s := sessions[0]
		fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: github.com/boardsat/boardsat\n", s.GOOS, s.GOARCH)
		if s.CPU != "" {
			fmt.Fprintf(bw, "cpu: %s\n", s.CPU)
		}
		if s.GitCommit != "" {
			fmt.Fprintf(bw, "commit: %s\n", s.GitCommit)
		}
	}
	for _, r := range rows {
		if !r.Solved() {
			continue
		}
		fmt.Fprintf(bw, "%s\t1\t%s sec/op\t%s cpu-sec/op\t%d peak-RSS-B", BenchName(r),
			fmtFloat(r.Seconds), fmtFloat(roundNS(r.User+r.Sys)), r.MaxRSSKB*1024)
		for _, k := range []string{"nodes", "conflicts", "decisions"} {
			if v, ok := r.Stats[k]; ok {
				fmt.Fprintf(bw, "\t%d %s/op", v, k)
			}
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

func roundNS(x float64) float64 { return math.Round(x*1e9) / 1e9 }
