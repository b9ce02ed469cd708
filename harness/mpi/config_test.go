package mpi

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
)

func TestReadImplFileValid(t *testing.T) {
	path := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), mpitest.TwoImpls, 0o644)
	impls, err := ReadImplFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 2 {
		t.Fatalf("want 2 implementations, got %d", len(impls))
	}
	a, b := impls[0], impls[1]
	if a.ID != "alpha" || a.Family != "mpich" || !a.Available || a.CC != "/opt/alpha/bin/mpicc" ||
		a.Launcher != "/opt/alpha/bin/mpiexec" || a.NPFlag != "-np" || a.Env["A"] != "1" || a.Lib != "/opt/alpha/lib/libmpi.so" {
		t.Errorf("alpha decoded wrong: %+v", a)
	}
	if got, want := a.jobArgv(2, false, "", "", "prog", []string{"x"}), []string{"/opt/alpha/bin/mpiexec", "-x", "-np", "2", "prog", "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("jobArgv = %q, want %q", got, want)
	}
	if b.ID != "beta" || b.Available || b.Reason != "not built" {
		t.Errorf("beta decoded wrong: %+v", b)
	}
}

func TestReadImplFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"unknown field", `{"implementations":[{"id":"a","cc":"x","launcher":"y","compiler":"z"}]}`,
			[]string{"is not valid", `unknown field "compiler"`, "docs/running.md"}},
		{"syntax", `{"implementations":[`, []string{"is not valid", "docs/running.md"}},
		{"duplicate id", `{"implementations":[{"id":"a","cc":"x","launcher":"y"},{"id":"a","cc":"x","launcher":"y"}]}`,
			[]string{`id "a" appears twice`, "give each implementation its own id"}},
		{"no id", `{"implementations":[{"cc":"x","launcher":"y"}]}`,
			[]string{"entry 0 has no id", "give it"}},
		{"null entry", `{"implementations":[null]}`,
			[]string{"entry 0 is null", "remove it"}},
		{"available without cc", `{"implementations":[{"id":"a","available":true,"launcher":"y"}]}`,
			[]string{"a is available but has no cc or launcher", "set both", `"available": false`}},
		{"available without launcher", `{"implementations":[{"id":"a","available":true,"cc":"x"}]}`,
			[]string{"a is available but has no cc or launcher", "set both"}},
		{"empty list", `{"implementations":[]}`, []string{"lists no implementation", "run ci/provision"}},
		{"no list", `{}`, []string{"lists no implementation", "run ci/provision"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := mpitest.WriteFile(t, filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json"), c.content, 0o644)
			impls, err := ReadImplFile(path)
			if impls != nil {
				t.Errorf("want no implementations with an error, got %d", len(impls))
			}
			mpitest.WantOneLineErr(t, err, append([]string{path}, c.want...)...)
		})
	}
	t.Run("unavailable without cc", func(t *testing.T) {
		path := mpitest.WriteFile(t, filepath.Join(dir, "unavail.json"), `{"implementations":[{"id":"a","available":false,"reason":"r"}]}`, 0o644)
		if _, err := ReadImplFile(path); err != nil {
			t.Errorf("an unavailable entry needs no cc or launcher, got %v", err)
		}
	})
	t.Run("unreadable path", func(t *testing.T) {
		path := filepath.Join(dir, "no", "such.json")
		_, err := ReadImplFile(path)
		mpitest.WantOneLineErr(t, err, path, "cannot be read", "no such file or directory", "run ci/provision or fix MPITS_IMPLEMENTATIONS")
	})
	t.Run("a folder", func(t *testing.T) {
		_, err := ReadImplFile(dir)
		mpitest.WantOneLineErr(t, err, dir, "cannot be read", "fix MPITS_IMPLEMENTATIONS")
	})
}

func TestLoadImplsFromFile(t *testing.T) {
	mpitest.ClearSettings(t)
	path := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), mpitest.TwoImplsHere(t), 0o644)
	t.Setenv("MPITS_IMPLEMENTATIONS", path)
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 2 || impls[0].ID != "alpha" || impls[1].ID != "beta" {
		t.Fatalf("want alpha and beta, got %v", ids(impls))
	}

	t.Setenv("MPITS_IMPLS", " beta, alpha,")
	impls, err = LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(impls); !reflect.DeepEqual(got, []string{"beta", "alpha"}) {
		t.Errorf("MPITS_IMPLS=' beta, alpha,' selects %v, want [beta alpha]", got)
	}

	t.Setenv("MPITS_IMPLS", "alpha,gamma")
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_IMPLS", `"gamma"`, "known are alpha, beta")

	t.Setenv("MPITS_IMPLS", ",")
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_IMPLS", "names no implementation", "alpha, beta")

	t.Setenv("MPITS_IMPLS", "")
	t.Setenv("MPITS_IMPLEMENTATIONS", filepath.Join(t.TempDir(), "missing.json"))
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "missing.json", "fix MPITS_IMPLEMENTATIONS")
}

func TestLoadImplsDefaultFileInCache(t *testing.T) {
	mpitest.ClearSettings(t)
	cache := t.TempDir()
	t.Setenv("MPITS_CACHE", cache)
	mpitest.WriteFile(t, filepath.Join(cache, "implementations.json"), mpitest.TwoImplsHere(t), 0o644)
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(impls); !reflect.DeepEqual(got, []string{"alpha", "beta"}) {
		t.Errorf("$MPITS_CACHE/implementations.json gives %v, want [alpha beta]", got)
	}
}

func TestLoadImplsLauncherOverride(t *testing.T) {
	mpitest.ClearSettings(t)
	path := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), mpitest.TwoImplsHere(t), 0o644)
	t.Setenv("MPITS_IMPLEMENTATIONS", path)
	bin := t.TempDir()
	mpitest.WriteFile(t, filepath.Join(bin, "srun"), "#!/bin/sh\n", 0o755)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Setenv("MPITS_LAUNCHER", "srun")
	t.Setenv("MPITS_LAUNCHER_ARGS", "--mpi=pmix  -N1")
	t.Setenv("MPITS_NP_FLAG", "--ntasks")
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range impls {
		if im.Launcher != "srun" || !reflect.DeepEqual(im.LauncherArgs, []string{"--mpi=pmix", "-N1"}) || im.NPFlag != "--ntasks" {
			t.Errorf("%s: launcher %q args %q np %q, want srun [--mpi=pmix -N1] --ntasks", im.ID, im.Launcher, im.LauncherArgs, im.NPFlag)
		}
	}
	if got, want := impls[0].jobArgv(3, false, "", "", "/p", nil), []string{"srun", "--mpi=pmix", "-N1", "--ntasks", "3", "/p"}; !reflect.DeepEqual(got, want) {
		t.Errorf("jobArgv = %q, want %q", got, want)
	}

	// Without MPITS_NP_FLAG the file's np flag stays; the launcher's own
	// arguments (e.g. Open MPI's --oversubscribe) are replaced.
	t.Setenv("MPITS_NP_FLAG", "")
	t.Setenv("MPITS_LAUNCHER_ARGS", "")
	impls, err = LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if im := impls[0]; im.Launcher != "srun" || len(im.LauncherArgs) != 0 || im.NPFlag != "-np" {
		t.Errorf("alpha: launcher %q args %q np %q, want srun [] -np", im.Launcher, im.LauncherArgs, im.NPFlag)
	}
}

func TestLoadImplsMPIFolder(t *testing.T) {
	mpitest.ClearSettings(t)
	dir := t.TempDir()
	t.Setenv("MPITS_MPI", dir)
	_, err := LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPI="+dir, "has no executable bin/mpicc", "bin/mpiexec")

	// bin/mpicc there but no launcher.
	mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpicc"), "#!/bin/sh\nexit 1\n", 0o755)
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPI="+dir, "has no executable bin/mpiexec")

	t.Setenv("MPITS_MPI", filepath.Join(dir, "nowhere"))
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPI="+filepath.Join(dir, "nowhere"), "is not a folder", "bin/mpicc")

	// A prefix with a wrapper that answers -show and a launcher.
	fake := fakeMPI(t, "mpich")
	t.Setenv("MPITS_MPI", fake)
	t.Setenv("MPITS_IMPL_ID", "mine")
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 1 || impls[0].ID != "mine" || impls[0].Family != "mpich" ||
		impls[0].CC != filepath.Join(fake, "bin", "mpicc") || impls[0].Launcher != filepath.Join(fake, "bin", "mpiexec") {
		t.Errorf("MPITS_MPI=%s gives %+v", fake, impls[0])
	}
}

func TestLoadImplsWrapperSettings(t *testing.T) {
	mpitest.ClearSettings(t)
	t.Setenv("MPITS_MPICC", "/usr/bin/mpicc")
	_, err := LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPICC and MPITS_MPIEXEC go together", "set both")

	t.Setenv("MPITS_MPICC", "")
	t.Setenv("MPITS_MPIEXEC", "/usr/bin/mpiexec")
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPICC and MPITS_MPIEXEC go together")

	fake := fakeMPI(t, "openmpi")
	missing := filepath.Join(t.TempDir(), "mpicc")
	t.Setenv("MPITS_MPICC", missing)
	t.Setenv("MPITS_MPIEXEC", filepath.Join(fake, "bin", "mpiexec"))
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPICC="+missing, "is not an executable file or a name on PATH", "compiler wrapper (mpicc)")

	t.Setenv("MPITS_MPICC", filepath.Join(fake, "bin", "mpicc"))
	t.Setenv("MPITS_MPIEXEC", missing)
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPIEXEC="+missing, "is not an executable file or a name on PATH", "launcher (mpiexec)")

	t.Setenv("MPITS_MPIEXEC", filepath.Join(fake, "bin", "mpiexec"))
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) != 1 || impls[0].ID != "custom" || impls[0].Family != "openmpi" {
		t.Errorf("MPITS_MPICC+MPITS_MPIEXEC give %+v, want one openmpi implementation named custom", impls[0])
	}
}

// A wrapper and a launcher named as people type them, found on PATH, are
// taken as the files PATH finds.
func TestWrapperNamesOnPath(t *testing.T) {
	mpitest.ClearSettings(t)
	fake := fakeMPI(t, "mpich")
	t.Setenv("PATH", filepath.Join(fake, "bin")+":"+os.Getenv("PATH"))
	t.Setenv("MPITS_MPICC", "mpicc")
	t.Setenv("MPITS_MPIEXEC", "mpiexec")
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(fake, "bin", "mpicc"); impls[0].CC != want || impls[0].Launcher != filepath.Join(fake, "bin", "mpiexec") {
		t.Errorf("cc %s, launcher %s: want the files PATH finds (%s)", impls[0].CC, impls[0].Launcher, want)
	}
	t.Setenv("MPITS_MPICC", "no-such-mpicc")
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_MPICC=no-such-mpicc is not an executable file or a name on PATH")
}

// fakeMPI makes an installation prefix whose bin/mpicc is a shell script
// answering like the family's wrapper, with an empty library file to find.
func fakeMPI(t *testing.T, family string) string {
	t.Helper()
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	var script string
	switch family {
	case "mpich":
		mpitest.WriteFile(t, filepath.Join(lib, "libmpich.so.12.3.0"), "", 0o644)
		script = "#!/bin/sh\n[ \"$1\" = -show ] || exit 1\necho gcc -I" + dir + "/include -L" + lib + " -Wl,-rpath," + lib + " -lmpich\n"
	case "openmpi":
		mpitest.WriteFile(t, filepath.Join(lib, "libmpi.so.40"), "", 0o644)
		script = "#!/bin/sh\n[ \"$1\" = --showme:link ] || exit 1\necho -L" + lib + " -lmpi\n"
	}
	mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpicc"), script, 0o755)
	mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpiexec"), "#!/bin/sh\nexec \"$@\"\n", 0o755)
	return dir
}

func TestImplFromFakeWrapper(t *testing.T) {
	t.Run("mpich", func(t *testing.T) {
		dir := fakeMPI(t, "mpich")
		im, err := ImplFromWrapper("fake", filepath.Join(dir, "bin", "mpicc"), filepath.Join(dir, "bin", "mpiexec"), nil)
		if err != nil {
			t.Fatal(err)
		}
		lib := filepath.Join(dir, "lib")
		if im.Family != "mpich" || im.Lib != filepath.Join(lib, "libmpich.so.12.3.0") || !reflect.DeepEqual(im.LibDirs, []string{lib, lib}) {
			t.Errorf("family %q lib %q dirs %q", im.Family, im.Lib, im.LibDirs)
		}
		if len(im.LauncherArgs) != 0 || im.Env != nil || im.NPFlag != "-n" || !im.Available {
			t.Errorf("an MPICH implementation needs no launcher args or env: %+v", im)
		}
		if im.FC != "" {
			t.Errorf("no mpifort next to the wrapper, yet FC = %q", im.FC)
		}
	})
	t.Run("openmpi", func(t *testing.T) {
		dir := fakeMPI(t, "openmpi")
		mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpifort"), "#!/bin/sh\n", 0o755)
		im, err := ImplFromWrapper("fake", filepath.Join(dir, "bin", "mpicc"), filepath.Join(dir, "bin", "mpiexec"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if im.Family != "openmpi" || im.Lib != filepath.Join(dir, "lib", "libmpi.so.40") {
			t.Errorf("family %q lib %q", im.Family, im.Lib)
		}
		if !reflect.DeepEqual(im.LauncherArgs, []string{"--oversubscribe"}) {
			t.Errorf("Open MPI launcher args %q, want [--oversubscribe]", im.LauncherArgs)
		}
		if os.Geteuid() == 0 && (im.Env["OMPI_ALLOW_RUN_AS_ROOT"] != "1" || im.Env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] != "1") {
			t.Errorf("as root Open MPI needs OMPI_ALLOW_RUN_AS_ROOT*, env is %v", im.Env)
		}
		if im.FC != filepath.Join(dir, "bin", "mpifort") {
			t.Errorf("FC = %q, want the mpifort next to mpicc", im.FC)
		}
	})
	t.Run("not a wrapper", func(t *testing.T) {
		cc := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "mpicc"), "#!/bin/sh\necho \"no idea what $1 means\" >&2\nexit 2\n", 0o755)
		_, err := ImplFromWrapper("fake", cc, "/bin/true", nil)
		mpitest.WantOneLineErr(t, err, cc, "answers neither --showme (Open MPI) nor -show (MPICH)", "Point MPITS_MPICC at your MPI's mpicc")
	})
	t.Run("silent wrapper", func(t *testing.T) {
		cc := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "mpicc"), "#!/bin/sh\necho\n", 0o755)
		_, err := ImplFromWrapper("fake", cc, "/bin/true", nil)
		mpitest.WantOneLineErr(t, err, cc, "answers neither")
	})
	t.Run("no library to find", func(t *testing.T) {
		dir := t.TempDir()
		cc := mpitest.WriteFile(t, filepath.Join(dir, "mpicc"), "#!/bin/sh\n[ \"$1\" = -show ] || exit 1\necho gcc\necho -L"+dir+"/nolib -lmpich_nowhere\n", 0o755)
		_, err := ImplFromWrapper("fake", cc, "/bin/true", nil)
		mpitest.WantOneLineErr(t, err, cc, "links no MPI library", "gcc -L"+dir+"/nolib -lmpich_nowhere", "set MPITS_IMPLEMENTATIONS")
	})
}

func TestFindLib(t *testing.T) {
	dir := t.TempDir()
	mpitest.WriteFile(t, filepath.Join(dir, "a", "libmpi.so.40.30.5"), "", 0o644)
	mpitest.WriteFile(t, filepath.Join(dir, "a", "libmpi.so.40"), "", 0o644)
	mpitest.WriteFile(t, filepath.Join(dir, "a", "libmpi_abi.so"), "", 0o644)
	mpitest.WriteFile(t, filepath.Join(dir, "b", "libmpich.so"), "", 0o644)

	lib, dirs := findLib("-Wl,-rpath," + dir + "/a -lmpi -lpthread")
	if lib != filepath.Join(dir, "a", "libmpi.so.40") || !reflect.DeepEqual(dirs, []string{dir + "/a"}) {
		t.Errorf("rpath dir: lib %q dirs %q", lib, dirs)
	}
	lib, _ = findLib("gcc -L" + dir + "/b -L" + dir + "/a -lmpich")
	if lib != filepath.Join(dir, "b", "libmpich.so") {
		t.Errorf("-lmpich: lib %q, want %s/b/libmpich.so", lib, dir)
	}
	if lib, _ := findLib("gcc -L" + dir + "/a -lm"); lib != "" {
		t.Errorf("no -lmpi/-lmpich, yet lib %q", lib)
	}
}

// TestDetectFromPath uses the MPI wrappers installed on this machine.
func TestDetectFromPath(t *testing.T) {
	impls := DetectFromPath()
	byID := map[string]*Impl{}
	libs := map[string]string{}
	for _, im := range impls {
		byID[im.ID] = im
		if other, ok := libs[im.Lib]; ok {
			t.Errorf("%s and %s are the same installation (%s): DetectFromPath should list it once", other, im.ID, im.Lib)
		}
		libs[im.Lib] = im.ID
	}
	for _, c := range []struct{ id, cc, run, family, lib string }{
		{"mpich", "mpicc.mpich", "mpiexec.mpich", "mpich", "libmpich.so"},
		{"openmpi", "mpicc.openmpi", "mpiexec.openmpi", "openmpi", "libmpi.so"},
	} {
		t.Run(c.id, func(t *testing.T) {
			cc, err1 := exec.LookPath(c.cc)
			run, err2 := exec.LookPath(c.run)
			if err1 != nil || err2 != nil {
				t.Skipf("%s or %s not on PATH", c.cc, c.run)
			}
			im := byID[c.id]
			if im == nil {
				t.Fatalf("%s is on PATH but DetectFromPath found only %v", c.cc, ids(impls))
			}
			checkHostImpl(t, im, c.family, c.lib)
			if im.CC != cc || im.Launcher != run {
				t.Errorf("cc %q launcher %q, want %q %q", im.CC, im.Launcher, cc, run)
			}
			direct, err := ImplFromWrapper(c.id, cc, run, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkHostImpl(t, direct, c.family, c.lib)
		})
	}
}

func checkHostImpl(t *testing.T, im *Impl, family, lib string) {
	t.Helper()
	if im.Family != family {
		t.Errorf("%s: family %q, want %q", im.ID, im.Family, family)
	}
	if !strings.HasPrefix(filepath.Base(im.Lib), lib) {
		t.Errorf("%s: lib %q, want a %s*", im.ID, im.Lib, lib)
	}
	if st, err := os.Stat(im.Lib); err != nil || st.IsDir() {
		t.Errorf("%s: lib %q does not exist: %v", im.ID, im.Lib, err)
	}
	if !im.Available || im.NPFlag != "-n" {
		t.Errorf("%s: %+v", im.ID, im)
	}
}

func ids(impls []*Impl) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.ID)
	}
	return out
}
