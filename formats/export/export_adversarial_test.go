package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestWriteNeverFollowsLinksPlantedMeanwhile holds the promise that
// export never writes through a link, not even one planted while it
// writes (after its check of the directory): a process plants links to a
// victim at every name export writes, as fast as it can, and the victim
// is left as it was.
func TestWriteNeverFollowsLinksPlantedMeanwhile(t *testing.T) {
	var items []Item
	for i := range 200 {
		items = append(items, Item{Row: Row{File: fmt.Sprintf("f%03d.cnf", i)}, Data: bytes.Repeat([]byte("1 2 0\n"), 4<<10)})
	}
	for _, force := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "out")
		victim := filepath.Join(t.TempDir(), "victim")
		os.WriteFile(victim, []byte("victim\n"), 0o644)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				for i := len(items) - 1; i >= 0; i-- {
					select {
					case <-done:
						return
					default:
					}
					os.Symlink(victim, filepath.Join(dir, items[i].Row.File))
				}
				os.Symlink(victim, filepath.Join(dir, CSVName))
			}
		}()
		os.MkdirAll(dir, 0o755)
		err := Write(dir, items, force)
		close(done)
		wg.Wait()
		if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
			t.Errorf("force=%v: written through a planted link (err %v): the victim holds %.30q", force, err, data)
		}
	}
}
