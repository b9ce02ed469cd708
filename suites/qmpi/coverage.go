package qmpi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// A tool generated from the implementation's own header intercepts every
// function it offers; an application calls as many MPI functions as can be
// called safely in one job. The three rules judge the one run.
var coverage = rulebook.Define(rulebook.Check{
	ID:    "QMPI-COVER",
	Needs: "qmpi",
	Title: "a tool generated from the header's QMPI_Functions_enum and QMPI_<Name>_t typedefs intercepts each call of an application calling ~300 distinct MPI functions exactly once (figure and misses reported)",
	Rules: []rulebook.Rule{
		// seed 001, "Requirements": "Complete coverage of all MPI routines
		// (except where exempted already in MPI 3)". MPI-5.0 §2.6.4 lets
		// only MPI_AINT_ADD and MPI_AINT_DIFF be macros (MPI 3 also
		// MPI_WTIME, MPI_WTICK and the handle conversions of §19.3.4); none
		// of these counts as a miss.
		{ID: "QMPI-COV-01", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "every MPI routine the application calls (about 300, MPI_T aside) can be registered through QMPI_Functions_enum and is intercepted exactly once per call",
			Injectors: []string{"inject_qmpi_drop_register"},
			Exposure:  cov1Exposure.Declared(), Judge: judgeCoverage("routines")},
		// seed 001, "Requirements": "Complete coverage of all tool
		// functionality"; MPI-5.0 §15.2.7: MPI_PCONTROL's "other values of
		// level have profile library defined effects and additional
		// arguments", so they are the tool's to read.
		{ID: "QMPI-COV-02", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "the variadic argument of MPI_Pcontrol(1, 0x5eed) reaches the tool that intercepts it",
			Injectors: []string{"inject_qmpi_drop_register"},
			Exposure:  cov2Exposure.Declared(), Judge: judgeCoverage("pcontrol")},
		// seed 001: "Complete coverage of all MPI routines": the MPI_T
		// routines are MPI routines (MPI-5.0 §15.3).
		{ID: "QMPI-COV-04", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "every MPI_T routine the application calls can be registered through QMPI_Functions_enum and is intercepted exactly once per call",
			Injectors: []string{"inject_qmpi_drop_mpit"},
			Exposure:  cov4Exposure.Declared(), Judge: judgeCoverage("mpit")},
	},
})

// Each routine called could have been missed, but those MPI 3 let be
// macros, which count as no miss when not intercepted; each reading of
// MPI_Pcontrol's variadic argument could have been another value.
var (
	cov1Exposure = rulebook.Exposure[calledRoutine]{Items: "routines called",
		When:  "unless MPI 3 let it be a macro and it was not intercepted (then no miss)",
		Could: func(r calledRoutine) bool { return !r.exempt }}
	cov2Exposure = rulebook.Exposure[pcontrolReading]{Items: "readings of the variadic argument"}
	cov4Exposure = rulebook.Exposure[calledRoutine]{Items: "routines called",
		When:  "unless MPI 3 let it be a macro and it was not intercepted (then no miss)",
		Could: func(r calledRoutine) bool { return !r.exempt }}
)

// calledRoutine is a routine the application called; exempt: MPI 3 let it
// be a macro, and it was not intercepted.
type calledRoutine struct {
	fn     string
	exempt bool
}

// pcontrolReading is the tool's reading of MPI_Pcontrol's variadic
// argument on a rank where MPI_Pcontrol was called and intercepted.
type pcontrolReading struct{ rank, arg int }

// coverBuild is the generated tool and application, built.
type coverBuild struct {
	Tool, App string
	Header    *qmpiHeader
	Skipped   []string // application sections left out
}

// buildCoverage generates the coverage tool and application from the
// implementation's header and builds them (the sources live in a temporary
// folder of this process, removed once built). A section the application
// dies in under the tool, without injectors (a build whose MPI_Psend_init
// aborts, say), is left out and named, and the rest is run again: the
// rules judge what was intercepted, and a death in one MPI function must
// not hide the other three hundred.
func buildCoverage(x *rulebook.X) *coverBuild {
	return coverBuilt.Do(x.Impl.ID, func() *coverBuild {
		died := map[string]string{}
		for {
			b := generateCoverage(x, died)
			if len(died) == maxDiedSections {
				return b
			}
			res, recs, err := x.Own().X().LaunchOnce(coverJob(b))
			var partial *mpi.MissingRecords
			if recs == nil && errors.As(err, &partial) {
				recs = partial.Partial // a rank that died before its first record
			}
			if res.OK() || recs == nil {
				return b // whole, or judged as broken by the rules
			}
			s := diedIn(recs)
			if s == "" || died[s] != "" {
				return b
			}
			died[s] = fmt.Sprintf("%s: %s", res.Problem(), lastWords(res.Stdout+res.Stderr))
		}
	})
}

// maxDiedSections bounds the sections left out for deaths: beyond it the
// application's death is the rules' error.
const maxDiedSections = 4

// diedIn is the section the application died in, or "": that of the rank
// that got furthest of those that did not finish. When one rank dies, the
// launcher kills the other wherever it is: a rank still behind (in "init"
// while the other died in "errors") was killed, and its section is not to
// be left out for it. The sections run in the same order on every rank.
func diedIn(recs *mpi.Records) string {
	died, furthest := "", 0
	for rank := 0; rank < 2; rank++ {
		if len(recs.Kind("cover_app_done", rank)) > 0 {
			continue
		}
		if n := len(recs.Kind("section", rank)); n > furthest {
			died, furthest = lastSection(recs, rank), n
		}
	}
	return died
}

// lastWords is the implementation's first line of complaint in a dead
// job's output ("Assertion failed in file ..."), or its last line.
func lastWords(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if strings.Contains(l, "Assertion failed") || strings.Contains(l, "Fatal error") || strings.Contains(l, "signal") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// coverBuilt keeps each implementation's build: the coverage and memcheck
// rules all use it, and generating it preprocesses mpi.h.
var coverBuilt mpi.Memo[*coverBuild]

func generateCoverage(x *rulebook.X, died map[string]string) *coverBuild {
	h := readQMPIHeader(x)
	tool := coverTool(h)
	source, err := loadCoverApp()
	if err != nil {
		x.Errorf("", "%v", err)
	}
	app, skipped := coverApp(source, h, nil, died)
	// A folder of this process's own: the build is cached by the sources'
	// content, so a folder shared by content would only let another run (or
	// another implementation with the same header) remove it mid-build.
	dir, err := os.MkdirTemp(x.Impl.HostPath("/tmp"), "mpits-qmpi-cover-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(dir)
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			x.Errorf("", "%v", err)
		}
	}
	write("cover_tool.c", tool)
	write("cover_app.c", app)
	appFixture := mpi.Fixture{Name: "qmpi_cover_app", Sources: []string{"cover_app.c"}, Dir: dir}
	appBuilt := mpi.Build(x.Impl, appFixture)
	if len(appBuilt.Missing) > 0 {
		// The header declares functions the library lacks: the application
		// leaves out their sections, which the verdict names, and is linked
		// again; what it still cannot link is judged as lacking.
		lacked := map[string]bool{}
		for _, n := range appBuilt.Missing {
			lacked[n] = true
		}
		app, skipped = coverApp(source, h, lacked, died)
		write("cover_app.c", app)
		appBuilt = mpi.Build(x.Impl, appFixture)
	}
	return &coverBuild{
		Tool:    x.Use(mpi.Build(x.Impl, mpi.Fixture{Name: "qmpi_cover_tool", Sources: []string{"cover_tool.c"}, Shared: true, Dir: dir})),
		App:     x.Use(appBuilt),
		Header:  h,
		Skipped: skipped,
	}
}

// readQMPIHeader preprocesses `#include <mpi.h>` with the implementation's
// own compiler wrapper and parses the result.
func readQMPIHeader(x *rulebook.X) *qmpiHeader {
	im := x.Impl
	dir, err := os.MkdirTemp(im.HostPath("/tmp"), "mpits-qmpi-header-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "header.c"), filepath.Join(dir, "header.i")
	if err := os.WriteFile(in, []byte("#include <mpi.h>\n"), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	args := append(append([]string{}, im.CFlags...), "-E", "-P", "-o", im.InnerPath(out), im.InnerPath(in))
	res, err := mpi.Run(mpi.Job{Impl: im, Name: "preprocess mpi.h", Program: im.CC, Args: args, Deadline: time.Minute})
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer res.Cleanup()
	if !res.OK() {
		x.Errorf(res.Evidence(), "preprocessing mpi.h: %s", res.Problem())
	}
	text, err := os.ReadFile(out)
	if err != nil {
		x.Errorf("", "%v", err)
	}
	h, err := parseQMPIHeader(string(text))
	if err != nil {
		x.Errorf("", "reading the QMPI declarations of mpi.h: %v", err)
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

// coverRun runs the generated application under the generated tool, once
// for the rules that judge it.
func coverRun(x *rulebook.X, b *coverBuild) (*mpi.Result, *mpi.Records) {
	return x.JobOnce(coverJob(b))
}

func coverJob(b *coverBuild) mpi.Job {
	return mpi.Job{
		Name: "qmpi_cover_app", Ranks: 2, Program: b.App,
		RankEnv:  map[string]string{"LD_PRELOAD": b.Tool},
		Env:      map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "cover"},
		Deadline: 120 * time.Second,
	}
}

// coverFound is what the coverage run showed.
type coverFound struct {
	header   *qmpiHeader
	called   []string          // distinct functions rank 0 called
	misses   map[string]string // function → why it was not intercepted exactly once per call
	exempt   []string          // functions MPI 3 let be macros, not intercepted
	skipped  []string          // application sections left out
	pcontrol string            // what became of MPI_Pcontrol's variadic argument ("" when it arrived)
	pread    []pcontrolReading // the tool's readings of that argument on ranks where MPI_Pcontrol was called and intercepted
	notes    string            // reported, not judged
	ev       string
}

// exemptMacro says whether MPI 3 let fn be a C macro, which no interception
// can see ("except where exempted already in MPI 3", seed 001): MPI_Wtime,
// MPI_Wtick, MPI_Aint_add, MPI_Aint_diff and the handle conversions (the
// status conversions are no handle conversions).
func exemptMacro(fn string) bool {
	switch fn {
	case "MPI_Wtime", "MPI_Wtick", "MPI_Aint_add", "MPI_Aint_diff":
		return true
	}
	return (strings.HasSuffix(fn, "_c2f") || strings.HasSuffix(fn, "_f2c")) && !strings.HasPrefix(fn, "MPI_Status_")
}

func analyseCoverage(x *rulebook.X) *coverFound {
	b := buildCoverage(x)
	res, recs := coverRun(x, b)
	c := &coverFound{header: b.Header, skipped: b.Skipped, misses: map[string]string{}, ev: recordsText(recs) + "\n" + res.Evidence()}
	var extra, internal []string
	for rank := 0; rank < 2; rank++ {
		if len(recs.Kind("cover_app_done", rank)) != 1 {
			x.Errorf(c.ev, "the coverage application did not finish on rank %d (last section: %s)", rank, lastSection(recs, rank))
		}
		hits := map[string]coverCount{}
		for _, h := range mpi.DecodeRank[coverCount](recs, "hit", rank) {
			hits[h.Fn] = h
		}
		calls := map[string]coverCount{}
		for _, cc := range mpi.DecodeRank[coverCount](recs, "called", rank) {
			calls[cc.Fn] = cc
			if rank == 0 {
				c.called = append(c.called, cc.Fn)
			}
		}
		for fn, cc := range calls {
			if _, seen := c.misses[fn]; seen {
				continue
			}
			h := hits[fn]
			why := ""
			switch f := b.Header.ByName[fn]; {
			case f == nil && contains(b.Header.Enum, strings.ToUpper(fn)+"_T"):
				why = "no QMPI_" + strings.TrimPrefix(fn, "MPI_") + "_t typedef"
			case f == nil:
				why = "not in QMPI_Functions_enum"
			case h.N+h.Nested == 0:
				why = fmt.Sprintf("not intercepted (%d calls)", cc.N+cc.InCallbacks)
			case h.N != cc.N:
				why = fmt.Sprintf("intercepted %d times for %d calls", h.N, cc.N)
			case h.Nested < cc.InCallbacks:
				why = fmt.Sprintf("%d calls from callbacks, %d intercepted", cc.InCallbacks, h.Nested)
			}
			switch {
			case why == "":
			case exemptMacro(fn) && h.N+h.Nested == 0:
				if rank == 0 {
					c.exempt = append(c.exempt, fn)
				}
			default:
				c.misses[fn] = why
			}
		}
		for fn, h := range hits {
			if _, ok := calls[fn]; !ok && rank == 0 && h.N > 0 {
				extra = append(extra, fmt.Sprintf("%s×%d", fn, h.N))
			}
		}
		if rank == 0 {
			for _, n := range mpi.DecodeRank[coverCount](recs, "nested", rank) {
				if calls[n.Fn].InCallbacks == 0 {
					internal = append(internal, fmt.Sprintf("%s→%s×%d", n.Outer, n.Fn, n.N))
				}
			}
		}
		for _, p := range mpi.DecodeRank[coverPcontrol](recs, "pcontrol", rank) {
			if calls["MPI_Pcontrol"].N > 0 && hits["MPI_Pcontrol"].N > 0 {
				c.pread = append(c.pread, pcontrolReading{rank, p.Arg})
			}
			if calls["MPI_Pcontrol"].N > 0 && hits["MPI_Pcontrol"].N > 0 && p.Arg != coverPcontrolArg {
				c.pcontrol = fmt.Sprintf("MPI_Pcontrol(1, %#x) was intercepted, but its variadic argument did not reach the tool (it read %#x)", coverPcontrolArg, p.Arg)
			}
		}
	}
	sort.Strings(internal)
	sort.Strings(c.called)
	sort.Strings(extra)
	sort.Strings(c.exempt)
	if len(b.Skipped) > 0 {
		c.notes += "; sections left out: " + strings.Join(b.Skipped, "; ")
	}
	if len(c.exempt) > 0 {
		c.notes += "; not intercepted, but MPI 3 let them be macros: " + strings.Join(c.exempt, ", ")
	}
	if len(extra) > 0 {
		c.notes += "; intercepted without an application call: " + strings.Join(extra, ", ")
	}
	if len(internal) > 0 {
		// MPI-5.0 §15.2.5.1 ("Multiple Counting") lets a library call MPI functions itself.
		c.notes += "; calls the library made itself, seen nested (allowed, MPI-5.0 §15.2.5.1): " + strings.Join(internal, ", ")
	}
	return c
}

// judgeCoverage judges the MPI_T routines ("mpit"), the others
// ("routines"), or MPI_Pcontrol's variadic argument ("pcontrol").
func judgeCoverage(what string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		c := analyseCoverage(x)
		if what == "pcontrol" {
			if !contains(c.called, "MPI_Pcontrol") || c.misses["MPI_Pcontrol"] != "" {
				x.Unsupported("not measurable here: MPI_Pcontrol was not intercepted once per call (%s; QMPI-COV-01 judges that)", c.misses["MPI_Pcontrol"])
			}
			if c.pcontrol != "" {
				x.Failf(c.ev, "%s", c.pcontrol)
			}
			return cov2Exposure.Pass(c.pread, "MPI_Pcontrol(1, %#x): the tool read the variadic argument %#x (%d readings)", coverPcontrolArg, coverPcontrolArg, len(c.pread))
		}
		var mine, missText []string
		var routines []calledRoutine
		exempt := 0 // not intercepted, but MPI 3 let them be macros: no miss
		for _, fn := range c.called {
			if strings.HasPrefix(fn, "MPI_T_") == (what == "mpit") {
				mine = append(mine, fn)
				routines = append(routines, calledRoutine{fn, contains(c.exempt, fn)})
				if why := c.misses[fn]; why != "" {
					missText = append(missText, fmt.Sprintf("%s (%s)", fn, why))
				}
				if contains(c.exempt, fn) {
					exempt++
				}
			}
		}
		if len(mine) == 0 {
			x.Unsupported("not measurable here: the application called no such routine (sections left out: %s)", strings.Join(c.skipped, "; "))
		}
		figure := fmt.Sprintf("%d/%d intercepted exactly once per call", len(mine)-exempt-len(missText), len(mine)-exempt)
		if what == "mpit" {
			figure = "MPI_T routines: " + figure
		} else {
			figure = "MPI routines (MPI_T aside): " + figure + fmt.Sprintf("; the tool registered %d of the header's %d QMPI_Functions_enum entries", len(c.header.Funcs), len(c.header.Enum))
		}
		if len(missText) > 0 {
			x.Failf(figure+"\nmisses:\n"+strings.Join(missText, "\n")+"\ncalled: "+strings.Join(mine, " ")+"\n\n"+c.ev,
				"%s; %d misses: %s%s", figure, len(missText), strings.Join(missText, ", "), c.notes)
		}
		if what == "mpit" {
			return cov4Exposure.Pass(routines, "%s%s", figure, c.notes)
		}
		return cov1Exposure.Pass(routines, "%s%s", figure, c.notes)
	}
}

// lastSection is the last application section a rank started.
func lastSection(recs *mpi.Records, rank int) string {
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
