package abi

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/rulebook"
)

// appRun is one run of fixtures/c/abi/app.c: built with one implementation,
// run on another's library.
type appRun struct {
	Kind       string // "abi" (libmpi_abi) or "native"
	Builder    string
	Runner     string
	OK         bool
	Problem    string   // one line: why not OK
	Mismatches []string // results that differ from what MPI defines
	Results    int      // results compared
	Library    string   // MPI_Get_library_version, first line
	LoadedFrom string   // the object that defines MPI_Init, as the runner sees it
	Note       string   // e.g. how the library was found
	// Died: the application did not run to its end (it crashed, hung or
	// failed); Problem says how and after which result.
	Died bool
	// Values: what each rank recorded, by key (nil when it died).
	Values [2]map[string]int64
}

func (r appRun) cell() string {
	if r.OK {
		return fmt.Sprintf("pass (%d results)", r.Results)
	}
	return "FAIL: " + shorten(r.Problem, 120)
}

type resultRec struct {
	K string `json:"k"`
	V int64  `json:"v"`
}

type libRec struct {
	Version string `json:"version"`
	Path    string `json:"path"`
}

// lastResult says after which result a dead application stopped, from
// what its ranks wrote (all of them, or those that wrote anything).
func lastResult(recs *mpi.Records, err error) string {
	var partial *mpi.MissingRecords
	if recs == nil && errors.As(err, &partial) {
		recs = partial.Partial
	}
	if recs == nil {
		return ""
	}
	last := map[int]string{}
	for _, r := range recs.Kind("r", -1) {
		var rr resultRec
		if r.Decode(&rr) == nil {
			last[r.Rank] = rr.K
		}
	}
	if len(last) == 0 {
		return " before its first result"
	}
	var s []string
	for rank := 0; rank < 2; rank++ {
		if k, ok := last[rank]; ok {
			s = append(s, fmt.Sprintf("rank %d after %s", rank, k))
		}
	}
	return " (" + strings.Join(s, ", ") + ")"
}

// runApp runs the application binary at path (as builder sees it) on
// runner with env for the ranks, and compares every result with what MPI
// defines. wantLib is the library the loader must have picked (as runner
// sees it); "" skips that test. args go to the application
// (noInvalidRank).
func runApp(runner *rulebook.X, kind string, builder *mpi.Impl, path string, env map[string]string, wantLib string, args ...string) appRun {
	run := appRun{Kind: kind, Builder: builder.ID, Runner: runner.Impl.ID}
	var res *mpi.Result
	var recs *mpi.Records
	var recErr error
	if v := attempt(func() {
		res, recs, recErr = runner.Launch(mpi.Job{
			Name: fmt.Sprintf("app built with %s on %s", builder.ID, runner.Impl.ID), Ranks: 2,
			Program: runner.PathFrom(builder, path), Args: args, RankEnv: env, Deadline: 90 * time.Second,
		})
	}); v != nil {
		run.Problem = v.Reason
		return run
	}
	if !res.OK() {
		run.Died = true
		run.Problem = res.Problem() + lastResult(recs, recErr) + ": " + shorten(lastLines(res.Stdout+res.Stderr, 2), 300)
		return run
	}
	if recErr != nil {
		run.Problem = recErr.Error()
		return run
	}
	want := expectedApp()
	if slices.Contains(args, noInvalidRank) {
		want = expectedAppNoInvalidRank()
	}
	got := [2]map[string]int64{{}, {}}
	for _, r := range recs.Kind("r", -1) {
		var rr resultRec
		if err := r.Decode(&rr); err != nil || r.Rank > 1 {
			run.Problem = fmt.Sprintf("bad record %s", r.Raw)
			return run
		}
		got[r.Rank][rr.K] = rr.V
	}
	run.Values = got
	for rank := 0; rank < 2; rank++ {
		for _, k := range slices.Sorted(maps.Keys(want[rank])) {
			v, ok := got[rank][k]
			switch {
			case !ok:
				run.Mismatches = append(run.Mismatches, fmt.Sprintf("rank %d %s: missing, want %d", rank, k, want[rank][k]))
			case v != want[rank][k]:
				run.Mismatches = append(run.Mismatches, fmt.Sprintf("rank %d %s = %d, want %d", rank, k, v, want[rank][k]))
			default:
				run.Results++
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got[rank])) {
			if _, ok := want[rank][k]; !ok {
				run.Mismatches = append(run.Mismatches, fmt.Sprintf("rank %d %s = %d: not expected", rank, k, got[rank][k]))
			}
		}
	}
	for _, r := range recs.Kind("lib", -1) {
		var l libRec
		if r.Decode(&l) == nil {
			run.Library, run.LoadedFrom = l.Version, l.Path
		}
		if wantLib != "" && realHost(runner.Impl, l.Path) != realHost(runner.Impl, wantLib) {
			run.Mismatches = append(run.Mismatches, fmt.Sprintf("rank %d ran on %s (%s), not on %s", r.Rank, l.Path,
				realHost(runner.Impl, l.Path), wantLib))
		}
	}
	if len(run.Mismatches) > 0 {
		run.Problem = run.Mismatches[0]
		if len(run.Mismatches) > 1 {
			run.Problem += fmt.Sprintf(" (and %d more)", len(run.Mismatches)-1)
		}
		return run
	}
	run.OK = true
	return run
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// The cross-run matrix as the report shows it: every run of the
// application made without injectors, by kind, builder and runner.
var crossRuns = struct {
	sync.Mutex
	cells     map[string]appRun
	launchers map[string]string // "library|launcher" -> outcome
}{cells: map[string]appRun{}, launchers: map[string]string{}}

func keepRun(r appRun) {
	crossRuns.Lock()
	crossRuns.cells[r.Kind+"|"+r.Builder+"|"+r.Runner] = r
	crossRuns.Unlock()
}

// matrixTable renders the runs of one kind as built-with × run-on.
func matrixTable(kind string, builders, runners []string) string {
	crossRuns.Lock()
	defer crossRuns.Unlock()
	var b strings.Builder
	b.WriteString("| built with ↓ / run on → |")
	for _, r := range runners {
		b.WriteString(" " + r + " |")
	}
	b.WriteString("\n|---|")
	for range runners {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, bl := range builders {
		b.WriteString("| " + bl + " |")
		for _, r := range runners {
			c, ok := crossRuns.cells[kind+"|"+bl+"|"+r]
			s := "not run"
			if ok {
				s = c.cell()
			}
			b.WriteString(" " + report.Cell(s) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeCrossRunReport writes abi-cross-run.md with everything known so far.
func writeCrossRunReport(x *rulebook.X) {
	var b strings.Builder
	b.WriteString("# ABI cross-run matrix\n\nWritten by the ABI suite (suites/abi). Each cell: the application fixtures/c/abi/app.c " +
		"(point-to-point with statuses, collectives with predefined and user-defined operations, derived datatypes, attributes " +
		"with copy/delete callbacks, error handlers with user callbacks, requests, info, communicators and groups) built with " +
		"the row's implementation and run on the column's library; pass means every result is the one MPI defines and the " +
		"binary ran on that library. The ABI rules (ABI-LIB-03, ABI-LIB-04) compare each cell with the column's native build " +
		"instead: a result its native library gets wrong too is an API question (NATIVE-API-X1), not an ABI one.\n\n")
	b.WriteString("## MPI 5 standard ABI (libmpi_abi, ABI-LIB-03, ABI-LIB-04)\n\n")
	var abi []string
	for _, e := range abiEnvs(x) {
		abi = append(abi, e.Impl.ID)
	}
	if len(abi) > 0 {
		b.WriteString("Built with `abi.cc` + the implementation's ABI header, linked with `-l:libmpi_abi.so.1`, run under the " +
			"column's own launcher with `LD_LIBRARY_PATH` = the column's `abi.lib_dir`.\n\n")
		b.WriteString(matrixTable("abi", abi, abi))
	}
	for _, e := range x.All {
		if e.Caps == nil || !e.Caps.HasABI() {
			reason := "unavailable"
			if e.Caps != nil {
				reason = e.Caps.ABI.Reason
				if !e.Caps.Available {
					reason = "implementation unavailable: " + e.Caps.Reason
				}
			}
			fmt.Fprintf(&b, "\n- %s: no standard ABI (%s)", e.Impl.ID, reason)
		}
	}
	b.WriteString("\n\n")
	crossRuns.Lock()
	launch := slices.Sorted(maps.Keys(crossRuns.launchers))
	outcomes := map[string]string{}
	for k, v := range crossRuns.launchers {
		outcomes[k] = v
	}
	crossRuns.Unlock()
	if len(launch) > 0 {
		b.WriteString("## A libmpi_abi under another implementation's launcher (ABI-LIB-05, information only)\n\n" +
			"The library and its launcher must match (the process manager interface is not part of the ABI); these runs " +
			"are recorded, not judged.\n\n| library | launcher | outcome |\n|---|---|---|\n")
		for _, k := range launch {
			p := strings.SplitN(k, "|", 2)
			fmt.Fprintf(&b, "| %s | %s | %s |\n", p[0], p[1], report.Cell(outcomes[k]))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Pre-standard ABIs (NATIVE-PRINT-02, NATIVE-API-X1)\n\nBuilt with the row's own `mpicc`; run under the column's " +
		"launcher with `LD_LIBRARY_PATH` = the directory of the column's MPI library, the binary unchanged. Pass: it ran on " +
		"that library and gave the same results as the column's own build of the application. The MPICH family claim is " +
		"judged for mpich-deb's binary on every library of the MPICH ABI (soname .so.12); other pairs whose binary asks " +
		"for the column's library by its name are run for information. Pairs not run need a library the column does not " +
		"have (see abi-fingerprint.md).\n\n")
	var builders, runners []string
	crossRuns.Lock()
	seenB, seenR := map[string]bool{}, map[string]bool{}
	for _, c := range crossRuns.cells {
		if c.Kind == "native" {
			seenB[c.Builder], seenR[c.Runner] = true, true
		}
	}
	var notes []string
	for _, k := range slices.Sorted(maps.Keys(crossRuns.cells)) {
		if c := crossRuns.cells[k]; c.Kind == "native" && c.Note != "" {
			notes = append(notes, fmt.Sprintf("- %s on %s: %s", c.Builder, c.Runner, c.Note))
		}
	}
	crossRuns.Unlock()
	for _, e := range x.All {
		if seenB[e.Impl.ID] {
			builders = append(builders, e.Impl.ID)
		}
		if seenR[e.Impl.ID] {
			runners = append(runners, e.Impl.ID)
		}
	}
	sort.Strings(notes)
	if len(builders) > 0 {
		b.WriteString(matrixTable("native", builders, runners))
		if len(notes) > 0 {
			b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
		}
	} else {
		b.WriteString("Not run.\n")
	}
	report.Write("abi-cross-run.md", b.String())
}
