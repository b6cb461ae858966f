package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// KingPath is the self-avoiding king path, the path a Boggle word traces: a
// king starts on Start and makes Length-1 moves, one square in any of the
// eight directions each, never entering a square twice. Length counts the
// squares of the path, start included (a Boggle word of Length letters), so
// Length 1 is the start alone. AllStarts (spec start "*") asks about paths
// from every start. Paths are directed: a path and its reverse are two
// paths (from two starts, for AllStarts).
type KingPath struct {
	Board     Board
	Start     Square
	AllStarts bool
	Length    int
}

// Puzzle returns "kingpath".
func (KingPath) Puzzle() string { return "kingpath" }

// String returns "kingpath:WxH:START:L".
func (k KingPath) String() string {
	start := "*"
	if !k.AllStarts {
		start = k.Board.Name(k.Start)
	}
	return "kingpath:" + k.Board.String() + ":" + start + ":" + strconv.Itoa(k.Length)
}

func init() {
	Register(Descriptor{
		Name: "kingpath", Order: 50, Syntax: "kingpath:WxH:START:L",
		Size:        SizeMeasure{"path length (squares)", func(s Spec) float64 { return float64(s.(KingPath).Length) }},
		Parse:       parseKingPath,
		Board:       func(s Spec) Board { return s.(KingPath).Board },
		DefaultTask: Count,
		Shape:       PathShape,
		Check:       func(s Spec, sol Solution) error { return checkKingPath(s.(KingPath), sol.Path) },
		Extend: func(s Spec, sol Solution) error {
			k := s.(KingPath)
			if len(sol.Path) > k.Length {
				return fmt.Errorf("path has %d squares, want %d", len(sol.Path), k.Length)
			}
			return extendPath(k.Board, sol.Path, k.Start, !k.AllStarts, kingApart, "king")
		},
		Count: knownKingPath,
		Probe: "kingpath:3x3:a1:3",
		Sweep: &Sweep{Task: Count, Generate: genKingPaths, Shrink: shrinkKingPath},
	})
}

func parseKingPath(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	if len(f) != 3 {
		return nil, fmt.Errorf("bad kingpath spec %q: want kingpath:WxH:START:L, like kingpath:4x4:a1:5 (START * for every start)", "kingpath:"+rest)
	}
	b, err := parseBoard(f[0])
	if err != nil {
		return nil, err
	}
	k := KingPath{Board: b}
	if f[1] == "*" {
		k.AllStarts = true
	} else if k.Start, err = b.ParseSquare(f[1]); err != nil {
		return nil, fmt.Errorf("bad kingpath start: %w", err)
	}
	n, err := parseInt(f[2], 1, b.Size())
	if err != nil {
		return nil, fmt.Errorf("bad kingpath length %q: want the number of squares, from 1 to %d on the %s board (%v)", f[2], b.Size(), b, err)
	}
	k.Length = n
	return k, nil
}

// kingEdge4x4 is OEIS A063001: the number of king paths of n+2 squares
// (n = 0..14) from a non-corner edge square of the 4x4 Boggle board.
var kingEdge4x4 = []uint64{
	5, 24, 109, 435, 1512, 4621, 12463, 29565, 60596, 104542, 147032, 161759,
	130777, 68989, 17681,
}

// knownKingPath returns the published count of a king-path spec: from a
// non-corner edge square of the 4x4 board, every length from 2 squares
// (OEIS A063001). A236690 (every path of every length on n x n boards) is
// asserted by the tests as a sum over lengths.
func knownKingPath(spec Spec, task Task) (uint64, bool) {
	k := spec.(KingPath)
	if task != Count || k.AllStarts || k.Board != (Board{4, 4}) || k.Length < 2 {
		return 0, false
	}
	f, r := k.Board.FileRank(k.Start)
	onEdge := f == 0 || f == 3 || r == 0 || r == 3
	corner := (f == 0 || f == 3) && (r == 0 || r == 3)
	if !onEdge || corner {
		return 0, false
	}
	return kingEdge4x4[k.Length-2], true
}

// kingApart reports whether s and t are a king's move apart.
func kingApart(b Board, s, t Square) bool {
	df, dr := abs(int(s)%b.W-int(t)%b.W), abs(int(s)/b.W-int(t)/b.W)
	return max(df, dr) == 1
}

// checkKingPath checks a king path with the checker's own geometry.
func checkKingPath(k KingPath, path []Square) error {
	if len(path) != k.Length {
		return fmt.Errorf("path has %d squares, want %d", len(path), k.Length)
	}
	if !k.AllStarts && path[0] != k.Start {
		return fmt.Errorf("path starts on %s, not %s", k.Board.Name(path[0]), k.Board.Name(k.Start))
	}
	return checkSimplePath(k.Board, path, kingApart, "king")
}

// genKingPaths sweeps paths from a1 of 1..MaxSide squares on every board
// with sides up to MaxSide.
func genKingPaths(lim Limits) []Spec {
	var out []Spec
	for _, b := range sweepBoards(lim.MaxSide) {
		for l := 1; l <= min(lim.MaxSide, b.Size()); l++ {
			out = append(out, KingPath{Board: b, Length: l})
		}
	}
	return out
}

func shrinkKingPath(s Spec) []Spec {
	k := s.(KingPath)
	var out []Spec
	if k.Length > 1 {
		n := k
		n.Length--
		out = append(out, n)
	}
	for _, b := range shrunkBoards(k.Board) {
		if k.Length <= b.Size() {
			n := k
			n.Board, n.Start = b, moveSquare(k.Board, b, k.Start)
			out = append(out, n)
		}
	}
	return out
}
