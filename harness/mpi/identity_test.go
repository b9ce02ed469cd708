package mpi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/verdict"
)

// A fake MPI behind one prefix whose wrapper refuses every build and counts
// its compiles: the refusal is cached, replayed with its date, and tried
// again when the wrapper's answer, mpi.h or the library changes.
func TestBuildCacheKnowsTheMPI(t *testing.T) {
	t.Setenv("MPITS_CACHE", t.TempDir())
	p := t.TempDir()
	count := filepath.Join(p, "compiles")
	wrapper := func(show string) {
		mpitest.WriteFile(t, filepath.Join(p, "bin", "mpicc"), `#!/bin/sh
case "$1" in
--showme) exit 1 ;;
-show) echo "`+show+`"; exit 0 ;;
esac
echo x >> `+count+`
echo "fixture.c:1: error: MPI_Foo undeclared" >&2
exit 1
`, 0o755)
	}
	wrapper("gcc -I" + p + "/include -L" + p + "/lib -lmpi")
	mpitest.WriteFile(t, filepath.Join(p, "include", "mpi.h"), "#define MPI_VERSION 4\n", 0o644)
	mpitest.WriteFile(t, filepath.Join(p, "lib", "libmpi.so"), "build 1", 0o644)
	im := &Impl{ID: "swapped", CC: filepath.Join(p, "bin", "mpicc"), Lib: filepath.Join(p, "lib", "libmpi.so")}
	f := Fixture{Name: "probe", Sources: []string{"probe/caps_after_init.c"}}
	compiles := func() int {
		data, _ := os.ReadFile(count)
		return strings.Count(string(data), "x")
	}
	build := func(what string, wantCompiles int, wantReplay bool) {
		t.Helper()
		mpiIdentities = Memo[string]{} // a new process: the MPI is looked at again
		b := Build(im, f)
		first := verdict.FirstLine(b.Error)
		if !strings.Contains(first, "MPI_Foo undeclared") {
			t.Errorf("%s: error %q, want the compiler's", what, first)
		}
		if replay := strings.Contains(first, "[replayed: the compiler refused it on "); replay != wantReplay {
			t.Errorf("%s: replay note %v, want %v: %q", what, replay, wantReplay, first)
		}
		if n := compiles(); n != wantCompiles {
			t.Errorf("%s: %d compiles, want %d", what, n, wantCompiles)
		}
	}
	build("first build", 1, false)
	build("same MPI", 1, true)
	mpitest.WriteFile(t, filepath.Join(p, "include", "mpi.h"), "#define MPI_VERSION 5\n", 0o644)
	build("another mpi.h", 2, false)
	mpitest.WriteFile(t, filepath.Join(p, "lib", "libmpi.so"), "build 2", 0o644)
	build("another library", 3, false)
	wrapper("gcc -I" + p + "/include -L" + p + "/lib -lmpi -lm")
	build("another wrapper answer", 4, false)
	build("same again", 4, true)
}

// A wrapper that answers -show and exits 0 from a compile without writing
// the program (it prints its command instead of running it) is named,
// with its command and the file that keeps its output.
func TestBuildThatWroteNothingIsNamed(t *testing.T) {
	t.Setenv("MPITS_CACHE", t.TempDir())
	p := t.TempDir()
	mpitest.WriteFile(t, filepath.Join(p, "bin", "mpicc"), "#!/bin/sh\necho gcc -I"+p+"/include -lmpi\n", 0o755)
	im := &Impl{ID: "printing", CC: filepath.Join(p, "bin", "mpicc")}
	b := Build(im, Fixture{Name: "probe", Sources: []string{"probe/caps_after_init.c"}})
	for _, want := range []string{"build probe (`" + im.CC + " ", "exited with status 0 but wrote no ", "output kept in "} {
		if !strings.Contains(b.Error, want) {
			t.Errorf("error %q lacks %q", b.Error, want)
		}
	}
}

// A program placed for a run is runnable at once and has the source's
// content; this process never opened it for writing (a link, or cp in a
// child), so no child forked meanwhile can hold it busy.
func TestPlaceExecutable(t *testing.T) {
	src := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "prog"), "#!/bin/sh\necho placed\n", 0o755)
	dst := filepath.Join(t.TempDir(), "sub", "prog")
	if err := PlaceExecutable(src, dst); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dst).Output()
	if err != nil || string(out) != "placed\n" {
		t.Errorf("running the placed program: %q, %v", out, err)
	}
}
