package mpit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What the native mpi.h and library owe the tool chapter of the MPI version
// they claim (MPI_VERSION, MPI_SUBVERSION): every constant, type and routine
// of the MPI tool information interface, and each routine's PMPI_ twin. The
// header judges compile a small probe with the implementation's compiler (a
// name the header lacks is a compiler error naming it); the library judges
// look each routine up in the libraries a program is linked with
// (fixtures/c/mpit/symbols.c).
var headerCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-HEADER",
	Needs: "mpit",
	Title: "mpi.h declares, and the library defines, every constant, type and routine of the tool information interface of the MPI version the header claims",
	Rules: []rulebook.Rule{
		// §15.3: "MPI implementations are only required to provide C bindings
		// for functions and constants introduced in this section." The names:
		// Annex A.1.1-A.1.3 (constants, types, callback prototypes) and A.3.16
		// (routines).
		{ID: "NATIVE-HDR-01", Source: "MPI-5.0 §15.3, §A.1.1, §A.3.16", Basis: rulebook.Normative,
			Text:     "mpi.h declares every MPI_T_ constant, type and routine prototype of the MPI version its MPI_VERSION and MPI_SUBVERSION claim",
			Exposure: hdr01Exposure.Declared(), Judge: judgeHeaderNames},
		// Nothing in the text lets a constant of mpi.h need another header: a
		// tool that includes only mpi.h should compile.
		{ID: "NATIVE-HDR-04", Source: "MPI-5.0 §15.3, §A.1.1", Basis: rulebook.Quality,
			Text:     "every MPI_T_ constant of mpi.h compiles in a file that includes nothing but mpi.h",
			Exposure: hdr04Exposure.Declared(), Judge: judgeSelfContained},
		// The same sentence of §15.3: the routines are provided, i.e. a
		// process linked with the library finds each of them.
		{ID: "NATIVE-HDR-03", Source: "MPI-5.0 §15.3, §A.3.16", Basis: rulebook.Normative,
			Text:      "the MPI library defines every MPI_T_ routine of the MPI version its header claims (found in the libraries a program is linked with or preloaded into it)",
			Injectors: []string{"inject_mpit_symbol_hidden"}, Exposure: symbolExposures["MPI_"].Declared(), Judge: judgeSymbols("MPI_")},
		// §15.3.11: "All requirements for the profiling interface, as described
		// in Section Profiling Interface [§15.2], also apply to the MPI tool
		// information interface." §15.2 requires every MPI procedure to be
		// callable by its PMPI_ name.
		{ID: "ERR-6", Source: "MPI-5.0 §15.3.11, §15.2", Basis: rulebook.Normative,
			Text:      "every MPI_T_ routine of the claimed version has a PMPI_T_ twin in the library (found in the libraries a program is linked with or preloaded into it)",
			Injectors: []string{"inject_mpit_symbol_hidden"}, Exposure: symbolExposures["PMPI_"].Declared(), Judge: judgeSymbols("PMPI_")},
	},
})

// The tool information interface's C names in MPI-5.0 (Annex A.1.1-A.1.3,
// A.3.16; the MPI-4.1 annex has the same), and the ones later versions
// added, by the change-logs (Annex B): header_names_test.go reads them
// again from the standard's text when it is beside the clone.
var (
	toolConstants = []string{
		"MPI_T_BIND_MPI_COMM", "MPI_T_BIND_MPI_DATATYPE", "MPI_T_BIND_MPI_ERRHANDLER", "MPI_T_BIND_MPI_FILE",
		"MPI_T_BIND_MPI_GROUP", "MPI_T_BIND_MPI_INFO", "MPI_T_BIND_MPI_MESSAGE", "MPI_T_BIND_MPI_OP",
		"MPI_T_BIND_MPI_REQUEST", "MPI_T_BIND_MPI_SESSION", "MPI_T_BIND_MPI_WIN", "MPI_T_BIND_NO_OBJECT",
		"MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE", "MPI_T_CB_REQUIRE_MPI_RESTRICTED", "MPI_T_CB_REQUIRE_NONE",
		"MPI_T_CB_REQUIRE_THREAD_SAFE", "MPI_T_CVAR_HANDLE_NULL", "MPI_T_ENUM_NULL", "MPI_T_ERR_CANNOT_INIT",
		"MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T_ERR_INVALID", "MPI_T_ERR_INVALID_HANDLE",
		"MPI_T_ERR_INVALID_INDEX", "MPI_T_ERR_INVALID_ITEM", "MPI_T_ERR_INVALID_NAME", "MPI_T_ERR_INVALID_SESSION",
		"MPI_T_ERR_MEMORY", "MPI_T_ERR_NOT_ACCESSIBLE", "MPI_T_ERR_NOT_INITIALIZED", "MPI_T_ERR_NOT_SUPPORTED",
		"MPI_T_ERR_OUT_OF_HANDLES", "MPI_T_ERR_OUT_OF_SESSIONS", "MPI_T_ERR_PVAR_NO_ATOMIC",
		"MPI_T_ERR_PVAR_NO_STARTSTOP", "MPI_T_ERR_PVAR_NO_WRITE", "MPI_T_PVAR_ALL_HANDLES",
		"MPI_T_PVAR_CLASS_AGGREGATE", "MPI_T_PVAR_CLASS_COUNTER", "MPI_T_PVAR_CLASS_GENERIC",
		"MPI_T_PVAR_CLASS_HIGHWATERMARK", "MPI_T_PVAR_CLASS_LEVEL", "MPI_T_PVAR_CLASS_LOWWATERMARK",
		"MPI_T_PVAR_CLASS_PERCENTAGE", "MPI_T_PVAR_CLASS_SIZE", "MPI_T_PVAR_CLASS_STATE", "MPI_T_PVAR_CLASS_TIMER",
		"MPI_T_PVAR_HANDLE_NULL", "MPI_T_PVAR_SESSION_NULL", "MPI_T_SCOPE_ALL", "MPI_T_SCOPE_ALL_EQ",
		"MPI_T_SCOPE_CONSTANT", "MPI_T_SCOPE_GROUP", "MPI_T_SCOPE_GROUP_EQ", "MPI_T_SCOPE_LOCAL",
		"MPI_T_SCOPE_READONLY", "MPI_T_SOURCE_ORDERED", "MPI_T_SOURCE_UNORDERED", "MPI_T_VERBOSITY_MPIDEV_ALL",
		"MPI_T_VERBOSITY_MPIDEV_BASIC", "MPI_T_VERBOSITY_MPIDEV_DETAIL", "MPI_T_VERBOSITY_TUNER_ALL",
		"MPI_T_VERBOSITY_TUNER_BASIC", "MPI_T_VERBOSITY_TUNER_DETAIL", "MPI_T_VERBOSITY_USER_ALL",
		"MPI_T_VERBOSITY_USER_BASIC", "MPI_T_VERBOSITY_USER_DETAIL",
	}
	toolTypes = []string{
		"MPI_T_cb_safety", "MPI_T_cvar_handle", "MPI_T_enum", "MPI_T_event_cb_function",
		"MPI_T_event_dropped_cb_function", "MPI_T_event_free_cb_function", "MPI_T_event_instance",
		"MPI_T_event_registration", "MPI_T_pvar_handle", "MPI_T_pvar_session", "MPI_T_source_order",
	}
	toolRoutines = []string{
		"MPI_T_category_changed", "MPI_T_category_get_categories", "MPI_T_category_get_cvars",
		"MPI_T_category_get_events", "MPI_T_category_get_index", "MPI_T_category_get_info", "MPI_T_category_get_num",
		"MPI_T_category_get_num_events", "MPI_T_category_get_pvars", "MPI_T_cvar_get_index", "MPI_T_cvar_get_info",
		"MPI_T_cvar_get_num", "MPI_T_cvar_handle_alloc", "MPI_T_cvar_handle_free", "MPI_T_cvar_read",
		"MPI_T_cvar_write", "MPI_T_enum_get_info", "MPI_T_enum_get_item", "MPI_T_event_callback_get_info",
		"MPI_T_event_callback_set_info", "MPI_T_event_copy", "MPI_T_event_get_index", "MPI_T_event_get_info",
		"MPI_T_event_get_num", "MPI_T_event_get_source", "MPI_T_event_get_timestamp", "MPI_T_event_handle_alloc",
		"MPI_T_event_handle_free", "MPI_T_event_handle_get_info", "MPI_T_event_handle_set_info", "MPI_T_event_read",
		"MPI_T_event_register_callback", "MPI_T_event_set_dropped_handler", "MPI_T_finalize", "MPI_T_init_thread",
		"MPI_T_pvar_get_index", "MPI_T_pvar_get_info", "MPI_T_pvar_get_num", "MPI_T_pvar_handle_alloc",
		"MPI_T_pvar_handle_free", "MPI_T_pvar_read", "MPI_T_pvar_readreset", "MPI_T_pvar_reset",
		"MPI_T_pvar_session_create", "MPI_T_pvar_session_free", "MPI_T_pvar_start", "MPI_T_pvar_stop",
		"MPI_T_pvar_write", "MPI_T_source_get_info", "MPI_T_source_get_num", "MPI_T_source_get_timestamp",
	}
	// Added in MPI-4.0 (Annex B.2.2 of MPI-4.1, items 24 and 30): the events
	// interface and MPI_T_BIND_MPI_SESSION.
	toolAdded40 = []string{
		"MPI_T_BIND_MPI_SESSION", "MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE", "MPI_T_CB_REQUIRE_MPI_RESTRICTED",
		"MPI_T_CB_REQUIRE_NONE", "MPI_T_CB_REQUIRE_THREAD_SAFE", "MPI_T_SOURCE_ORDERED", "MPI_T_SOURCE_UNORDERED",
		"MPI_T_cb_safety", "MPI_T_event_cb_function", "MPI_T_event_dropped_cb_function",
		"MPI_T_event_free_cb_function", "MPI_T_event_instance", "MPI_T_event_registration", "MPI_T_source_order",
		"MPI_T_category_get_events", "MPI_T_category_get_num_events",
	}
	// Added in MPI-3.1 (Annex B.3.2 of MPI-4.1): the get_index routines and
	// their two return codes.
	toolAdded31 = []string{"MPI_T_cvar_get_index", "MPI_T_pvar_get_index", "MPI_T_category_get_index",
		"MPI_T_ERR_INVALID", "MPI_T_ERR_INVALID_NAME"}
	// In MPI-4.1's table of return codes, not in MPI-3.1's, and no
	// change-log entry says when they came: owed from MPI-4.1 on.
	toolUndated = []string{"MPI_T_ERR_NOT_ACCESSIBLE", "MPI_T_ERR_NOT_SUPPORTED"}
)

// claimedNames are the names of a list that a header claiming MPI
// major.minor owes.
func claimedNames(list []string, major, minor int) []string {
	drop := map[string]bool{}
	if major < 4 || (major == 4 && minor < 1) {
		for _, n := range toolUndated {
			drop[n] = true
		}
	}
	if major < 4 {
		for _, n := range toolAdded40 {
			drop[n] = true
		}
		for _, n := range list {
			if strings.HasPrefix(n, "MPI_T_source_") || strings.HasPrefix(n, "MPI_T_event_") {
				drop[n] = true
			}
		}
	}
	if major < 3 || (major == 3 && minor < 1) {
		for _, n := range toolAdded31 {
			drop[n] = true
		}
	}
	var out []string
	for _, n := range list {
		if !drop[n] {
			out = append(out, n)
		}
	}
	return out
}

// claimedVersion is the MPI version the implementation's mpi.h claims: its
// MPI_VERSION and MPI_SUBVERSION as the compiler wrapper preprocesses them.
// The header rules judge the header an application compiles against, and
// a translation layer's library (WI4MPI's preload mode under Open MPI
// 4.1's 3.1 header) may report another version from MPI_Get_version.
func claimedVersion(x *rulebook.X) (int, int) {
	v := headerVersions.Do(x.Impl.ID, func() [2]int {
		out, ok := preprocess(x, "version", "#include <mpi.h>\nmpits_header_version MPI_VERSION MPI_SUBVERSION\n")
		m := headerVersionRE.FindStringSubmatch(out)
		if !ok || m == nil {
			x.Errorf(out, "mpi.h gives no MPI_VERSION and MPI_SUBVERSION to its compiler (%s)", verdict.FirstLine(errorLine(out)))
		}
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		return [2]int{major, minor}
	})
	return v[0], v[1]
}

// headerVersions keeps each implementation's header version for this
// process (four rules ask).
var headerVersions mpi.Memo[[2]int]

var headerVersionRE = regexp.MustCompile(`(?m)^mpits_header_version\s+(\d+)\s+(\d+)\s*$`)

// probe compiles one C file (syntax only) with the implementation's
// compiler and returns the compiler's output and whether it succeeded.
func probe(x *rulebook.X, name, source string) (string, bool) {
	return compile(x, name, source, "-fmax-errors=0", "-w", "-fsyntax-only")
}

// preprocess runs one C file through the implementation's compiler's
// preprocessor: its output, and whether it succeeded.
func preprocess(x *rulebook.X, name, source string) (string, bool) {
	return compile(x, name, source, "-E", "-P")
}

// compile runs the implementation's compiler on one C file with flags.
func compile(x *rulebook.X, name, source string, flags ...string) (string, bool) {
	im := x.Impl
	if im.CC == "" {
		x.Unsupported("not measurable here: %s has no C compiler wrapper", im.ID)
	}
	dir, err := os.MkdirTemp(im.HostPath("/tmp"), "mpits-header-")
	if err != nil {
		x.Errorf("", "cannot make a folder for the probe: %v", err)
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, name+".c")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		x.Errorf("", "cannot write the probe: %v", err)
	}
	args := append(append(append([]string{}, im.CFlags...), "-std=gnu11"), append(flags, im.InnerPath(src))...)
	res, err := mpi.Run(mpi.Job{Impl: im, Name: "probe " + name, Program: im.CC, Args: args, Deadline: 2 * time.Minute})
	if err != nil {
		x.Errorf("", "the probe did not run: %v", err)
	}
	defer res.Cleanup()
	if res.TimedOut || res.Signal != "" {
		x.Errorf(res.Evidence(), "the compiler did not finish: %s", res.Problem())
	}
	return res.Stdout + res.Stderr, res.ExitCode == 0
}

var undeclaredRE = regexp.MustCompile(`(?:'|‘)(MPI_T_\w+)(?:'|’) undeclared|unknown type name (?:'|‘)(MPI_T_\w+)(?:'|’)`)

// constantsProbe uses every constant and type a header claiming
// major.minor owes, after the given includes.
func constantsProbe(major, minor int, includes ...string) (string, []string) {
	var b strings.Builder
	for _, inc := range includes {
		fmt.Fprintf(&b, "#include <%s>\n", inc)
	}
	consts := claimedNames(toolConstants, major, minor)
	types := claimedNames(toolTypes, major, minor)
	for i, n := range types {
		fmt.Fprintf(&b, "%s *type_%d;\n", n, i)
	}
	// one function each: gcc reports an undeclared identifier once per
	// function, and a constant's own failure must not hide another's
	for i, n := range consts {
		fmt.Fprintf(&b, "void constant_%d(void) {\n    __typeof__(%s) c = %s;\n    (void)c;\n}\n", i, n, n)
	}
	return b.String(), append(append([]string{}, consts...), types...)
}

var noteRE = regexp.MustCompile(`in expansion of macro (?:'|‘)(MPI_T_\w+)(?:'|’)`)

// headerName is one MPI_T name a probe uses, and whether mpi.h declares it.
type headerName struct {
	name     string
	declared bool
}

// hdr04Exposure: a name mpi.h lacks cannot show whether mpi.h alone
// suffices (it is NATIVE-HDR-01's).
var hdr04Exposure = rulebook.Exposure[headerName]{Items: "MPI_T constants and types",
	When:  "when mpi.h declares it (a name mpi.h lacks cannot show whether mpi.h alone suffices)",
	Could: func(n headerName) bool { return n.declared }}

// headerNames are the names, each declared unless missing.
func headerNames(names []string, missing map[string]bool) []headerName {
	out := make([]headerName, 0, len(names))
	for _, n := range names {
		out = append(out, headerName{name: n, declared: !missing[n]})
	}
	return out
}

func judgeSelfContained(x *rulebook.X) verdict.Verdict {
	major, minor := claimedVersion(x)
	src, names := constantsProbe(major, minor, "mpi.h")
	out, ok := probe(x, "alone", src)
	if ok {
		return hdr04Exposure.Pass(headerNames(names, nil), "all %d MPI_T constants and types of MPI %d.%d compile with only mpi.h included", len(names), major, minor)
	}
	failing, missing := map[string]bool{}, map[string]bool{}
	for _, m := range noteRE.FindAllStringSubmatch(out, -1) {
		failing[m[1]] = true
	}
	for _, m := range undeclaredRE.FindAllStringSubmatch(out, -1) {
		delete(failing, m[1]+m[2]) // missing altogether: NATIVE-HDR-01's
		missing[m[1]+m[2]] = true
	}
	var list []string
	for n := range failing {
		list = append(list, n)
	}
	sort.Strings(list)
	if len(list) == 0 {
		probed := headerNames(names, missing)
		declared := 0
		for _, n := range probed {
			if hdr04Exposure.Could(n) {
				declared++
			}
		}
		return hdr04Exposure.Pass(probed, "the %d MPI_T constants and types that mpi.h declares compile with only mpi.h included (the %d missing are NATIVE-HDR-01's)", declared, len(missing))
	}
	x.Failf(out, "with only mpi.h included, %d MPI_T constants do not compile: %s (%s)", len(list), examples(list), verdict.FirstLine(errorLine(out)))
	return verdict.Verdict{}
}

// errorLine is the compiler's first error that is not a missing MPI_T name.
func errorLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "error:") && !undeclaredRE.MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return out
}

// hdr01Exposure: the probe uses every name the claimed version owes, and
// each could be missing.
var hdr01Exposure = rulebook.Exposure[string]{Items: "MPI_T constants, types and routines",
	When: "every name the claimed version owes (each could be missing)"}

func judgeHeaderNames(x *rulebook.X) verdict.Verdict {
	major, minor := claimedVersion(x)
	// <stddef.h> first: whether mpi.h needs it is NATIVE-HDR-04's
	src, names := constantsProbe(major, minor, "stddef.h", "mpi.h")
	routines := claimedNames(toolRoutines, major, minor)
	var b strings.Builder
	b.WriteString(src)
	b.WriteString("void *routines[] = {\n")
	for _, n := range routines {
		fmt.Fprintf(&b, "    (void *)%s,\n", n)
	}
	b.WriteString("};\n")
	names = append(names, routines...)
	out, ok := probe(x, "names", b.String())
	missing := map[string]bool{}
	for _, m := range undeclaredRE.FindAllStringSubmatch(out, -1) {
		missing[m[1]+m[2]] = true
	}
	if !ok && len(missing) == 0 {
		x.Errorf(out, "the probe did not compile, for another reason than a missing name: %s", errorLine(out))
	}
	var list []string
	for n := range missing {
		list = append(list, n)
	}
	sort.Strings(list)
	if len(list) > 0 {
		x.Failf(strings.Join(list, "\n")+"\n\n"+out, "mpi.h claims MPI %d.%d but lacks %d of its %d MPI_T constants, types and routines: %s", major, minor, len(list), len(names), examples(list))
	}
	return hdr01Exposure.Pass(names, "mpi.h (MPI %d.%d) declares all %d MPI_T constants, types and routines of that version", major, minor, len(names))
}

type symbolRec struct {
	Name  string `json:"name"`
	Found int    `json:"found"`
}

// symbolScope is what mpit_symbols searched: the libraries the program was
// linked with and those preloaded into it, each with the ones it needs.
type symbolScope struct {
	Searched string `json:"searched"`
	Handles  int    `json:"handles"`
}

// symbolExposures by prefix (NATIVE-HDR-03, ERR-6): each routine looked up
// could be missing.
var symbolExposures = map[string]rulebook.Exposure[symbolRec]{
	"MPI_":  {Items: "MPI_T_ routines", When: "every routine looked up (each could be missing)"},
	"PMPI_": {Items: "PMPI_T_ routines", When: "every routine looked up (each could be missing)"},
}

// judgeSymbols looks every routine of the claimed version up where a
// program linked with the library gets it: in the libraries it was linked
// with and those preloaded into it, never in the whole global scope, where
// a runtime another library loaded at run time would answer for a routine
// the program cannot link (fixtures/c/mpit/symbols.c).
func judgeSymbols(prefix string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		major, minor := claimedVersion(x)
		var args []string
		for _, n := range claimedNames(toolRoutines, major, minor) {
			args = append(args, n, "P"+n)
		}
		_, recs := x.JobOnce(mpi.Job{Name: "mpit_symbols", Program: x.Fixture("mpit_symbols"), Args: args})
		scopes := mpi.Decode[symbolScope](recs, "library")
		if len(scopes) != 1 || scopes[0].Handles == 0 {
			x.Errorf("", "mpit_symbols found no library of the program's own to search (%d records)", len(scopes))
		}
		var missing []string
		var looked []symbolRec
		for _, r := range mpi.Decode[symbolRec](recs, "symbol") {
			if !strings.HasPrefix(r.Name, prefix) {
				continue
			}
			looked = append(looked, r)
			if r.Found == 0 {
				missing = append(missing, r.Name)
			}
		}
		n := len(looked)
		if n == 0 {
			x.Errorf("", "mpit_symbols looked up no %sT_ routine", prefix)
		}
		if len(missing) > 0 {
			x.Failf(strings.Join(missing, "\n"), "the libraries a program is linked with (%s; mpi.h claims MPI %d.%d) lack %d of the %d %sT_ routines: %s", scopes[0].Searched, major, minor, len(missing), n, prefix, examples(missing))
		}
		return symbolExposures[prefix].Pass(looked, "all %d %sT_ routines of MPI %d.%d are found in the libraries a program is linked with (%s)", n, prefix, major, minor, scopes[0].Searched)
	}
}
