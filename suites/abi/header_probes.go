package abi

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What the compiler makes of each implementation's MPI 5 ABI header: probes
// compiled against it (no job runs). The compiler is the host's gcc with
// -fsyntax-only and the header's own folder (its host path): the rules judge
// the header's declarations, which do not depend on the compiler's version.
//
// A header cannot be broken by a preloaded library, so these rules' fault
// injectors are header overlays carried by the injector's shared object: its
// section .mpits_header_overlay holds an mpi.h that is put in a folder
// searched before the header's own (it ends with #include_next <mpi.h>).
// Preloaded with x's injectors, the judge compiles through that overlay.
var headerCheck = rulebook.Define(rulebook.Check{
	ID:    "ABI-HEADER",
	Needs: "abi",
	Title: "the MPI 5 ABI header as the C compiler sees it: the handle types, and every function's prototype against the other implementations' ABI headers and the standard's bindings",
	Rules: []rulebook.Rule{
		// §20.3.2: "Handles for MPI objects are defined to be incomplete
		// struct pointers, which allows for C compilers to do type-checking,
		// while also satisfying the existing requirements, such as equality
		// comparison." / "The following handle type definitions are part of
		// the MPI ABI: typedef struct MPI_ABI_Comm* MPI_Comm; typedef struct
		// MPI_ABI_Datatype* MPI_Datatype; [...] typedef struct MPI_ABI_Win*
		// MPI_Win;"
		{ID: "ABI-HND-01", Source: "MPI-5.0 §20.3.2", Basis: rulebook.Normative,
			Text:      "each of the 11 handle types is a pointer to the incomplete struct the standard names (MPI_Comm is struct MPI_ABI_Comm *, ...): sizeof(*h) does not compile, and assigning a handle of one kind to another kind is a type error",
			Injectors: []string{"inject_abi_header_complete"},
			Exposure:  hnd1Exposure.Declared(), Judge: judgeHandleTypes},
		// §20.1: "A standard ABI for MPI serves many purposes, including
		// support for applications compiled with one implementation of MPI to
		// be executed with another implementation."; §20.3.6: "ABI
		// compatibility means that the binary object code of the MPI
		// implementation, libraries that use MPI, and the main MPI application
		// program can be linked and executed correctly." A function whose
		// prototype differs between two ABI headers, or from the standard's
		// binding (Annex A.3, every chapter's C bindings), cannot be called
		// through either. No function is left out for an erratum: A.3.2
		// gives "int MPI_Psend_init(const void *buf, int partitions,
		// MPI_Count count, ...)" and no _c variant.
		{ID: "ABI-PROTO-01", Source: "MPI-5.0 §20.1, §20.3.6, Annex A", Basis: rulebook.Normative,
			Text:      "every function both ABI headers declare has compatible prototypes in both (C's own test: redeclaring one header's prototype after the other header is not a conflict), and the header's prototypes agree with the standard's C bindings (MPI-5.0 Annex A.3, every chapter)",
			Injectors: []string{"inject_abi_header_proto"},
			Exposure:  abiProto1Exposure.Declared(), Judge: judgePrototypes},
	},
})

var (
	// Each probe could have compiled where it must not, or not where it
	// must.
	hnd1Exposure = rulebook.Exposure[probeLine]{Items: "compile probes"}
	// Each prototype redeclared after the header could have conflicted.
	abiProto1Exposure = rulebook.Exposure[protoLine]{Items: "prototypes compared"}
)

// probeLine is one line of a compile probe: what it shows if the compiler
// answers otherwise than it must.
type probeLine string

// overlayDir writes the header overlays of x's preloaded injectors into a
// new folder and returns it ("" when no injector carries one).
func overlayDir(x *rulebook.X) string {
	text := x.HeaderOverlay()
	if text == "" {
		return ""
	}
	dir, err := os.MkdirTemp("", "mpits-overlay-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mpi.h"), []byte(text), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	return dir
}

// headerArgs are the include flags for x's ABI header (overlay first).
func headerArgs(x *rulebook.X, im *mpi.Impl, overlay string) []string {
	h, err := abiHeader(im)
	if err != nil {
		x.Errorf("", "%v", err)
	}
	var args []string
	if overlay != "" {
		args = append(args, "-I"+overlay)
	}
	return append(args, "-I"+filepath.Dir(h))
}

var gccDiag = regexp.MustCompile(`(?m)^[^:\n]*probe\.c:(\d+):\d+: error: (.*)$`)

// compileProbe compiles src (-fsyntax-only) with args and returns the
// errors by line, and gcc's whole output.
func compileProbe(x *rulebook.X, src string, args ...string) (map[int][]string, string) {
	dir, err := os.MkdirTemp("", "mpits-probe-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	argv := append([]string{"-std=gnu11", "-fsyntax-only", "-fmax-errors=0", "-Werror=incompatible-pointer-types"}, args...)
	out, err := exec.Command("gcc", append(argv, path)...).CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		x.Errorf("", "gcc: %v", err)
	}
	errs := map[int][]string{}
	for _, m := range gccDiag.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[1])
		errs[n] = append(errs[n], m[2])
	}
	return errs, string(out)
}

// handleTag is the struct tag the standard gives a handle type.
func handleTag(t string) string { return "MPI_ABI_" + strings.TrimPrefix(t, "MPI_") }

func judgeHandleTypes(x *rulebook.X) verdict.Verdict {
	overlay := overlayDir(x)
	if overlay != "" {
		defer os.RemoveAll(overlay)
	}
	args := headerArgs(x, x.Impl, overlay)
	var p rulebook.Problems
	// What must compile: each handle is the pointer to its struct, compares
	// for equality, converts to void *.
	var ok strings.Builder
	ok.WriteString("#include <mpi.h>\n")
	okLine := map[int]string{}
	for i, t := range handleTypes {
		okLine[i+2] = t
		fmt.Fprintf(&ok, "int ok_%d(%s a, %s b) { struct %s *s = a; void *v = b; return s == b && v != 0; }\n", i, t, t, handleTag(t))
	}
	errs, out := compileProbe(x, ok.String(), args...)
	for _, n := range sortedInts(errs) {
		if t, found := okLine[n]; found {
			p.Add("", "%s is not a pointer to struct %s: %s", t, handleTag(t), errs[n][0])
		} else {
			p.Add("", "the header does not compile: %s", errs[n][0])
		}
	}
	// What must not compile: each probe on a line of its own.
	var bad strings.Builder
	bad.WriteString("#include <mpi.h>\n")
	badLine := map[int]string{}
	line := 2
	for _, t := range handleTypes {
		badLine[line] = fmt.Sprintf("sizeof(*(%s)h) compiles: the struct is complete", t)
		fmt.Fprintf(&bad, "unsigned long size_%s(%s h) { return sizeof(*h); }\n", t, t)
		line++
		for _, u := range handleTypes {
			if u == t {
				continue
			}
			badLine[line] = fmt.Sprintf("an %s converts to an %s without a cast: one type for two handle kinds", t, u)
			fmt.Fprintf(&bad, "void as_%s_%s(%s h) { %s u = h; (void)u; }\n", t, u, t, u)
			line++
		}
	}
	berrs, bout := compileProbe(x, bad.String(), args...)
	if len(errs) == 0 {
		for _, n := range slices.Sorted(maps.Keys(badLine)) {
			if len(berrs[n]) == 0 {
				p.Add("", "%s", badLine[n])
			}
		}
	}
	p.Also("gcc " + strings.Join(args, " ") + "\n" + shorten(out, 2000) + "\n" + shorten(bout, 2000))
	p.FailAbout(x, x.Impl.ID+"'s ABI header handle types")
	var probes []probeLine
	for _, n := range slices.Sorted(maps.Keys(okLine)) {
		probes = append(probes, probeLine(okLine[n]+" is a pointer to its struct"))
	}
	for _, n := range slices.Sorted(maps.Keys(badLine)) {
		probes = append(probes, probeLine(badLine[n]))
	}
	return hnd1Exposure.Pass(probes, "the %d handle types are pointers to their incomplete structs struct MPI_ABI_<Kind>: %d probes (sizeof of the struct, a handle of one kind where another is wanted) are compile errors",
		len(handleTypes), len(badLine))
}

func sortedInts(m map[int][]string) []int {
	var k []int
	for n := range m {
		k = append(k, n)
	}
	sort.Ints(k)
	return k
}

var auxProto = regexp.MustCompile(`(?m)^/\* (.*?):\d+:NC \*/ extern (.*?\b(P?MPI_[A-Za-z0-9_]+) \(.*\);)$`)

// prototypes are the MPI_/PMPI_ functions im's ABI header declares, as
// gcc -aux-info writes them (parameter types only), by name.
func prototypes(x *rulebook.X, im *mpi.Impl, overlay string) map[string]string {
	isMPIH := func(path string) bool { return filepath.Base(path) == "mpi.h" }
	return prototypesIn(x, im.ID+"'s ABI header", headerArgs(x, im, overlay), isMPIH)
}

// prototypesIn are the MPI functions that the headers from declares, read
// through the mpi.h that args find, as gcc -aux-info writes them (what:
// whose header, for errors).
func prototypesIn(x *rulebook.X, what string, args []string, from func(path string) bool) map[string]string {
	dir, err := os.MkdirTemp("", "mpits-aux-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(dir)
	src, aux := filepath.Join(dir, "aux.c"), filepath.Join(dir, "aux.txt")
	os.WriteFile(src, []byte("#include <mpi.h>\n"), 0o644)
	argv := append([]string{"-std=gnu11", "-fsyntax-only", "-aux-info", aux}, args...)
	if out, err := exec.Command("gcc", append(argv, src)...).CombinedOutput(); err != nil {
		x.Errorf(string(out), "%s does not compile: %v", what, err)
	}
	data, err := os.ReadFile(aux)
	if err != nil {
		x.Errorf("", "%v", err)
	}
	protos := map[string]string{}
	for _, m := range auxProto.FindAllStringSubmatch(string(data), -1) {
		if from(m[1]) {
			protos[m[3]] = m[2]
		}
	}
	if len(protos) == 0 {
		x.Errorf("", "gcc -aux-info found no MPI function in %s", what)
	}
	return protos
}

// cleanPrototypes are prototypes without overlay, once per implementation.
func cleanPrototypes(x *rulebook.X, im *mpi.Impl) map[string]string {
	return remember("prototypes|"+im.ID, func() map[string]string { return prototypes(x, im, "") })
}

// protoSkip says why a function is left out of the comparison, or "".
func protoSkip(name string) string {
	base := strings.TrimPrefix(name, "P")
	return notInABI(base)
}

var stdName = regexp.MustCompile(`^\S+ \*?(MPI_[A-Za-z0-9_]+)\(`)

// stdBinding is one C binding of the standard (standard_bindings_gen.go).
type stdBinding struct{ Decl, Section string }

// eachStandard calls f with every function of the standard's C bindings and
// its PMPI_ twin: its name, its binding under that name, and its section;
// base is the MPI_ name of both.
func eachStandard(f func(name, base, decl, section string)) {
	eachBinding(standardBindings, f)
}

// eachBinding is eachStandard over the bindings list (standardBindings41:
// MPI-4.1's A.3.13-A.3.15).
func eachBinding(list []stdBinding, f func(name, base, decl, section string)) {
	for _, b := range list {
		m := stdName.FindStringSubmatch(b.Decl)
		if m == nil {
			continue
		}
		for _, n := range []string{m[1], "P" + m[1]} {
			f(n, m[1], strings.Replace(b.Decl, m[1]+"(", n+"(", 1), b.Section)
		}
	}
}

func judgePrototypes(x *rulebook.X) verdict.Verdict {
	overlay := overlayDir(x)
	if overlay != "" {
		defer os.RemoveAll(overlay)
	}
	mine := prototypes(x, x.Impl, overlay)
	// One file: x's header (through the overlay), then every other ABI
	// header's prototypes and the standard's bindings, one a line, of the
	// functions x's header declares; a line that conflicts is a mismatch.
	var src strings.Builder
	src.WriteString("#include <mpi.h>\n")
	type origin struct{ who, name, decl string }
	lines := map[int]origin{}
	line := 2
	add := func(who, name, decl string) {
		lines[line] = origin{who, name, decl}
		src.WriteString(decl + "\n")
		line++
	}
	skipped := map[string]string{}
	// Where the standard gives a binding, a header is judged against it
	// alone: a header that agrees with the standard is not at fault for
	// another that does not.
	std := map[string]bool{}
	eachStandard(func(name, _, _, _ string) { std[name] = true })
	var others []string
	for _, e := range abiEnvs(x) {
		if e.Impl.ID == x.Impl.ID {
			continue
		}
		others = append(others, e.Impl.ID)
		theirs := cleanPrototypes(x, e.Impl)
		for _, name := range slices.Sorted(maps.Keys(theirs)) {
			if _, ok := mine[name]; !ok || std[name] {
				continue
			}
			if why := protoSkip(name); why != "" {
				skipped[name] = why
				continue
			}
			add(e.Impl.ID+"'s header", name, "extern "+theirs[name])
		}
	}
	nstd := 0
	eachStandard(func(n, _, decl, section string) {
		if _, ok := mine[n]; !ok {
			return
		}
		// Outside the ABI (§20.4: the conversions "as well as
		// MPI_F08_Status", which A.3.13 spells MPI_F08_status): the ABI
		// header need not declare them as the standard does.
		if why := protoSkip(n); why != "" {
			skipped[n] = why
			return
		}
		nstd++
		add("the standard (MPI-5.0 Annex "+section+")", n, decl)
	})
	errs, out := compileProbe(x, src.String(), headerArgs(x, x.Impl, overlay)...)
	var p rulebook.Problems
	for _, n := range sortedInts(errs) {
		o, ok := lines[n]
		if !ok {
			p.Add("", "the header does not compile: %s", errs[n][0])
			continue
		}
		ours := mine[o.name]
		p.Add("", "%s: %s's header declares %s; %s: %s", o.name, x.Impl.ID, strings.TrimSuffix(ours, ";"), o.who, strings.TrimSuffix(strings.TrimPrefix(o.decl, "extern "), ";"))
	}
	p.Also("gcc " + strings.Join(headerArgs(x, x.Impl, overlay), " ") + "\n" + shorten(out, 4000))
	p.FailAbout(x, x.Impl.ID+"'s ABI header prototypes")
	if len(others) == 0 && nstd == 0 {
		x.Unsupported("not measurable here: no other ABI header and no standard binding to compare with")
	}
	reason := fmt.Sprintf("%d prototypes of the header agree with the standard's C bindings (MPI-5.0 Annex A.3), and %d that the standard's bindings do not give are compatible with %s's ABI header",
		nstd, line-2-nstd, strings.Join(others, ", "))
	if len(skipped) > 0 {
		names := slices.Sorted(maps.Keys(skipped))
		reason += fmt.Sprintf("; not compared: %s (%s)", strings.Join(names, ", "), skipped[names[0]])
	}
	var compared []protoLine
	for _, n := range slices.Sorted(maps.Keys(lines)) {
		compared = append(compared, protoLine{name: lines[n].name})
	}
	return abiProto1Exposure.Pass(compared, "%s", reason)
}
