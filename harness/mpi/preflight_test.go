package mpi

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// asPlainUser makes the harness see a plain user whose cache is empty, and
// root's provisioning in a temporary system cache.
func asPlainUser(t *testing.T) (system string) {
	t.Helper()
	mpitest.ClearSettings(t)
	t.Setenv("MPITS_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	old, oldCache := geteuid, systemCache
	geteuid = func() int { return 1000 }
	systemCache = t.TempDir()
	t.Cleanup(func() { geteuid, systemCache = old, oldCache })
	return systemCache
}

// A plain user finds what root provisioned when its own cache has no
// implementations file; its own file wins; MPITS_CACHE names the only one.
func TestPlainUserReadsRootsImplementations(t *testing.T) {
	system := asPlainUser(t)
	mpitest.WriteFile(t, filepath.Join(system, "implementations.json"), mpitest.TwoImplsHere(t), 0o644)
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(impls); !reflect.DeepEqual(got, []string{"alpha", "beta"}) {
		t.Errorf("a plain user gets %v, want root's [alpha beta]", got)
	}
	if own := CacheDir(); own == system || !strings.HasPrefix(own, os.Getenv("XDG_CACHE_HOME")) {
		t.Errorf("builds go to %s, want the user's own cache", own)
	}

	mpitest.WriteFile(t, filepath.Join(CacheDir(), "implementations.json"), `{"implementations":[{"id":"mine","reason":"r"}]}`, 0o644)
	if impls, err := LoadImpls(); err != nil || !reflect.DeepEqual(ids(impls), []string{"mine"}) {
		t.Errorf("with a file of its own, a plain user gets %v (%v), want [mine]", ids(impls), err)
	}

	t.Setenv("MPITS_CACHE", t.TempDir())
	if got := DefaultImplFile(); got != filepath.Join(settings.Setting("MPITS_CACHE").String(), "implementations.json") {
		t.Errorf("with MPITS_CACHE set the file read is %s, want the one in MPITS_CACHE", got)
	}
}

// An implementation in a chroot is unavailable to a plain user, with the
// chroot's own words (its rules are then unsupported: check_test.go).
func TestChrootNeedsRoot(t *testing.T) {
	asPlainUser(t)
	root := t.TempDir()
	chroot := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "chroot"),
		"#!/bin/sh\necho \"chroot: cannot change root directory to '$1': Operation not permitted\" >&2\nexit 125\n", 0o755)
	im := &Impl{ID: "in-root", Available: true, Root: root, Prefix: []string{chroot, root}, CC: "/bin/mpicc", Launcher: "/bin/mpiexec"}
	c := Probe(im)
	want := "runs in a chroot of " + root + ", which needs root: run as root (chroot: cannot change root directory to '" + root + "': Operation not permitted)"
	if c.Available || c.Reason != want {
		t.Fatalf("Probe: available %v, reason %q; want unavailable, %q", c.Available, c.Reason, want)
	}
}

// A wrong setting gives one line and stops LoadImpls, before any probe.
func TestSettingsCheckedFirst(t *testing.T) {
	mpitest.ClearSettings(t)
	impls := func(body string) string {
		return mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), `{"implementations":[`+body+`]}`, 0o644)
	}
	good := t.TempDir()
	cc := mpitest.WriteFile(t, filepath.Join(good, "bin", "mpicc"), "#!/bin/sh\n", 0o755)
	run := mpitest.WriteFile(t, filepath.Join(good, "bin", "mpiexec"), "#!/bin/sh\n", 0o755)
	lib := mpitest.WriteFile(t, filepath.Join(good, "lib", "libmpi.so.12"), "", 0o644)
	entry := func(cc, run, lib string) string {
		return `{"id":"x","available":true,"cc":"` + cc + `","launcher":"` + run + `","lib":"` + lib + `"}`
	}

	// A root whose mpicc is an alternative: an absolute link that points
	// into the root, not to the host's /etc/alternatives.
	root := t.TempDir()
	mpitest.WriteFile(t, filepath.Join(root, "usr", "bin", "mpicc.mpich"), "#!/bin/sh\n", 0o755)
	mpitest.WriteFile(t, filepath.Join(root, "usr", "bin", "mpiexec.hydra"), "#!/bin/sh\n", 0o755)
	mpitest.WriteFile(t, filepath.Join(root, "usr", "lib", "libmpich.so.12"), "", 0o644)
	os.MkdirAll(filepath.Join(root, "etc", "alternatives"), 0o755)
	os.Symlink("/usr/bin/mpicc.mpich", filepath.Join(root, "etc", "alternatives", "mpits-mpi")) // not on the host
	os.Symlink("/etc/alternatives/mpits-mpi", filepath.Join(root, "usr", "bin", "mpicc"))
	os.Symlink("mpiexec.hydra", filepath.Join(root, "usr", "bin", "mpiexec"))
	rooted := func(cc, run, lib string) string {
		return `{"id":"r","available":true,"root":"` + root + `","prefix":["chroot","` + root + `"],"cc":"` + cc + `","launcher":"` + run + `","lib":"` + lib + `"}`
	}
	t.Setenv("MPITS_IMPLEMENTATIONS", impls(rooted("/usr/bin/mpicc", "/usr/bin/mpiexec", "/usr/lib/libmpich.so.12")+","+entry(cc, run, lib)))
	if _, err := LoadImpls(); err != nil {
		t.Fatalf("paths that exist (in the root through its own links): %v", err)
	}

	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"no cc", entry(cc+"-no", run, lib), []string{"x: cc " + cc + "-no is not an executable file", "fix the path"}},
		{"no launcher", entry(cc, good, lib), []string{"x: launcher " + good + " is not an executable file"}},
		{"no lib", entry(cc, run, lib+".0"), []string{"x: lib " + lib + ".0 does not exist"}},
		{"host path, not in the root", rooted(cc, "/usr/bin/mpiexec", "/usr/lib/libmpich.so.12"),
			[]string{"r: cc " + cc + " is not an executable file inside its root " + root}},
		{"lib not in the root", rooted("/usr/bin/mpicc", "/usr/bin/mpiexec", lib),
			[]string{"r: lib " + lib + " does not exist inside its root " + root}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := impls(c.body)
			t.Setenv("MPITS_IMPLEMENTATIONS", f)
			_, err := LoadImpls()
			mpitest.WantOneLineErr(t, err, append([]string{"implementations file " + f, `"available": false`}, c.want...)...)
		})
	}

	t.Run("MPITS_LAUNCHER", func(t *testing.T) {
		t.Setenv("MPITS_IMPLEMENTATIONS", impls(entry(cc, run, lib)))
		t.Setenv("MPITS_LAUNCHER", "no-such-srun")
		_, err := LoadImpls()
		mpitest.WantOneLineErr(t, err, "MPITS_LAUNCHER=no-such-srun is not an executable file or on PATH", "set it to")
		t.Setenv("MPITS_LAUNCHER", good)
		_, err = LoadImpls()
		mpitest.WantOneLineErr(t, err, "MPITS_LAUNCHER="+good)
	})

	t.Run("MPITS_CACHE", func(t *testing.T) {
		t.Setenv("MPITS_IMPLEMENTATIONS", impls(entry(cc, run, lib)))
		bad := filepath.Join(lib, "cache") // under a file: cannot be made
		t.Setenv("MPITS_CACHE", bad)
		_, err := LoadImpls()
		mpitest.WantOneLineErr(t, err, "MPITS_CACHE="+bad, "is not a folder this user can write", "not a directory", "set MPITS_CACHE")
	})

	t.Run("MPITS_JOB_DIR", func(t *testing.T) {
		t.Setenv("MPITS_IMPLEMENTATIONS", impls(entry(cc, run, lib)))
		bad := filepath.Join(lib, "jobs")
		t.Setenv("MPITS_JOB_DIR", bad)
		_, err := LoadImpls()
		mpitest.WantOneLineErr(t, err, "MPITS_JOB_DIR="+bad, "is not a folder this user can write", "every node of your cluster shares")
		t.Setenv("MPITS_JOB_DIR", t.TempDir())
		if _, err := LoadImpls(); err != nil {
			t.Errorf("a writable MPITS_JOB_DIR: %v", err)
		}
	})
}

func TestLastWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 10, ""},
		{"one\n\n  two  \n-----\n", 20, "one | two"},
		{strings.Repeat("x", 50) + "\nend\n", 10, "…xxxx | end"},
		{"ééééé", 7, "…ééé"}, // never half a character
		{"terminate the job. | \x00salloc: Relinquishing\x1b[0m\r\n", 60, "terminate the job. | salloc: Relinquishing[0m"},
	} {
		if got := lastWords(c.in, c.n); got != c.want {
			t.Errorf("lastWords(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A probe that fails says what the runtime said: stderr's tail, else
// stdout's, on the problem's line.
func TestProbeProblemsQuoteTheRuntime(t *testing.T) {
	mpitest.ClearSettings(t)
	bin := t.TempDir()
	cc := mpitest.WriteFile(t, filepath.Join(bin, "mpicc"), `#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '#!/bin/sh\n' >"$out" && chmod +x "$out"
`, 0o755)
	for _, c := range []struct{ launcher, want string }{
		{"echo '[mpiexec@h] HYDU_create_process (lib/utils/launch.c:73): execvp error on file x' >&2; exit 127",
			"exited with status 127: [mpiexec@h] HYDU_create_process (lib/utils/launch.c:73): execvp error on file x"},
		{"echo 'mpirun was unable to launch'; echo 'the specified application'; exit 1",
			"exited with status 1: mpirun was unable to launch | the specified application"},
	} {
		run := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "mpiexec"), "#!/bin/sh\n"+c.launcher+"\n", 0o755)
		im := &Impl{ID: "fake", Available: true, CC: cc, FC: cc, Launcher: run}
		var caps Caps
		probeAfterInit(im, &caps)
		// the command, then what became of it and what it said
		if len(caps.Problems) != 1 || !strings.Contains(caps.Problems[0], "caps_after_init (`"+run+" ") || !strings.Contains(caps.Problems[0], "/caps_after_init`) "+c.want) {
			t.Errorf("after-init probe problems %q, want one with %q", caps.Problems, c.want)
		}
		if f := probeFortran(im); !strings.Contains(f.Reason, "fortran_mpifh: fortran_mpifh (`"+run+" ") || !strings.Contains(f.Reason, "/fortran_mpifh`) "+c.want) {
			t.Errorf("Fortran reason %q, want %q", f.Reason, c.want)
		}
	}
}

// A launcher that hangs breaks the probe once, at its deadline, with a
// reason that names the command that hung.
func TestProbeOfHangingLauncherNamesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: probes with a launcher that hangs until the probe's 5 s deadline, 5 s; run without -short")
	}
	mpitest.ClearSettings(t)
	defer func(d time.Duration) { probeDeadline = d }(probeDeadline)
	// The launcher must have said it waits before the deadline fires: a
	// generous bound on a shell starting on a busy machine.
	probeDeadline = 5 * time.Second
	bin := t.TempDir()
	cc := mpitest.WriteFile(t, filepath.Join(bin, "mpicc"), `#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '#!/bin/sh\n' >"$out" && chmod +x "$out"
`, 0o755)
	run := mpitest.WriteFile(t, filepath.Join(bin, "mpiexec"), "#!/bin/sh\necho 'waiting for the nodes' >&2\nexec sleep 30\n", 0o755)
	im := &Impl{ID: "fake", Available: true, CC: cc, Launcher: run}
	var caps Caps
	start := time.Now()
	probeAfterInit(im, &caps)
	if took := time.Since(start); took > probeDeadline+10*time.Second {
		t.Errorf("the probe took %s, want about its deadline of %s", took, probeDeadline)
	}
	want := "caps_after_init (`" + run + " -n 1 …/caps_after_init`) did not finish within its deadline ("
	said := ") and was killed: waiting for the nodes (output kept in " + probeLog(im, "caps_after_init") + ")"
	if len(caps.Problems) != 1 || !strings.HasPrefix(caps.Problems[0], want) || !strings.HasSuffix(caps.Problems[0], said) {
		t.Errorf("after-init probe problems %q, want one %q…%q", caps.Problems, want, said)
	}
}

// A user without HOME (a cron job, env -i) gets a cache of its own in the
// temporary folder, never one another user made there first; an
// implementations file another user can write, or owns, is not read, nor
// is a cache folder other users can write used: their commands and
// fixtures would run as this user. Each refusal is one line, before
// anything runs.
func TestCacheOfAnotherUserRefused(t *testing.T) {
	mpitest.ClearSettings(t)
	t.Setenv("MPITS_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	old := geteuid
	geteuid = func() int { return 1000 } // not root: no system cache of its own
	t.Cleanup(func() { geteuid = old })
	tmp := t.TempDir()
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	own := CacheDir()
	if want := tempCacheDir(); own != want || !strings.HasPrefix(own, tmp) || !strings.HasSuffix(own, "-"+strconv.Itoa(os.Getuid())) {
		t.Fatalf("without HOME the cache is %s, want this user's own %s", own, want)
	}
	if err := checkCache(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(own); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the cache made without HOME: %v, %v; want a folder of mode 700", info.Mode(), err)
	}
	if os.Getuid() != 0 {
		t.Skip("planting another user's files needs root")
	}
	nobody := 65534
	// Another user's folder at that name, holding an implementations file.
	os.RemoveAll(own)
	mpitest.WriteFile(t, filepath.Join(own, "implementations.json"), `{"implementations":[{"id":"theirs","cc":"/bin/true","launcher":"/bin/true","available":true}]}`, 0o644)
	for _, p := range []string{own, filepath.Join(own, "implementations.json")} {
		if err := os.Chown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	_, err := LoadImpls()
	mpitest.WantOneLineErr(t, err, own, "belongs to uid 65534", "set MPITS_CACHE to a folder of yours")

	// A cache folder of ours that others can write.
	mine := t.TempDir()
	if err := os.Chmod(mine, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MPITS_CACHE", mine)
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_CACHE="+mine, "can be written by other users")

	// Our cache, holding an implementations file another user owns.
	os.Chmod(mine, 0o755)
	file := mpitest.WriteFile(t, filepath.Join(mine, "implementations.json"), `{"implementations":[{"id":"theirs","reason":"r"}]}`, 0o644)
	if err := os.Chown(file, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, file, "belongs to uid 65534", "nothing of it is used")
}
