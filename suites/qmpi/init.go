package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 000, "Registration", and seed 001's "complete coverage of all MPI
// routines" for MPI_Init, MPI_Init_thread and MPI_Finalize. Every rule
// judges the same two runs of app_layer under L0:L1:L0 (MPI_Init and
// MPI_Init_thread).
var registrationInit = rulebook.Define(rulebook.Check{
	ID:    "QMPI-INIT",
	Needs: "qmpi",
	Title: "a tool registered from a constructor gets its init callback once per listed instance before MPI_Init returns, registers storage and functions there, and can intercept MPI_Init, MPI_Init_thread and MPI_Finalize",
	Rules: []rulebook.Rule{
		// seed 000: "At some point before MPI is initialized, it will call
		// all of the callback functions provided via init_function_ptr."
		{ID: "QMPI-REG-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "QMPI_Register_tool_name called from a constructor for a listed name succeeds, and every init callback runs before MPI_Init (or MPI_Init_thread) returns",
			Injectors: []string{"inject_qmpi_name_refused"},
			Exposure:  initExposures["before"].Declared(), Judge: judgeInit("before")},
		// seed 000: "This callback function is called one time for each
		// instance of the tool that was requested via the environment
		// variable specifying the order and quantity of tools."
		{ID: "QMPI-REG-02", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "the init callback runs exactly once per listed instance (L0:L1:L0: L0 twice, L1 once)",
			Injectors: []string{"inject_qmpi_drop_instance"},
			Exposure:  initExposures["once"].Declared(), Judge: judgeInit("once")},
		// seed 000: "Inside this callback function, the tool should register
		// any tool-specific storage it will to use as well as any MPI
		// functions it plans to intercept."
		{ID: "QMPI-REG-X1", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "QMPI_Register_tool_storage and QMPI_Register_function called in an init callback with the id it was given succeed",
			Injectors: []string{"inject_qmpi_register_refused"},
			Exposure:  initExposures["register"].Declared(), Judge: judgeInit("register")},
		// seed 001, "Requirements": "Complete coverage of all MPI routines
		// (except where exempted already in MPI 3)"; "Support for pre and
		// post call activation".
		{ID: "QMPI-INIT-X1", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "MPI_Init, MPI_Init_thread and MPI_Finalize can be intercepted: under L0:L1:L0 they succeed and every instance sees each once, nested in list order",
			Injectors: []string{"inject_qmpi_drop_register"},
			Exposure:  initExposures["intercept"].Declared(), Judge: judgeInit("intercept")},
	},
})

const initList = "L0:L1:L0" // two instances of L0, one of L1

var initCall = map[string]string{"init": "MPI_Init", "thread": "MPI_Init_thread"}

// initExposures: every item judged (a registration, an init callback, a
// rank, an instance) could have shown a breach.
var initExposures = map[string]rulebook.Exposure[initItem]{
	"before":    {Items: "registrations and init callbacks (per rank and init mode)"},
	"once":      {Items: "ranks (per init mode)"},
	"register":  {Items: "init callbacks (per rank and init mode)"},
	"intercept": {Items: "instances (per rank and init mode)"},
}

// initItem is one thing judged on a rank of one init mode's run: a
// registration (by name), an init callback or instance (by id), or the rank.
type initItem struct {
	mode string
	rank int
	what string
}

// judgeInit judges one statement on both runs (MPI_Init, MPI_Init_thread).
func judgeInit(what string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		names := listNames(initList)
		var f rulebook.Problems
		var judged []initItem
		for _, mode := range []string{"init", "thread"} {
			initFn := map[string]string{"init": "init", "thread": "init_thread"}[mode]
			ranks := runLayer(x, layerRun{Name: "qmpi_app_layer " + mode, List: initList, Trace: "init,init_thread,finalize", Args: []string{mode, "1"}})
			for _, r := range ranks {
				ev := r.evidence()
				if r.Register == nil {
					x.Errorf(ev, "rank %d: the tool's constructor recorded no registration", r.Rank)
				}
				switch what {
				case "before":
					for name := range r.Register.RCs {
						judged = append(judged, initItem{mode, r.Rank, "registration of " + name})
					}
					for _, in := range r.Inits {
						judged = append(judged, initItem{mode, r.Rank, fmt.Sprintf("init callback of %d", in.Tool)})
					}
					for name, rc := range r.Register.RCs {
						if rc != 0 {
							f.Add(ev, "rank %d: QMPI_Register_tool_name(%q) of a listed tool returned %d", r.Rank, name, rc)
						}
					}
					for _, in := range r.Inits {
						if in.Line > r.InitLine {
							f.Add(ev, "rank %d: the init callback of instance %d (%s) came after the application's %s returned", r.Rank, in.Tool, in.Name, initCall[mode])
						}
					}
					if len(r.Inits) == 0 {
						f.Add(ev, "rank %d: no init callback ran before %s returned", r.Rank, initCall[mode])
					}
				case "once":
					judged = append(judged, initItem{mode, r.Rank, "rank"})
					perName := map[string]int{}
					for _, in := range r.Inits {
						perName[in.Name]++
					}
					if len(r.Inits) != len(names) || perName["L0"] != 2 || perName["L1"] != 1 {
						f.Add(ev, "rank %d (%s): %d init callbacks (%v) for the list %s, want one per instance (L0 twice, L1 once)", r.Rank, initCall[mode], len(r.Inits), perName, initList)
					}
				case "register":
					for _, in := range r.Inits {
						judged = append(judged, initItem{mode, r.Rank, fmt.Sprintf("init callback of %d", in.Tool)})
						if in.StorageRC != 0 || in.FunctionRC != 0 {
							f.Add(ev, "rank %d: instance %d: QMPI_Register_tool_storage returned %d, QMPI_Register_function %d", r.Rank, in.Tool, in.StorageRC, in.FunctionRC)
						}
					}
					if len(r.Inits) == 0 {
						f.Add(ev, "rank %d: no init callback ran, so nothing was registered", r.Rank)
					}
				case "intercept":
					if r.Init.RC != 0 {
						f.Add(ev, "rank %d: the application's %s returned %d", r.Rank, initCall[mode], r.Init.RC)
					}
					for _, fn := range []string{initFn, "finalize"} {
						got, want := sequence(r, fn), nested(names, 1)
						if d := firstDiff(got, want); d != "" {
							f.Add(ev, "rank %d (%s): the stack's work around MPI_%s: %s (got %s, want %s)", r.Rank, mode, fnTitle(fn), d, strings.Join(got, " "), strings.Join(want, " "))
						}
					}
					for _, in := range r.Inits {
						judged = append(judged, initItem{mode, r.Rank, fmt.Sprintf("instance %d", in.Tool)})
						s := r.summaryOf(in.Tool)
						if s == nil || s.Calls[initFn] != 1 || s.Calls["finalize"] != 1 {
							f.Add(ev, "rank %d (%s): instance %d (%s) did not see MPI_%s and MPI_Finalize exactly once: %+v", r.Rank, mode, in.Tool, in.Name, fnTitle(initFn), s)
						}
					}
				}
			}
		}
		f.FailOn(x)
		return initExposures[what].Pass(judged, "%s", map[string]string{
			"before":    initList + ": QMPI_Register_tool_name succeeded for each listed name, and all init callbacks ran before MPI_Init/MPI_Init_thread returned",
			"once":      initList + ": 3 init callbacks per rank (L0 twice, L1 once), with MPI_Init and with MPI_Init_thread",
			"register":  initList + ": QMPI_Register_tool_storage and QMPI_Register_function succeeded in every init callback",
			"intercept": initList + ": MPI_Init, MPI_Init_thread and MPI_Finalize succeeded and every instance saw each once, nested in list order",
		}[what])
	}
}

// fnTitle is the MPI name of a tool_layer function ("comm_rank" → "Comm_rank").
func fnTitle(fn string) string {
	if fn == "" {
		return fn
	}
	return strings.ToUpper(fn[:1]) + fn[1:]
}
