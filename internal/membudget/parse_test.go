package membudget

import "testing"

// TestParseMem: sizes in MiB from every unit, and the sizes refused.
func TestParseMem(t *testing.T) {
	for in, want := range map[string]int64{"512": 512, "512M": 512, "2G": 2048, "1.5g": 1536, "2048K": 2} {
		if got, err := ParseMem(in); err != nil || got != want {
			t.Errorf("ParseMem(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1G", "1K", "G", "12T"} {
		if _, err := ParseMem(bad); err == nil {
			t.Errorf("ParseMem(%q) accepted", bad)
		}
	}
}
