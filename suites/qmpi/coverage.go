package qmpi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness"
)

// Seed 001, "Requirements": "Complete coverage of all MPI routines (except
// where exempted already in MPI 3)", "No loss of functionality compared to
// existing PMPI"; MPI-4.1 §15.2.4: MPI_Pcontrol's variadic arguments are for
// the profiling library. A tool generated from the implementation's own
// header intercepts every function it offers; an application calls as many
// MPI functions as can be called safely in one job. Each call must be
// intercepted exactly once; the reason gives the figure and the misses.
var coverage = harness.Define(harness.Check{
	ID:        "QMPI-COVER-001",
	Clause:    "seed:001",
	Needs:     "qmpi",
	Title:     "a tool generated from the header's QMPI_Functions_enum and QMPI_<Name>_t typedefs intercepts each call of an application calling ~300 distinct MPI functions exactly once (figure and misses reported)",
	Injectors: []string{"inject_qmpi_drop_register"},
	Run:       runCoverage,
})

// coverBuild is the generated tool and application, built.
type coverBuild struct {
	Tool, App string
	Header    *qmpiHeader
	Skipped   []string // application sections left out
}

// buildCoverage generates the coverage tool and application from the
// implementation's header and builds them (the sources live in a temporary
// folder named by their content, removed once built).
func buildCoverage(x *harness.X) *coverBuild {
	h := readQMPIHeader(x)
	tool := coverTool(h)
	app, skipped := coverApp(h)
	sum := sha256.Sum256([]byte(tool + "\x00" + app))
	dir := x.Impl.HostPath(filepath.Join("/tmp", "mpits-qmpi-cover-"+hex.EncodeToString(sum[:8])))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	defer os.RemoveAll(dir)
	for name, src := range map[string]string{"cover_tool.c": tool, "cover_app.c": app} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
		}
	}
	built := func(f harness.Fixture) string {
		b := harness.Build(x.Impl, f)
		if b.Error != "" {
			panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("the generated %s did not build: %s", f.Name, strings.SplitN(b.Error, "\n", 2)[0]), Evidence: b.Error})
		}
		return b.Path
	}
	return &coverBuild{
		Tool:    built(harness.Fixture{Name: "qmpi_cover_tool", Sources: []string{"cover_tool.c"}, Shared: true, Dir: dir}),
		App:     built(harness.Fixture{Name: "qmpi_cover_app", Sources: []string{"cover_app.c"}, Dir: dir}),
		Header:  h,
		Skipped: skipped,
	}
}

// readQMPIHeader preprocesses `#include <mpi.h>` with the implementation's
// own compiler wrapper and parses the result.
func readQMPIHeader(x *harness.X) *qmpiHeader {
	im := x.Impl
	dir, err := os.MkdirTemp(im.HostPath("/tmp"), "mpits-qmpi-header-")
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "header.c"), filepath.Join(dir, "header.i")
	if err := os.WriteFile(in, []byte("#include <mpi.h>\n"), 0o644); err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	args := append(append([]string{}, im.CFlags...), "-E", "-P", "-o", im.InnerPath(out), im.InnerPath(in))
	res, err := harness.Run(harness.Job{Impl: im, Name: "preprocess mpi.h", Program: im.CC, Args: args, Deadline: time.Minute})
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	defer res.Cleanup()
	if !res.OK() {
		panic(harness.Verdict{Status: harness.Error, Reason: "preprocessing mpi.h: " + res.Problem(), Evidence: res.Evidence()})
	}
	text, err := os.ReadFile(out)
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	h, err := parseQMPIHeader(string(text))
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: "reading the QMPI declarations of mpi.h: " + err.Error()})
	}
	return h
}

type coverCount struct {
	Fn          string `json:"fn"`
	N           int64  `json:"n"`            // tool: outside other calls; app: outside callbacks
	Nested      int64  `json:"nested"`       // tool: while another intercepted call was under way
	InCallbacks int64  `json:"in_callbacks"` // app: from callbacks MPI ran
	Outer       string `json:"outer"`        // nested records: the call under way
}

type coverPcontrol struct {
	Seen int `json:"seen"`
	Arg  int `json:"arg"`
}

// coverRun runs the generated application under the generated tool.
func coverRun(x *harness.X, b *coverBuild) (*harness.Result, *harness.Records) {
	return x.Job(harness.Job{
		Name: "qmpi_cover_app", Ranks: 2, Program: b.App,
		RankEnv:  map[string]string{"LD_PRELOAD": b.Tool},
		Env:      map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "cover"},
		Deadline: 120 * time.Second,
	})
}

func runCoverage(x *harness.X) harness.Verdict {
	requireQMPI(x)
	b := buildCoverage(x)
	res, recs := coverRun(x, b)
	ev := recordsText(recs) + "\n" + res.Evidence()
	misses := map[string]string{}
	var called, extra, internal []string
	for rank := 0; rank < 2; rank++ {
		if len(recs.Kind("cover_app_done", rank)) != 1 {
			panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("the coverage application did not finish on rank %d (last section: %s)", rank, lastSection(recs, rank)), Evidence: ev})
		}
		hits := map[string]coverCount{}
		for _, c := range decodeRank[coverCount](x, recs, "hit", rank) {
			hits[c.Fn] = c
		}
		calls := map[string]coverCount{}
		for _, c := range decodeRank[coverCount](x, recs, "called", rank) {
			calls[c.Fn] = c
			if rank == 0 {
				called = append(called, c.Fn)
			}
		}
		for fn, c := range calls {
			if _, seen := misses[fn]; seen {
				continue
			}
			h := hits[fn]
			switch f := b.Header.ByName[fn]; {
			case f == nil && contains(b.Header.Enum, strings.ToUpper(fn)+"_T"):
				misses[fn] = "no QMPI_" + strings.TrimPrefix(fn, "MPI_") + "_t typedef"
			case f == nil:
				misses[fn] = "not in QMPI_Functions_enum"
			case h.N+h.Nested == 0:
				misses[fn] = fmt.Sprintf("not intercepted (%d calls)", c.N+c.InCallbacks)
			case h.N != c.N:
				misses[fn] = fmt.Sprintf("intercepted %d times for %d calls", h.N, c.N)
			case h.Nested < c.InCallbacks:
				misses[fn] = fmt.Sprintf("%d calls from callbacks, %d intercepted", c.InCallbacks, h.Nested)
			}
		}
		for fn, h := range hits {
			if _, ok := calls[fn]; !ok && rank == 0 && h.N > 0 {
				extra = append(extra, fmt.Sprintf("%s×%d", fn, h.N))
			}
		}
		if rank == 0 {
			for _, n := range decodeRank[coverCount](x, recs, "nested", rank) {
				if calls[n.Fn].InCallbacks == 0 {
					internal = append(internal, fmt.Sprintf("%s→%s×%d", n.Outer, n.Fn, n.N))
				}
			}
		}
		for _, p := range decodeRank[coverPcontrol](x, recs, "pcontrol", rank) {
			if calls["MPI_Pcontrol"].N > 0 && hits["MPI_Pcontrol"].N > 0 && p.Arg != coverPcontrolArg {
				misses["MPI_Pcontrol"] = fmt.Sprintf("intercepted, but its variadic argument %#x did not reach the tool (it read %#x)", coverPcontrolArg, p.Arg)
			}
		}
	}
	sort.Strings(internal)
	sort.Strings(called)
	sort.Strings(extra)
	var names []string
	for fn := range misses {
		names = append(names, fn)
	}
	sort.Strings(names)
	var missText []string
	for _, fn := range names {
		missText = append(missText, fmt.Sprintf("%s (%s)", fn, misses[fn]))
	}
	figure := fmt.Sprintf("coverage %d/%d: %d distinct MPI functions called, %d intercepted exactly once per call; the tool registered %d of the header's %d QMPI_Functions_enum entries",
		len(called)-len(misses), len(called), len(called), len(called)-len(misses), len(b.Header.Funcs), len(b.Header.Enum))
	notes := ""
	if len(b.Skipped) > 0 {
		notes += "; sections left out: " + strings.Join(b.Skipped, "; ")
	}
	if len(extra) > 0 {
		notes += "; intercepted without an application call: " + strings.Join(extra, ", ")
	}
	if len(internal) > 0 {
		// MPI-4.1 §15.2.6 lets a library call MPI functions itself ("double counting").
		notes += "; calls the library made itself, seen nested (allowed, MPI-4.1 §15.2.6): " + strings.Join(internal, ", ")
	}
	if len(misses) > 0 {
		x.Failf(figure+"\nmisses:\n"+strings.Join(missText, "\n")+"\ncalled: "+strings.Join(called, " ")+"\n\n"+ev,
			"%s; %d misses: %s%s", figure, len(misses), strings.Join(missText, ", "), notes)
	}
	return harness.Verdict{Reason: figure + notes}
}

// decodeRank decodes the records of one kind written by one rank.
func decodeRank[T any](x *harness.X, recs *harness.Records, kind string, rank int) []T {
	var out []T
	for _, r := range recs.Kind(kind, rank) {
		var v T
		if err := r.Decode(&v); err != nil {
			panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
		}
		out = append(out, v)
	}
	return out
}

// lastSection is the last application section a rank started.
func lastSection(recs *harness.Records, rank int) string {
	last := "none"
	for _, r := range recs.Kind("section", rank) {
		var s struct {
			Name string `json:"name"`
		}
		if r.Decode(&s) == nil {
			last = s.Name
		}
	}
	return last
}
