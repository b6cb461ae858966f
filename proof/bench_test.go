//go:build unix

package proof_test

import (
	"bytes"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
)

// benchDominate8 is cadical's DRAT proof that no 4 queens dominate the
// 8x8 board (one below the published optimum 5), in the square model
// with a sequential counter (316 variables, 627 clauses), made once per
// run.
var benchDominate8 struct {
	f     *proof.CNF
	steps []proof.Step
	lrat  []byte
}

func dominate8(b *testing.B) {
	if benchDominate8.f != nil {
		return
	}
	f := encodedWith(b, "dominate:8x8:Q:k=4", "satunsat+seqcounter", 0)
	if f.Vars != 316 || len(f.Clauses) != 627 {
		b.Fatalf("the formula has %d variables and %d clauses, not 316 and 627", f.Vars, len(f.Clauses))
	}
	data := cadicalProof(b, f, false)
	p, err := proof.ParseDRAT(data, proof.ASCII)
	if err != nil {
		b.Fatal(err)
	}
	res := proof.Check(f, p.Steps, proof.CheckOptions{})
	if !res.Verified {
		b.Fatal(res.Reason)
	}
	benchDominate8.f, benchDominate8.steps, benchDominate8.lrat = f, p.Steps, res.LRAT
}

// cpuTimer reports the process's CPU time (user and system, every
// thread) per iteration as the metric cpu-s/op: on a loaded machine the
// wall time per op says more about the load than about the checker.
func cpuTimer(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric((cpu()-start).Seconds()/float64(b.N), "cpu-s/op") }
}

// BenchmarkCheckDominate8 times the checks of cadical's refutation of
// dominate:8x8:Q:k=4 separately: the DRAT checker alone (drat), the DRAT
// checker writing its LRAT (drat+lrat-out; the difference is the DRAT to
// LRAT conversion), the DRAT checker verifying every lemma (drat-all), and
// the LRAT checker on that LRAT (lrat). The proof's counts and the CPU
// time per check are reported as metrics.
func BenchmarkCheckDominate8(b *testing.B) {
	dominate8(b)
	d := benchDominate8
	report := func(b *testing.B, r proof.Result) {
		if !r.Verified {
			b.Fatal(r.Reason)
		}
		b.ReportMetric(float64(r.Lemmas), "lemmas")
		b.ReportMetric(float64(r.Deletions), "deletions")
		b.ReportMetric(float64(r.CoreLemmas), "core-lemmas")
	}
	b.Run("drat", func(b *testing.B) {
		var r proof.Result
		stop := cpuTimer(b)
		for b.Loop() {
			r = proof.Check(d.f, d.steps, proof.CheckOptions{NoLRAT: true})
		}
		stop()
		report(b, r)
	})
	b.Run("drat+lrat-out", func(b *testing.B) {
		var r proof.Result
		stop := cpuTimer(b)
		for b.Loop() {
			r = proof.Check(d.f, d.steps, proof.CheckOptions{})
		}
		stop()
		report(b, r)
		b.ReportMetric(float64(len(r.LRAT)), "lrat-bytes")
	})
	b.Run("drat-all", func(b *testing.B) {
		var r proof.Result
		stop := cpuTimer(b)
		for b.Loop() {
			r = proof.Check(d.f, d.steps, proof.CheckOptions{All: true, NoLRAT: true})
		}
		stop()
		report(b, r)
	})
	b.Run("lrat", func(b *testing.B) {
		var r lrat.Result
		var err error
		stop := cpuTimer(b)
		for b.Loop() {
			r, err = lrat.Check(d.f.Clauses, bytes.NewReader(d.lrat))
		}
		stop()
		if err != nil || !r.Verified {
			b.Fatal(err, r.Reason)
		}
		b.ReportMetric(float64(r.Added), "lrat-steps")
	})
}
