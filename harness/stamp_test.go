package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// testModule writes a module that uses this tree's harness, with files
// (path → content) in it, ready to build offline, and returns its folder.
func testModule(t *testing.T, files map[string]string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: builds and runs go test of a test module, 2-20 s (minutes on a cold build cache); run without -short")
	}
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
	mpitest.WriteFile(t, filepath.Join(dir, "go.mod"), "module mpitstest\n\n"+goLine+"\n\nrequire github.com/mpits/mpits v0.0.0\n\nreplace github.com/mpits/mpits => "+repo+"\n", 0o644)
	mpitest.WriteFile(t, filepath.Join(dir, "go.sum"), string(sum), 0o644)
	for p, content := range files {
		mpitest.WriteFile(t, filepath.Join(dir, p), content, 0o644)
	}
	// go.mod gets the requirements the packages need now, so that go test
	// need not write it (the folder may be made read-only).
	if out, err := goCommand(t, dir, nil, "list", "-test", "-deps", "./...").CombinedOutput(); err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return dir
}

// goCommand is the go command in dir, with the settings of a test run of
// the suites on a fake implementation and env added.
func goCommand(t *testing.T, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "MPITS_CACHE="+filepath.Join(dir, "..", "cache"),
		"MPITS_IMPLS=", "MPITS_LAUNCHER=", "MPITS_STRICT=", settings.RunDirEnv+"="), env...)
	return cmd
}

// An empty suite, on an implementation that is not there.
const stampSuite = `package stamp

import (
	"testing"

	"github.com/mpits/mpits/harness"
)

func TestStamp(t *testing.T) { (&harness.Suite{Name: "stamp"}).Run(t) }
`

// A second identical go test of a suite runs again, not from go test's
// cache (neverCached), though the checkout cannot be written: the test
// module's StampLink leads to a folder that can, and its package folder
// takes no stamp (read-only, and .last-run a folder, which root cannot
// write either).
func TestSecondRunNotCached(t *testing.T) {
	dir := testModule(t, map[string]string{"stamp_test.go": stampSuite, RunStamp + "/keep": ""})
	stamps := t.TempDir()
	if err := os.Symlink(stamps, filepath.Join(dir, StampLink)); err != nil {
		t.Fatal(err)
	}
	impls := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), `{"implementations":[{"id":"none","reason":"a test"}]}`, 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for i := 1; i <= 3; i++ {
		out, err := goCommand(t, dir, []string{"MPITS_IMPLEMENTATIONS=" + impls}, "test", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go test, run %d: %v\n%s", i, err, out)
		}
		if strings.Contains(string(out), "(cached)") {
			t.Fatalf("run %d came from go test's cache:\n%s", i, out)
		}
	}
	if _, err := os.Stat(filepath.Join(stamps, stampDir(), stampFile)); err != nil {
		t.Errorf("no stamp through %s: %v", StampLink, err)
	}
}

// Where no stamp can be written (no StampLink, .last-run a folder), the
// console says so, though the package passes and go test shows none of
// its output without -v.
func TestNoStampWarns(t *testing.T) {
	dir := testModule(t, map[string]string{"stamp_test.go": stampSuite, RunStamp + "/keep": ""})
	impls := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), `{"implementations":[{"id":"none","reason":"a test"}]}`, 0o644)
	out, err := goCommand(t, dir, []string{"MPITS_IMPLEMENTATIONS=" + impls}, "test", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "mpits stamp: go test may answer the next identical run from its cache") ||
		!strings.Contains(string(out), "add -count=1") {
		t.Errorf("no warning on the console:\n%s", out)
	}
}
