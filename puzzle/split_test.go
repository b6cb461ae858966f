package puzzle

import "testing"

func TestShardsPartitionTheIDs(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for id := range 50 {
			owners := 0
			for k := 1; k <= n; k++ {
				if (Shard{K: k, N: n}).Has(id) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("id %d has %d owners among %d shards", id, owners, n)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, s := range []string{"0/3", "4/3", "1/0", "x/2", "2", "1/2/3", "-1/2"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) accepted", s)
		}
	}
	if sh, err := ParseShard("3/7"); err != nil || sh != (Shard{K: 3, N: 7}) || sh.String() != "3/7" {
		t.Errorf("ParseShard(3/7) = %v, %v", sh, err)
	}
}
