package report

import (
	"bufio"
	"fmt"
	"github.com/boardsat/boardsat/harness/compare"
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
// A requested variant's fields are named after its backend's choices
// (native: heuristic; sat: encoding, solver; cp and mip: solver). Rows
// without a variant fall back to the fields that ran. Empty fields are
// left out; '/' and spaces inside values become '_'.
func BenchName(r results.Row) string {
	kvs := [][2]string{{"instance", r.Instance}}
	certify := false
	if r.Variant != "" {
		variant, certified := strings.CutSuffix(r.Variant, "/certify")
		certify = certified
		kvs = append(kvs, variantFields(variant)...)
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

// variantFields returns the backend and each value of a requested variant
// (bench's BACKEND/VALUE... form), named by the one variant parser
// (compare.ParseVariant, from the backend's registered choices): a value
// of a backend or choice this binary does not know (a file from another
// build) is named by its position, fieldN.
func variantFields(variant string) [][2]string {
	parts := strings.Split(variant, "/")
	kvs := [][2]string{{"backend", parts[0]}}
	if v, err := compare.ParseVariant(variant); err == nil {
		for i, f := range v.Fields {
			kvs = append(kvs, [2]string{f, v.Values[i]})
		}
		return kvs
	}
	for i, p := range parts[1:] {
		kvs = append(kvs, [2]string{"field" + strconv.Itoa(i+1), p})
	}
	return kvs
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
