package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A second identical go test of a suite runs again, not from go test's
// cache (neverCached): the test builds a module with an empty suite and
// runs go test on it twice.
func TestSecondRunNotCached(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	goLine := "" // the repository's go version: the same module graph, offline
	for _, l := range strings.Split(string(mod), "\n") {
		if strings.HasPrefix(l, "go ") {
			goLine = l
		}
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module stamptest\n\n"+goLine+"\n\nrequire github.com/mpits/mpits v0.0.0\n\nreplace github.com/mpits/mpits => "+repo+"\n", 0o644)
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum), 0o644)
	writeFile(t, filepath.Join(dir, "stamp_test.go"), `package stamp

import (
	"testing"

	"github.com/mpits/mpits/harness"
)

func TestStamp(t *testing.T) { (&harness.Suite{Name: "stamp"}).Run(t) }
`, 0o644)
	impls := writeFile(t, filepath.Join(dir, "impls.json"), `{"implementations":[{"id":"none","reason":"a test"}]}`, 0o644)
	for i := 1; i <= 2; i++ {
		cmd := exec.Command("go", "test", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "MPITS_IMPLEMENTATIONS="+impls,
			"MPITS_CACHE="+filepath.Join(dir, "cache"), "MPITS_IMPLS=", "MPITS_LAUNCHER=", RunDirEnv+"=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test, run %d: %v\n%s", i, err, out)
		}
		if strings.Contains(string(out), "(cached)") {
			t.Fatalf("run %d came from go test's cache:\n%s", i, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, RunStamp)); err != nil {
		t.Errorf("no %s: %v", RunStamp, err)
	}
}
