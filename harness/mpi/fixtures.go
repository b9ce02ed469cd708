package mpi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/mpits/mpits/harness/settings"
)

// Fixture is a C (or Fortran) program or shared library in fixtures/c.
type Fixture struct {
	Name    string   // output file name
	Sources []string // relative to fixtures/c; compiled
	Headers []string // relative to fixtures/c; copied beside the sources, not compiled
	Shared  bool     // a shared library (a tool or a fault injector)
	ABI     bool     // built against the implementation's MPI 5 standard ABI header and libmpi_abi
	Fortran bool     // compiled with the implementation's Fortran wrapper, without the record helper
	Flags   []string // extra compiler flags, e.g. -rdynamic, -pthread
	Dir     string   // host folder holding Sources, for generated sources (default fixtures/c)
}

const recordHelper = "lib/mpits_record.c"

// FixturesDir is fixtures/c of the source tree the run is in (MPITS_FIXTURES
// overrides), or else the copy the binary carries (fixtures.C), written
// once into the cache.
func FixturesDir() (string, error) {
	if d := settings.Setting("MPITS_FIXTURES").String(); d != "" {
		return d, nil
	}
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "fixtures", "c", recordHelper)); err == nil {
			return filepath.Join(d, "fixtures", "c"), nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return embeddedFixtures()
}

// Built is the outcome of building one fixture for one implementation.
type Built struct {
	Fixture string `json:"fixture"`
	Impl    string `json:"impl"`
	Path    string `json:"path,omitempty"` // as the implementation sees it
	Error   string `json:"error,omitempty"`
	// Missing: the build was refused only for names the implementation
	// lacks (MissingNames), which the rules that use it judge.
	Missing []string `json:"missing,omitempty"`
}

// Build compiles f for im into a cache keyed by the sources' content and the
// implementation's compile settings; a cached build is reused. Concurrent
// builders (ginkgo -p, parallel packages) wait on a file lock.
func Build(im *Impl, f Fixture) Built {
	offTapeIfReplaying("the build of " + f.Name)
	b := Built{Fixture: f.Name, Impl: im.ID}
	fixtures, err := FixturesDir()
	if err != nil {
		b.Error = err.Error()
		return b
	}
	src := fixtures
	if f.Dir != "" {
		src = f.Dir
	}
	files := append(append([]string{}, f.Sources...), f.Headers...)
	helpers := []string{}
	if !f.Fortran {
		helpers = []string{recordHelper, "lib/mpits_record.h", "lib/mpits_items.h", "lib/mpits_mpit_rc.h"}
	}
	sources := []sourceSet{{src, files}, {fixtures, helpers}}
	key, err := buildKey(im, f, sources)
	if err != nil {
		b.Error = err.Error()
		return b
	}
	var base string
	if im.Root != "" {
		base = im.HostPath("/var/cache/mpits-fixtures")
	} else {
		base = filepath.Join(CacheDir(), "fixtures")
	}
	dir := filepath.Join(base, im.ID, f.Name+"-"+key[:16])
	out := filepath.Join(dir, f.Name)
	b.Path = im.InnerPath(out)
	if _, err := os.Stat(out); err == nil {
		return b
	}
	// A build the compiler refused is refused again while nothing it was
	// keyed on changed (sources, settings, wrapper, mpi.h, library): a warm
	// run compiles nothing. The replay says so, with the refusal's date.
	failed := filepath.Join(dir, "build-error.txt")
	if why, ok := cachedFailure(failed); ok {
		b.Error, b.Missing = why, cachedMissing(dir)
		return b
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Error = fmt.Sprintf("cannot make fixture cache %s: %v", dir, err)
		return b
	}
	unlock, err := LockFile(filepath.Join(dir, ".lock"))
	if err != nil {
		b.Error = err.Error()
		return b
	}
	defer unlock()
	if _, err := os.Stat(out); err == nil {
		return b
	}
	if why, ok := cachedFailure(failed); ok {
		b.Error, b.Missing = why, cachedMissing(dir)
		return b
	}
	for _, set := range sources {
		for _, rel := range set.files {
			if err := copyFile(filepath.Join(set.dir, rel), filepath.Join(dir, "src", rel)); err != nil {
				b.Error = err.Error()
				return b
			}
		}
	}
	argv := compileArgv(im, f, im.InnerPath(filepath.Join(dir, "src")), im.InnerPath(out+".tmp"))
	if argv == nil {
		b.Error = missingCompiler(im, f)
		return b
	}
	res, err := Run(Job{Impl: im, Name: "build " + f.Name, Program: argv[0], Args: argv[1:], Deadline: 3 * time.Minute})
	if err != nil {
		b.Error = err.Error()
		return b
	}
	defer res.Cleanup()
	if !res.OK() {
		out := res.Stdout + res.Stderr
		kept := keepOutput(filepath.Join(dir, "build-output.txt"), res)
		b.Error = fmt.Sprintf("%s: %s%s\n%s\n%s", res.CommandProblem(), firstErrorLine(out), kept, strings.Join(argv, " "), Tail(out, 2000))
		// the compiler's answer, not an accident (nor an interrupt's kill)
		if !res.TimedOut && res.Signal == "" && !Interrupted() {
			if missing, ok := MissingNames(out); ok {
				b.Missing = missing
				_ = os.WriteFile(filepath.Join(dir, missingFile), []byte(strings.Join(missing, "\n")+"\n"), 0o644)
			}
			_ = os.WriteFile(failed, []byte(b.Error), 0o644)
		}
		return b
	}
	if _, err := os.Stat(out + ".tmp"); err != nil {
		// The compiler said it succeeded but wrote no program (a wrapper
		// that prints its command instead of running it).
		kept := keepOutput(filepath.Join(dir, "build-output.txt"), res)
		b.Error = fmt.Sprintf("build %s (`%s`) exited with status 0 but wrote no %s%s", f.Name, strings.Join(argv, " "), im.InnerPath(out+".tmp"), kept)
		return b
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		b.Error = err.Error()
	}
	return b
}

// cachedFailure is a refusal kept at path, marked as replayed: its first
// line (a verdict's reason) says when the compiler gave it.
func cachedFailure(path string) (string, bool) {
	why, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	when := "an earlier run"
	if st, err := os.Stat(path); err == nil {
		when = st.ModTime().UTC().Format("2006-01-02 15:04 UTC")
	}
	first, rest, _ := strings.Cut(string(why), "\n")
	// The replay's note names the kept output, after the date a reason
	// must show.
	output := ""
	if i := strings.LastIndex(first, keptNote); i >= 0 {
		output = "its output is in " + strings.TrimSuffix(first[i+len(keptNote):], ")") + "; "
		first = first[:i]
	}
	note := fmt.Sprintf(" [replayed: the compiler refused it on %s, with the same sources, wrapper, mpi.h and library; %sremove %s to build again]", when, output, filepath.Dir(path))
	return first + note + "\n" + rest, true
}

// missingFile keeps, beside a cached refusal, the names it was for.
const missingFile = "build-missing.txt"

func cachedMissing(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, missingFile))
	if err != nil {
		return nil
	}
	return strings.Fields(string(data))
}

func missingCompiler(im *Impl, f Fixture) string {
	switch {
	case f.ABI:
		return fmt.Sprintf("%s has no MPI 5 standard ABI (no abi entry in the implementations file)", im.ID)
	case f.Fortran:
		return fmt.Sprintf("%s has no Fortran compiler wrapper (fc)", im.ID)
	}
	return fmt.Sprintf("%s has no C compiler wrapper (cc)", im.ID)
}

func compileArgv(im *Impl, f Fixture, src, out string) []string {
	var cc string
	var cflags, ldflags []string
	switch {
	case f.ABI:
		if im.ABI == nil {
			return nil
		}
		cc, cflags, ldflags = im.ABI.CC, im.ABI.CFlags, im.ABI.LDFlags
	case f.Fortran:
		cc, cflags, ldflags = im.FC, nil, im.LDFlags
	default:
		cc, cflags, ldflags = im.CC, im.CFlags, im.LDFlags
	}
	if cc == "" {
		return nil
	}
	argv := append([]string{cc}, cflags...)
	if !f.Fortran {
		argv = append(argv, "-std=gnu11", "-I"+src+"/lib")
	}
	if f.Shared {
		argv = append(argv, "-shared", "-fPIC")
	}
	argv = append(argv, "-g", "-O1", "-o", out)
	for _, s := range f.Sources {
		argv = append(argv, src+"/"+s)
	}
	if !f.Fortran {
		argv = append(argv, src+"/"+recordHelper)
	}
	argv = append(argv, f.Flags...)
	return append(argv, ldflags...)
}

// sourceSet is files relative to a folder.
type sourceSet struct {
	dir   string
	files []string
}

func buildKey(im *Impl, f Fixture, sources []sourceSet) (string, error) {
	h := sha256.New()
	// The sources' folder is no part of the key: their content is, and a
	// generated source lives in a fresh folder each time. The environment
	// is (a module's variables may change what the wrapper does), and the
	// compiler's locale: a refusal kept from another locale was read
	// with other quotes (compilerLocale).
	f.Dir = ""
	settings, _ := json.Marshal(struct {
		F                    Fixture
		ID, CC, FC           string
		CFlags, LDFlags, Pre []string
		ABI                  *ABI
		Env                  map[string]string
		Locale               []string
	}{f, im.ID, im.CC, im.FC, im.CFlags, im.LDFlags, im.Prefix, im.ABI, im.Env, compilerLocale(nil)})
	h.Write(settings)
	fmt.Fprintf(h, "\x00mpi %s\x00", mpiIdentity(im))
	var rels []string
	from := map[string]string{}
	for _, set := range sources {
		for _, rel := range set.files {
			rels = append(rels, rel)
			from[rel] = set.dir
		}
	}
	sort.Strings(rels)
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(from[rel], rel))
		if err != nil {
			return "", fmt.Errorf("fixture %s: source %s: %v", f.Name, rel, err)
		}
		fmt.Fprintf(h, "\x00%s\x00%d\x00", rel, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// PlaceExecutable puts the program src at dst without this process ever
// holding dst open for writing: a hard link where both are on one file
// system, else cp(1) in a child. A write descriptor held here is inherited
// by any child another goroutine forks meanwhile, until that child's exec,
// and an exec of dst in that window fails with "text file busy" (ETXTBSY:
// the probe helper copied into a root, in 1 of 10 full runs).
func PlaceExecutable(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	if out, err := exec.Command("cp", src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("cp %s %s: %v: %s", src, dst, err, strings.TrimSpace(string(out)))
	}
	return os.Chmod(dst, 0o755)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// LockFile takes an exclusive flock on path and returns its release.
func LockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open lock %s: %v", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s: %v", path, err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// firstErrorLine is the compiler's first complaint, for one-line reasons:
// the first line saying "error:" (gcc's, collect2's), "Error:" (gfortran's)
// or "undefined reference" (ld's), not the context line before it (gcc's
// "In function 'errors':"); without one (a wrapper that cannot find its
// compiler), the end of what it said.
func firstErrorLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if isErrorLine(l) {
			return strings.TrimSpace(l)
		}
	}
	return orMeasured(lastWords(out, 200), "no output")
}

func isErrorLine(l string) bool {
	return strings.Contains(l, "error:") || strings.Contains(l, "Error:") || strings.Contains(l, "undefined reference")
}
