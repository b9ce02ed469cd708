package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 000, "Registration": a tool announces itself by name from a
// constructor; "at some point before MPI is initialized, it will call all of
// the callback functions", "one time for each instance of the tool that was
// requested". Seed 001: "complete coverage of all MPI routines", so MPI_Init,
// MPI_Init_thread and MPI_Finalize are interceptable too.
var registrationInit = harness.Define(harness.Check{
	ID:        "QMPI-INIT-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "a tool registered from a constructor gets its init callback once per listed instance before MPI_Init returns, and can intercept MPI_Init, MPI_Init_thread and MPI_Finalize",
	Injectors: []string{"inject_qmpi_drop_register"},
	Run:       runRegistrationInit,
})

const initList = "L0:L1:L0" // two instances of L0, one of L1

func runRegistrationInit(x *harness.X) harness.Verdict {
	requireQMPI(x)
	names := listNames(initList)
	for _, mode := range []string{"init", "thread"} {
		initFn := map[string]string{"init": "init", "thread": "init_thread"}[mode]
		ranks := runLayer(x, layerRun{Name: "qmpi_app_layer " + mode, List: initList, Trace: "init,init_thread,finalize", Args: []string{mode, "1"}})
		for _, r := range ranks {
			ev := r.evidence()
			if r.Register == nil {
				x.Failf(ev, "rank %d: the tool's constructor recorded no registration", r.Rank)
			}
			for name, rc := range r.Register.RCs {
				if rc != 0 {
					x.Failf(ev, "rank %d: QMPI_Register_tool_name(%q) of a listed tool returned %d", r.Rank, name, rc)
				}
			}
			if r.Init.RC != 0 {
				x.Failf(ev, "rank %d: the application's %s returned %d", r.Rank, map[string]string{"init": "MPI_Init", "thread": "MPI_Init_thread"}[mode], r.Init.RC)
			}
			perName := map[string]int{}
			for _, in := range r.Inits {
				perName[in.Name]++
				if in.Line > r.InitLine {
					x.Failf(ev, "rank %d (%s): the init callback of instance %d (%s) came after the application's MPI_Init returned", r.Rank, mode, in.Tool, in.Name)
				}
				if in.StorageRC != 0 || in.FunctionRC != 0 {
					x.Failf(ev, "rank %d: instance %d: QMPI_Register_tool_storage returned %d, QMPI_Register_function %d", r.Rank, in.Tool, in.StorageRC, in.FunctionRC)
				}
			}
			if len(r.Inits) != len(names) || perName["L0"] != 2 || perName["L1"] != 1 {
				x.Failf(ev, "rank %d (%s): %d init callbacks (%v) for the list %s, want one per instance (L0 twice, L1 once)", r.Rank, mode, len(r.Inits), perName, initList)
			}
			for _, fn := range []string{initFn, "finalize"} {
				got, want := sequence(r, fn), nested(names, 1)
				if d := firstDiff(got, want); d != "" {
					x.Failf(ev, "rank %d (%s): the stack's work around MPI_%s: %s (got %s, want %s)", r.Rank, mode, fnTitle(fn), d, strings.Join(got, " "), strings.Join(want, " "))
				}
			}
			for _, in := range r.Inits {
				s := r.summaryOf(in.Tool)
				if s == nil || s.Calls[initFn] != 1 || s.Calls["finalize"] != 1 {
					x.Failf(ev, "rank %d (%s): instance %d (%s) did not see MPI_%s and MPI_Finalize exactly once: %+v", r.Rank, mode, in.Tool, in.Name, fnTitle(initFn), s)
				}
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("%s: 3 init callbacks per rank (L0 twice, L1 once), all before MPI_Init/MPI_Init_thread returned; every instance saw MPI_Init, MPI_Init_thread and MPI_Finalize once, nested in list order", initList)}
}

// fnTitle is the MPI name of a tool_layer function ("comm_rank" → "Comm_rank").
func fnTitle(fn string) string {
	if fn == "" {
		return fn
	}
	return strings.ToUpper(fn[:1]) + fn[1:]
}
