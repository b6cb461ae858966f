package puzzle

import (
	"strings"
	"testing"
)

func TestMNKParse(t *testing.T) {
	for _, c := range []struct{ in, canonical string }{
		{"mnk:3x3:3", "mnk:3x3:3"},
		{"mnk:3x3:3:pos=.........", "mnk:3x3:3"},
		{"mnk:3x3:3:positions:moves=4", "mnk:3x3:3:moves=4:positions"},
		{"mnk:4x3:3:moves=2:pos=X.O.........", "mnk:4x3:3:pos=X.O.........:moves=2"},
		{"mnk:1x5:3", "mnk:1x5:3"},
		{"mnk:8x8:5", "mnk:8x8:5"},
	} {
		s, err := Parse(c.in)
		if err != nil || s.String() != c.canonical {
			t.Errorf("Parse(%q) = %v, %v; want %s", c.in, s, err, c.canonical)
			continue
		}
		if again := MustParse(s.String()); again != s {
			t.Errorf("round trip of %s gives %v", s, again)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"mnk:3x3", "want mnk:WxH:K"},
		{"mnk:3x0:3", "bad board"},
		{"mnk:9x8:3", "at most 64 squares"},
		{"mnk:3x3:4", "bad mnk K"},
		{"mnk:3x3:0", "bad mnk K"},
		{"mnk:3x3:03", "bad mnk K"},
		{"mnk:3x3:-1", "bad mnk K"},
		{"mnk:3x3:", "bad mnk K"},
		{"mnk:3x3:3:pos=X", "want 9 cells"},
		{"mnk:3x3:3:pos=X.O.......", "want 9 cells"},
		{"mnk:3x3:3:pos=X.Z......", "cell 3 is 'Z'"},
		{"mnk:3x3:3:pos=x........", "want X, O or ."},
		{"mnk:3x3:3:pos=O........", "cannot arise"},
		{"mnk:3x3:3:pos=XXO......", ""},
		{"mnk:3x3:3:pos=XX.......", "cannot arise"},
		{"mnk:3x3:3:pos=XXX.OO...", "X already has 3 in a row"},
		{"mnk:3x3:3:pos=XXXOOO...", "X already has 3 in a row"}, // two winners
		{"mnk:3x3:3:pos=XXOOOXXXO", "play is over"},
		{"mnk:3x3:3:pos=XOXXOOOXX", "board is full"},
		{"mnk:3x3:3:pos=OOOXX.X..", "O already has 3 in a row"},
		{"mnk:3x3:3:moves=0", "bad mnk moves"},
		{"mnk:3x3:3:moves=10", "at most 9 moves"},
		{"mnk:3x3:3:pos=X.O......:moves=8", "at most 7 moves"},
		{"mnk:3x3:3:moves=x", "bad mnk moves"},
		{"mnk:3x3:3:moves", "bad mnk option"},
		{"mnk:3x3:3:positions=1", "bad mnk option"},
		{"mnk:3x3:3:depth=3", "bad mnk option"},
		{"mnk:3x3:3:moves=3:moves=4", "given twice"},
	} {
		_, err := Parse(c.in)
		if c.want == "" {
			if err != nil {
				t.Errorf("Parse(%q): %v", c.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): error %v, want one line containing %q", c.in, err, c.want)
		}
	}
}

// TestMNKCells: pos= reads the top rank first, each rank from file a; the
// side to move follows from the counts.
func TestMNKCells(t *testing.T) {
	m := MustParse("mnk:3x2:2:pos=X....O").(MNK)
	cells := m.Cells()
	b := m.Board
	if cells[b.Sq(0, 1)] != MNKX || cells[b.Sq(2, 0)] != MNKO || strings.Count(string(cells), ".") != 4 {
		t.Errorf("cells %q: want X on a2 and O on c1", cells)
	}
	if m.ToMove() != MNKX || MustParse("mnk:3x2:2:pos=X.....").(MNK).ToMove() != MNKO {
		t.Error("wrong side to move")
	}
}

// TestMNKCheck: the checker accepts complete legal games and names what
// is wrong with the others.
func TestMNKCheck(t *testing.T) {
	game := func(spec string, moves ...string) error {
		s := MustParse(spec)
		sol, err := ParseSolution(s, strings.Join(moves, " "))
		if err != nil {
			return err
		}
		return Check(s, sol)
	}
	for _, c := range []struct {
		spec  string
		moves []string
		want  string
	}{
		{"mnk:3x3:3", []string{"a1", "b1", "a2", "b2", "a3"}, ""},
		{"mnk:3x3:3:moves=5", []string{"a1", "b1", "a2", "b2", "a3"}, ""},
		{"mnk:3x3:3:moves=6", []string{"a1", "b1", "a2", "b2", "a3"}, "want 6"},
		{"mnk:3x3:3", []string{"a1", "b1", "a2", "b2", "a3", "b3"}, "after the game ended"},
		{"mnk:3x3:3", []string{"a1", "b1", "a2", "b2"}, "not over"},
		{"mnk:3x3:3", []string{"a1", "a1"}, "occupied"},
		{"mnk:3x3:3", []string{"a1", "d1"}, "off the 3x3 board"},
		{"mnk:3x3:3", []string{"b2", "a1", "b1", "b3", "a2", "c2", "c1", "a3", "c3"}, ""}, // a draw
		{"mnk:3x3:3:pos=X.O.X.O..", []string{"c1"}, ""},                                   // X to move wins on the diagonal
		{"mnk:3x3:3:pos=X.O.X.O..", []string{"b1"}, "not over"},
		{"mnk:3x3:3:pos=X.O.X.O..", []string{"a3"}, "occupied"},
		{"mnk:3x3:3:positions", []string{"a1", "b1"}, ""},
		{"mnk:3x3:3:moves=2:positions", []string{"a1"}, "want 2"},
	} {
		err := game(c.spec, c.moves...)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s %v: %v, want %q", c.spec, c.moves, err, c.want)
		}
	}
	s := MustParse("mnk:3x3:3")
	if out, err := MNKOutcome(s.(MNK), []Square{0, 1, 3, 4, 6}); out != "x" || err != nil {
		t.Errorf("outcome %q %v, want x", out, err)
	}
}

// TestMNKPublished: the tables hold what the tests assert elsewhere.
func TestMNKPublished(t *testing.T) {
	var sum uint64
	for l := 1; l <= 9; l++ {
		n, ok := KnownCount(MustParse("mnk:3x3:3:moves="+string(rune('0'+l))), Count)
		if ok != (l >= 5) {
			t.Errorf("moves=%d: published %v", l, ok)
		}
		sum += n
	}
	if sum != TicTacToeGames || TicTacToeXWins+TicTacToeOWins+TicTacToeDraws != TicTacToeGames {
		t.Errorf("tic-tac-toe counts do not add up: %d by length", sum)
	}
	for spec, want := range map[string]string{"mnk:3x3:3": GameDraw, "mnk:4x4:4": GameDraw, "mnk:5x5:4": GameDraw, "mnk:6x5:4": GameWin, "mnk:5x6:4": GameWin} {
		if v, ok := KnownGameValue(MustParse(spec)); !ok || v != want {
			t.Errorf("%s: published %q %v, want %s", spec, v, ok, want)
		}
	}
	if _, ok := KnownGameValue(MustParse("mnk:3x3:3:pos=X........")); ok {
		t.Error("a value published for a position")
	}
}

// TestGameValueOf: points and values map both ways.
func TestGameValueOf(t *testing.T) {
	for _, v := range []string{GameWin, GameDraw, GameLoss} {
		p, ok := GamePoints(v)
		if back, ok2 := GameValueOf(p); !ok || !ok2 || back != v {
			t.Errorf("%s -> %d -> %s", v, p, back)
		}
	}
	if _, ok := GameValueOf(3); ok {
		t.Error("3 points is no value")
	}
}
