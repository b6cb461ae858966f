package puzzle

// PerPuzzle is a registry of registries: for each puzzle, its values by
// name in the order added (a native search's strategies, the SAT
// encoders). A registry of one value per puzzle (brute force's solvers, a
// paradigm's model builders) is a Registry keyed by the puzzle's name.
// Both refuse a second value under one name with a panic, naming it:
// each family's file adds its own from init, and a clash is a
// programming error.
type PerPuzzle[T any] struct {
	kind     string
	byPuzzle map[string]*Registry[T]
	order    []string
}

// NewPerPuzzle returns an empty per-puzzle registry; kind names its values
// in errors ("heuristic", "model").
func NewPerPuzzle[T any](kind string) *PerPuzzle[T] {
	return &PerPuzzle[T]{kind: kind, byPuzzle: map[string]*Registry[T]{}}
}

// Add registers v as puzzleName's value name. It panics when the puzzle
// already has a value of that name: registration happens at start-up.
func (p *PerPuzzle[T]) Add(puzzleName, name string, v T) {
	r := p.byPuzzle[puzzleName]
	if r == nil {
		r = NewRegistry[T](puzzleName + " " + p.kind)
		p.byPuzzle[puzzleName] = r
		p.order = append(p.order, puzzleName)
	}
	r.Add(name, v)
}

// Of returns puzzleName's registry, nil when the puzzle has no value.
func (p *PerPuzzle[T]) Of(puzzleName string) *Registry[T] { return p.byPuzzle[puzzleName] }

// Values returns puzzleName's values in the order added (none: nil).
func (p *PerPuzzle[T]) Values(puzzleName string) []T {
	r := p.byPuzzle[puzzleName]
	if r == nil {
		return nil
	}
	var out []T
	for _, n := range r.names {
		out = append(out, r.items[n])
	}
	return out
}

// Puzzles returns the puzzles with a value, in the order first added.
func (p *PerPuzzle[T]) Puzzles() []string { return append([]string(nil), p.order...) }
