package mpi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// The implementations come from the settings (settings.go, the README's
// table): MPITS_IMPLEMENTATIONS, MPITS_MPI, MPITS_MPICC with
// MPITS_MPIEXEC, then MPITS_IMPL_ID, MPITS_IMPLS, MPITS_LAUNCHER and the
// launch modes. With none of the first four set, $MPITS_CACHE/implementations.json is read
// if it exists (for a plain user without one, the one root provisioned in
// /var/cache/mpits), else implementations are detected from PATH.

// ImplFile is the implementations file.
type ImplFile struct {
	GeneratedBy     string  `json:"generated_by,omitempty"`
	Implementations []*Impl `json:"implementations"`
}

// systemCache is where root's ci/provision puts the implementations.
var systemCache = "/var/cache/mpits"

// CacheDir is the folder for provisioned implementations and built fixtures.
func CacheDir() string {
	if d := settings.Setting("MPITS_CACHE").String(); d != "" {
		return d
	}
	if geteuid() == 0 {
		return systemCache
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "mpits")
	}
	return tempCacheDir()
}

// tempCacheDir is the cache of a user with neither MPITS_CACHE nor HOME
// (a cron job, a CI runner, env -i): a folder of that user's alone in the
// temporary folder, which checkCache makes (0700) or refuses.
func tempCacheDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("mpits-cache-%d", os.Getuid()))
}

// LoadImpls returns the implementations selected by the settings. Its error
// is one line that names the bad setting and what to do.
// Everything is checked here, before any probe or build.
func LoadImpls() ([]*Impl, error) {
	if err := settings.CheckSettings(); err != nil {
		return nil, err
	}
	if err := checkCache(); err != nil {
		return nil, err
	}
	if err := checkJobDir(); err != nil {
		return nil, err
	}
	if _, err := slotDir(); err != nil {
		return nil, err
	}
	impls, from, err := loadUnfiltered()
	if err != nil {
		return nil, err
	}
	applyLauncherOverride(impls)
	impls, err = filterImpls(impls, settings.Setting("MPITS_IMPLS").String())
	if err != nil {
		return nil, err
	}
	for _, im := range impls {
		if err := checkPaths(im, from); err != nil {
			return nil, err
		}
	}
	return impls, applyLaunchModes(impls)
}

// loadUnfiltered returns the implementations the settings describe and the
// implementations file they come from ("" for MPITS_MPI and the like).
func loadUnfiltered() ([]*Impl, string, error) {
	env := settings.Setting(settings.EnvEnv).Assignments()
	if f := settings.Setting("MPITS_IMPLEMENTATIONS").String(); f != "" {
		if env != nil {
			return nil, "", errEnvWithFile(f)
		}
		impls, err := ReadImplFile(f)
		return impls, f, err
	}
	id := settings.Setting("MPITS_IMPL_ID").String()
	if id == "" {
		id = "custom"
	}
	if p := settings.Setting("MPITS_MPI").String(); p != "" {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			return nil, "", fmt.Errorf("MPITS_MPI=%s is not a folder: set it to an MPI installation prefix holding bin/mpicc and bin/mpiexec", p)
		}
		if f := missingTool(p); f != "" {
			return nil, "", fmt.Errorf("MPITS_MPI=%s has no executable %s: set it to an MPI installation prefix holding bin/mpicc and bin/mpiexec", p, f)
		}
		cc, run := prefixTools(p)
		im, err := ImplFromWrapper(id, cc, run, env)
		if err != nil {
			return nil, "", err
		}
		return []*Impl{im}, "", nil
	}
	cc, run := settings.Setting("MPITS_MPICC").String(), settings.Setting("MPITS_MPIEXEC").String()
	if cc != "" || run != "" {
		if cc == "" || run == "" {
			return nil, "", errors.New("MPITS_MPICC and MPITS_MPIEXEC go together: set both, to your MPI's compiler wrapper and launcher")
		}
		for name, f := range map[string]*string{"MPITS_MPICC": &cc, "MPITS_MPIEXEC": &run} {
			found, ok := executableOnPath(*f)
			if !ok {
				return nil, "", fmt.Errorf("%s=%s is not an executable file or a name on PATH: point it at your MPI's %s", name, *f, map[string]string{"MPITS_MPICC": "compiler wrapper (mpicc)", "MPITS_MPIEXEC": "launcher (mpiexec)"}[name])
			}
			*f = found
		}
		im, err := ImplFromWrapper(id, cc, run, env)
		if err != nil {
			return nil, "", err
		}
		return []*Impl{im}, "", nil
	}
	def := DefaultImplFile()
	if env != nil {
		return nil, "", errEnvWithFile(def)
	}
	if _, err := os.Stat(def); err == nil {
		if err := checkTrusted(def); err != nil {
			return nil, "", err
		}
		impls, err := ReadImplFile(def)
		return impls, def, err
	}
	impls := DetectFromPath()
	if len(impls) == 0 {
		return nil, "", fmt.Errorf("no MPI found: no %s, and no mpicc.mpich, mpicc.openmpi or mpicc on PATH; run ci/provision or set MPITS_IMPLEMENTATIONS, MPITS_MPI or MPITS_MPICC+MPITS_MPIEXEC", def)
	}
	// Said, not silent: the run judges whatever MPI PATH happens to hold.
	var found []string
	for _, im := range impls {
		found = append(found, im.ID+" ("+im.CC+")")
	}
	fmt.Fprintf(GoStderr(), "mpits: no %s: judging the MPI found on PATH: %s; run ci/provision, or set MPITS_MPI to your MPI's prefix\n", def, strings.Join(found, ", "))
	return impls, "", nil
}

// ReadImplFile reads and checks an implementations file.
func ReadImplFile(path string) ([]*Impl, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("implementations file %s cannot be read (%v): run ci/provision or fix MPITS_IMPLEMENTATIONS", path, errors.Unwrap(err))
	}
	f, err := decodeImplFile(path, data)
	if err != nil {
		return nil, err
	}
	for _, im := range f.Implementations {
		if im.Available && (im.CC == "" || im.Launcher == "") {
			return nil, fmt.Errorf("implementations file %s: %s is available but has no cc or launcher: set both, or set \"available\": false with a \"reason\"", path, im.ID)
		}
	}
	if len(f.Implementations) == 0 {
		return nil, fmt.Errorf("implementations file %s lists no implementation: run ci/provision or add one (see docs/running.md, 'The implementations file')", path)
	}
	return f.Implementations, nil
}

// decodeImplFile reads the implementations file's format, for its reader
// and its writer alike: only its fields, no null entry, every entry with an
// id of its own.
func decodeImplFile(path string, data []byte) (*ImplFile, error) {
	var f ImplFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("implementations file %s is not valid: %v (see docs/running.md, 'The implementations file', for the format)", path, err)
	}
	seen := map[string]bool{}
	for i, im := range f.Implementations {
		switch {
		case im == nil:
			return nil, fmt.Errorf("implementations file %s: entry %d is null: remove it or describe an implementation there", path, i)
		case im.ID == "":
			return nil, fmt.Errorf("implementations file %s: entry %d has no id: give it a unique \"id\"", path, i)
		case seen[im.ID]:
			return nil, fmt.Errorf("implementations file %s: id %q appears twice: give each implementation its own id", path, im.ID)
		}
		seen[im.ID] = true
	}
	return &f, nil
}

func filterImpls(impls []*Impl, only string) ([]*Impl, error) {
	if only == "" {
		return impls, nil
	}
	byID := map[string]*Impl{}
	var ids []string
	for _, im := range impls {
		byID[im.ID] = im
		ids = append(ids, im.ID)
	}
	var out []*Impl
	for _, id := range strings.Split(only, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue // "mpich," or "a,,b"
		}
		im, ok := byID[id]
		if !ok {
			sort.Strings(ids)
			return nil, fmt.Errorf("MPITS_IMPLS names unknown implementation %q: known are %s", id, strings.Join(ids, ", "))
		}
		out = append(out, im)
	}
	if len(out) == 0 {
		sort.Strings(ids)
		return nil, fmt.Errorf("MPITS_IMPLS=%q names no implementation: unset it or list ids from %s", only, strings.Join(ids, ", "))
	}
	return out, nil
}

func applyLauncherOverride(impls []*Impl) {
	l := settings.Setting("MPITS_LAUNCHER").String()
	if l == "" {
		return
	}
	for _, im := range impls {
		im.Launcher = l
		im.LauncherArgs = settings.Setting("MPITS_LAUNCHER_ARGS").Fields()
		if np := settings.Setting("MPITS_NP_FLAG").String(); np != "" {
			im.NPFlag = np
		}
	}
}

// DetectFromPath finds Debian-style MPI installations on PATH.
func DetectFromPath() []*Impl {
	var out []*Impl
	seen := map[string]bool{}
	for _, c := range []struct{ id, cc, run string }{
		{"mpich", "mpicc.mpich", "mpiexec.mpich"},
		{"openmpi", "mpicc.openmpi", "mpiexec.openmpi"},
		{"mpi", "mpicc", "mpiexec"},
	} {
		cc, err1 := exec.LookPath(c.cc)
		run, err2 := exec.LookPath(c.run)
		if err1 != nil || err2 != nil {
			continue
		}
		real, _ := filepath.EvalSymlinks(cc)
		if seen[real] {
			continue
		}
		seen[real] = true
		if im, err := ImplFromWrapper(c.id, cc, run, nil); err == nil {
			out = append(out, im)
		}
	}
	return out
}

// errEnvWithFile refuses MPITS_ENV where an implementations file describes
// the implementations: it would reach none of them.
func errEnvWithFile(file string) error {
	return fmt.Errorf("MPITS_ENV is the environment of the implementation MPITS_MPI or MPITS_MPICC describe, but the implementations come from %s: give the variables in its entries' \"env\" (mpits impl add -env NAME=VALUE), or set MPITS_MPI", file)
}

// ImplFromWrapper describes an implementation from its compiler wrapper and
// launcher, asking the wrapper (in the environment env, which the
// implementation keeps) for its link line to find the MPI library.
func ImplFromWrapper(id, cc, run string, env map[string]string) (*Impl, error) {
	im := &Impl{ID: id, Available: true, CC: cc, Launcher: run, NPFlag: "-n", Env: maps.Clone(env)}
	link, family := wrapperLinkLine(im)
	if link == "" {
		return nil, fmt.Errorf("%s answers neither --showme (Open MPI) nor -show (MPICH): is it an MPI compiler wrapper? Point MPITS_MPICC at your MPI's mpicc", cc)
	}
	im.Lib, im.LibDirs = findLib(link)
	if im.Lib == "" {
		return nil, fmt.Errorf("%s links no MPI library that can be found (link line: %s): set MPITS_IMPLEMENTATIONS to a file naming it", cc, link)
	}
	// What the library is decides; the wrapper's flag only where its
	// symbols say nothing.
	switch lf := libraryFamily(im.Lib); lf {
	case "":
	case "wi4mpi":
		im.Layer, family = wi4mpiLayer(im.Env)
		if family == "" {
			return nil, fmt.Errorf("%s links WI4MPI's interface library %s, but its environment names no runtime under it (WI4MPI_TO is %q): give WI4MPI's run-time environment in MPITS_ENV (what its `wi4mpi -t openmpi --env` prints)", cc, im.Lib, im.Env["WI4MPI_TO"])
		}
	default:
		family = lf
	}
	im.Family = family
	if family == "openmpi" {
		im.LauncherArgs = []string{"--oversubscribe"}
		if os.Geteuid() == 0 {
			for k, v := range map[string]string{"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"} {
				if _, set := im.Env[k]; !set {
					if im.Env == nil {
						im.Env = map[string]string{}
					}
					im.Env[k] = v
				}
			}
		}
	}
	if fc := strings.Replace(cc, "mpicc", "mpifort", 1); fc != cc && isExecutable(fc) {
		im.FC = fc
	}
	return im, nil
}

func wrapperLinkLine(im *Impl) (line, family string) {
	// The line goes into one-line errors: a wrapper printing more lines
	// (warnings, a line per flag) is joined into one.
	if out, err := im.ask(im.CC, "--showme:link"); err == nil && len(strings.Fields(out)) > 0 {
		return strings.Join(strings.Fields(out), " "), "openmpi"
	}
	if out, err := im.ask(im.CC, "-show"); err == nil && len(strings.Fields(out)) > 0 {
		return strings.Join(strings.Fields(out), " "), "mpich"
	}
	return "", ""
}

// findLib picks the C MPI library from a wrapper's link line.
func findLib(link string) (lib string, dirs []string) {
	var names []string
	for _, f := range strings.Fields(link) {
		switch {
		case strings.HasPrefix(f, "-L"):
			dirs = append(dirs, f[2:])
		case strings.HasPrefix(f, "-Wl,-rpath,"):
			dirs = append(dirs, strings.TrimPrefix(f, "-Wl,-rpath,"))
		case f == "-lmpi" || f == "-lmpich":
			names = append(names, "lib"+f[2:]+".so")
		}
	}
	search := append(append([]string{}, dirs...), "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib")
	for _, n := range names {
		for _, d := range search {
			if matches, _ := filepath.Glob(filepath.Join(d, n+"*")); len(matches) > 0 {
				sort.Strings(matches)
				return matches[0], dirs
			}
		}
	}
	return "", dirs
}

// prefixTools are the wrappers an MPI installation prefix holds: what
// MPITS_MPI names, and what InstallPrefix looks for.
func prefixTools(prefix string) (cc, run string) {
	return filepath.Join(prefix, "bin", "mpicc"), filepath.Join(prefix, "bin", "mpiexec")
}

// missingTool is the first of prefix's wrappers (bin/mpicc, bin/mpiexec)
// that is no executable, or "" when it holds both.
func missingTool(prefix string) string {
	cc, run := prefixTools(prefix)
	for _, f := range []string{cc, run} {
		if !isExecutable(f) {
			return strings.TrimPrefix(f, prefix+"/")
		}
	}
	return ""
}

// InstallPrefix is the installation prefix of an implementation installed
// on the host: the folder whose bin/ holds its mpicc and an mpiexec, which
// MPITS_MPI names. An entry that is unavailable, in a root, or whose cc is
// no PREFIX/bin/mpicc has none, and the error says why in one line.
func (im *Impl) InstallPrefix() (string, error) {
	prefix := filepath.Dir(filepath.Dir(im.CC))
	switch {
	case !im.Available:
		return "", fmt.Errorf("%s is not available (%s): provision it (ci/provision)", im.ID, verdict.FirstLine(im.Reason))
	case im.Root != "":
		return "", fmt.Errorf("%s is installed in the root %s, not on the host: name a host installation", im.ID, im.Root)
	case im.CC != filepath.Join(prefix, "bin", "mpicc") || missingTool(prefix) != "":
		return "", fmt.Errorf("%s has no installation prefix (PREFIX/bin/mpicc and PREFIX/bin/mpiexec, executable): its cc is %s", im.ID, im.CC)
	}
	return prefix, nil
}

// executableOnPath is p when it is an executable file, or the file a name
// without a slash finds on PATH (mpicc.mpich, as people type it).
func executableOnPath(p string) (string, bool) {
	if !strings.Contains(p, "/") {
		found, err := exec.LookPath(p)
		if err != nil || !filepath.IsAbs(found) {
			return "", false
		}
		p = found
	}
	return p, isExecutable(p)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
