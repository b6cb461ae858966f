package puzzle

import "testing"

// TestSizeMeasures: every registered puzzle has a size measure, named,
// and it measures what its name says.
func TestSizeMeasures(t *testing.T) {
	for _, name := range Puzzles {
		d, _ := Lookup(name)
		if d.Size.Name == "" || d.Size.Of == nil {
			t.Errorf("%s: no size measure", name)
		}
	}
	for spec, want := range map[string]float64{"queens:8": 8, "kingpath:4x4:a1:16": 16, "intervals:random:50:seed=1": 50, "tour:5x6:a1": 30} {
		s, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := Describe(s).Size.Of(s); got != want {
			t.Errorf("%s: size %g (%s), want %g", spec, got, Describe(s).Size.Name, want)
		}
	}
}
