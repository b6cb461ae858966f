package tour

import (
	"math/bits"

	"github.com/boardsat/boardsat/native/limbs"
)

// fTable is an open-addressing hash table from keys to counts of k limbs:
// one bucket of a layer. A layer is split into many buckets by the high bits
// of the key's hash, so that the states merged in one go stay in cache. A
// slot is 1+k words, the key then its count, so that a probe touches one
// cache line.
type fTable struct {
	data   []uint64 // per slot: key (fEmpty marks a free slot), k limbs
	k      int
	stride int // 1+k
	slots  int
	mask   uint64
	used   int
}

// alloc gives the table size free slots (a power of two).
func (t *fTable) alloc(size int) {
	t.stride = 1 + t.k
	t.data = make([]uint64, t.stride*size)
	for i := 0; i < len(t.data); i += t.stride {
		t.data[i] = fEmpty
	}
	t.slots = size
	t.mask = uint64(size - 1)
	t.used = 0
}

// reset empties the table and keeps its memory (counts are overwritten on
// insertion, so only the keys are cleared).
func (t *fTable) reset() {
	if t.used == 0 {
		return
	}
	for i := 0; i < len(t.data); i += t.stride {
		t.data[i] = fEmpty
	}
	t.used = 0
}

func (t *fTable) bytes() int64 { return int64(len(t.data)) * 8 }

// fHash mixes a key (murmur3's finaliser): its high bits choose the bucket,
// its low bits the slot.
func fHash(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// slot returns the index in data of key's slot (h its hash), taking a free
// one if the key is new (fresh true; its count is then to be set, not
// added).
func (t *fTable) slot(key, h uint64) (i int, fresh bool) {
	if 10*(t.used+1) > 7*t.slots {
		t.grow()
	}
	j := h & t.mask
	for {
		i := int(j) * t.stride
		switch t.data[i] {
		case fEmpty:
			t.data[i] = key
			t.used++
			return i, true
		case key:
			return i, false
		}
		j = (j + 1) & t.mask
	}
}

// add1 adds the one-limb count val to key's count; it reports a carry.
func (t *fTable) add1(key, h, val uint64) bool {
	i, fresh := t.slot(key, h)
	if fresh {
		t.data[i+1] = val
		return false
	}
	var c uint64
	t.data[i+1], c = bits.Add64(t.data[i+1], val, 0)
	return c != 0
}

// add adds val (k limbs) to key's count; it reports a carry out of the top
// limb.
func (t *fTable) add(key, h uint64, val []uint64) bool {
	if t.k == 1 {
		return t.add1(key, h, val[0])
	}
	i, fresh := t.slot(key, h)
	if fresh {
		copy(t.data[i+1:i+t.stride], val)
		return false
	}
	return limbs.Add(t.data[i+1:i+t.stride], val)
}

// merge adds a buffer of entries (key, k limbs, ...) to the table; it
// reports a carry out of the top limb of any count.
func (t *fTable) merge(buf []uint64, k int) bool {
	carry := false
	if k == 1 {
		for j := 0; j+1 < len(buf); j += 2 {
			carry = t.add1(buf[j], fHash(buf[j]), buf[j+1]) || carry
		}
		return carry
	}
	stride := 1 + k
	for j := 0; j < len(buf); j += stride {
		carry = t.add(buf[j], fHash(buf[j]), buf[j+1:j+stride]) || carry
	}
	return carry
}

// grow doubles the table.
func (t *fTable) grow() {
	old := t.data
	t.alloc(2 * t.slots)
	for i := 0; i < len(old); i += t.stride {
		if old[i] == fEmpty {
			continue
		}
		j, _ := t.slot(old[i], fHash(old[i]))
		copy(t.data[j+1:j+t.stride], old[i+1:i+t.stride])
	}
}
