package comparison

import (
	"fmt"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
)

// Figure draws A against B with report's scatter: one point per instance,
// variant and task both ran, at (median time in A, median time in B), a
// marker per puzzle, with the diagonal, 2x and 10x lines, and an instance
// one side did not solve on the limit line. labelA and labelB name the
// axes and must differ.
func Figure(a, b []results.Row, time, labelA, labelB string) (*report.Figure, error) {
	if labelA == labelB {
		return nil, fmt.Errorf("the two sides need different names, not both %q", labelA)
	}
	var rows []results.Row
	for _, side := range []struct {
		rows  []results.Row
		label string
	}{{a, labelA}, {b, labelB}} {
		for _, r := range side.rows {
			// One scatter "instance" per instance, variant and task; the
			// side is the "variant" the scatter puts on an axis.
			r.Instance = r.Instance + " " + r.Variant
			r.Variant = side.label
			rows = append(rows, r)
		}
	}
	return report.Scatter(report.Summarize(rows, time), labelA, labelB, time)
}
