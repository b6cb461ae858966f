package membudget

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardsat/boardsat/internal/cgroups"
)

// treeChildEnv makes the test binary act out a confined tree (TestConfine)
// instead of running the tests.
const treeChildEnv = "MEMBUDGET_TREE_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(treeChildEnv) {
	case "confine":
		os.Exit(confineChild())
	case "own":
		// In a limited group already: a hog child killed by the kernel
		// there is counted.
		if _, _, ok := TreeDefault(); !ok {
			os.Exit(10)
		}
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), treeChildEnv+"=hog")
		if err := cmd.Run(); err == nil || !OOMKilled() {
			os.Exit(1)
		}
		os.Exit(0)
	case "hold":
		buf := make([]byte, 60<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		io.Copy(io.Discard, os.Stdin)
		os.Exit(int(buf[len(buf)-1]) - 1)
	case "hog":
		buf := make([]byte, 300<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		os.Exit(int(buf[len(buf)-1]) - 1)
	}
	os.Exit(m.Run())
}

// confineChild confines itself to 100 MiB and starts a child that touches
// 300 MiB: exit 0 when the child was killed and OOMKilled says so, 10 when
// no cgroup could be made, 1 otherwise.
func confineChild() int {
	if Confine(100<<20) != HeldByCgroup {
		return 10
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), treeChildEnv+"=hog")
	if err := cmd.Run(); err == nil || !OOMKilled() {
		return 1
	}
	return 0
}

// TestConfine: where a memory cgroup can be made, Confine caps the whole
// tree: a child touching 300 MiB under a 100 MiB cap is killed by the
// kernel, and OOMKilled says so; with SampledEnv set no cgroup is made.
func TestConfine(t *testing.T) {
	run := func(env ...string) int {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(append(os.Environ(), treeChildEnv+"=confine"), env...)
		cmd.Run()
		return cmd.ProcessState.ExitCode()
	}
	switch code := run(); code {
	case 0:
	case 10:
		if os.Getenv("CI") == "true" {
			t.Fatal("no memory cgroup can be made here, and CI=true requires one")
		}
		t.Skip("no memory cgroup can be made here (not root, nothing delegated): the sampled watchdog alone holds --mem")
	default:
		t.Fatalf("confined child: exit %d; want the hog killed by the kernel and counted", code)
	}
	if code := run(SampledEnv + "=1"); code != 10 {
		t.Errorf("with %s=1: exit %d, want no cgroup made (10)", SampledEnv, code)
	}
}

// TestTreeResident: the tree's memory counts a child's resident set: with
// a child holding 60 MiB, the tree is at least 50 MiB more than this
// process alone.
func TestTreeResident(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), treeChildEnv+"=hold")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	for range 500 {
		if TreeResident()-Resident() > 50<<20 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("tree %s, this process %s: the child's 60 MiB not counted", Bytes(TreeResident()), Bytes(Resident()))
}

// TestOOMKilledInOwnGroup: in a memory cgroup of 100 MiB (a container's,
// say), a child the kernel kills at the group's limit is counted by
// OOMKilled, so that solve answers memout, not error, for an external
// solver killed there.
func TestOOMKilledInOwnGroup(t *testing.T) {
	m, err := cgroups.NewMemory(fmt.Sprintf("boardsat-%d-owntest", os.Getpid()))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no memory cgroup can be made here (%v), and CI=true requires one", err)
		}
		t.Skipf("no memory cgroup can be made here: %v", err)
	}
	defer func() {
		for i := 0; i < 200 && os.Remove(m.Dir) != nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	if err := m.SetLimit(100 << 20); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", `echo $$ >"$0" && exec "$1"`, filepath.Join(m.Dir, "cgroup.procs"), os.Args[0])
	cmd.Env = append(os.Environ(), treeChildEnv+"=own")
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("child in a 100 MiB group: exit %d; want its hog killed by the kernel and counted (0)", code)
	}
}
