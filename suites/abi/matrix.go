package abi

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The cross-run application (fixtures/c/abi/app.c) through the standard ABI,
// judged against the same implementation's native library: ABI conformance
// means that a program built once gives, through libmpi_abi, what the
// implementation's own (native) build gives; what the native library itself
// does is an API question, judged by NATIVE-API-X1. Every build of the
// application runs once per test process; the whole matrix goes to
// abi-cross-run.md.
var matrix = rulebook.Define(rulebook.Check{
	ID:    "ABI-MATRIX",
	Needs: "abi",
	Title: "the cross-run application (point-to-point, collectives with predefined and user operations, datatypes, attributes, error handlers, requests, info, communicators and groups) built against each implementation's MPI 5 ABI header, run on this implementation's libmpi_abi, and compared with this implementation's native build",
	Rules: []rulebook.Rule{
		// §20.3.6: "ABI compatibility means that the binary object code of the
		// MPI implementation, libraries that use MPI, and the main MPI
		// application program can be linked and executed correctly."; §20.1:
		// "This standard ABI for MPI exists in parallel with existing
		// implementation ABIs": the same MPI, reached through another ABI.
		{ID: "ABI-LIB-03", Source: "MPI-5.0 §20.1, §20.3.6", Basis: rulebook.Normative,
			Text:      "the application built against this implementation's ABI header gives, on its libmpi_abi, the results its native library gives to its native build",
			Injectors: []string{"inject_abi_status_swap"},
			Exposure:  lib3Exposure.Declared(), Judge: judgeOwnABI},
		// §20.1: "A standard ABI for MPI serves many purposes, including support
		// for applications compiled with one implementation of MPI to be
		// executed with another implementation."
		{ID: "ABI-LIB-04", Source: "MPI-5.0 §20.1", Basis: rulebook.Normative,
			Text:      "the application built against another implementation's ABI header gives, on this implementation's libmpi_abi, the results this implementation's native library gives to its native build",
			Injectors: []string{"inject_abi_status_swap"},
			Exposure:  lib4Exposure.Declared(), Judge: judgeOtherABI},
		// §20.3.6: "ABI compatibility means that the binary object code of the
		// MPI implementation, libraries that use MPI, and the main MPI
		// application program can be linked and executed correctly."; §20.3.2:
		// "Handles for MPI objects are defined to be incomplete struct
		// pointers" (the ABI header's callback types take these handles). A
		// user function compiled against the ABI header can only run correctly
		// if the library hands it the ABI's handle values and error codes.
		{ID: "ABI-CALL-01", Source: "MPI-5.0 §20.3.2, §20.3.6", Basis: rulebook.Normative,
			Text:      "user callbacks of an application built against the ABI header get ABI-encoded arguments from libmpi_abi: a reduction operation MPI_INT, an attribute copy callback its communicator or datatype and extra_state, a communicator error handler its communicator and the error code",
			Injectors: []string{"inject_abi_callback_native"},
			Exposure:  call1Exposure.Declared(), Judge: judgeCallbacks},
		// What app.c checks (each result in app_expect.go names the call
		// whose definition gives it), errors raised by erroneous calls among
		// them. Quality: MPI-5.0 §9.3, "An MPI implementation may be unable
		// or choose not to handle some failures [...] text that states that
		// errors will be handled should be read as may be handled." The part
		// the text forces once an error is raised is NATIVE-EH-01.
		{ID: "NATIVE-API-X1", Source: "MPI-5.0 §9.3, §9.4", Basis: rulebook.Quality,
			Text:      "the native library gives the cross-run application, built with the implementation's own compiler wrapper, the results MPI defines (e.g. a call whose error went to a user communicator error handler returns that error code)",
			Injectors: []string{"inject_native_status_swap"},
			Needs:     "mpi", // the native library: every implementation
			Exposure:  apiX1Exposure.Declared(), Judge: judgeNativeApp},
		// MPI-5.0 §9.3.1 (MPI_COMM_CREATE_ERRHANDLER): of the user
		// routine's arguments, "The second is the error code to be returned
		// by the MPI routine that raised the error."
		{ID: "NATIVE-EH-01", Source: "MPI-5.0 §9.3.1", Basis: rulebook.Normative,
			Text:      "where an erroneous call (a send to a rank past the last) raises an error on a communicator with a user error handler, the handler gets the very error code the call then returns",
			Injectors: []string{"inject_native_eh_code_off"},
			Needs:     "mpi",
			Exposure:  eh1Exposure.Declared(), Judge: judgeNativeEHCode},
	},
})

var (
	// Each result compared could have differed from the native build's.
	lib3Exposure = rulebook.Exposure[appResult]{Items: "results compared with the native build"}
	lib4Exposure = rulebook.Exposure[appResult]{Items: "results compared with the native build"}
	// A callback result the native build misses the same way (a handler
	// that never runs on a library that raises no error) is NATIVE-API-X1's
	// and cannot show how the ABI library calls the application back.
	call1Exposure = rulebook.Exposure[callbackResult]{Items: "callback results (the application's, and the MPI_T event callback's)",
		When:  "unless the native build's result differs from MPI's the same way",
		Could: func(r callbackResult) bool { return !r.asNative }}
	// Each result could have differed from what MPI defines.
	apiX1Exposure = rulebook.Exposure[appResult]{Items: "results"}
	// A rank whose send raised no error had no code to compare.
	eh1Exposure = rulebook.Exposure[ehRank]{Items: "ranks",
		When:  "when the send to a rank past the last raised an error there (§9.3 lets a library not handle it: no code to compare)",
		Could: func(r ehRank) bool { return r.raised }}
)

// appResult is one result of a run of the cross-run application, compared
// with a reference run; self: the run compared is the reference run itself.
type appResult struct {
	build string
	self  bool
}

// appResults are the n results of one run of the build.
func appResults(build string, n int, self bool) []appResult {
	out := make([]appResult, n)
	for i := range out {
		out[i] = appResult{build, self}
	}
	return out
}

// callbackResult is one callback result judged (a result key of app.c on a
// rank, or the MPI_T event callback): whether it differed from MPI's the
// way the native build's does.
type callbackResult struct {
	name     string
	asNative bool
}

// ehRank is one rank of the native application: whether its send to a rank
// past the last raised an error.
type ehRank struct {
	rank   int
	raised bool
}

// judgeNativeEHCode reads the native application's invalid-rank send: the
// code its error handler got against the code the send returned.
func judgeNativeEHCode(x *rulebook.X) verdict.Verdict {
	ref := nativeRef(x, true)
	if ref.Died {
		x.Unsupported("not measurable here: the native application did not run to its end (NATIVE-API-X1's verdict): %s", ref.Problem)
	}
	if ref.Values[0] == nil {
		x.Errorf("", "%s's native build of the application: %s", x.Impl.ID, ref.Problem)
	}
	raised := 0
	var ranks []ehRank
	for rank, v := range ref.Values {
		calls, ok := v["eh.invalid_rank.calls"]
		same, ok2 := v["eh.invalid_rank.code_is_rc"]
		switch {
		case !ok || !ok2:
			x.Errorf(strings.Join(ref.Mismatches, "\n"), "rank %d recorded no eh.invalid_rank.calls or code_is_rc", rank)
		case calls == 0:
			// §9.3: the library may not handle it; nothing to compare.
			ranks = append(ranks, ehRank{rank, false})
		case same != 1:
			x.Failf(strings.Join(ref.Mismatches, "\n"), "rank %d: the error handler got another error code than MPI_Send to a rank past the last returned", rank)
		default:
			raised++
			ranks = append(ranks, ehRank{rank, true})
		}
	}
	if raised == 0 {
		x.Unsupported("not measurable here: the send to a rank past the last raised no error on either rank (§9.3 lets a library not handle it)")
	}
	return eh1Exposure.Pass(ranks, "on %d of %d ranks the send to a rank past the last called the communicator's error handler, with the code the send returned", raised, len(ref.Values))
}

// nativeRef is x's own native build of the application run on x's native
// library: remembered without injectors; with x's injectors (run again)
// when injected is set. The ABI rules compare with the clean run (their
// injectors are built for the ABI, not for the native library).
func nativeRef(x *rulebook.X, injected bool) appRun {
	own, why := built(x.Own(), "native_app")
	if own == "" {
		x.Errorf("", "the application did not build with %s's compiler wrapper: %s", x.Impl.ID, why)
	}
	dir := filepath.Dir(x.Impl.Lib)
	run := func(rx *rulebook.X) appRun {
		return runApp(rx, "native", x.Impl, own, map[string]string{"LD_LIBRARY_PATH": dir}, x.Impl.Lib)
	}
	if injected && len(x.Preload) > 0 {
		return run(x)
	}
	ref := remember("app|native|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun { return run(x.Own().X()) })
	keepRun(ref)
	return ref
}

// abiCells runs every ABI build of the application on x's libmpi_abi (and,
// for the report, on every other libmpi_abi), and returns x's column.
func abiCells(x *rulebook.X) (mine []appRun, ids []string) {
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
				rx := r.X()
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
func judgeABIBuilds(x *rulebook.X, own bool) verdict.Verdict {
	mine, ids := abiCells(x)
	ref := nativeRef(x, false)
	if ref.Problem != "" && len(ref.Mismatches) == 0 {
		x.Errorf("", "%s's native build of the application: %s", x.Impl.ID, ref.Problem)
	}
	table := matrixTable("abi", ids, ids)
	if len(x.Preload) > 0 {
		table = "(runs on " + x.Impl.ID + " above were repeated with " + strings.Join(x.Preload, ":") + " preloaded)\n" + table
	}
	var p rulebook.Problems
	var detail, judged []string
	var n []appResult
	for _, c := range mine {
		if (c.Builder == x.Impl.ID) != own {
			continue
		}
		judged = append(judged, c.Builder)
		s := sameAs(c, ref)
		if !s.OK {
			p.Add("", "built with %s's ABI header: %s", c.Builder, s.Problem)
			if len(s.Mismatches) > 1 {
				detail = append(detail, fmt.Sprintf("built with %s, all differences from the native build:\n  %s", c.Builder, strings.Join(s.Mismatches, "\n  ")))
			}
		}
		n = append(n, appResults(c.Builder, s.Results, false)...)
	}
	if len(judged) == 0 {
		x.Unsupported("not measurable here: no other implementation of this run has an ABI header to build the application with")
	}
	native := "the native build's results"
	if len(ref.Mismatches) > 0 {
		native += fmt.Sprintf(" (which differ from what MPI defines in %d results, see NATIVE-API-X1)", len(ref.Mismatches))
	}
	p.Also(strings.Join(detail, "\n") + "\n\ncross-run matrix (vs what MPI defines):\n" + table)
	p.FailAbout(x, "on "+x.Impl.ID+"'s libmpi_abi, compared with its native library")
	e := lib4Exposure
	if own {
		e = lib3Exposure
	}
	pass := e.Pass(n, "builds with %s's ABI headers gave on %s's libmpi_abi %s (%d results)", strings.Join(judged, ", "), x.Impl.ID, native, len(n))
	pass.Evidence = "cross-run matrix (vs what MPI defines):\n" + table
	return pass
}

func judgeOwnABI(x *rulebook.X) verdict.Verdict   { return judgeABIBuilds(x, true) }
func judgeOtherABI(x *rulebook.X) verdict.Verdict { return judgeABIBuilds(x, false) }

func judgeNativeApp(x *rulebook.X) verdict.Verdict {
	ref := nativeRef(x, true)
	if ref.Died {
		// The application's calls are defined ones, erroneous ones with
		// MPI_ERRORS_RETURN or a user handler among them: a library that
		// ends the process there gives none of the results MPI defines.
		x.Failf("", "%s's native build of the application did not run to its end: %s", x.Impl.ID, ref.Problem)
	}
	if ref.Problem != "" && len(ref.Mismatches) == 0 {
		x.Errorf("", "%s's native build of the application: %s", x.Impl.ID, ref.Problem)
	}
	writeCrossRunReport(x)
	if !ref.OK {
		x.Failf(strings.Join(ref.Mismatches, "\n"), "%s's native build: %s", x.Impl.ID, ref.Problem)
	}
	return apiX1Exposure.Pass(appResults(x.Impl.ID, ref.Results, false), "%d results as MPI defines them (%s)", ref.Results, shorten(ref.Library, 40))
}

// abiAppRun runs the ABI build of the application made by b on rx's
// libmpi_abi, chosen by the loader path alone.
func abiAppRun(rx *rulebook.X, b *rulebook.Env, path string) appRun {
	return runApp(rx, "abi", b.Impl, path, map[string]string{"LD_LIBRARY_PATH": rx.Impl.ABI.LibDir}, rx.Impl.ABI.Lib)
}

// callbackKeys are the results of app.c that a user callback reports about
// the arguments the library passed it (and that it was called at all).
var callbackKeys = []string{
	"coll.user_op.called", "coll.user_op.datatype_arg_is_int", "coll.user_op.reduce", "coll.user_op.allreduce",
	"type.attr.copy_calls", "type.attr.copy_datatype_arg_ok", "type.attr.copied_value",
	"attr.copy_calls", "attr.copy_comm_arg_ok", "attr.copy_extra_state_ok", "attr.copied_value",
	"eh.invalid_rank.calls", "eh.invalid_rank.comm_arg_ok", "eh.invalid_rank.class_is_err_rank",
	"eh.call.calls", "eh.call.code_passed",
}

// callbackKey is the callback result a mismatch line of runApp is about, or "".
func callbackKey(m string) string {
	for _, k := range callbackKeys {
		if strings.Contains(m, " "+k+" ") || strings.Contains(m, " "+k+":") {
			return k
		}
	}
	return ""
}

// judgeCallbacks reads x's own ABI build of the application on x's
// libmpi_abi: the run ABI-LIB-03 makes (remembered), again under injectors.
func judgeCallbacks(x *rulebook.X) verdict.Verdict {
	path, why := built(x.Own(), "abi_app")
	if path == "" {
		x.Errorf("", "the application did not build against %s's ABI header: %s", x.Impl.ID, why)
	}
	var run appRun
	if len(x.Preload) > 0 {
		run = abiAppRun(x, x.Own(), path)
	} else {
		run = remember("app|abi|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun { return abiAppRun(x, x.Own(), path) })
		keepRun(run)
	}
	if run.Problem != "" && len(run.Mismatches) == 0 {
		x.Errorf("", "the ABI build of the application on %s's libmpi_abi: %s", x.Impl.ID, run.Problem)
	}
	ref := nativeRef(x, false)
	native := map[string]bool{}
	for _, m := range ref.Mismatches {
		native[m] = true
	}
	var p rulebook.Problems
	var same []string
	asNative := map[string]bool{} // "rank 0: key" of the results in same
	for _, m := range run.Mismatches {
		k := callbackKey(m)
		switch {
		case k == "":
		case native[m]:
			same = append(same, m)
			var rank int
			if _, err := fmt.Sscanf(m, "rank %d", &rank); err == nil {
				asNative[fmt.Sprintf("rank %d: %s", rank, k)] = true
			}
		default:
			p.Add("", "%s", m)
		}
	}
	extra := ""
	if len(same) > 0 {
		extra = "the native library gives the same (an API question, NATIVE-API-X1): " + strings.Join(same, "; ")
	}
	mpitNote, events := eventCallbacks(x, &p)
	p.Also(extra)
	p.FailAbout(x, x.Impl.ID+"'s libmpi_abi calling the application's callbacks")
	var results []callbackResult
	for rank, want := range expectedApp() {
		for _, k := range callbackKeys {
			if _, ok := want[k]; ok {
				name := fmt.Sprintf("rank %d: %s", rank, k)
				results = append(results, callbackResult{name, asNative[name]})
			}
		}
	}
	reason := fmt.Sprintf("%d callback results on the 2 ranks (%d kinds: user op, comm and datatype attribute copy, comm error handler) as an ABI build expects them; %s", len(results), len(callbackKeys), mpitNote)
	if len(same) > 0 {
		reason += fmt.Sprintf("; %d differ from MPI the same way on the native library (NATIVE-API-X1): %s", len(same), shorten(strings.Join(same, "; "), 160))
	}
	if events > 0 {
		results = append(results, callbackResult{name: "the MPI_T event callback"})
	}
	return call1Exposure.Pass(results, "%s", reason)
}

type eventsRec struct {
	Num   int    `json:"num"`
	Index int    `json:"index"`
	Name  string `json:"name"`
}

type eventCbRec struct {
	AllocRC    int     `json:"alloc_rc"`
	RegisterRC int     `json:"register_rc"`
	FreeRC     int     `json:"free_rc"`
	Calls      int     `json:"calls"`
	RegOK      int     `json:"reg_ok"`
	UserOK     int     `json:"user_ok"`
	InstOK     int     `json:"inst_ok"`
	Safety     []int64 `json:"safety"`
	FreeCalls  int     `json:"free_calls"`
	FreeOK     int     `json:"free_ok"`
}

// eventCallbacks judges the MPI_T event callbacks of the abi_mpit run (the
// run ABI-MPIT-01 reads): the registration handle, an ABI callback safety
// value and the user data, in the event and in the free callback. It says
// what it saw, and judged is 1 where an event callback was judged.
func eventCallbacks(x *rulebook.X, p *rulebook.Problems) (note string, judged int) {
	recs := mpitRun(x)
	ev := mpi.Decode[eventsRec](recs, "events")
	if len(ev) != 1 {
		x.Errorf("", "abi_mpit recorded %d events records, want 1", len(ev))
	}
	if ev[0].Index < 0 {
		return fmt.Sprintf("MPI_T event callbacks not judged: none of the communicator-creation events mpit.c knows among the library's %d event types", ev[0].Num), 0
	}
	cbs := mpi.Decode[eventCbRec](recs, "event_cb")
	if len(cbs) != 1 {
		x.Errorf("", "abi_mpit recorded no event callback outcome")
	}
	c := cbs[0]
	if c.AllocRC != 0 || c.RegisterRC != 0 {
		p.Add("", "MPI_T event %s: MPI_T_event_handle_alloc returned %d, MPI_T_event_register_callback %d", ev[0].Name, c.AllocRC, c.RegisterRC)
		return "", 1
	}
	safety := abiValues("MPI_T_CB_REQUIRE_")
	switch {
	case c.Calls == 0:
		p.Add("", "MPI_T event %s: the callback never ran for 3 MPI_Comm_dup", ev[0].Name)
	case c.RegOK != 1:
		p.Add("", "MPI_T event %s: the callback's event_registration is not the handle MPI_T_event_handle_alloc gave", ev[0].Name)
	case c.UserOK != 1:
		p.Add("", "MPI_T event %s: the callback's user_data is not the pointer registered", ev[0].Name)
	case c.InstOK != 1:
		p.Add("", "MPI_T event %s: the callback's event_instance is NULL", ev[0].Name)
	}
	for _, s := range c.Safety {
		if _, ok := safety[s]; !ok {
			p.Add("", "MPI_T event %s: the callback's cb_safety is %d, not one of the ABI's MPI_T_CB_REQUIRE_* values", ev[0].Name, s)
		}
	}
	if c.FreeRC == 0 && c.FreeCalls > 0 && c.FreeOK != 1 {
		p.Add("", "MPI_T event %s: the free callback got another registration handle or user_data", ev[0].Name)
	}
	return fmt.Sprintf("the MPI_T event callback of %s ran %d times with its registration handle, user data and cb_safety %v (ABI values)", ev[0].Name, c.Calls, c.Safety), 1
}
