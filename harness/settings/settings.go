package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The one list of mpits's settings. Every MPITS_ environment variable a Go
// file reads is read through it (Setting), docs/settings.md's table of settings
// is generated from it (go run ./cmd/mpits settings), and a bad value is
// refused before anything runs (CheckSettings), in one line naming the
// setting, its value and what is allowed. TestSettingsReadThroughList
// fails on a Go file that reads an MPITS_ variable any other way.

// Def is one setting.
type Def struct {
	Name    string
	Group   Group
	Meaning string // what it does, one or two sentences (Markdown)
	// Default is what holds when it is unset (Markdown); "" when unset
	// means nothing happens.
	Default string
	// Allowed says which values are; Check enforces it (nil: any value).
	Allowed string
	Check   func(v string) error
}

// Group says who reads a setting, for docs/settings.md's table.
type Group string

const (
	GroupMPI      Group = "Which MPI, and how its jobs start"
	GroupRun      Group = "How a run judges and reports"
	GroupOutput   Group = "Where a run writes"
	GroupOverhead Group = "The overhead benchmarks (`overhead`, `ci/overhead`)"
	GroupScripts  Group = "The scripts in `ci/`"
	GroupTests    Group = "This project's own tests"
	// GroupInternal are variables mpits sets for its own processes (the
	// probe helper, the jobs' fixtures); they are not settings.
	GroupInternal Group = "internal"
)

// Groups are the groups in docs/settings.md's order.
var Groups = []Group{GroupMPI, GroupRun, GroupOutput, GroupOverhead, GroupScripts, GroupTests, GroupInternal}

// settingsList is the one list of settings (Settings gives a copy).
var settingsList = []Def{
	// Which MPI, and how its jobs start.
	{Name: "MPITS_IMPLEMENTATIONS", Group: GroupMPI,
		Meaning: "an implementations file (the format is in [the implementations file](running.md#the-implementations-file); `ci/provision` writes one)",
		Default: "`$MPITS_CACHE/implementations.json` if it exists (a plain user without one reads root's `/var/cache/mpits/implementations.json`), else the MPIs on PATH",
		Allowed: "a readable implementations file"},
	{Name: "MPITS_MPI", Group: GroupMPI,
		Meaning: "an MPI installation prefix: its `bin/mpicc` and `bin/mpiexec` make one implementation",
		Allowed: "a folder holding executable `bin/mpicc` and `bin/mpiexec`"},
	{Name: "MPITS_MPICC", Group: GroupMPI,
		Meaning: "your MPI's compiler wrapper, with `MPITS_MPIEXEC`: one implementation",
		Allowed: "an executable file, or a name found on `PATH` (`mpicc.mpich`), answering `-show` (MPICH) or `--showme` (Open MPI)"},
	{Name: "MPITS_MPIEXEC", Group: GroupMPI,
		Meaning: "your MPI's launcher, with `MPITS_MPICC`",
		Allowed: "an executable file, or a name found on `PATH`"},
	{Name: EnvEnv, Group: GroupMPI,
		Meaning: "the environment of the implementation `MPITS_MPI` or `MPITS_MPICC` describe (a module's variables, a translation layer's), given to its compiler wrapper, every probe and every job; `mpits run --env` sets it (an implementations file gives each entry its `env`)",
		Default: "none",
		Allowed: "`NAME=VALUE` lines, one variable a line (a value may hold spaces, `:` and `=`)",
		Check:   checkAssignments},
	{Name: "MPITS_IMPL_ID", Group: GroupMPI,
		Meaning: "the id of the implementation `MPITS_MPI` or `MPITS_MPICC` describe: verdicts, labels (`impl:ID`) and expectation lines carry it",
		Default: "`custom`",
		Allowed: "letters, digits, `.`, `_` and `-`",
		Check:   checkPattern(ImplIDPattern, "holds a character other than letters, digits, '.', '_' and '-'")},
	{Name: "MPITS_IMPLS", Group: GroupMPI,
		Meaning: "run only these implementations",
		Default: "every implementation",
		Allowed: "ids of the implementations, comma-separated"},
	{Name: "MPITS_LAUNCHER", Group: GroupMPI,
		Meaning: "replace every implementation's launcher by this command (for Slurm, use `MPITS_LAUNCH`)",
		Default: "each implementation's own launcher",
		Allowed: "a full path, or a name on PATH (inside an implementation's root when it has one)"},
	{Name: "MPITS_LAUNCHER_ARGS", Group: GroupMPI,
		Meaning: "with `MPITS_LAUNCHER`: the arguments it gets before the number of ranks",
		Default: "none",
		Allowed: "arguments separated by spaces"},
	{Name: "MPITS_NP_FLAG", Group: GroupMPI,
		Meaning: "with `MPITS_LAUNCHER`: its flag for the number of ranks",
		Default: "the implementation's (`-n`)",
		Allowed: "a flag, e.g. `-np`"},
	{Name: "MPITS_LAUNCH", Group: GroupMPI,
		Meaning: "how every implementation's jobs start: `direct` (its own launcher), `srun` (Slurm's srun starts the ranks) or `salloc` (its own launcher inside a Slurm allocation); see [running on a Slurm cluster](slurm.md)",
		Default: "each implementation's `launch` field, `direct` where it has none",
		Allowed: "`direct` (or empty), `srun` or `salloc`",
		Check:   checkOneOf("", LaunchDirectName, LaunchSrun, LaunchSalloc)},
	{Name: "MPITS_SLURM_MPI", Group: GroupMPI,
		Meaning: "with `srun`: the `--mpi` plugin the ranks start through",
		Default: "the implementation's `slurm.mpi`, else `pmi2` for MPICH and `pmix` for Open MPI",
		Allowed: "a plugin of `srun --mpi=list`"},
	{Name: "MPITS_SLURM_NODES", Group: GroupMPI,
		Meaning: "with `srun` or `salloc`: how many nodes a job of several ranks spreads over",
		Default: "the implementation's `slurm.nodes`, else 2",
		Allowed: "a whole number, 1 or more",
		Check:   checkInt(1)},
	{Name: "MPITS_SLURM_ARGS", Group: GroupMPI,
		Meaning: "with `srun` or `salloc`: more options for it (`-p debug --time=10`)",
		Default: "the implementation's `slurm.args`",
		Allowed: "options separated by spaces"},
	{Name: "MPITS_JOB_DIR", Group: GroupMPI,
		Meaning: "where job folders are made (every rank writes its records there); on a cluster, a folder every node shares",
		Default: "`/tmp`",
		Allowed: "a folder this user can write"},
	{Name: "MPITS_CACHE", Group: GroupMPI,
		Meaning: "the cache: provisioned implementations, built fixtures (a failed build's output beside it, `build-output.txt`), the probes of a run (a failed probe's output in `probes/<id>/`), which the reasons name",
		Default: "`/var/cache/mpits` as root, else `~/.cache/mpits` (`$XDG_CACHE_HOME/mpits` where that is set); without `HOME`, `$TMPDIR/mpits-cache-<uid>`, made 0700 (refused when another user made it first)",
		Allowed: "a folder of this user's that no other user can write (made if missing): its fixtures run as this user"},
	{Name: "MPITS_FIXTURES", Group: GroupMPI,
		Meaning: "the fixtures' C sources",
		Default: "`fixtures/c` of the source tree the suite runs in",
		Allowed: "a folder",
		Check:   checkDir},

	// How a run judges and reports.
	{Name: TimeoutEnv, Group: GroupRun,
		Meaning: "how long the run may take: then it ends as an interrupt does (the verdicts so far reported, the rules not reached named, jobs killed, folders removed)",
		Default: "under go test, its `-timeout` less a twentieth (at most a minute), so that what was judged is written before go test kills the process; otherwise none",
		Allowed: "a Go duration, more than 0 (`90s`, `30m`)",
		Check:   checkDuration},
	{Name: JobsEnv, Group: GroupRun,
		Meaning: "how many slots jobs take (a job of n ranks takes n, a build or a direct run one), shared by every mpits process of this user on the machine (each user has their own: another user's runs are not paced by them)",
		Default: "eight a core",
		Allowed: "a whole number, 1 or more",
		Check:   checkInt(1)},
	{Name: StrictEnv, Group: GroupRun,
		Meaning: "which verdicts of `quality` and `interpretation` rules fail the run too (`normative` and `seed` ones always do)",
		Default: "none: they are reported, not failing the run (a label filter naming `basis:quality` also makes them fail)",
		Allowed: "`quality`, `interpretation` or `all`, comma-separated",
		Check:   checkWords("quality", "interpretation", "all")},
	{Name: "MPITS_PROGRESS", Group: GroupRun,
		Meaning: "the progress lines on the console while the suites run (`0` silences them)",
		Default: "`1`",
		Allowed: "`0` or `1`",
		Check:   checkOneOf("0", "1")},
	{Name: ExpectEnv, Group: GroupRun,
		Meaning: "your known failures: a folder of expectations, one file per suite; the run fails only on verdicts that differ from them (see [accepting known failures](running.md#accepting-known-failures-in-detail))",
		Default: "none: every fail or error of a normative or seed rule fails the run",
		Allowed: "a folder (a relative one is taken from where `mpits run` was started; under `go test`, from the module's root); it must exist unless `MPITS_EXPECT_UPDATE=1`"},
	{Name: ExpectUpdateEnv, Group: GroupRun,
		Meaning: "`1`: accept every verdict and rewrite the files of `MPITS_EXPECT` at the end",
		Default: "`0`",
		Allowed: "`1` to write the expectations, or `0`",
		Check:   checkOneOf("0", "1")},
	{Name: InjectEnv, Group: GroupRun,
		Meaning: "a test setting: every job of the suite's rules preloads these fault injectors, so the verdicts are no longer the MPI's own (`ci/vendor-scenario` breaks a rule with it); a name no suite has an injector of is refused; under `go test ./suites/...`, another suite's injector is said on the console and left out of this suite's jobs",
		Default: "none",
		Allowed: "names of fault injectors (`inject_mpit_string_len`), comma-separated"},
	{Name: ProveEnv, Group: GroupRun,
		Meaning: "`everywhere`: each fault injector also runs on every implementation where its rule passes (not only on the cheapest one), and `reports/matrix.md` marks each pass turned or not turned by it (`ci/conformance` sets it)",
		Default: "each injector proves its rule on one implementation, those whose probe took least tried first",
		Allowed: "`everywhere`",
		Check:   checkOneOf("everywhere")},

	// Where a run writes.
	{Name: "MPITS_REPORT_DIR", Group: GroupOutput,
		Meaning: "where the suites write the probed capabilities (`capabilities.json`), what became of each fixture (`fixtures/<suite>.json`) and the ABI suite's tables (`ci/run-suites` sets it)",
		Default: "nothing is written",
		Allowed: "a folder (made if missing)",
		Check:   checkWritableFolder},
	{Name: TapeEnv, Group: GroupOutput,
		Meaning: "a folder to write every conformance job's outcome to, records and all (`ci/run-suites` sets it; `ci/corpus` keeps it as the judges' corpus)",
		Default: "nothing is written",
		Allowed: "an existing folder",
		Check:   checkDir},
	{Name: JobLogEnv, Group: GroupOutput,
		Meaning: "a file every job appends a line to: when it started, implementation, name, ranks, ms waited for slots, ms run, ms CPU, the libraries preloaded (injectors, then tools, by file name); it shows where a run's time goes",
		Default: "no log",
		Allowed: "a file in an existing folder (appended to)",
		Check:   checkParentDir},
	{Name: RunMark, Group: GroupOutput,
		Meaning: "a mark every job of the run carries in its environment (`MPITS_RUN_MARK=value`): a script that checks what its run left running (`ci/slurm`) counts only the processes carrying its own mark, never another run's",
		Default: "no mark",
		Allowed: "letters, digits, `-` and `_`, at most 64",
		Check:   checkMark},
	{Name: RunDirEnv, Group: GroupOutput,
		Meaning: "a folder the processes of one run share (the packages of one `go test ./suites/...`), so that each implementation is probed once for all of them; a probe is found again only for the same settings, wrappers, headers, libraries and launcher",
		Default: "none: each process probes what it judges once",
		Allowed: "a folder (made if missing)",
		Check:   checkWritableFolder},

	// The overhead benchmarks.
	{Name: "MPITS_OVERHEAD_SAMPLE_SECONDS", Group: GroupOverhead,
		Meaning: "the least time one sample of a benchmark lasts (its loop is calibrated to it)",
		Default: "0.2 (0.02 with `-short`)",
		Allowed: "seconds, more than 0 and at most 60",
		Check:   checkSeconds},
	{Name: "MPITS_OVERHEAD_TOOLS", Group: GroupOverhead,
		Meaning: "the tool configurations measured: numbers of stacked QMPI tools, and `pmpi` for one PMPI tool",
		Default: "`0,1,2,4,8,16,32,pmpi` (`0,1,8,pmpi` with `-short`)",
		Allowed: "numbers from 0 to 255 and `pmpi`, comma-separated",
		Check:   checkTools},
	{Name: "MPITS_OVERHEAD_CALLGRIND", Group: GroupOverhead,
		Meaning: "whether instructions per call are counted under callgrind (`0` leaves it out)",
		Default: "on",
		Allowed: "`0`, `off` or `no` to leave it out; `1`, `on` or `yes`",
		Check:   checkOneOf("0", "off", "no", "1", "on", "yes")},

	// The scripts (read by bash, listed here so that the table is whole).
	{Name: "MPITS_FUZZTIME", Group: GroupScripts,
		Meaning: "how long `ci/test` fuzzes the judges",
		Default: "`60s`",
		Allowed: "a `go test -fuzztime` value: a duration (`90s`) or a count (`1000x`)",
		Check:   checkFuzztime},
	{Name: "MPITS_PROVISION", Group: GroupScripts,
		Meaning: "`0`: `ci/overhead` does not run `ci/provision` first (for a caller that has just run it)",
		Default: "`1`",
		Allowed: "`0` or `1`",
		Check:   checkOneOf("0", "1")},
	{Name: "MPITS_THIRD_PARTY", Group: GroupScripts,
		Meaning: "the folder holding the third-party sources `ci/provision` builds (WI4MPI's `wi4mpi-*.tar.gz`)",
		Default: "`../shared/third-party` beside the clone",
		Allowed: "a folder"},
	{Name: "MPITS_SLURM_DIR", Group: GroupScripts,
		Meaning: "the state folder of the two-node Slurm cluster of `ci/slurm-cluster` and `ci/slurm`",
		Default: "`/var/lib/mpits-slurm`",
		Allowed: "a folder the script can write"},
	{Name: "MPITS_SLURM_DEADLINE", Group: GroupScripts,
		Meaning: "how long `ci/slurm-cluster up` waits for its nodes to be idle",
		Default: "60 s",
		Allowed: "a whole number of seconds, 1 or more",
		Check:   checkInt(1)},

	// This project's own tests.
	{Name: "MPITS_UPDATE_CONSTANTS", Group: GroupTests,
		Meaning: "set: the ABI suite's test of the standard's constants header rewrites it (`go generate ./suites/abi`)",
		Default: "the header is compared, not written",
		Allowed: "any value but empty"},
	{Name: "MPITS_SCREENSHOTS", Group: GroupTests,
		Meaning: "the HTML site's browser test saves screenshots of the index, one implementation page and one rule page into this folder",
		Default: "no screenshots",
		Allowed: "a folder (made if missing)",
		Check:   checkWritableFolder},
	{Name: "MPITS_SITE_DIR", Group: GroupTests,
		Meaning: "a site written by `mpits run --html` or `mpits report --html` that the site test checks for broken links and empty tables",
		Default: "the test writes its own from the committed reports",
		Allowed: "a folder holding `index.html`"},

	// Set by mpits for its own processes.
	{Name: ProbeLibEnv, Group: GroupInternal, Meaning: "the library a probe helper process answers for"},
	{Name: ProbeModeEnv, Group: GroupInternal, Meaning: "what a probe helper process asks the library"},
	{Name: RecordEnv, Group: GroupInternal, Meaning: "the folder a job's fixture writes its records to"},
	{Name: JobMarker, Group: GroupInternal, Meaning: "the token marking a job's processes"},
	{Name: "MPITS_QMPI_TRACE", Group: GroupInternal, Meaning: "the functions a QMPI tool fixture traces"},
	{Name: "MPITS_QMPI_FUNCS", Group: GroupInternal, Meaning: "the functions each QMPI tool fixture registers"},
	{Name: "MPITS_QMPI_BAD_CASE", Group: GroupInternal, Meaning: "the invalid input a QMPI fixture passes"},
	{Name: "MPITS_QMPI_BAD_NAME", Group: GroupInternal, Meaning: "the name a QMPI fixture registers as"},
	{Name: "MPITS_BENCH_CPUS", Group: GroupInternal, Meaning: "the cores an overhead benchmark pins itself to"},
	{Name: "MPITS_TEST_WATCH", Group: GroupInternal, Meaning: "a harness test's mark on the processes of a job it watches"},
}

// Settings is the list, in its order.
func Settings() []Def { return slices.Clone(settingsList) }

// Value is a setting as the environment has it now.
type Value struct {
	def *Def
	raw string
	set bool
}

// Setting reads the setting name from the environment. A name not in the
// list is a bug of the caller, and panics.
func Setting(name string) Value {
	for i := range settingsList {
		if settingsList[i].Name == name {
			raw, set := os.LookupEnv(name)
			return Value{def: &settingsList[i], raw: raw, set: set}
		}
	}
	panic("harness: " + name + " is not in the list of settings (harness/settings/settings.go)")
}

// String is the value as set ("" when unset).
func (v Value) String() string { return v.raw }

// Lookup is the value and whether it is set at all (set and empty is set).
func (v Value) Lookup() (string, bool) { return v.raw, v.set }

// Int is the value as a whole number; 0 when unset or not a number (a
// value its check refuses was refused at start, CheckSettings).
func (v Value) Int() int {
	n, err := strconv.Atoi(strings.TrimSpace(v.raw))
	if err != nil {
		return 0
	}
	return n
}

// Float is the value as a number; 0 when unset or not a number.
func (v Value) Float() float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(v.raw), 64)
	if err != nil {
		return 0
	}
	return f
}

// Fields is the value split at white space.
func (v Value) Fields() []string { return strings.Fields(v.raw) }

// List is the value split at commas, each item trimmed, empty ones left out.
func (v Value) List() []string {
	var out []string
	for _, s := range strings.Split(v.raw, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Err says in one line why the value is not allowed: the setting, the
// value, what is allowed and the default. nil when unset or allowed.
func (v Value) Err() error {
	if v.raw == "" {
		return nil // unset, or set empty: the default (MPITS_LAUNCH: direct)
	}
	err := controlChar(v.def, v.raw)
	if err == nil && v.def.Check != nil {
		err = v.def.Check(v.raw)
	}
	if err == nil {
		return nil
	}
	msg := fmt.Sprintf("%s=%q is not allowed", v.def.Name, v.raw)
	if err != errNotAllowed {
		msg += " (" + err.Error() + ")"
	}
	msg += ": want " + v.def.Allowed + ", or unset it"
	if v.def.Default != "" {
		msg += " (default: " + v.def.Default + ")"
	}
	return errors.New(strings.ReplaceAll(msg, "`", ""))
}

// CheckSettings refuses the first setting of the environment whose value
// is not allowed, in one line (Value.Err). Runs call it before anything
// else.
func CheckSettings() error {
	if err := UnknownSetting(os.Environ()); err != nil {
		return err
	}
	for _, d := range settingsList {
		if d.Group == GroupInternal {
			continue
		}
		if err := Setting(d.Name).Err(); err != nil {
			return err
		}
	}
	return nil
}

// The checks: each says what is wrong with v, in a few words.

// controlChar refuses a control character in any setting: no path, id,
// flag or list holds one, and one echoed raw would reach the terminal
// (MPITS_ENV's lines are its own check's: one variable a line).
func controlChar(d *Def, v string) error {
	if d.Name == EnvEnv {
		return nil
	}
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		return fmt.Errorf("holds a control character (%q)", v[i:i+1])
	}
	return nil
}

// errNotAllowed is a check's answer that has nothing to add to Allowed.
var errNotAllowed = errors.New("not allowed")

// ImplIDPattern is what an implementation's id may be, in MPITS_IMPL_ID and
// in the implementations file: it names a column of the reports and an
// entry of MPITS_IMPLS's comma-separated list.
var ImplIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

func checkPattern(re *regexp.Regexp, why string) func(string) error {
	return func(v string) error {
		if !re.MatchString(v) {
			return errors.New(why)
		}
		return nil
	}
}

func checkOneOf(allowed ...string) func(string) error {
	return func(v string) error {
		if slices.Contains(allowed, v) {
			return nil
		}
		return errNotAllowed
	}
}

func checkWords(allowed ...string) func(string) error {
	return func(v string) error {
		for _, w := range strings.Split(v, ",") {
			if w = strings.TrimSpace(w); w != "" && !slices.Contains(allowed, w) {
				return fmt.Errorf("%q is not one of them", w)
			}
		}
		return nil
	}
}

func checkInt(least int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case err != nil:
			return errors.New("not a whole number")
		case n < least:
			return fmt.Errorf("less than %d", least)
		}
		return nil
	}
}

func checkDuration(v string) error {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	switch {
	case err != nil:
		return errors.New("not a Go duration")
	case d <= 0:
		return errors.New("not more than 0")
	}
	return nil
}

// Duration is the value as a Go duration, 0 when unset or not one.
func (v Value) Duration() time.Duration {
	d, _ := time.ParseDuration(strings.TrimSpace(v.raw))
	return d
}

func checkSeconds(v string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	switch {
	case err != nil:
		return errors.New("not a number")
	case f <= 0 || f > 60:
		return errors.New("out of range")
	}
	return nil
}

// checkTools is the overhead benchmarks' list of tool configurations
// (overhead ParseTools reads it the same way).
func checkTools(v string) error {
	n := 0
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		n++
		if t == "pmpi" {
			continue
		}
		if k, err := strconv.Atoi(t); err != nil || k < 0 || k > 255 {
			return fmt.Errorf("%q is neither a number of QMPI tools (0 to 255) nor pmpi", t)
		}
	}
	if n == 0 {
		return errors.New("no tool configuration")
	}
	return nil
}

func checkFuzztime(v string) error {
	if n, ok := strings.CutSuffix(v, "x"); ok {
		if k, err := strconv.Atoi(n); err == nil && k > 0 {
			return nil
		}
		return errors.New("not a count")
	}
	if d, err := time.ParseDuration(v); err != nil || d <= 0 {
		return errors.New("not a duration")
	}
	return nil
}

func checkDir(v string) error {
	st, err := os.Stat(v)
	switch {
	case err != nil:
		return fmt.Errorf("%v", Cause(err))
	case !st.IsDir():
		return errors.New("not a folder")
	}
	return nil
}

func checkMark(v string) error {
	if len(v) > 64 || strings.IndexFunc(v, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return fmt.Errorf("%q holds more than letters, digits, - and _, or is longer than 64", v)
	}
	return nil
}

// WritableFolder says whether a new file can be made in dir, or, where dir
// is missing, in the nearest folder above it that exists (the run makes
// the rest).
func WritableFolder(dir string) error {
	d := dir
	for {
		info, err := os.Stat(d)
		if err == nil {
			if !info.IsDir() {
				return fmt.Errorf("%s is not a folder", d)
			}
			break
		}
		parent := filepath.Dir(d)
		if !os.IsNotExist(err) || parent == d {
			return fmt.Errorf("%s cannot be read (%v)", d, Cause(err))
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".mpits-writable-*")
	if err != nil {
		return fmt.Errorf("no file can be made in %s (%v)", d, Cause(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

func checkWritableFolder(v string) error { return WritableFolder(v) }

func checkParentDir(v string) error {
	if err := checkDir(filepath.Dir(v)); err != nil {
		return fmt.Errorf("its folder: %v", err)
	}
	return nil
}

// UnknownSetting refuses an MPITS_ variable of env that is no setting: a
// misspelt one (MPITS_JOBZ) would otherwise be ignored without a word.
func UnknownSetting(env []string) error {
	listed, settable := map[string]bool{}, map[string]string{}
	for _, d := range settingsList {
		listed[d.Name] = true
		if d.Group != GroupInternal { // what a user might have meant
			settable[strings.ToLower(d.Name)] = d.Name
		}
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "MPITS_") || listed[name] {
			continue
		}
		return fmt.Errorf("%s is not a setting (did you mean %s?): unset it, or see the table of settings in docs/settings.md", name, Closest(name, settable))
	}
	return nil
}
