package abi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 003 (wi4mpi): "MPICH, Intel MPI, Cray MPICH and MVAPICH share
// MPICH's ABI (libmpi.so.12, integer handles)": a program built against one
// member runs unchanged on another's library, chosen by the loader path.
// Here: the application of ABI-MATRIX, built with mpich-deb's own
// mpicc, runs on each implementation whose MPI library carries the MPICH
// ABI's major version (soname lib*mpi*.so.12, read from ELF) with
// LD_LIBRARY_PATH pointing at that library's folder; it must run on that
// library (not on one the loader found elsewhere) and give the same results
// as the implementation's own build of the application (run without
// injectors): binary compatibility, not the library's own conformance,
// which NATIVE-API-X1 judges. Where both builds differ from what MPI
// defines, the reason says so. Where the own build does not run to its end
// (mpich-fast-single, built without error checking, crashes at the
// application's sends to a rank past the last), both builds run without
// those sends (app.c's --no-invalid-rank), if the own build then does.
var mpichFamily = rulebook.Define(rulebook.Check{
	ID:    "NATIVE-MPICH",
	Needs: "mpi", // the native library: every implementation
	Title: "binary compatibility inside the MPICH ABI family (seed 003): mpich-deb's build of the cross-run application on every library with the MPICH ABI's soname",
	Rules: []rulebook.Rule{
		// Seed 003: "MPICH, Intel MPI, Cray MPICH and MVAPICH share MPICH's ABI
		// (libmpi.so.12, integer handles)".
		{ID: "NATIVE-PRINT-02", Source: "seed 003", Basis: rulebook.SeedBasis,
			Text:      "the cross-run application built with mpich-deb's mpicc runs unchanged on this implementation's MPICH-ABI library (soname .so.12), reached by LD_LIBRARY_PATH under the library name the binary needs, with the results of that implementation's own build (where that build does not run to its end, both run without the application's erroneous sends to a rank past the last)",
			Injectors: []string{"inject_native_status_swap"},
			Exposure:  print2Exposure.Declared(), Judge: runMPICHFamily},
	},
})

// On familyBuilder itself, without injectors, the binary is the own build
// and its run the reference run: compared with itself, no result could
// differ.
var print2Exposure = rulebook.Exposure[appResult]{Items: "results compared with the own build",
	When:  "unless the run compared is the reference run itself (mpich-deb's binary on mpich-deb, no injectors)",
	Could: func(r appResult) bool { return !r.self }}

// familyBuilder is the implementation whose binary the claim is about.
const familyBuilder = "mpich-deb"

func runMPICHFamily(x *rulebook.X) verdict.Verdict {
	var builder *rulebook.Env
	for _, e := range x.All {
		if e.Impl.ID == familyBuilder {
			builder = e
		}
	}
	if builder == nil {
		x.Unsupported("no %s in this run to build the application with", familyBuilder)
	}
	lib, err := readELF(realHost(x.Impl, x.Impl.Lib))
	if err != nil {
		x.Errorf("", "%v", err)
	}
	if !strings.HasSuffix(lib.Soname, ".so.12") || !strings.Contains(lib.Soname, "mpi") {
		if len(x.Preload) == 0 {
			sameName(x, lib.Soname)
		}
		x.Unsupported("%s's MPI library %s has soname %s, not the MPICH ABI's (lib*mpi*.so.12)", x.Impl.ID, x.Impl.Lib, lib.Soname)
	}
	path, why := built(builder, "native_app")
	if path == "" {
		x.Errorf("", "the application did not build with %s: %s", familyBuilder, why)
	}
	bin, err := readELF(builder.Impl.HostPath(path))
	if err != nil {
		x.Errorf("", "%v", err)
	}
	dir := filepath.Dir(x.Impl.Lib)
	// The reference: x's own build of the application on x, no injectors.
	own, whyOwn := built(x.Own(), "native_app")
	if own == "" {
		x.Errorf("", "the application did not build with %s: %s", x.Impl.ID, whyOwn)
	}
	ref := remember("app|native|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun {
		return runApp(x.Own().X(), "native", x.Impl, own, map[string]string{"LD_LIBRARY_PATH": dir}, x.Impl.Lib)
	})
	// Where the own build dies (a build without error checking crashes at
	// the application's sends to a rank past the last, an erroneous call),
	// both builds run without those sends, if the own build then runs to
	// its end: the claim is about every other result.
	var args []string
	tag, skipped := "", ""
	if ref.Died {
		died := ref.Problem
		ref = remember("app|native-"+noInvalidRank+"|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun {
			return runApp(x.Own().X(), "native", x.Impl, own, map[string]string{"LD_LIBRARY_PATH": dir}, x.Impl.Lib, noInvalidRank)
		})
		if ref.Died || (ref.Problem != "" && len(ref.Mismatches) == 0) {
			x.Unsupported("not measurable here: %s's own build of the application does not run to its end (%s), nor without its sends to a rank past the last (%s), so there are no own results to judge %s's build by", x.Impl.ID, died, ref.Problem, familyBuilder)
		}
		args, tag = []string{noInvalidRank}, "-"+noInvalidRank
		skipped = fmt.Sprintf("; %s's own build does not run to its end (%s), so both builds ran without the application's two sends to a rank past the last (%s)", x.Impl.ID, shorten(died, 160), noInvalidRank)
	}
	run := func() appRun {
		return runApp(x, "native", builder.Impl, path, map[string]string{"LD_LIBRARY_PATH": dir}, x.Impl.Lib, args...)
	}
	var cell appRun
	if len(x.Preload) > 0 {
		cell = run()
	} else {
		cell = remember("app|native"+tag+"|"+familyBuilder+"|"+x.Impl.ID, run)
	}
	if ref.Problem != "" && len(ref.Mismatches) == 0 {
		x.Errorf("", "%s's own build of the application: %s", x.Impl.ID, ref.Problem)
	}
	cell = sameAs(cell, ref)
	if len(ref.Mismatches) > 0 {
		cell.Note = fmt.Sprintf("%s's own build differs from what MPI defines in %d results (%s); judged against that build", x.Impl.ID, len(ref.Mismatches), ref.Mismatches[0])
	}
	needs := bin.mpiNeeded()
	renamed := ""
	if !cell.OK && len(needs) == 1 && needs[0] != lib.Soname {
		// Seed 003 names the family's library libmpi.so.12 (upstream's
		// soname); Debian renamed its own libmpich.so.12. Unchanged, the
		// loader finds no library of that name here and takes another one,
		// which says nothing of the ABI: reach x's library under the name
		// the binary asks for, and judge the ABI by that run. The rename
		// stays in the reason and in the fingerprint's sonames.
		alias := func() appRun { return aliasRun(x, builder, path, needs[0], args...) }
		var a appRun
		if len(x.Preload) > 0 {
			a = alias()
		} else {
			a = remember("app|native-alias"+tag+"|"+familyBuilder+"|"+x.Impl.ID, alias)
		}
		if a = sameAs(a, ref); a.OK {
			renamed = fmt.Sprintf("; sonames differ: the binary needs %s, %s's library is %s (unchanged, the loader took %s), so it ran with %s linked to %s's library",
				needs[0], x.Impl.ID, lib.Soname, cell.LoadedFrom, needs[0], x.Impl.ID)
			a.Note = strings.TrimPrefix(renamed, "; ")
			cell = a
		} else {
			cell.Note = fmt.Sprintf("the binary needs %s, %s's library is %s; with that name linked to it: %s", needs[0], x.Impl.ID, lib.Soname, a.Problem)
		}
	}
	if skipped != "" {
		cell.Note = strings.TrimPrefix(cell.Note+skipped, "; ")
	}
	if len(x.Preload) == 0 {
		keepRun(cell)
	}
	writeCrossRunReport(x)
	if !cell.OK {
		evidence := fmt.Sprintf("binary: %s built with %s's mpicc, needs %v (no RPATH: %v)\nlibrary: %s (soname %s), LD_LIBRARY_PATH=%s\nran on: %s (%s)\n%s",
			path, familyBuilder, needs, len(bin.Runpath) == 0, x.Impl.Lib, lib.Soname, dir, cell.LoadedFrom, cell.Library, strings.Join(cell.Mismatches, "\n"))
		if cell.Note != "" {
			evidence += "\n" + cell.Note
		}
		x.Failf(evidence, "%s's binary on %s: %s", familyBuilder, x.Impl.ID, cell.Problem)
	}
	reason := fmt.Sprintf("%s's binary (needs %s) ran unchanged on %s (%s, soname %s) with the results of %s's own build (%d results)",
		familyBuilder, strings.Join(needs, " "), x.Impl.ID, shorten(cell.Library, 40), lib.Soname, x.Impl.ID, cell.Results) + renamed + skipped
	if len(ref.Mismatches) > 0 {
		reason += fmt.Sprintf("; both differ from what MPI defines in %d results (the library's own conformance, see NATIVE-API-X1): %s",
			len(ref.Mismatches), ref.Mismatches[0])
	}
	self := x.Impl.ID == familyBuilder && len(x.Preload) == 0
	if self {
		reason += fmt.Sprintf("; %s's binary is %s's own build, so its run is the reference run itself", familyBuilder, x.Impl.ID)
	}
	return print2Exposure.Pass(appResults(familyBuilder, cell.Results, self), "%s", reason)
}

// sameAs judges a run by a reference run instead of by what MPI defines:
// the results must be the reference's, and the library the one wanted.
func sameAs(run, ref appRun) appRun {
	if run.Problem != "" && len(run.Mismatches) == 0 {
		return run // it did not run
	}
	refDiff := map[string]bool{}
	for _, m := range ref.Mismatches {
		refDiff[m] = true
	}
	var left []string
	for _, m := range run.Mismatches {
		if !refDiff[m] {
			left = append(left, m)
		}
	}
	for _, m := range ref.Mismatches {
		if !contains(run.Mismatches, m) && !strings.Contains(m, " ran on ") {
			left = append(left, "the own build gives "+m+"; this binary gives what MPI defines")
		}
	}
	run.Results += len(run.Mismatches) - len(left)
	run.Mismatches, run.OK, run.Problem = left, len(left) == 0, ""
	if len(left) > 0 {
		run.Problem = left[0]
		if len(left) > 1 {
			run.Problem += fmt.Sprintf(" (and %d more)", len(left)-1)
		}
	}
	return run
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// aliasRun runs the binary with a folder that gives x's library the name
// the binary needs; the folder is removed when the job is done.
func aliasRun(x *rulebook.X, builder *rulebook.Env, path, needed string, args ...string) appRun {
	dir, err := os.MkdirTemp(x.Impl.HostPath("/tmp"), "mpits-abi-alias-")
	if err != nil {
		return appRun{Problem: "cannot make the alias: " + err.Error()}
	}
	defer os.RemoveAll(dir)
	if err := os.Symlink(x.Impl.Lib, filepath.Join(dir, needed)); err != nil {
		return appRun{Problem: "cannot make the alias: " + err.Error()}
	}
	inner := x.Impl.InnerPath(dir)
	env := map[string]string{"LD_LIBRARY_PATH": inner + ":" + filepath.Dir(x.Impl.Lib)}
	return runApp(x, "native", builder.Impl, path, env, x.Impl.Lib, args...)
}

// sameName runs, for the report only, the application of every other
// implementation whose binary needs exactly x's library by name (another
// family's claim, e.g. Open MPI's libmpi.so.40), judged as above.
func sameName(x *rulebook.X, soname string) {
	own, _ := built(x.Own(), "native_app")
	if own == "" {
		return
	}
	dir := filepath.Dir(x.Impl.Lib)
	env := map[string]string{"LD_LIBRARY_PATH": dir}
	for _, b := range x.All {
		path, _ := built(b, "native_app")
		if b.Impl.ID == x.Impl.ID || path == "" {
			continue
		}
		bin, err := readELF(b.Impl.HostPath(path))
		if err != nil || !sameStrings(bin.mpiNeeded(), []string{soname}) {
			continue
		}
		ref := remember("app|native|"+x.Impl.ID+"|"+x.Impl.ID, func() appRun {
			return runApp(x.Own().X(), "native", x.Impl, own, env, x.Impl.Lib)
		})
		cell := remember("app|native|"+b.Impl.ID+"|"+x.Impl.ID, func() appRun {
			return sameAs(runApp(x, "native", b.Impl, path, env, x.Impl.Lib), ref)
		})
		if cell.Note == "" {
			cell.Note = fmt.Sprintf("information, not the MPICH claim: %s's binary needs %s, the name of %s's library", b.Impl.ID, soname, x.Impl.ID)
		}
		keepRun(cell)
	}
	writeCrossRunReport(x)
}
