package results

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/filelock"
	"github.com/boardsat/boardsat/internal/inputfile"
)

// Meta is the metadata sidecar of a results file (FILE.csv.meta.json): the
// machine and software behind the runs, one session per bench invocation
// (a resumed file gains a session).
type Meta struct {
	Sessions []Session `json:"sessions"`
}

// Session describes one bench invocation.
type Session struct {
	Date        string   `json:"date"` // RFC 3339, UTC
	CommandLine []string `json:"command_line"`
	Suite       string   `json:"suite"`
	CPU         string   `json:"cpu"`
	Cores       int      `json:"cores"`
	MemoryKB    int64    `json:"memory_kb"`
	OS          string   `json:"os"`
	Kernel      string   `json:"kernel"`
	GOOS        string   `json:"goos"`
	GOARCH      string   `json:"goarch"`
	GoVersion   string   `json:"go_version"`
	Gophersat   string   `json:"gophersat_version"`
	GitCommit   string   `json:"git_commit"`
	Hostname    string   `json:"hostname"`
	// Limits given on the command line (the suite's own are on each row):
	// per-run wall-clock limit, CPU-time limit, memory limit in MiB,
	// repetitions. One representation of "not given" for all four: the
	// key is left out (a sidecar written before said "" or 0, which reads
	// the same).
	Timeout  string `json:"timeout,omitempty"`
	CPULimit string `json:"cpu_limit,omitempty"`
	MemMB    int64  `json:"mem_mb,omitempty"`
	Repeat   int    `json:"repeat,omitempty"`
	// Provenance: the module version of the binary, the end of the session
	// (Date is its start), the CPU frequency governor (where readable), the
	// load averages (1, 5, 15 min) before and after, every external
	// solver's version string by solver name ("" when not installed), and
	// how runs were measured.
	ModuleVersion string `json:"module_version,omitempty"`
	End           string `json:"end,omitempty"`
	// Ended says how the session ended: "completed", "interrupted", or
	// "failed: " and the error (a full disk, say); empty while it runs
	// or when it was killed.
	Ended      string            `json:"ended,omitempty"`
	Governor   string            `json:"cpu_governor,omitempty"`
	LoadBefore []float64         `json:"loadavg_before,omitempty"`
	LoadAfter  []float64         `json:"loadavg_after,omitempty"`
	Solvers    map[string]string `json:"solver_versions,omitempty"`
	// Definitions holds the definition of every external solver the
	// session's runs named: a results file's solver column names it as
	// its definition does.
	Definitions []SolverDefinition `json:"solver_definitions,omitempty"`
	MeasuredBy  string             `json:"measured_by,omitempty"`
	// Jobs is how many runs went at once; Pinning the cores each
	// concurrent slot was pinned to (none: unpinned).
	Jobs    int      `json:"jobs,omitempty"`
	Pinning []string `json:"pinning,omitempty"`
}

// SolverDefinition is one solver definition a session used: its name,
// where it was read from ("built in" or a path), the definition itself (its
// JSON as read), the sha256 of the program it ran and its version line.
type SolverDefinition struct {
	Name          string          `json:"name"`
	Source        string          `json:"source"`
	Definition    json.RawMessage `json:"definition"`
	ProgramSHA256 string          `json:"program_sha256,omitempty"`
	Version       string          `json:"version,omitempty"`
}

// maxMetaBytes bounds a sidecar that boardsat reads (one session is a few
// KiB).
const maxMetaBytes int64 = 256 << 20

// MetaPath returns the sidecar path of a results file.
func MetaPath(csvPath string) string { return csvPath + ".meta.json" }

// ReadMeta reads the sidecar of a results file; ok is false if it has none.
func ReadMeta(csvPath string) (m Meta, ok bool, err error) {
	data, err := inputfile.ReadFile(MetaPath(csvPath), maxMetaBytes)
	if os.IsNotExist(err) {
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, false, fmt.Errorf("%s: malformed metadata: %v", MetaPath(csvPath), err)
	}
	return m, true, nil
}

// WriteMeta writes m, whole, as the sidecar of the results file that l
// locks (l.Path()), under that lock: the sidecar belongs to its results
// file, and no other writer replaces it while the lock is held (package
// filelock's Owner). The sidecar's name is boardsat's choice, so a link
// there is refused, never written through; an existing sidecar is
// replaced only with replace (--force, --resume, or the session's own
// sidecar), and refused otherwise (a user's file of that name).
func WriteMeta(l *filelock.Lock, m Meta, replace bool) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeCompanion(l, MetaPath(l.Path()), replace, append(data, '\n'))
}

// CheckMeta returns the error WriteMeta would return for what is at the
// sidecar's place now (a link, a file without replace), or nil: a
// command asks it before writing the results file itself.
func CheckMeta(l *filelock.Lock, replace bool) error {
	return atomicfile.Check(MetaPath(l.Path()), atomicfile.Options{Held: l, NoFollow: true, Replace: replace})
}

// ReserveMeta writes the sidecar's reserve under l, as WriteMeta writes
// the sidecar: a file of zeros, the size of m's sidecar and 4 KiB more,
// synced, removed before the sidecar's last write so that a disk that
// rows have filled still has room for it. It returns the reserve's name.
func ReserveMeta(l *filelock.Lock, m Meta, replace bool) (string, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	name := MetaPath(l.Path()) + ".reserve"
	return name, writeCompanion(l, name, replace, make([]byte, len(data)+4<<10))
}

// writeCompanion writes data to path, a file of the results file l locks.
func writeCompanion(l *filelock.Lock, path string, replace bool, data []byte) error {
	return atomicfile.WriteWith(path, atomicfile.Options{Held: l, NoFollow: true, Replace: replace}, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
