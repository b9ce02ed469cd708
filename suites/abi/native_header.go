package abi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The implementation's own mpi.h against the standard's C bindings: a
// header that says it is MPI 5.0 gives the functions it declares the
// prototypes Annex A.3 gives them, one that says 4.1 those of MPI-4.1's
// A.3.13-A.3.15 (the ABI headers are ABI-PROTO-01's).
var nativeHeader = rulebook.Define(rulebook.Check{
	ID:    "NATIVE-HEADER",
	Needs: "mpi", // the native library: every implementation
	Title: "the implementation's own mpi.h, where the library says it is MPI 5.0 (or 4.1: the part of MPI-4.1's Annex A.3 the reference holds), declares the functions of the standard's C bindings (Annex A.3) with their prototypes",
	Rules: []rulebook.Rule{
		// MPI-5.0 Annex A.3 gives every C binding, e.g. A.3.2 "int
		// MPI_Psend_init(const void *buf, int partitions, MPI_Count count,
		// MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info
		// info, MPI_Request *request)". A program written to the standard
		// calls what the header declares: where the two differ, either the
		// program does not compile or it passes what the library does not
		// read. Judged where the library's MPI_Get_version says 5.0 (the
		// reference holds no other edition's bindings of every chapter), and
		// where it says 4.1 against MPI-4.1's A.3.13-A.3.15 (C language
		// bindings, profiling, MPI_T), the part of MPI-4.1's Annex A.3 in the
		// reference (e.g. "int MPI_T_pvar_get_num(int *num_pvar)"), generated
		// as standardBindings41 by go run ./cmd/mpits bindings.
		{ID: "NATIVE-PROTO-01", Source: "MPI-5.0 §A.3", Basis: rulebook.Normative,
			Text:      "where the library says it is MPI 5.0 (MPI 4.1: for the functions of MPI-4.1's Annex A.3.13-A.3.15, the part of its Annex A.3 the reference holds), every function of Annex A.3 that its own mpi.h declares as a function (and its PMPI_ twin) has the standard's prototype: redeclaring the standard's after the header is no conflict",
			Injectors: []string{"inject_abi_header_proto"},
			Exposure:  nativeProto1Exposure.Declared(), Judge: judgeNativePrototypes},
		// MPI-5.0 §2.6.4 (and MPI-4.1's, word for word): "An implementation
		// is allowed to implement MPI_AINT_ADD, PMPI_AINT_ADD, MPI_AINT_DIFF,
		// and PMPI_AINT_DIFF, and no others, as macros in C." What MPI-4.0
		// also allowed is what MPI-4.1 removed (MPI-4.1 Annex B.1.2, the same
		// items in MPI-5.0's B.2.2): "7. Section Functions and Macros
		// [§2.6.4] ... Removed the functions MPI_WTIME, PMPI_WTIME,
		// MPI_WTICK, and PMPI_WTICK from the list of functions that may be
		// implemented as a macro." and "8. Section Functions and Macros
		// [§2.6.4] ... and Section Transfer of Handles [§19.3.4] ... Removed
		// the ability to implement MPI handle conversion functions as a
		// macro." (macroAllowed40). The reference holds no MPI-3.1 text, so
		// an MPI 3.1 library is not judged.
		{ID: "NATIVE-MACRO-01", Source: "MPI-5.0 §2.6.4, §B.2.2", Basis: rulebook.Normative,
			Text:      "where the library says it is MPI 4.0, 4.1 or 5.x, its own mpi.h defines no function of Annex A.3, nor its PMPI_ twin, as a macro, but MPI_Aint_add and MPI_Aint_diff (MPI 4.0: also MPI_Wtime, MPI_Wtick and the handle conversions MPI_<handle>_c2f/_f2c, which MPI-4.1 removed from the list) and the predefined functions such as MPI_COMM_DUP_FN, which Annex A.1 lists as constants",
			Injectors: []string{"inject_native_header_macro"},
			Exposure:  nativeMacro1Exposure.Declared(), Judge: judgeNativeMacros},
	},
})

var (
	// Each standard binding redeclared after the header could have
	// conflicted, but for the names the header also defines as macros: the
	// #ifndef leaves those out.
	nativeProto1Exposure = rulebook.Exposure[protoLine]{Items: "prototypes",
		When:  "unless the header also defines the name as a macro (the #ifndef leaves its redeclaration out: NATIVE-MACRO-01's)",
		Could: func(l protoLine) bool { return !l.macro }}
	// Each function name judged could have been defined as a macro.
	nativeMacro1Exposure = rulebook.Exposure[bindingName]{Items: "function names"}
)

// protoLine is one standard binding redeclared after the header; macro:
// the header also defines the name as a macro.
type protoLine struct {
	name  string
	macro bool
}

// bindingName is the name of a function of the standard's C bindings (or
// its PMPI_ twin).
type bindingName string

// macroAllowed are the functions §2.6.4 lets be macros in C.
var macroAllowed = map[string]bool{"MPI_Aint_add": true, "PMPI_Aint_add": true, "MPI_Aint_diff": true, "PMPI_Aint_diff": true}

// handleConversion matches §19.3.4's handle conversions and their PMPI_
// twins (the status conversions are §19.3.5's).
var handleConversion = regexp.MustCompile(`^P?MPI_([A-Z][a-z]+)_(c2f|f2c)$`)

// macroAllowed40 says whether MPI-4.0 let a function be a macro in C beyond
// what MPI-4.1 does (macroAllowed): MPI_Wtime, MPI_Wtick and the handle
// conversions (MPI-4.1 Annex B.1.2 items 7 and 8), with their PMPI_ twins
// (item 7 names them; for the conversions, the same functions under their
// profiling names are taken as allowed too: the text at hand names no
// narrower set).
func macroAllowed40(name string) bool {
	switch name {
	case "MPI_Wtime", "PMPI_Wtime", "MPI_Wtick", "PMPI_Wtick":
		return true
	}
	m := handleConversion.FindStringSubmatch(name)
	return m != nil && m[1] != "Status"
}

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

func judgeNativeMacros(x *rulebook.X) verdict.Verdict {
	allowed := func(n string) bool { return macroAllowed[n] }
	aside := "MPI_Aint_add/diff"
	v := x.Caps.MPIVersion
	switch {
	case v == "4.1" || strings.HasPrefix(v, "5."):
	case v == "4.0":
		allowed = func(n string) bool { return macroAllowed[n] || macroAllowed40(n) }
		aside = "MPI_Aint_add/diff, MPI_Wtime, MPI_Wtick and the handle conversions, which MPI-4.0 allowed (MPI-4.1 Annex B.1.2 items 7, 8),"
	default:
		x.Unsupported("not judged here: the library says it is MPI %s, and the reference holds no text of that edition: which functions it let be macros in C cannot be read from it (MPI-4.1's change log, B.1.2 items 7 and 8, gives only what MPI-4.1 removed from MPI-4.0's list)", v)
	}
	args, what := nativeHeaderArgs(x)
	if overlay := overlayDir(x); overlay != "" {
		defer os.RemoveAll(overlay)
		args = append([]string{"-I" + overlay}, args...)
	}
	defined := headerMacros(x, what, args)
	var bad []string
	var judged []bindingName
	var allowedMacros []string
	eachStandard(func(n, base, _, section string) {
		if predefinedFunction(base) {
			return
		}
		if allowed(n) {
			if defined[n] && !macroAllowed[n] {
				allowedMacros = append(allowedMacros, n)
			}
			return
		}
		judged = append(judged, bindingName(n))
		if defined[n] {
			bad = append(bad, fmt.Sprintf("%s (Annex %s)", n, section))
		}
	})
	sort.Strings(bad)
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%s defines %d functions as macros: %s", what, len(bad), verdict.FirstAndMore(bad))
	}
	reason := fmt.Sprintf("none of the %d functions of Annex A.3 and their PMPI_ twins (%s and the predefined functions aside) is a macro in %s", len(judged), aside, what)
	if len(allowedMacros) > 0 {
		sort.Strings(allowedMacros)
		reason += fmt.Sprintf(" (the library says it is MPI %s: %d macros that MPI-4.0 allowed, not judged: %s)", v, len(allowedMacros), verdict.FirstAndMore(allowedMacros))
	}
	return nativeMacro1Exposure.Pass(judged, "%s", reason)
}

// nativeHeaderArgs are the include flags of the implementation's own C
// compiler wrapper, and what to call its header; unsupported where the
// wrapper names no include folder.
func nativeHeaderArgs(x *rulebook.X) ([]string, string) {
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
func headerMacros(x *rulebook.X, what string, args []string) map[string]bool {
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

func judgeNativePrototypes(x *rulebook.X) verdict.Verdict {
	list, edition := standardBindings, "MPI-5.0 Annex A.3"
	switch v := x.Caps.MPIVersion; {
	case strings.HasPrefix(v, "5."):
	case v == "4.1":
		list, edition = standardBindings41, "MPI-4.1 Annex A.3.13-A.3.15"
	default:
		x.Unsupported("not measurable here: the library says it is MPI %s, and the reference holds no MPI-%s C bindings (MPI-5.0's Annex A.3, and MPI-4.1's A.3.13-A.3.15, only)", v, v)
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
	eachBinding(list, func(n, _, decl, section string) {
		if _, ok := mine[n]; !ok {
			return
		}
		// A name the header also defines as a macro is NATIVE-MACRO-01's.
		fmt.Fprintf(&src, "#ifndef %s\n%s\n#endif\n", n, decl)
		lines[line+1] = origin{n, decl, section}
		line += 3
	})
	if len(lines) == 0 {
		x.Unsupported("not measurable here: %s declares no function of the standard's C bindings (%s)", what, edition)
	}
	errs, out := compileProbe(x, src.String(), args...)
	var p rulebook.Problems
	for _, n := range sortedInts(errs) {
		o, ok := lines[n]
		if !ok {
			p.Add("", "the header does not compile: %s", errs[n][0])
			continue
		}
		p.Add("", "%s: %s declares %s; the standard (%s Annex %s): %s", o.name, what, strings.TrimSuffix(mine[o.name], ";"), strings.Fields(edition)[0], o.section, strings.TrimSuffix(o.decl, ";"))
	}
	p.Also("gcc " + strings.Join(args, " ") + "\n" + shorten(out, 4000))
	p.FailAbout(x, what)
	defined := headerMacros(x, what, args)
	var redeclared []protoLine
	compared := 0
	for _, o := range lines {
		redeclared = append(redeclared, protoLine{o.name, defined[o.name]})
		if !defined[o.name] {
			compared++
		}
	}
	reason := fmt.Sprintf("%d prototypes of %s (of %d MPI functions it declares) agree with the standard's C bindings (%s)", compared, what, len(mine), edition)
	if edition != "MPI-5.0 Annex A.3" {
		reason += "; its other functions are not compared: the reference holds no other part of MPI-4.1's Annex A.3"
	}
	if n := len(lines) - compared; n > 0 {
		reason += fmt.Sprintf("; %d more are also macros, not compared (NATIVE-MACRO-01's)", n)
	}
	return nativeProto1Exposure.Pass(redeclared, "%s", reason)
}
