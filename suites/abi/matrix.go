package abi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 chapter 21 (21.2, "The MPI ABI Header File and Shared Library"):
// an application compiled against the standard mpi.h and linked with
// mpi_abi runs on every implementation's libmpi_abi. Judged per library:
// every build of the application (one per implementation's ABI header)
// must give, on x's library, the results MPI defines; the whole matrix is
// the evidence and goes to abi-cross-run.md.
var matrix = harness.Define(harness.Check{
	ID:        "ABI-MATRIX-001",
	Clause:    "MPI-5.0:21.2",
	Needs:     "abi",
	Title:     "an application built against each implementation's MPI 5 ABI header (point-to-point, collectives with predefined and user operations, datatypes, attributes, error handlers, requests, info, communicators and groups) gives the results MPI defines on this implementation's libmpi_abi",
	Injectors: []string{"inject_abi_status_swap"},
	Run:       runMatrix,
})

func runMatrix(x *harness.X) harness.Verdict {
	requireABI(x)
	envs := abiEnvs(x)
	var ids []string
	var mine []appRun
	for _, b := range envs {
		ids = append(ids, b.Impl.ID)
		path, why := built(b, "abi_app")
		for _, r := range envs {
			var cell appRun
			switch {
			case path == "":
				cell = appRun{Kind: "abi", Builder: b.Impl.ID, Runner: r.Impl.ID, Problem: "did not build: " + why}
			case r.Impl.ID == x.Impl.ID && len(x.Preload) > 0:
				cell = abiAppRun(x, b, path)
			default:
				rx := envX(x, r)
				if r.Impl.ID == x.Impl.ID {
					rx = x
				}
				cell = remember("app|abi|"+b.Impl.ID+"|"+r.Impl.ID, func() appRun { return abiAppRun(rx, b, path) })
				keepRun(cell)
			}
			if r.Impl.ID == x.Impl.ID {
				mine = append(mine, cell)
			}
		}
	}
	writeCrossRunReport(x)
	table := matrixTable("abi", ids, ids)
	var p problems
	var detail []string
	for _, c := range mine {
		if !c.OK {
			p.addf("built with %s: %s", c.Builder, c.Problem)
			if len(c.Mismatches) > 1 {
				detail = append(detail, fmt.Sprintf("built with %s, all differences:\n  %s", c.Builder, strings.Join(c.Mismatches, "\n  ")))
			}
		}
	}
	if len(x.Preload) > 0 {
		// The table holds the runs without injectors; this run had them.
		table = "(runs on " + x.Impl.ID + " above were repeated with " + strings.Join(x.Preload, ":") + " preloaded)\n" + table
	}
	p.fail(x, "on "+x.Impl.ID+"'s libmpi_abi", strings.Join(detail, "\n")+"\n\ncross-run matrix:\n"+table)
	n := 0
	for _, c := range mine {
		n += c.Results
	}
	return harness.Verdict{
		Reason:   fmt.Sprintf("%d builds (%s headers) ran on %s's libmpi_abi with the results MPI defines (%d results)", len(mine), strings.Join(ids, ", "), x.Impl.ID, n),
		Evidence: "cross-run matrix:\n" + table,
	}
}

// abiAppRun runs the ABI build of the application made by b on rx's
// libmpi_abi, chosen by the loader path alone.
func abiAppRun(rx *harness.X, b *harness.Env, path string) appRun {
	return runApp(rx, "abi", b.Impl, path, map[string]string{"LD_LIBRARY_PATH": rx.Impl.ABI.LibDir}, rx.Impl.ABI.Lib)
}
