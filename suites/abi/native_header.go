package abi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
)

// The implementation's own mpi.h against the standard's C bindings: a
// header that says it is MPI 5.0 gives the functions it declares the
// prototypes Annex A.3 gives them (the ABI headers are ABI-PROTO-01's).
var nativeHeader = harness.Define(harness.Check{
	ID:    "NATIVE-HEADER",
	Needs: "mpi", // the native library: every implementation
	Title: "the implementation's own mpi.h, where the library says it is MPI 5.0, declares the functions of the standard's C bindings (Annex A.3) with their prototypes",
	Rules: []harness.Rule{
		// MPI-5.0 Annex A.3 gives every C binding, e.g. A.3.2 "int
		// MPI_Psend_init(const void *buf, int partitions, MPI_Count count,
		// MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info
		// info, MPI_Request *request)". A program written to the standard
		// calls what the header declares: where the two differ, either the
		// program does not compile or it passes what the library does not
		// read. Judged where the library's MPI_Get_version says 5.0 (the
		// reference holds no other edition's bindings of every chapter).
		{ID: "NATIVE-PROTO-01", Source: "MPI-5.0 §A.3", Basis: harness.Normative,
			Text:      "where the library says it is MPI 5.0, every function of Annex A.3 that its own mpi.h declares as a function (and its PMPI_ twin) has the standard's prototype: redeclaring the standard's after the header is no conflict",
			Injectors: []string{"inject_abi_header_proto"},
			Judge:     judgeNativePrototypes},
		// MPI-5.0 §2.6.4 (and MPI-4.1's, word for word): "An implementation
		// is allowed to implement MPI_AINT_ADD, PMPI_AINT_ADD, MPI_AINT_DIFF,
		// and PMPI_AINT_DIFF, and no others, as macros in C." (MPI-4.0 and
		// earlier also allowed MPI_WTIME, MPI_WTICK and the handle
		// conversions.)
		{ID: "NATIVE-MACRO-01", Source: "MPI-5.0 §2.6.4", Basis: harness.Normative,
			Text:      "where the library says it is MPI 4.1 or 5.x, its own mpi.h defines no function of Annex A.3, nor its PMPI_ twin, as a macro, but MPI_Aint_add and MPI_Aint_diff (and the predefined functions such as MPI_COMM_DUP_FN, which Annex A.1 lists as constants)",
			Injectors: []string{"inject_native_header_macro"},
			Judge:     judgeNativeMacros},
	},
})

// macroAllowed are the functions §2.6.4 lets be macros in C.
var macroAllowed = map[string]bool{"MPI_Aint_add": true, "PMPI_Aint_add": true, "MPI_Aint_diff": true, "PMPI_Aint_diff": true}

// predefinedFunction says whether a binding of Annex A.3 is one of the
// predefined functions (MPI_COMM_DUP_FN, MPI_CONVERSION_FN_NULL, ...):
// Annex A.1 lists them among the constants, with an "ABI value in mpi.h",
// so a header defines them as macros. They are the only all-capital names
// of the C bindings.
func predefinedFunction(name string) bool {
	rest := strings.TrimPrefix(name, "MPI_")
	return rest != name && strings.ToUpper(rest) == rest
}

var macroDef = regexp.MustCompile(`(?m)^#define (P?MPI_[A-Za-z0-9_]+)[( ]`)

func judgeNativeMacros(x *harness.X) harness.Verdict {
	if v := x.Caps.MPIVersion; v != "4.1" && !strings.HasPrefix(v, "5.") {
		x.Unsupported("not measurable here: the library says it is MPI %s; MPI-4.0 and earlier let MPI_Wtime, MPI_Wtick and the handle conversions be macros too", v)
	}
	args, what := nativeHeaderArgs(x)
	if overlay := overlayDir(x); overlay != "" {
		defer os.RemoveAll(overlay)
		args = append([]string{"-I" + overlay}, args...)
	}
	defined := headerMacros(x, what, args)
	var bad []string
	judged := 0
	eachStandard(func(n, base, _, section string) {
		if macroAllowed[n] || predefinedFunction(base) {
			return
		}
		judged++
		if defined[n] {
			bad = append(bad, fmt.Sprintf("%s (Annex %s)", n, section))
		}
	})
	sort.Strings(bad)
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%s defines %d functions as macros: %s", what, len(bad), harness.FirstAndMore(bad))
	}
	return harness.Exposed(judged, "function names", "none of the %d functions of Annex A.3 and their PMPI_ twins (MPI_Aint_add/diff and the predefined functions aside) is a macro in %s", judged, what)
}

// nativeHeaderArgs are the include flags of the implementation's own C
// compiler wrapper, and what to call its header; unsupported where the
// wrapper names no include folder.
func nativeHeaderArgs(x *harness.X) ([]string, string) {
	dirs := x.Impl.IncludeDirs()
	if len(dirs) == 0 {
		x.Unsupported("not measurable here: the C compiler wrapper %s names no include folder (-I) where its mpi.h is", x.Impl.CC)
	}
	var args []string
	for _, d := range dirs {
		args = append(args, "-I"+d)
	}
	return args, x.Impl.ID + "'s own mpi.h"
}

// headerMacros are the MPI_/PMPI_ names the mpi.h that args find defines as
// macros (gcc -E -dM).
func headerMacros(x *harness.X, what string, args []string) map[string]bool {
	dir, err := os.MkdirTemp("", "mpits-macros-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "macros.c")
	if err := os.WriteFile(src, []byte("#include <mpi.h>\n"), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	out, err := exec.Command("gcc", append(append([]string{"-std=gnu11", "-E", "-dM"}, args...), src)...).CombinedOutput()
	if err != nil {
		x.Errorf(string(out), "%s does not preprocess: %v", what, err)
	}
	defined := map[string]bool{}
	for _, m := range macroDef.FindAllStringSubmatch(string(out), -1) {
		defined[m[1]] = true
	}
	return defined
}

func judgeNativePrototypes(x *harness.X) harness.Verdict {
	if v := x.Caps.MPIVersion; !strings.HasPrefix(v, "5.") {
		x.Unsupported("not measurable here: the library says it is MPI %s, and the reference holds MPI-5.0's C bindings only", v)
	}
	args, what := nativeHeaderArgs(x)
	dirs := x.Impl.IncludeDirs()
	if overlay := overlayDir(x); overlay != "" {
		defer os.RemoveAll(overlay)
		args = append([]string{"-I" + overlay}, args...)
	}
	// mpi.h and what it includes from its own folders (MPICH 5: mpi_proto.h)
	inDirs := func(path string) bool {
		for _, d := range dirs {
			if strings.HasPrefix(filepath.Clean(path), filepath.Clean(d)+"/") {
				return true
			}
		}
		return false
	}
	mine := prototypesIn(x, what, args, inDirs)
	// One file: the header, then the standard's binding of every function
	// it declares, one a line; a line that conflicts is a mismatch.
	var src strings.Builder
	src.WriteString("#include <mpi.h>\n")
	type origin struct{ name, decl, section string }
	lines := map[int]origin{}
	line := 2
	eachStandard(func(n, _, decl, section string) {
		if _, ok := mine[n]; !ok {
			return
		}
		// A name the header also defines as a macro is NATIVE-MACRO-01's.
		fmt.Fprintf(&src, "#ifndef %s\n%s\n#endif\n", n, decl)
		lines[line+1] = origin{n, decl, section}
		line += 3
	})
	if len(lines) == 0 {
		x.Unsupported("not measurable here: %s declares no function of the standard's C bindings", what)
	}
	errs, out := compileProbe(x, src.String(), args...)
	var p problems
	for _, n := range sortedInts(errs) {
		o, ok := lines[n]
		if !ok {
			p.addf("the header does not compile: %s", errs[n][0])
			continue
		}
		p.addf("%s: %s declares %s; the standard (MPI-5.0 Annex %s): %s", o.name, what, strings.TrimSuffix(mine[o.name], ";"), o.section, strings.TrimSuffix(o.decl, ";"))
	}
	p.fail(x, what, "gcc "+strings.Join(args, " ")+"\n"+shorten(out, 4000))
	// Each standard binding redeclared after the header could have
	// conflicted, but for the names the header also defines as macros: the
	// #ifndef leaves those out.
	defined := headerMacros(x, what, args)
	compared := 0
	for _, o := range lines {
		if !defined[o.name] {
			compared++
		}
	}
	reason := fmt.Sprintf("%d prototypes of %s (of %d MPI functions it declares) agree with the standard's C bindings (MPI-5.0 Annex A.3)", compared, what, len(mine))
	if n := len(lines) - compared; n > 0 {
		reason += fmt.Sprintf("; %d more are also macros, not compared (NATIVE-MACRO-01's)", n)
	}
	return harness.Passed(len(lines), compared, "prototypes", "%s", reason)
}
