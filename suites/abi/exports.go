package abi

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What libmpi_abi exports, read from the ELF dynamic symbol tables of what
// the loader searches (the preloaded injectors first, then the library).
var exports = rulebook.Define(rulebook.Check{
	ID:    "ABI-EXPORTS",
	Needs: "abi",
	Title: "libmpi_abi's name and exported functions, from the ELF dynamic symbol tables",
	Rules: []rulebook.Rule{
		// §20.2.1: "The MPI library that implements the standard ABI must be
		// named mpi_abi. [...] For Linux, for example, lib and .so would be the
		// default prefix and suffix. Implementors are expected to follow
		// platform-specific conventions for dynamic shared library naming and
		// versioning."
		{ID: "ABI-LIB-01", Source: "MPI-5.0 §20.2.1", Basis: rulebook.Normative,
			Text:      "the object the loader binds MPI_Init to in an ABI build is a library named mpi_abi (soname libmpi_abi.so.<major>)",
			Injectors: []string{"inject_abi_export_shadow"},
			Exposure:  lib1Exposure.Declared(), Judge: judgeLibName},
		// §20.2.1: "ABI-compliant implementations must not require more than
		// mpi_abi or its versioned variant as the sole direct dependency of the
		// application binary", so every function of the ABI must come from
		// libmpi_abi; §15.2 (profiling): every MPI_ function is also callable
		// under its PMPI_ name. §20.4: "the functions defined in Section
		// Transfer of Handles [§19.3.4] and Section Status [§19.3.5] as well as
		// MPI_F08_Status are not part of this ABI"; §20.2.1: "The API defined in
		// mpi.h associated with the standard ABI does not include features of
		// MPI deprecated in MPI-3.1 or earlier."
		{ID: "ABI-EXP-01", Source: "MPI-5.0 §15.2, §20.2.1, §20.4", Basis: rulebook.Normative,
			Text:      "libmpi_abi exports, as functions, every MPI_ function of the standard ABI and its PMPI_ twin: the functions any implementation's ABI header declares, less the §19.3.4/§19.3.5 conversions (§20.4), the features deprecated in MPI-3.1 or earlier (§20.2.1) and the _c partitioned initializers MPI-5.0 does not define (Annex A.3.2)",
			Injectors: []string{"inject_abi_export_shadow"},
			Exposure:  exp1Exposure.Declared(), Judge: judgeExports},
	},
})

var (
	// The object MPI_Init is bound to could have had another name.
	lib1Exposure = rulebook.Exposure[boundObject]{Items: "objects the loader binds MPI_Init to"}
	// Each name looked up could have been missing or no function.
	exp1Exposure = rulebook.Exposure[bindingName]{Items: "MPI_ and PMPI_ names"}
)

// boundObject is an object the loader binds a name to.
type boundObject struct{ path, soname string }

// partitionedC are large-count partitioned initializers a header may
// declare that MPI-5.0 does not define: Annex A.3.2 has MPI_Psend_init and
// MPI_Precv_init with an MPI_Count count and no _c variant (the MPI-4.1
// change that added them was withdrawn, mpi-forum/mpi-issues#765).
var partitionedC = []string{"MPI_Precv_init_c", "MPI_Psend_init_c"}

// deprecated31 are functions deprecated in MPI-3.1 or earlier (MPI-5.0
// Table 1) that a header may still declare: not part of the ABI (§20.2.1).
var deprecated31 = map[string]bool{
	"MPI_Attr_delete": true, "MPI_Attr_get": true, "MPI_Attr_put": true, "MPI_Keyval_create": true,
	"MPI_Keyval_free": true, "MPI_Address": true, "MPI_Errhandler_create": true, "MPI_Errhandler_get": true,
	"MPI_Errhandler_set": true, "MPI_Type_extent": true, "MPI_Type_hindexed": true, "MPI_Type_hvector": true,
	"MPI_Type_lb": true, "MPI_Type_struct": true, "MPI_Type_ub": true,
}

// notInABI says why a declared function is outside the ABI's list, or "".
func notInABI(base string) string {
	for _, suf := range []string{"_c2f", "_f2c", "_c2f08", "_f082c", "_f2f08", "_f082f"} {
		if strings.HasSuffix(base, suf) {
			return "§20.4 (a §19.3.4/§19.3.5 conversion)"
		}
	}
	if deprecated31[base] {
		return "§20.2.1 (deprecated in MPI-3.1 or earlier)"
	}
	if slices.Contains(partitionedC, base) {
		return "not an MPI-5.0 function (Annex A.3.2 has no _c variant of the partitioned initializers)"
	}
	return ""
}

var (
	comments = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	declared = regexp.MustCompile(`(?m)^[ \t]*(?:extern[ \t]+)?(?:const[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t\*]+(P?MPI_[A-Za-z0-9_]+)[ \t]*\(`)
)

// abiHeader is the host path of the mpi.h an implementation's ABI builds use.
func abiHeader(im *mpi.Impl) (string, error) {
	for _, f := range im.ABI.CFlags {
		if strings.HasPrefix(f, "-I") {
			p := im.HostPath(filepath.Join(strings.TrimPrefix(f, "-I"), "mpi.h"))
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no mpi.h in the -I folders of abi.cflags %v", im.ID, im.ABI.CFlags)
}

// declaredFunctions are the base names (MPI_...) of the functions a header
// declares, as MPI_ or PMPI_.
func declaredFunctions(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := comments.ReplaceAllString(string(data), "")
	out := map[string]bool{}
	for _, m := range declared.FindAllStringSubmatch(text, -1) {
		out[strings.TrimPrefix(m[1], "P")] = true
	}
	return out, nil
}

// loaderView is what the loader searches in x's ABI build: the preloaded
// injectors first, then libmpi_abi.
type loaderView struct {
	lib    *elfInfo
	layers []*elfInfo
}

func loaderLayers(x *rulebook.X) *loaderView {
	lib, err := readELF(realHost(x.Impl, x.Impl.ABI.Lib))
	if err != nil {
		x.Errorf("", "%v", err)
	}
	v := &loaderView{lib: lib}
	for _, p := range x.Preload {
		e, err := readELF(x.Impl.HostPath(p))
		if err != nil {
			x.Errorf("", "%v", err)
		}
		v.layers = append(v.layers, e)
	}
	v.layers = append(v.layers, lib)
	return v
}

// resolve says "" when name resolves to a function, "missing", or why not.
func (v *loaderView) resolve(name string) string {
	for _, l := range v.layers {
		if s, ok := l.Symbols[name]; ok {
			if !s.isFunction() {
				return fmt.Sprintf("%s resolves to a %s, not a function, in %s", name, s.Type, filepath.Base(l.Path))
			}
			return ""
		}
	}
	return "missing"
}

// abiFunctionList is the ABI's function list as the headers of every ABI
// implementation of the run declare it (their union), split into what the
// ABI holds and what it leaves out (with why). The excerpt of Annex A in
// the reference holds only the tool, ABI and interoperability chapters, so
// the rest of the list comes from the headers; nothing is judged against a
// single implementation's header.
func abiFunctionList(x *rulebook.X) (in map[string]bool, out map[string]string, headers []string) {
	in, out = map[string]bool{}, map[string]string{}
	for _, e := range abiEnvs(x) {
		h, err := abiHeader(e.Impl)
		if err != nil {
			continue
		}
		d, err := declaredFunctions(h)
		if err != nil {
			continue
		}
		headers = append(headers, e.Impl.ID)
		for base := range d {
			if why := notInABI(base); why != "" {
				out[base] = why
			} else {
				in[base] = true
			}
		}
	}
	if len(in) == 0 {
		x.Errorf("", "no function declarations read from any ABI header")
	}
	return in, out, headers
}

func judgeExports(x *rulebook.X) verdict.Verdict {
	v := loaderLayers(x)
	in, out, headers := abiFunctionList(x)
	var missing, wrong []string
	var looked []bindingName
	for _, base := range slices.Sorted(maps.Keys(in)) {
		for _, name := range []string{base, "P" + base} {
			looked = append(looked, bindingName(name))
			switch why := v.resolve(name); why {
			case "":
			case "missing":
				missing = append(missing, name)
			default:
				wrong = append(wrong, why)
			}
		}
	}
	var p rulebook.Problems
	if len(missing) > 0 {
		p.Add("", "%d of the %d functions of the ABI (with PMPI_ twins) are not exported: %s",
			len(missing), 2*len(in), strings.Join(missing, ", "))
	}
	for _, why := range wrong {
		p.Add("", "%s", why)
	}
	var left []string
	for _, base := range slices.Sorted(maps.Keys(out)) {
		left = append(left, base+": "+out[base])
	}
	info := "declared by an ABI header, outside the ABI (not judged):\n  " + strings.Join(left, "\n  ")
	p.Also(info)
	p.FailAbout(x, x.Impl.ID+"'s libmpi_abi exports")
	pass := exp1Exposure.Pass(looked, "all %d functions of the ABI (as the ABI headers of %s declare them, less %d outside the ABI) and their PMPI_ twins are exported functions of %s",
		len(in), strings.Join(headers, ", "), len(out), filepath.Base(v.lib.Path))
	pass.Evidence = info
	return pass
}

func judgeLibName(x *rulebook.X) verdict.Verdict {
	v := loaderLayers(x)
	for _, l := range v.layers {
		if s, ok := l.Symbols["MPI_Init"]; ok && s.isFunction() {
			if !strings.HasPrefix(l.Soname, "libmpi_abi.so.") {
				x.Failf(l.Path, "the loader binds MPI_Init to %s, soname %q, not libmpi_abi.so.<major>", l.Path, l.Soname)
			}
			return lib1Exposure.Pass([]boundObject{{l.Path, l.Soname}}, "MPI_Init comes from %s, soname %s", filepath.Base(l.Path), l.Soname)
		}
	}
	x.Failf("", "no object the loader searches defines MPI_Init (%s)", v.lib.Path)
	return verdict.Verdict{}
}
