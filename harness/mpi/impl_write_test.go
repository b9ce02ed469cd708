package mpi

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// installed makes an MPI installation in a temporary folder (executable
// wrappers and launcher, a library file, its folder) and returns an
// available implementation naming it, with every field the file has.
func installed(t *testing.T, id string) Impl {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"bin/mpicc", "bin/mpifort", "bin/mpiexec"} {
		mpitest.WriteFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	mpitest.WriteFile(t, filepath.Join(dir, "lib", "libmpi.so.12"), "", 0o644)
	mpitest.WriteFile(t, filepath.Join(dir, "abi", "libmpi_abi.so.1"), "", 0o644)
	return Impl{
		ID: id, Family: "openmpi", Version: "4.1.4", Available: true,
		CC: dir + "/bin/mpicc", FC: dir + "/bin/mpifort",
		CFlags: []string{"-O2", "-DX=<1>"}, LDFlags: []string{"-lm"},
		Launcher: dir + "/bin/mpiexec", LauncherArgs: []string{"--oversubscribe"}, NPFlag: "-np",
		Env: map[string]string{"OMPI_B": "2", "OMPI_A": "1 & 2"},
		Lib: dir + "/lib/libmpi.so.12", LibDirs: []string{dir + "/lib"},
		ABI:   &ABI{CC: "sh", CFlags: []string{"-I/x"}, LDFlags: []string{"-L" + dir + "/abi", "-l:libmpi_abi.so.1"}, Lib: dir + "/abi/libmpi_abi.so.1", LibDir: dir + "/abi"},
		Notes: "built by the test", TwinOf: "other",
		Slurm: &Slurm{MPI: "pmix", Nodes: 2, Args: []string{"-p", "debug"}},
	}
}

// What AddImpl writes, a run reads back as it was given.
func TestAddImplRoundTrip(t *testing.T) {
	mpitest.ClearSettings(t)
	file := filepath.Join(t.TempDir(), "implementations.json")
	want := installed(t, "alpha")
	if err := AddImpl(file, want); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MPITS_IMPLEMENTATIONS", file)
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 1 || !reflect.DeepEqual(*impls[0], want) {
		t.Fatalf("LoadImpls read back\n%+v\nwant\n%+v", impls, want)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("the file's mode is %v (%v), want 0644: plain users read root's file", st.Mode().Perm(), err)
	}
	// An implementation in a root, launched through Slurm: ReadImplFile (a
	// run's LoadImpls would also ask Slurm whether it answers).
	root := t.TempDir()
	for _, f := range []string{"/opt/beta/bin/mpicc", "/opt/beta/bin/mpiexec"} {
		mpitest.WriteFile(t, root+f, "#!/bin/sh\n", 0o755)
	}
	mpitest.WriteFile(t, root+"/opt/beta/lib/libmpi.so.40", "", 0o644)
	in := Impl{ID: "beta", Family: "openmpi", Version: "6.0.0rc2", Available: true,
		Root: root, Prefix: []string{"sh", "-c"},
		CC: "/opt/beta/bin/mpicc", Launcher: "/opt/beta/bin/mpiexec",
		Lib: "/opt/beta/lib/libmpi.so.40", LibDirs: []string{"/opt/beta/lib"},
		ABIReason: "no MPI 5 ABI library in this root", Launch: settings.LaunchSrun}
	if err := AddImpl(file, in); err != nil {
		t.Fatal(err)
	}
	impls, err = ReadImplFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 2 || !reflect.DeepEqual(*impls[0], want) || !reflect.DeepEqual(*impls[1], in) {
		t.Fatalf("ReadImplFile read back\n%+v\n%+v\nwant\n%+v\n%+v", impls[0], impls[1], want, in)
	}
}

// One format: two spaces, the struct's order, empty fields left out, no
// HTML escapes, a newline at the end; the same entries give the same bytes.
func TestAddImplFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "implementations.json")
	im := Impl{ID: "gone", Family: "mpich", Available: false, Reason: "build failed <see log> & more", Prefix: []string{}}
	if err := AddImpl(file, im); err != nil {
		t.Fatal(err)
	}
	want := `{
  "generated_by": "mpits impl add",
  "implementations": [
    {
      "id": "gone",
      "family": "mpich",
      "version": "",
      "available": false,
      "reason": "build failed <see log> & more",
      "cc": "",
      "launcher": ""
    }
  ]
}
`
	got, _ := os.ReadFile(file)
	if string(got) != want {
		t.Fatalf("wrote\n%s\nwant\n%s", got, want)
	}
	if err := AddImpl(file, im); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(file); string(again) != want {
		t.Errorf("the same entry again changed the file:\n%s", again)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// An entry replaces the one with its id where it stands; a new one goes
// last; the others, and the file's generated_by, stay as they were.
func TestAddImplMerge(t *testing.T) {
	file := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "implementations.json"), `{"generated_by": "ci/provision", "implementations": [
 {"id": "a", "family": "mpich", "available": false, "reason": "old a", "prefix": [], "env": {}, "abi": null},
 {"id": "b", "available": false, "reason": "old b"},
 {"id": "c", "available": true, "cc": "/not/checked/mpicc", "launcher": "/not/checked/mpiexec"}]}`, 0o640)
	before, err := ReadImplFile(file)
	if err != nil {
		t.Fatal(err)
	}
	newB := installed(t, "b")
	if err := AddImpl(file, newB); err != nil {
		t.Fatal(err)
	}
	d := Impl{ID: "d", Available: false, Reason: "not provisioned yet"}
	if wrote, err := AddImplIfAbsent(file, d); err != nil || !wrote {
		t.Fatalf("AddImplIfAbsent of a new id: wrote %v, %v", wrote, err)
	}
	if wrote, err := AddImplIfAbsent(file, Impl{ID: "b", Available: false, Reason: "placeholder"}); err != nil || wrote {
		t.Fatalf("AddImplIfAbsent of an id there: wrote %v, %v; want it kept", wrote, err)
	}
	impls, err := ReadImplFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, im := range impls {
		ids = append(ids, im.ID)
	}
	if strings.Join(ids, ",") != "a,b,c,d" {
		t.Fatalf("ids %v, want a,b,c,d", ids)
	}
	if !reflect.DeepEqual(*impls[1], newB) || !reflect.DeepEqual(*impls[3], d) {
		t.Errorf("b or d not as written: %+v %+v", impls[1], impls[3])
	}
	// a's empty list and map and null abi are left out when written: the
	// same meaning, one way to say it.
	if a := impls[0]; a.ID != "a" || a.Reason != "old a" || len(a.Prefix) != 0 || len(a.Env) != 0 || a.ABI != nil {
		t.Errorf("a changed: %+v", a)
	}
	if !reflect.DeepEqual(impls[2], before[2]) {
		t.Errorf("c changed: %+v, was %+v", impls[2], before[2])
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), `"generated_by": "ci/provision"`) {
		t.Errorf("generated_by not kept:\n%s", data)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", st.Mode().Perm())
	}
}

// A bad entry is refused in one line naming what is wrong and what to do,
// and nothing is written.
func TestAddImplRefuses(t *testing.T) {
	ok := installed(t, "x")
	with := func(f func(*Impl)) Impl {
		im := ok
		im.ABI = &ABI{}
		*im.ABI = *ok.ABI
		f(&im)
		return im
	}
	for _, c := range []struct {
		name string
		im   Impl
		want []string
	}{
		{"no id", with(func(im *Impl) { im.ID = "" }), []string{`needs an "id"`}},
		{"bad id", with(func(im *Impl) { im.ID = "a,b" }), []string{`id "a,b" is not allowed`, "letters, digits"}},
		{"unknown family", with(func(im *Impl) { im.Family = "lam" }), []string{`x: family "lam" is not known`, "mpich or openmpi"}},
		{"unknown launch", with(func(im *Impl) { im.Launch = "qsub" }), []string{`launch "qsub" is not known`, `"srun"`}},
		{"no version", with(func(im *Impl) { im.Version = "" }), []string{"x: is available but has no version", `"available": false`}},
		{"no cc", with(func(im *Impl) { im.CC = "" }), []string{"has no cc", "compiler wrapper"}},
		{"no launcher", with(func(im *Impl) { im.Launcher = "" }), []string{"has no launcher"}},
		{"no lib", with(func(im *Impl) { im.Lib = "" }), []string{"has no lib"}},
		{"cc missing", with(func(im *Impl) { im.CC += ".gone" }), []string{"cc " + ok.CC + ".gone is not an executable file", "install it"}},
		{"cc not executable", with(func(im *Impl) { im.CC = im.Lib }), []string{"cc " + ok.Lib + " is not an executable file"}},
		{"fc missing", with(func(im *Impl) { im.FC += ".gone" }), []string{"fc " + ok.FC + ".gone is not an executable file"}},
		{"launcher missing", with(func(im *Impl) { im.Launcher = "/nonexistent/mpiexec" }), []string{"launcher /nonexistent/mpiexec is not an executable file"}},
		{"lib missing", with(func(im *Impl) { im.Lib += ".9" }), []string{"lib " + ok.Lib + ".9 does not exist"}},
		{"lib dir missing", with(func(im *Impl) { im.LibDirs = []string{"/nonexistent"} }), []string{"lib_dirs has /nonexistent, which is not a folder"}},
		{"empty word", with(func(im *Impl) { im.CFlags = []string{"-O2", ""} }), []string{"cflags has an empty word (number 2)", "leave it out"}},
		{"bad env", with(func(im *Impl) { im.Env = map[string]string{"A B": "1"} }), []string{`env has the variable name "A B"`, "NAME=VALUE"}},
		{"abi and reason", with(func(im *Impl) { im.ABIReason = "none" }), []string{"both an abi entry and an abi_reason"}},
		{"abi without lib", with(func(im *Impl) { im.ABI.Lib = "" }), []string{"abi entry without its lib", "abi_reason"}},
		{"abi lib missing", with(func(im *Impl) { im.ABI.Lib = "/nonexistent/libmpi_abi.so.1" }), []string{"abi lib /nonexistent/libmpi_abi.so.1 does not exist"}},
		{"abi cc missing", with(func(im *Impl) { im.ABI.CC = "no-such-compiler-mpits" }), []string{"abi cc no-such-compiler-mpits is not an executable file or on PATH"}},
		{"negative nodes", with(func(im *Impl) { im.Slurm = &Slurm{Nodes: -1} }), []string{"slurm nodes -1 is negative"}},
		{"twin of itself", with(func(im *Impl) { im.TwinOf = "x" }), []string{"twin_of names the implementation itself"}},
		{"available with reason", with(func(im *Impl) { im.Reason = "why" }), []string{`is available but has a reason ("why")`}},
		{"unavailable without reason", Impl{ID: "x", Available: false}, []string{"is not available and says no reason", `"reason"`}},
		{"root missing", with(func(im *Impl) { im.Root, im.Prefix = "/nonexistent-root", []string{"chroot", "/nonexistent-root"} }), []string{"root /nonexistent-root is not a folder"}},
		{"root without prefix", with(func(im *Impl) { im.Root = t.TempDir() }), []string{"but no prefix", "chroot"}},
		{"prefix not found", with(func(im *Impl) { im.Prefix = []string{"no-such-prefix-mpits"} }), []string{"prefix command no-such-prefix-mpits is not an executable file or on PATH"}},
		{"path outside the root", with(func(im *Impl) { im.Root, im.Prefix = t.TempDir(), []string{"sh"} }), []string{"is not an executable file inside its root"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "implementations.json")
			mpitest.WantOneLineErr(t, AddImpl(file, c.im), c.want...)
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Errorf("a refused entry wrote the file (%v)", err)
			}
		})
	}
	// An unavailable entry's paths are not looked at: its build failed.
	gone := with(func(im *Impl) {
		im.Available, im.Reason, im.CC, im.Lib = false, "make failed", "/nonexistent/mpicc", ""
	})
	if err := gone.Validate(); err != nil {
		t.Errorf("unavailable entry refused: %v", err)
	}
}

// A file that is no implementations file is not overwritten.
func TestAddImplBadFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, content, want string }{
		{"syntax", `{"implementations": [`, "is not valid"},
		{"unknown field", `{"implementations": [{"id": "a", "compiler": "x"}]}`, `unknown field "compiler"`},
		{"duplicate", `{"implementations": [{"id": "a"}, {"id": "a"}]}`, `id "a" appears twice`},
		{"null", `{"implementations": [null]}`, "entry 0 is null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := mpitest.WriteFile(t, filepath.Join(dir, c.name+".json"), c.content, 0o644)
			mpitest.WantOneLineErr(t, AddImpl(file, Impl{ID: "z", Reason: "r"}), file, c.want, "nothing was written")
			if got, _ := os.ReadFile(file); string(got) != c.content {
				t.Errorf("file changed: %s", got)
			}
		})
	}
	mpitest.WantOneLineErr(t, AddImpl(filepath.Join(dir, "no-such-folder", "i.json"), Impl{ID: "z", Reason: "r"}),
		"cannot write the implementations file", "make "+filepath.Join(dir, "no-such-folder")+" a folder this user can write")
}
