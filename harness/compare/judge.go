package compare

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// This file is boardsat's one judging policy, used by compare (Run,
// --sweep) and bench alike:
//
//   - The reference is the published value when one is known; else the
//     answer of the brute-force backend "check" (it decides through the
//     independent checker alone) when the instance is within its limits;
//     else the most common answer of the reliable variants (known-good
//     backends whose answers passed every check; ties to the earliest).
//   - An answer is wrong when it is invalid (a returned or emitted solution
//     fails the checker, an answer inconsistent with itself), when its status
//     is error (whatever the cause: a decoded model that fails the checker,
//     a crash, a partial count), or when its value differs from the
//     reference. Timeouts, memouts, refused requests and incomplete methods
//     that gave up (puzzle.NotFound) are no answer: neither right nor wrong.
//   - Agreement by the same theorem is one confirmation, not two: an answer
//     that rests on a theorem (Answer.Theorem) adds nothing to a published
//     value derived from a theorem.

// BruteBackend is the name of the brute-force backend the judge asks for a
// reference when nothing is published.
const BruteBackend = "check"

// BruteTimeout bounds the judge's brute-force reference computation.
var BruteTimeout = 30 * time.Second

// Vote is one answer as the judge sees it.
type Vote struct {
	// Name identifies the answer (a variant).
	Name string
	// Backend is the backend that gave it: variants of one backend share
	// code, so they confirm a reference once between them ("" = Name).
	Backend string
	// Status is the answer's status; "" for a refused request.
	Status puzzle.Status
	// Value is the answer in comparable form (ValueOf), "" for none.
	Value string
	// Invalid says why the answer fails a check of its own (the checker
	// rejects its solution, it is inconsistent); "" when it passed.
	Invalid string
	// Message is the backend's explanation of an error status. An error
	// whose message starts with puzzle.NotFound (an incomplete method gave
	// up, proving nothing) is no answer, not a failure.
	Message string
	// Known is why the backend is known to be unreliable, or "".
	Known string
	// Theorem names the theorem the answer rests on, or "".
	Theorem string
}

// Verdict is the judge's word on one vote.
type Verdict struct {
	// Wrong is set for an invalid answer, an error, or a value other than
	// the reference.
	Wrong bool
	// Agrees is set for a value equal to the reference.
	Agrees bool
	// Reason explains a wrong verdict in one line.
	Reason string
}

// Judgement is the judge's decision on one instance and task.
type Judgement struct {
	// Reference is the value every answer must equal ("" if none), and
	// Source where it comes from: "published", "check" (brute force) or
	// "majority".
	Reference, Source string
	// Theorem names the theorem a published reference rests on, or "".
	Theorem string
	// Verdicts holds one verdict per vote, in order.
	Verdicts []Verdict
	// Confirmations counts the independent sources that agree with the
	// reference, the reference's own source included: the published value
	// or brute force, each backend with an agreeing reliable search (its
	// variants share code: once between them), and a theorem once however
	// many answers rest on it.
	Confirmations int
}

// Wrong reports whether any verdict is wrong.
func (j Judgement) Wrong() bool {
	for _, v := range j.Verdicts {
		if v.Wrong {
			return true
		}
	}
	return false
}

// Reference returns the published or brute-force reference for spec and
// task, and its source ("published", "check"), or ok false when neither is
// available (the caller then takes a majority).
func Reference(ctx context.Context, spec puzzle.Spec, task puzzle.Task) (value, source, theorem string, ok bool) {
	if v, ok := Published(spec, task); ok {
		return v, "published", publishedTheorem(spec, task), true
	}
	if v, ok := BruteValue(ctx, spec, task); ok {
		return v, BruteBackend, "", true
	}
	return "", "", "", false
}

// publishedTheorem names the theorem behind a published value, if any.
func publishedTheorem(spec puzzle.Spec, task puzzle.Task) string {
	switch task {
	case puzzle.Count, puzzle.All, puzzle.First:
		return puzzle.KnownTheorem(spec, puzzle.Count)
	}
	return ""
}

// BruteValue runs the brute-force backend on spec and task, within
// BruteTimeout, and returns its answer in comparable form; ok is false when
// the backend is not registered, refuses the instance (past its limits) or
// does not finish.
func BruteValue(ctx context.Context, spec puzzle.Spec, task puzzle.Task) (string, bool) {
	b, err := puzzle.Backends.Lookup(BruteBackend)
	if err != nil {
		return "", false
	}
	if task == puzzle.All {
		task = puzzle.Count // the same value, without streaming
	}
	ctx, cancel := context.WithTimeout(ctx, BruteTimeout)
	defer cancel()
	ans, err := b.Solve(ctx, puzzle.Request{Spec: spec, Task: task, Threads: 1})
	if err != nil {
		return "", false
	}
	if ans.Solution != nil && puzzle.Check(spec, *ans.Solution) != nil {
		return "", false
	}
	v := ValueOf(task, ans)
	return v, v != ""
}

// Judge applies the policy to votes on spec and task, with the reference
// (from Reference) when known.
func Judge(votes []Vote, ref, source, theorem string) Judgement {
	j := Judgement{Reference: ref, Source: source, Theorem: theorem}
	if j.Reference == "" {
		j.Reference = majorityOf(votes, true)
		if j.Reference == "" {
			j.Reference = majorityOf(votes, false)
		}
		if j.Reference != "" {
			j.Source = "majority"
		}
	}
	theoremCounted := false
	counted := map[string]bool{}
	switch {
	case j.Source == "published" && j.Theorem != "":
		j.Confirmations, theoremCounted = 1, true
	case j.Source == "published", j.Source == BruteBackend:
		j.Confirmations = 1
	}
	for _, v := range votes {
		var vd Verdict
		switch {
		case v.Invalid != "":
			vd.Wrong, vd.Reason = true, "invalid: "+v.Invalid
		case v.Status == puzzle.Error && !(puzzle.Answer{Status: v.Status, Message: v.Message}).GaveUp():
			vd.Wrong, vd.Reason = true, "error: "+v.Message
		case v.Value != "" && j.Reference != "" && v.Value != j.Reference:
			vd.Wrong, vd.Reason = true, mismatchReason(v.Value, j.Reference, j.Source)
		case v.Value != "" && v.Value == j.Reference:
			vd.Agrees = true
			switch {
			case v.Known != "":
			case v.Theorem != "":
				if !theoremCounted {
					j.Confirmations++
					theoremCounted = true
				}
			default:
				src := v.Backend
				if src == "" {
					src = v.Name
				}
				if j.Source == BruteBackend && src == BruteBackend {
					break // the reference's own computation, counted above
				}
				if !counted[src] {
					counted[src] = true
					j.Confirmations++
				}
			}
		}
		j.Verdicts = append(j.Verdicts, vd)
	}
	return j
}

// majorityOf returns the most common value among the valid answers (of
// reliable backends only, if reliable), ties to the earliest.
func majorityOf(votes []Vote, reliable bool) string {
	count := map[string]int{}
	best, bestN := "", 0
	for _, v := range votes {
		if v.Value == "" || v.Invalid != "" || v.Status == puzzle.Error || (reliable && v.Known != "") {
			continue
		}
		count[v.Value]++
		if count[v.Value] > bestN {
			best, bestN = v.Value, count[v.Value]
		}
	}
	return best
}

// mismatchReason is the reason of a wrong verdict on an answer whose value
// differs from the reference; ParseMismatch reads it back.
func mismatchReason(value, ref, source string) string {
	return fmt.Sprintf("answer %s, reference %s (%s)", value, ref, source)
}

// mismatchPattern matches mismatchReason at the start of a message (values
// are decimal counts, plan lengths or sat/unsat/none: no spaces or commas).
var mismatchPattern = regexp.MustCompile(`^answer (\S+), reference (\S+) \(([^)]+)\)(?:; )?`)

// ParseMismatch reads a mismatch reason back from the start of msg (where
// bench puts it in a row's message): the answer's value, the reference's
// source ("published", "check" or "majority"), and the rest of the message
// (the backend's own). ok is false when msg does not start with one.
func ParseMismatch(msg string) (value, source, rest string, ok bool) {
	m := mismatchPattern.FindStringSubmatchIndex(msg)
	if m == nil {
		return "", "", "", false
	}
	return msg[m[2]:m[3]], msg[m[6]:m[7]], msg[m[1]:], true
}
