package mpi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// Caps are an implementation's capabilities, probed from its library: what
// needs no MPI_Init in a helper process through purego, the rest through
// compiled fixtures. Never assumed from the implementation's name.
type Caps struct {
	Impl           string    `json:"impl"`
	Available      bool      `json:"available"`
	Reason         string    `json:"reason,omitempty"` // why not available
	MPIVersion     string    `json:"mpi_version,omitempty"`
	LibraryVersion string    `json:"library_version,omitempty"`
	QMPI           QMPICap   `json:"qmpi"`
	BeforeInit     MPITCount `json:"mpit_before_init"`
	AfterInit      MPITCount `json:"mpit_after_init"`
	// ProbeMS is how long the after-init probe, a one-rank MPI job, took:
	// work any implementation can do (an injector proof) goes to the one
	// whose launches cost least.
	ProbeMS  int64    `json:"probe_ms,omitempty"`
	ABI      ABICap   `json:"abi"`
	Fortran  Fortran  `json:"fortran"`
	Problems []string `json:"problems,omitempty"` // probes that broke: every check on the implementation is then an error
}

// QMPICap is the answer of a real QMPI_Register_tool_name call.
type QMPICap struct {
	Works  bool   `json:"works"`
	RC     int    `json:"rc"`
	Reason string `json:"reason,omitempty"`
}

// MPITCount counts MPI_T objects; -1 where the function is missing.
type MPITCount struct {
	Cvars      int    `json:"cvars"`
	Pvars      int    `json:"pvars"`
	Categories int    `json:"categories"`
	Events     int    `json:"events"`
	Sources    int    `json:"sources"`
	Note       string `json:"note,omitempty"`
}

// ABICap is what the MPI 5 standard ABI library answers.
type ABICap struct {
	Lib     string `json:"lib,omitempty"`
	Version string `json:"version,omitempty"` // "1.0" from MPI_Abi_get_version
	Reason  string `json:"reason,omitempty"`  // why there is none
}

// Fortran says which Fortran bindings a program can be built and run with.
type Fortran struct {
	MPIFH     bool   `json:"mpif_h"`
	UseMPI    bool   `json:"use_mpi"`
	UseMPIF08 bool   `json:"use_mpi_f08"`
	Reason    string `json:"reason,omitempty"`
}

// HasABI reports whether the implementation ships a working libmpi_abi.
func (c *Caps) HasABI() bool { return c.ABI.Version != "" }

// Needs are the capabilities a rule can need: any MPI, the variables part of
// MPI_T, its events, a working QMPI, the MPI 5 standard ABI library.
var Needs = []string{"mpi", "mpit", "events", "qmpi", "abi"}

// Lacks says why the implementation lacks a capability a rule needs (one of
// Needs), from what the probe measured; "" when it has it.
func (c *Caps) Lacks(need string) string {
	switch need {
	case "qmpi":
		if !c.QMPI.Works {
			return "no working QMPI: " + orMeasured(c.QMPI.Reason, fmt.Sprintf("QMPI_Register_tool_name returned %d", c.QMPI.RC))
		}
	case "mpit":
		if c.AfterInit.Cvars < 0 {
			return "no MPI_T: MPI_T_cvar_get_num could not be asked after MPI_Init (" + c.AfterInit.Note + ")"
		}
	case "events":
		if c.AfterInit.Events < 0 {
			return "no MPI_T events interface: MPI_T_event_get_num could not be asked after MPI_Init" + orMeasured(" ("+c.AfterInit.Note+")", "")
		}
	case "abi":
		if !c.HasABI() {
			return "no MPI 5 standard ABI library: " + orMeasured(c.ABI.Reason, "none found")
		}
	}
	return ""
}

func orMeasured(s, otherwise string) string {
	if s == "" || s == " ()" {
		return otherwise
	}
	return s
}

// probeFixtures are built for every implementation to probe it.
var probeFixtures = []Fixture{
	{Name: "caps_after_init", Sources: []string{"probe/caps_after_init.c"}},
	{Name: "fortran_mpifh", Sources: []string{"probe/fortran_mpifh.f90"}, Fortran: true},
	{Name: "fortran_use_mpi", Sources: []string{"probe/fortran_use_mpi.f90"}, Fortran: true},
	{Name: "fortran_use_mpi_f08", Sources: []string{"probe/fortran_use_mpi_f08.f90"}, Fortran: true},
	launchCheck,
}

// probeDeadline bounds each probe job of one rank: a launcher that hangs
// breaks the probe then, once, not every rule at its own deadline.
var probeDeadline = 60 * time.Second

// launchCheck is two ranks that talk (launch.go).
var launchCheck = Fixture{Name: "launch_check", Sources: []string{"probe/launch_check.c"}}

// Probe asks the implementation what it can do.
func Probe(im *Impl) *Caps {
	c := &Caps{Impl: im.ID, Available: im.Available, Reason: im.Reason}
	if !im.Available {
		return c
	}
	if reason := rootProblem(im); reason != "" {
		c.Available, c.Reason = false, reason
		return c
	}
	if reason := slurmRootProblem(im); reason != "" {
		c.Available, c.Reason = false, reason
		return c
	}
	// The probes are jobs of their own, side by side: one after the other
	// they took 8 s on Open MPI 6 (five launches of 0.5 to 1.7 s), and every
	// suite waits for the slowest implementation's probes.
	var (
		wg             sync.WaitGroup
		lib, abi       *libAnswers
		libErr, abiErr error
		after          Caps // the after-init probe's count and problems
	)
	// In-process questions, in a helper process of its own.
	wg.Go(func() { lib, libErr = probeLibrary(im, im.Lib, "native") })
	if im.ABI != nil {
		wg.Go(func() { abi, abiErr = probeLibrary(im, im.ABI.Lib, "abi") })
	}
	wg.Go(func() { after.AfterInit = probeAfterInit(im, &after) })
	wg.Go(func() { c.Fortran = probeFortran(im) })
	wg.Wait()
	if libErr != nil {
		c.Problems = append(c.Problems, libErr.Error())
		c.QMPI.Reason = "library probe failed: " + libErr.Error()
	} else {
		c.MPIVersion, c.LibraryVersion = lib.MPIVersion, lib.LibraryVersion
		c.QMPI, c.BeforeInit = lib.QMPI, lib.MPIT
	}
	if im.ABI == nil {
		c.ABI.Reason = "no libmpi_abi (the implementations file has no abi entry)"
		if im.ABIReason != "" {
			c.ABI.Reason = "no libmpi_abi: " + im.ABIReason
		}
	} else if abiErr != nil {
		c.ABI.Reason = abiErr.Error()
		c.Problems = append(c.Problems, abiErr.Error())
	} else {
		c.ABI = abi.ABI
	}
	c.AfterInit, c.ProbeMS = after.AfterInit, after.ProbeMS
	c.Problems = append(c.Problems, after.Problems...)
	return c
}

// rootProblem says why a chroot implementation cannot run jobs now: its
// command prefix refusing to run a program there (chroot needs root), in
// the prefix's own words, or the root's /proc missing.
func rootProblem(im *Impl) string {
	if im.Root == "" {
		return ""
	}
	if len(im.Prefix) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, im.Prefix[0], append(im.Prefix[1:], "true")...).CombinedOutput()
		if err != nil {
			said := orMeasured(lastWords(string(out), 200), err.Error())
			if filepath.Base(im.Prefix[0]) == "chroot" && geteuid() != 0 {
				return fmt.Sprintf("runs in a chroot of %s, which needs root: run as root (%s)", im.Root, said)
			}
			return fmt.Sprintf("%s cannot run a program in %s (%s): run ci/provision", strings.Join(im.Prefix, " "), im.Root, said)
		}
	}
	if _, err := os.Stat(filepath.Join(im.Root, "proc", "self")); err != nil {
		return fmt.Sprintf("%s/proc is not mounted: run ci/provision (it bind-mounts /proc, /sys and /dev into the root)", im.Root)
	}
	return ""
}

func probeAfterInit(im *Impl, c *Caps) MPITCount {
	n := MPITCount{Cvars: -1, Pvars: -1, Categories: -1, Events: -1, Sources: -1}
	b := Build(im, probeFixtures[0])
	if b.Error != "" {
		// the build's own account names the fixture, its command and
		// what the compiler said
		why := verdict.CauseLine(b.Error)
		if !strings.HasPrefix(why, "build caps_after_init ") {
			why = "caps_after_init did not build: " + why
		}
		c.Problems = append(c.Problems, why)
		n.Note = "not probed: the probe fixture did not build"
		return n
	}
	res, err := Run(Job{Impl: im, Name: "caps_after_init", Ranks: 1, Program: b.Path, Deadline: probeDeadline})
	if err != nil {
		c.Problems = append(c.Problems, err.Error())
		return n
	}
	c.ProbeMS = max(res.Duration.Milliseconds(), 1)
	defer res.Cleanup()
	if !res.OK() {
		said := saying(im, res)
		c.Problems = append(c.Problems, said)
		n.Note = "not probed: " + said
		return n
	}
	recs, err := ReadRecords(res.Dir, "caps_after_init", 1)
	if err != nil {
		c.Problems = append(c.Problems, err.Error())
		return n
	}
	got, err := DecodeKind[MPITCount](recs, "counts")
	if err != nil || len(got) != 1 {
		c.Problems = append(c.Problems, fmt.Sprintf("caps_after_init: want one counts record, got %d (%v)", len(got), err))
		return n
	}
	return got[0]
}

func probeFortran(im *Impl) Fortran {
	var f Fortran
	if im.FC == "" {
		f.Reason = "no Fortran compiler wrapper (fc)"
		return f
	}
	// The three bindings are probed side by side; their reasons are said in
	// order.
	oks := []*bool{&f.MPIFH, &f.UseMPI, &f.UseMPIF08}
	why := make([]string, len(oks))
	var wg sync.WaitGroup
	for i, ok := range oks {
		wg.Go(func() { why[i] = probeFortranBinding(im, probeFixtures[1+i], ok) })
	}
	wg.Wait()
	f.Reason = strings.Join(slices.DeleteFunc(why, func(s string) bool { return s == "" }), "; ")
	return f
}

// probeFortranBinding builds and runs one binding's probe, sets ok when it
// works, and says why not otherwise.
func probeFortranBinding(im *Impl, fx Fixture, ok *bool) string {
	b := Build(im, fx)
	if b.Error != "" {
		return fx.Name + ": " + verdict.FirstLine(b.Error)
	}
	res, err := Run(Job{Impl: im, Name: fx.Name, Ranks: 1, Program: b.Path, Deadline: probeDeadline})
	if err != nil {
		return fx.Name + ": " + err.Error()
	}
	defer res.Cleanup()
	*ok = res.OK() && strings.Contains(res.Stdout, "mpits-fortran-ok")
	switch {
	case !res.OK():
		return fx.Name + ": " + saying(im, res)
	case !*ok:
		return fx.Name + ": ran but did not print mpits-fortran-ok: " + orMeasured(lastWords(res.Stdout, 300), "no output")
	}
	return ""
}

// saying is why a probe job did not end well, naming its command, with the
// runtime's own last words (stderr, else stdout) on the same line (Hydra's
// and Open MPI's messages are the evidence a vendor needs), then the file
// all its output is kept in (probeLog).
func saying(im *Impl, res *Result) string {
	return said(res.CommandProblem(), res) + keepOutput(probeLog(im, res.Name), res)
}

// said is problem with the job's last words after it.
func said(problem string, res *Result) string {
	out := res.Stderr
	if strings.TrimSpace(out) == "" {
		out = res.Stdout
	}
	if w := lastWords(out, 300); w != "" {
		return problem + ": " + w
	}
	return problem
}

// lastWords is the end of s (at most about n characters) as one line: its
// lines joined by " | ", without blank ones and rules of dashes.
func lastWords(s string, n int) string {
	// Control characters (a launcher's NUL, terminal codes) would make the
	// reason binary to a reader of the logs.
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\n' {
			return -1
		}
		return r
	}, s)
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); strings.IndexFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			lines = append(lines, l)
		}
	}
	s = strings.Join(lines, " | ")
	if len(s) > n {
		cut := len(s) - n
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++ // never split a character
		}
		s = "…" + s[cut:]
	}
	return s
}

// libAnswers is what the helper process learns from one library.
type libAnswers struct {
	MPIVersion     string    `json:"mpi_version"`
	LibraryVersion string    `json:"library_version"`
	QMPI           QMPICap   `json:"qmpi"`
	MPIT           MPITCount `json:"mpit"`
	ABI            ABICap    `json:"abi"`
}

// probeLibrary runs this executable again as a helper that dlopens lib (two
// MPI libraries cannot share a process), in the implementation's
// environment. For a chroot implementation the executable is copied into
// the root and run there.
func probeLibrary(im *Impl, lib, mode string) (*libAnswers, error) {
	if lib == "" {
		return nil, fmt.Errorf("%s: no library path to probe", im.ID)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	prog := self
	if im.Root != "" {
		// One copy per probe: another implementation in the same root may be
		// running its own copy (rewriting a running file fails: text busy).
		tmp, err := os.MkdirTemp(im.HostPath("/tmp"), "mpits-probe-")
		if err != nil {
			return nil, fmt.Errorf("%s: cannot make a folder for the probe helper in the root: %v", im.ID, err)
		}
		defer os.RemoveAll(tmp)
		dst := filepath.Join(tmp, "probe-"+mode)
		if err := PlaceExecutable(self, dst); err != nil {
			return nil, fmt.Errorf("%s: cannot copy the probe helper into the root: %v", im.ID, err)
		}
		prog = im.InnerPath(dst)
	}
	// Loading the library may need what the launcher sets (a translation
	// layer's mpirun names the library it wraps): a helper that cannot load
	// it directly tries again as a job of one rank.
	var tries []*Result
	for _, ranks := range []int{0, 1} {
		res, err := Run(Job{Impl: im, Name: "probe " + filepath.Base(lib), Ranks: ranks, Program: prog,
			Env: map[string]string{settings.ProbeLibEnv: lib, settings.ProbeModeEnv: mode}, Deadline: 30 * time.Second})
		if err != nil && len(tries) == 0 {
			return nil, err
		}
		if err != nil {
			break // no launcher to try: the direct run's failure says why
		}
		res.Cleanup() // its output is read
		if res.OK() {
			var a libAnswers
			if err := json.Unmarshal([]byte(helperAnswer(res.Stdout)), &a); err != nil {
				return nil, fmt.Errorf("%s: probe helper answered %.200q: %v", im.ID, res.Stdout, err)
			}
			return &a, nil
		}
		tries = append(tries, res)
		if Interrupted() {
			break
		}
	}
	// The helper is a temporary test binary, gone when the reader looks:
	// the reason names the library, and the file the output is kept in.
	why := said(tries[0].problem("the probe helper loading "+lib), tries[0])
	if len(tries) > 1 {
		launcher := filepath.Base(im.Launcher)
		if im.Launch != settings.LaunchDirect {
			launcher = im.Launch
		}
		why += "; through " + launcher + " with one rank, " + tries[1].problem("it")
	}
	return nil, fmt.Errorf("%s: %s%s", im.ID, why, keepOutput(probeLog(im, "probe "+mode), tries...))
}

// helperAnswer is the probe helper's JSON line: its last line that is an
// object (a launcher may print after it).
func helperAnswer(stdout string) string {
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "{") {
			return l
		}
	}
	return strings.TrimSpace(stdout)
}

// Probed is an implementation with its capabilities, as reports show it.
type Probed struct {
	Impl *Impl `json:"impl"`
	Caps *Caps `json:"caps"`
}

// ProbedFile is where Setup writes the probed implementations, in
// MPITS_REPORT_DIR.
const ProbedFile = "capabilities.json"
