package abi

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 21.2 ("The MPI ABI Header File and Shared Library": the library
// implementing the standard ABI is mpi_abi, and an ABI binary needs nothing
// else) with the profiling interface (MPI-4.1 15.2: every MPI_ routine is
// also callable as PMPI_): every function the ABI header declares, and its
// PMPI_ twin, must be a function the loader finds in libmpi_abi, read from
// the ELF dynamic symbol table. With injectors preloaded, the loader looks
// at them first, so they are read first.
var exports = harness.Define(harness.Check{
	ID:        "ABI-EXPORTS-001",
	Clause:    "MPI-5.0:21.2",
	Needs:     "abi",
	Title:     "libmpi_abi (soname libmpi_abi.so.1) exports, as functions, every MPI_ function its ABI header declares and the PMPI_ twin of each",
	Injectors: []string{"inject_abi_export_shadow"},
	Run:       runExports,
})

var (
	comments = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	declared = regexp.MustCompile(`(?m)^[ \t]*(?:extern[ \t]+)?(?:const[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t\*]+(P?MPI_[A-Za-z0-9_]+)[ \t]*\(`)
)

// abiHeader is the host path of the mpi.h an implementation's ABI builds use.
func abiHeader(im *harness.Impl) (string, error) {
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

func runExports(x *harness.X) harness.Verdict {
	requireABI(x)
	header, err := abiHeader(x.Impl)
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	decl, err := declaredFunctions(header)
	if err != nil || len(decl) == 0 {
		panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("no function declarations read from %s: %v", header, err)})
	}
	lib, err := readELF(realHost(x.Impl, x.Impl.ABI.Lib))
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	// What the loader searches, in order: the preloaded objects, then the library.
	var layers []*elfInfo
	for _, p := range x.Preload {
		e, err := readELF(x.Impl.HostPath(p))
		if err != nil {
			panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
		}
		layers = append(layers, e)
	}
	layers = append(layers, lib)
	var p problems
	var missing []string
	resolve := func(name string) string {
		for _, l := range layers {
			if s, ok := l.Symbols[name]; ok {
				if !s.isFunction() {
					return fmt.Sprintf("%s resolves to a %s, not a function, in %s", name, s.Type, filepath.Base(l.Path))
				}
				return ""
			}
		}
		return "missing"
	}
	for _, base := range sortedKeys(decl) {
		for _, name := range []string{base, "P" + base} {
			switch why := resolve(name); why {
			case "":
			case "missing":
				missing = append(missing, name)
			default:
				p.addf("%s", why)
			}
		}
	}
	if len(missing) > 0 {
		p = append(problems{fmt.Sprintf("%d of the %d functions %s declares (with PMPI_ twins) are not exported: %s",
			len(missing), 2*len(decl), header, strings.Join(missing, ", "))}, p...)
	}
	if !strings.HasPrefix(lib.Soname, "libmpi_abi.so.") {
		p.addf("the library's soname is %q, not libmpi_abi.so.<ABI major>", lib.Soname)
	}
	// Information: what the other implementations' ABI headers declare and
	// this library lacks (a binary built with them and calling it would not load).
	var others []string
	for _, e := range abiEnvs(x) {
		if e.Impl.ID == x.Impl.ID {
			continue
		}
		h, err := abiHeader(e.Impl)
		if err != nil {
			continue
		}
		od, err := declaredFunctions(h)
		if err != nil {
			continue
		}
		var lack []string
		for _, base := range sortedKeys(od) {
			if !decl[base] && resolve(base) != "" {
				lack = append(lack, base)
			}
		}
		if len(lack) > 0 {
			others = append(others, fmt.Sprintf("declared by %s's ABI header, not exported here: %s", e.Impl.ID, strings.Join(lack, ", ")))
		}
	}
	p.fail(x, x.Impl.ID+"'s libmpi_abi exports", strings.Join(others, "\n"))
	reason := fmt.Sprintf("all %d functions of %s and their PMPI_ twins are exported functions of %s (soname %s)",
		len(decl), filepath.Base(header), filepath.Base(lib.Path), lib.Soname)
	return harness.Verdict{Reason: reason, Evidence: strings.Join(others, "\n")}
}
