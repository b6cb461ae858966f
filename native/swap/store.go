package swap

// swapStore holds the states found by one search, by dense id.
type swapStore struct {
	g      *swapGame
	sq     []int32 // k squares per state
	side   []uint8
	depth  []int32
	count  []uint64
	parent []int32
	dense  []int32
	m64    map[uint64]int32
	mstr   map[string]int32
	buf    []byte
	counts bool // keep path counts
}

func newSwapStore(g *swapGame, withCount bool, keyMode int) *swapStore {
	s := &swapStore{g: g}
	switch keyMode {
	case swapKeyDense:
		s.dense = make([]int32, g.keySpace) // id+1; 0 is absent
		c := int(min(g.keySpace, 1<<12))
		s.sq = make([]int32, 0, c*g.k)
		s.side = make([]uint8, 0, c)
		s.depth = make([]int32, 0, c)
		s.parent = make([]int32, 0, c)
		if withCount {
			s.count = make([]uint64, 0, c)
		}
	case swapKeyRank:
		s.m64 = map[uint64]int32{}
	default:
		s.mstr = map[string]int32{}
	}
	s.counts = withCount
	return s
}

func (s *swapStore) bytesKey(st []int32, side uint8) []byte {
	s.buf = s.buf[:0]
	for _, q := range st {
		s.buf = append(s.buf, byte(q), byte(q>>8), byte(q>>16))
	}
	return append(s.buf, side)
}

// find returns the id of a state, or -1.
func (s *swapStore) find(st []int32, side uint8) int32 {
	switch {
	case s.dense != nil:
		return s.dense[s.g.rank(st, side)] - 1
	case s.m64 != nil:
		if id, ok := s.m64[s.g.rank(st, side)]; ok {
			return id
		}
	default:
		if id, ok := s.mstr[string(s.bytesKey(st, side))]; ok {
			return id
		}
	}
	return -1
}

// add returns the id of a state, adding it with the given depth and parent
// if it is new (added reports which).
func (s *swapStore) add(st []int32, side uint8, depth, parent int32) (id int32, added bool) {
	id = int32(len(s.side))
	switch {
	case s.dense != nil:
		r := s.g.rank(st, side)
		if old := s.dense[r]; old > 0 {
			return old - 1, false
		}
		s.dense[r] = id + 1
	case s.m64 != nil:
		r := s.g.rank(st, side)
		if old, ok := s.m64[r]; ok {
			return old, false
		}
		s.m64[r] = id
	default:
		key := s.bytesKey(st, side)
		if old, ok := s.mstr[string(key)]; ok {
			return old, false
		}
		s.mstr[string(key)] = id
	}
	s.sq = append(s.sq, st...)
	s.side = append(s.side, side)
	s.depth = append(s.depth, depth)
	s.parent = append(s.parent, parent)
	if s.counts {
		s.count = append(s.count, 0)
	}
	return id, true
}

func (s *swapStore) state(id int32) []int32 {
	k := s.g.k
	return s.sq[int(id)*k : int(id+1)*k : int(id+1)*k]
}

func (s *swapStore) len() int { return len(s.side) }

// pathTo returns the states from the store's root to id, root first.
func (s *swapStore) pathTo(id int32) [][]int32 {
	var rev [][]int32
	for ; id >= 0; id = s.parent[id] {
		rev = append(rev, s.state(id))
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
