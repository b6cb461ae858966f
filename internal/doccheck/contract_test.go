package doccheck

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/harness/results"
)

// TestContractJSONKeys holds the key table of docs/contract.md to the JSON
// answer type: every key of answer.Answer listed, in its order, and no key
// the type does not have (a row may name several keys).
func TestContractJSONKeys(t *testing.T) {
	var want []string
	typ := reflect.TypeOf(answer.Answer{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			want = append(want, name)
		}
	}
	rows := tableAfter(t, "docs/contract.md", readDoc(t, "docs/contract.md"), "The JSON answer")
	var got []string
	for _, cell := range column(rows, 0) {
		for _, k := range strings.Split(cell, ",") {
			got = append(got, strings.TrimSpace(k))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/contract.md, The JSON answer: keys %q, want answer.Answer's %q", got, want)
	}
}

// TestContractExitStatuses holds the exit status table of docs/contract.md
// to package answer's: the same statuses, in order, and every answer
// status's exit listed.
func TestContractExitStatuses(t *testing.T) {
	want := []int{answer.ExitAnswered, answer.ExitFailed, answer.ExitBadInput,
		answer.ExitTimeout, answer.ExitMemout, answer.ExitInterrupted}
	rows := tableAfter(t, "docs/contract.md", readDoc(t, "docs/contract.md"), "Exit statuses")
	var got []int
	for _, cell := range column(rows, 0) {
		n, err := strconv.Atoi(cell)
		if err != nil {
			t.Fatalf("docs/contract.md, Exit statuses: %q is not a status", cell)
		}
		got = append(got, n)
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/contract.md, Exit statuses: %v, want package answer's %v", got, want)
	}
	for _, s := range []answer.Status{answer.OK, answer.Unsat, answer.Timeout, answer.Memout, answer.Error, answer.Refused, answer.Interrupted} {
		if !slices.Contains(got, s.Exit()) {
			t.Errorf("status %s exits %d, which docs/contract.md does not list", s, s.Exit())
		}
	}
}

// TestContractCSVColumns holds the column table of docs/contract.md to the
// results schema: every column of results.Columns, in order, and no other
// (a row may name several columns).
func TestContractCSVColumns(t *testing.T) {
	rows := tableAfter(t, "docs/contract.md", readDoc(t, "docs/contract.md"), "The results CSV")
	var got []string
	for _, cell := range column(rows, 0) {
		for _, c := range strings.Split(cell, ",") {
			got = append(got, strings.TrimSpace(c))
		}
	}
	if !slices.Equal(got, results.Columns) {
		t.Errorf("docs/contract.md, The results CSV: columns %q, want results.Columns %q", got, results.Columns)
	}
}

// TestContractSidecarKeys holds the key table of docs/contract.md's bench
// sidecar to results.Session: the same keys (the table groups them by
// meaning, so order is not compared).
func TestContractSidecarKeys(t *testing.T) {
	var want []string
	typ := reflect.TypeOf(results.Session{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			want = append(want, name)
		}
	}
	rows := tableAfter(t, "docs/contract.md", readDoc(t, "docs/contract.md"), "The bench sidecar")
	var got []string
	for _, cell := range column(rows, 0) {
		for _, k := range strings.Split(cell, ",") {
			got = append(got, strings.TrimSpace(k))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("docs/contract.md, The bench sidecar: keys %q, want results.Session's %q", got, want)
	}
}
