package abi

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness"
)

// The cross-run application (fixtures/c/abi/app.c) through the standard ABI,
// judged against the same implementation's native library: ABI conformance
// means that a program built once gives, through libmpi_abi, what the
// implementation's own (native) build gives; what the native library itself
// does is an API question, judged by NATIVE-API-X1. Every build of the
// application runs once per test process; the whole matrix goes to
// abi-cross-run.md.
var matrix = harness.Define(harness.Check{
	ID:    "ABI-MATRIX",
	Needs: "abi",
	Title: "the cross-run application (point-to-point, collectives with predefined and user operations, datatypes, attributes, error handlers, requests, info, communicators and groups) built against each implementation's MPI 5 ABI header, run on this implementation's libmpi_abi, and compared with this implementation's native build",
	Rules: []harness.Rule{
		// §20.3.6: "ABI compatibility means that the binary object code of the
		// MPI implementation, libraries that use MPI, and the main MPI
		// application program can be linked and executed correctly."; §20.1:
		// "This standard ABI for MPI exists in parallel with existing
		// implementation ABIs": the same MPI, reached through another ABI.
		{ID: "ABI-LIB-03", Source: "MPI-5.0 §20.1, §20.3.6", Basis: harness.Normative,
			Text:      "the application built against this implementation's ABI header gives, on its libmpi_abi, the results its native library gives to its native build",
			Injectors: []string{"inject_abi_status_swap"},
			Judge:     judgeOwnABI},
		// §20.1: "A standard ABI for MPI serves many purposes, including support
		// for applications compiled with one implementation of MPI to be
		// executed with another implementation."
		{ID: "ABI-LIB-04", Source: "MPI-5.0 §20.1", Basis: harness.Normative,
			Text:      "the application built against another implementation's ABI header gives, on this implementation's libmpi_abi, the results this implementation's native library gives to its native build",
			Injectors: []string{"inject_abi_status_swap"},
			Judge:     judgeOtherABI},
		// MPI-5.0 §9.3.1 (MPI_COMM_CREATE_ERRHANDLER): the user routine's
		// "second [argument] is the error code to be returned by the MPI
		// routine that raised the error", with the rest of what app.c checks
		// (each result in app_expect.go names the call whose definition gives
		// it). Quality, not normative, only because the reference text here
		// holds §9.4 but not §9.3, so that sentence cannot be cited.
		{ID: "NATIVE-API-X1", Source: "MPI-5.0 §9.4", Basis: harness.Quality,
			Text:      "the native library gives the cross-run application, built with the implementation's own compiler wrapper, the results MPI defines (e.g. a call whose error went to a user communicator error handler returns that error code)",
			Injectors: []string{"inject_native_status_swap"},
			Needs:     "mpi", // the native library: every implementation
			Judge:     judgeNativeApp},
	},
})

// nativeRef is x's own native build of the application run on x's native
// library: remembered without injectors; with x's injectors (run again)
// when injected is set. The ABI rules compare with the clean run (their
// injectors are built for the ABI, not for the native library).
func nativeRef(x *harness.X, injected bool) appRun {
	own, why := built(self(x), "native_app")
	if own == "" {
		x.Errorf("", "the application did not build with %s's compiler wrapper: %s", x.Impl.ID, why)
	}
	dir := filepath.Dir(x.Impl.Lib)
	run := func(rx *harness.X) appRun {
		return runApp(rx, "native", x.Impl, own, map[string]string{"LD_LIBRARY_PATH": dir}, x.Impl.Lib)
	}
	if injected && len(x.Preload) > 0 {
		return run(x)
	}
	ref := remember("app|native|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun { return run(envX(x, self(x))) })
	keepRun(ref)
	return ref
}

// abiCells runs every ABI build of the application on x's libmpi_abi (and,
// for the report, on every other libmpi_abi), and returns x's column.
func abiCells(x *harness.X) (mine []appRun, ids []string) {
	envs := abiEnvs(x)
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
	return mine, ids
}

// judgeABIBuilds compares the ABI builds chosen by own (x's own build, or
// the others') on x's libmpi_abi with x's native build.
func judgeABIBuilds(x *harness.X, own bool) harness.Verdict {
	mine, ids := abiCells(x)
	ref := nativeRef(x, false)
	if ref.Problem != "" && len(ref.Mismatches) == 0 {
		x.Errorf("", "%s's native build of the application: %s", x.Impl.ID, ref.Problem)
	}
	table := matrixTable("abi", ids, ids)
	if len(x.Preload) > 0 {
		table = "(runs on " + x.Impl.ID + " above were repeated with " + strings.Join(x.Preload, ":") + " preloaded)\n" + table
	}
	var p problems
	var detail, judged []string
	n := 0
	for _, c := range mine {
		if (c.Builder == x.Impl.ID) != own {
			continue
		}
		judged = append(judged, c.Builder)
		s := sameAs(c, ref)
		if !s.OK {
			p.addf("built with %s's ABI header: %s", c.Builder, s.Problem)
			if len(s.Mismatches) > 1 {
				detail = append(detail, fmt.Sprintf("built with %s, all differences from the native build:\n  %s", c.Builder, strings.Join(s.Mismatches, "\n  ")))
			}
		}
		n += s.Results
	}
	if len(judged) == 0 {
		x.Unsupported("not measurable here: no other implementation of this run has an ABI header to build the application with")
	}
	native := "the native build's results"
	if len(ref.Mismatches) > 0 {
		native += fmt.Sprintf(" (which differ from what MPI defines in %d results, see NATIVE-API-X1)", len(ref.Mismatches))
	}
	p.fail(x, "on "+x.Impl.ID+"'s libmpi_abi, compared with its native library", strings.Join(detail, "\n")+"\n\ncross-run matrix (vs what MPI defines):\n"+table)
	return harness.Verdict{
		Reason:   fmt.Sprintf("builds with %s's ABI headers gave on %s's libmpi_abi %s (%d results)", strings.Join(judged, ", "), x.Impl.ID, native, n),
		Evidence: "cross-run matrix (vs what MPI defines):\n" + table,
	}
}

func judgeOwnABI(x *harness.X) harness.Verdict   { return judgeABIBuilds(x, true) }
func judgeOtherABI(x *harness.X) harness.Verdict { return judgeABIBuilds(x, false) }

func judgeNativeApp(x *harness.X) harness.Verdict {
	ref := nativeRef(x, true)
	if ref.Problem != "" && len(ref.Mismatches) == 0 {
		x.Errorf("", "%s's native build of the application: %s", x.Impl.ID, ref.Problem)
	}
	writeCrossRunReport(x)
	if !ref.OK {
		x.Failf(strings.Join(ref.Mismatches, "\n"), "%s's native build: %s", x.Impl.ID, ref.Problem)
	}
	return harness.Verdict{Reason: fmt.Sprintf("%d results as MPI defines them (%s)", ref.Results, shorten(ref.Library, 40))}
}

// abiAppRun runs the ABI build of the application made by b on rx's
// libmpi_abi, chosen by the loader path alone.
func abiAppRun(rx *harness.X, b *harness.Env, path string) appRun {
	return runApp(rx, "abi", b.Impl, path, map[string]string{"LD_LIBRARY_PATH": rx.Impl.ABI.LibDir}, rx.Impl.ABI.Lib)
}
