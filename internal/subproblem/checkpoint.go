package subproblem

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/puzzle"
)

// checkpointFile is a checkpoint's JSON form: the key and shard it belongs
// to, the size of the split, each finished subproblem with its partial
// count, in id order, and a checksum over all of it.
type checkpointFile struct {
	Format      string          `json:"format"`
	Key         puzzle.SplitKey `json:"key"`
	Shard       string          `json:"shard"`
	Subproblems int             `json:"subproblems"`
	Done        [][2]uint64     `json:"done"` // [id, count]
	// Checksum is the SHA-256, in hex, of the file's JSON with Checksum
	// empty: the instance, task, strategy, partition and version (Key),
	// the shard, the split's size and every partial count. A file whose
	// content does not match it (a count edited by hand, a disk that
	// flipped a bit, a copy cut short) is refused rather than summed. It
	// guards against accidents, not against someone who recomputes it.
	Checksum string `json:"checksum"`
}

// checkpointFormat names the file format, so a file of another kind is
// refused rather than misread. Format 1 had no checksum.
const checkpointFormat = "boardsat-checkpoint-2"

// sum returns the checksum of f's content (f.Checksum left out).
func (f checkpointFile) sum() string {
	f.Checksum = ""
	data, _ := json.Marshal(f) // plain data: Marshal cannot fail
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// checkpoint is an open checkpoint: the finished subproblems and when they
// were last written.
type checkpoint struct {
	path  string
	key   puzzle.SplitKey
	shard puzzle.Shard
	total int
	done  map[int]uint64
	every time.Duration
	saved time.Time
}

// MaxCheckpointBytes bounds a checkpoint file: one entry of a few dozen
// bytes per subproblem done, so far above any split boardsat makes. A
// larger file, or anything but a regular file (a FIFO would hang the
// read, /dev/zero never end it), is refused in one line.
const MaxCheckpointBytes int64 = 256 << 20

// openCheckpoint reads the checkpoint at path, or starts an empty one if
// there is no file, written at once, so that a path that cannot take it is
// refused before the count starts (a write that fails later, during the
// count, is ErrNotWritten); a file for another key, shard or split is
// refused.
func openCheckpoint(path string, key puzzle.SplitKey, shard puzzle.Shard, total int) (*checkpoint, error) {
	ck := &checkpoint{path: path, key: key, shard: shard, total: total, done: map[int]uint64{}, saved: time.Now()}
	data, err := inputfile.ReadFile(path, MaxCheckpointBytes)
	if errors.Is(err, fs.ErrNotExist) {
		if err := ck.save(); err != nil {
			return nil, err
		}
		return ck, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	var f checkpointFile
	if err := json.Unmarshal(data, &f); err != nil || !strings.HasPrefix(f.Format, "boardsat-checkpoint-") {
		return nil, fmt.Errorf("checkpoint %s is not a boardsat checkpoint", path)
	}
	if f.Format != checkpointFormat {
		return nil, fmt.Errorf("checkpoint %s is of format %s, this boardsat reads %s only; remove it or name another file", path, f.Format, checkpointFormat)
	}
	if f.Checksum != f.sum() {
		return nil, fmt.Errorf("%w: checkpoint %s does not match its checksum (edited or damaged since it was written); remove it to count again from the start", ErrDamaged, path)
	}
	if f.Key != key || f.Shard != shard.String() || f.Subproblems != total {
		return nil, fmt.Errorf("%w %s: written for %s shard %s (%d subproblems), this count is %s shard %s (%d subproblems); remove it or name another file",
			ErrForeign, path, f.Key, f.Shard, f.Subproblems, key, shard, total)
	}
	for _, d := range f.Done {
		id := int(d[0])
		if d[0] >= uint64(total) || !shard.Has(id) {
			return nil, fmt.Errorf("checkpoint %s records subproblem %d, outside shard %s of %d", path, d[0], shard, total)
		}
		ck.done[id] = d[1]
	}
	return ck, nil
}

// StoredKey returns the key of the checkpoint at path, if there is one
// that reads as a checkpoint of this format and matches its checksum
// (false otherwise: openCheckpoint then says what is wrong with it). A
// counter whose split depends on a first phase (a proven minimum) reads
// it to resume without redoing that phase.
func StoredKey(path string) (puzzle.SplitKey, bool) {
	data, err := inputfile.ReadFile(path, MaxCheckpointBytes)
	if err != nil {
		return puzzle.SplitKey{}, false
	}
	var f checkpointFile
	if json.Unmarshal(data, &f) != nil || f.Format != checkpointFormat || f.Checksum != f.sum() {
		return puzzle.SplitKey{}, false
	}
	return f.Key, true
}

// maybeSave writes the checkpoint if it changed and (unless force) the
// last write is older than every.
func (ck *checkpoint) maybeSave(force bool) error {
	every := ck.every
	if every <= 0 {
		every = time.Second
	}
	if !force && time.Since(ck.saved) < every {
		return nil
	}
	if err := ck.save(); err != nil {
		return err
	}
	ck.saved = time.Now()
	return nil
}

// save writes the checkpoint atomically: a temporary file in the same
// directory, synced, renamed over the old one, and the directory synced,
// so a crash at any moment leaves either the old or the new file.
func (ck *checkpoint) save() error {
	f := checkpointFile{Format: checkpointFormat, Key: ck.key, Shard: ck.shard.String(), Subproblems: ck.total}
	ids := make([]int, 0, len(ck.done))
	for id := range ck.done {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		f.Done = append(f.Done, [2]uint64{uint64(id), ck.done[id]})
	}
	f.Checksum = f.sum()
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(ck.path, append(data, '\n'))
}
