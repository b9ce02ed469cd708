package abi

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The C/Fortran conversions of an implementation's own (native) ABI, MPI-5.0
// §19.3.4 and §19.3.5. The standard ABI leaves them out (§20.4: "the
// functions defined in Section Transfer of Handles [§19.3.4] and Section
// Status [§19.3.5] as well as MPI_F08_Status are not part of this ABI"), so
// only the native libraries are judged. §19.3.3, advice to implementors:
// "Implementations may selectively link language specific MPI libraries only
// to codes that need them": a conversion may live in the implementation's
// Fortran binding library (MPICH 4.0 keeps MPI_Status_c2f08/_f082c in
// libmpifort), so the fixture is run with that library loaded, found by
// reading the symbol tables of the implementation's library folder.
var fortranConv = rulebook.Define(rulebook.Check{
	ID:    "NATIVE-C2F",
	Needs: "mpi", // the native library: every implementation
	Title: "the native library set's C/Fortran handle and status conversions (MPI-5.0 §19.3.4, §19.3.5), with the Fortran binding library loaded where the implementation has one",
	Rules: []rulebook.Rule{
		// §19.3.4: "If comm is a valid Fortran handle to a communicator, then
		// MPI_Comm_f2c returns a valid C handle to that same communicator; if
		// comm = MPI_COMM_NULL (Fortran value), then MPI_Comm_f2c returns a
		// null C handle" / "The function MPI_Comm_c2f translates a C
		// communicator handle into a Fortran handle to the same communicator;
		// it maps a null handle into a null handle" / "Similar functions are
		// provided for the other types of opaque objects."
		{ID: "NATIVE-C2F-01", Source: "MPI-5.0 §19.3.4", Basis: rulebook.Normative,
			Text:      "MPI_<Handle>_c2f then MPI_<Handle>_f2c gives back the handle, for predefined, null and user-created handles of every handle type of the native library",
			Injectors: []string{"inject_native_f2c_off"},
			// A death inside a conversion (of a null handle, which it maps
			// into a null handle) is a breach, not a broken fixture.
			Governs:  handleConversions,
			Exposure: c2f1Exposure.Declared(), Judge: judgeHandleTransfer,
			Lacks: lacksConversions(handleConvRe, "§19.3.4: \"Similar functions are provided for the other types of opaque objects.\"")},
		// §19.3.5: "The conversion occurs on all the information in status,
		// including that which is hidden. That is, no status information is
		// lost in the conversion." / "The C status has the same source, tag
		// and error code values as the Fortran status, and returns the same
		// answers when queried for count"; MPI_Status_c2f08/_f082c "convert" a
		// C MPI_Status to and from TYPE(MPI_Status). §19.3.3: "Implementations
		// may selectively link language specific MPI libraries only to codes
		// that need them".
		{ID: "NATIVE-C2F-02", Source: "MPI-5.0 §19.3.3, §19.3.5", Basis: rulebook.Normative,
			Text:      "MPI_Status_c2f/_f2c and (MPI 4.0 headers and later, and older ones that declare MPI-4.0's names, MPI_SESSION_NULL among them) MPI_Status_c2f08/_f082c exist in the native library set (the C library, or the Fortran binding library where the implementation has one) and keep source, tag, error and count",
			Injectors: []string{"inject_native_c2f_off"},
			Governs:   []string{"MPI_Status_c2f", "MPI_Status_f2c", "MPI_Status_c2f08", "MPI_Status_f082c"},
			Exposure:  c2f2Exposure.Declared(), Judge: judgeStatusConv,
			Lacks: lacksConversions(statusConvRe, "§19.3.5 gives the C bindings of MPI_Status_f2c and MPI_Status_c2f")},
	},
})

// handleConversions are the calls NATIVE-C2F-01 governs: the C/Fortran
// conversions of every handle type the fixture converts (abi_f2c announces
// each one).
var handleConversions = func() []string {
	var out []string
	for _, t := range []string{"Comm", "Type", "Group", "Request", "File", "Win", "Op", "Info", "Errhandler", "Message", "Session"} {
		out = append(out, "MPI_"+t+"_c2f", "MPI_"+t+"_f2c")
	}
	return out
}()

// The conversions whose absence from the library fails the rules above
// when the fixture cannot be linked without them (the fixture takes
// MPI_Status_c2f08/_f082c as weak symbols and judges their absence itself).
var (
	handleConvRe = regexp.MustCompile(`^MPI_[A-Z][a-z]*_(c2f|f2c)$`)
	statusConvRe = regexp.MustCompile(`^MPI_Status_(c2f|f2c)$`)
)

// lacksConversions fails a rule whose conversion functions the library
// lacks; other missing names leave it unsupported (rulebook.Lacking).
func lacksConversions(subject *regexp.Regexp, quote string) func(x *rulebook.X, missing []string) verdict.Verdict {
	return func(x *rulebook.X, missing []string) verdict.Verdict {
		var lacked []string
		for _, n := range missing {
			// A status is no handle: its conversions are NATIVE-C2F-02's.
			if subject.MatchString(n) && (subject == statusConvRe || !statusConvRe.MatchString(n)) {
				lacked = append(lacked, n)
			}
		}
		if len(lacked) == 0 {
			return verdict.Verdict{}
		}
		if why := noFortran(x); why != "" {
			return verdict.Verdict{Status: verdict.Unsupported, Reason: fmt.Sprintf("not judged here: %s; its libraries lack %s", why, strings.Join(lacked, ", "))}
		}
		return verdict.Verdict{Status: verdict.Fail, Reason: fmt.Sprintf("%s lacks %s: the link of abi_f2c was refused; %s", x.Impl.ID, strings.Join(lacked, ", "), quote)}
	}
}

// noFortran says why a build's missing conversions are not judged: it has
// no Fortran interface at all (no mpif.h, mpi or mpi_f08 builds and runs).
// §19.3.4 and §19.3.5 give the conversions as C procedures "provided in C",
// without saying whether a build with no Fortran interface must have them;
// "" when it has one.
func noFortran(x *rulebook.X) string {
	if x.Caps == nil {
		return ""
	}
	if f := x.Caps.Fortran; f.MPIFH || f.UseMPI || f.UseMPIF08 {
		return ""
	}
	return "this build has no Fortran interface (" + orUnknown(x.Caps.Fortran.Reason) + "), and the text gives the conversions as C procedures without saying whether such a build must have them"
}

func orUnknown(s string) string {
	if s == "" {
		return "no Fortran binding builds and runs"
	}
	return s
}

type roundTrip struct {
	Type string `json:"type"`
	What string `json:"what"`
	Back int    `json:"back"`
	Fint int64  `json:"fint"`
	// Macro: mpi.h defines the pair as macros (casts the library takes no
	// part in, as MPICH does): nothing of the library to judge.
	Macro int `json:"macro"`
}

type convStatus struct {
	Via    string `json:"via"`
	Source int    `json:"source"`
	Tag    int    `json:"tag"`
	Error  int    `json:"error"`
	Count  int    `json:"count"`
}

type whatRec struct {
	What string `json:"what"`
}

// fortranLib is the implementation's Fortran binding library that defines
// MPI_Status_c2f08 (as the implementation sees it), or "": measured from the
// symbol tables of the lib*fort*/lib*mpifh*/lib*usempi* files next to its C
// library that need that C library, never assumed from its family.
func fortranLib(im *mpi.Impl) string {
	return remember("fortranlib|"+im.ID, func() string {
		dirs := append([]string{}, im.LibDirs...)
		if im.Lib != "" {
			dirs = append(dirs, filepath.Dir(im.Lib))
		}
		var cands []string
		for _, d := range dirs {
			ents, err := os.ReadDir(im.HostPath(d))
			if err != nil {
				continue
			}
			for _, e := range ents {
				n := e.Name()
				if !strings.HasPrefix(n, "lib") || !strings.Contains(n, ".so") || strings.Contains(n, "_abi") {
					continue
				}
				if strings.Contains(n, "fort") || strings.Contains(n, "mpifh") || strings.Contains(n, "usempi") {
					cands = append(cands, filepath.Join(d, n))
				}
			}
		}
		sort.Strings(cands)
		// Only a library of this implementation: one that needs its C library
		// (another implementation's may share the folder).
		clib, err := readELF(realHost(im, im.Lib))
		if err != nil || clib.Soname == "" {
			return ""
		}
		for _, c := range cands {
			e, err := readELF(realHost(im, c))
			if err != nil || !slices.Contains(e.Needed, clib.Soname) {
				continue
			}
			if s, ok := e.Symbols["MPI_Status_c2f08"]; ok && s.isFunction() {
				return c
			}
		}
		return ""
	})
}

// f2cOut is what fixtures/c/abi/f2c.c recorded, with the Fortran binding
// library preloaded where there is one.
type f2cOut struct {
	RTs      []roundTrip
	Statuses []convStatus
	Missing  []string
	Absent   []string
	ErrOther int
	FortLib  string
}

func f2cRun(x *rulebook.X) *f2cOut {
	env := map[string]string{}
	lib := fortranLib(x.Impl)
	if lib != "" {
		env["LD_PRELOAD"] = lib
	}
	_, recs := x.JobOnce(mpi.Job{Name: "abi_f2c", Ranks: 1, Program: x.Fixture("abi_f2c"), RankEnv: env, Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		x.Errorf("", "abi_f2c did not reach its end")
	}
	out := &f2cOut{FortLib: lib}
	out.RTs = mpi.Decode[roundTrip](recs, "roundtrip")
	out.Statuses = mpi.Decode[convStatus](recs, "status")
	for _, m := range mpi.Decode[whatRec](recs, "missing") {
		out.Missing = append(out.Missing, m.What)
	}
	for _, a := range mpi.Decode[whatRec](recs, "absent") {
		out.Absent = append(out.Absent, a.What)
	}
	for _, v := range mpi.Decode[struct {
		Value int `json:"value"`
	}](recs, "error_other") {
		out.ErrOther = v.Value
	}
	return out
}

var (
	// Each conversion through the library's functions could have lost the
	// handle (the macro pairs, none of the library's, are not judged).
	c2f1Exposure = rulebook.Exposure[roundTrip]{Items: "handle round trips through the library's functions"}
	// Each conversion of the status (source 3, tag 91, into a status preset
	// to other values) could have lost a field.
	c2f2Exposure = rulebook.Exposure[convStatus]{Items: "status conversions"}
)

func judgeHandleTransfer(x *rulebook.X) verdict.Verdict {
	out := f2cRun(x)
	if len(out.RTs) == 0 {
		x.Errorf("", "abi_f2c recorded no handle conversion")
	}
	var p rulebook.Problems
	types := map[string]bool{}
	var macros []string
	var judged []roundTrip
	judgedTypes := map[string]bool{}
	for _, r := range out.RTs {
		if r.Macro == 1 {
			if !types[r.Type] {
				macros = append(macros, r.Type)
			}
			types[r.Type] = true
			continue
		}
		types[r.Type] = true
		judged = append(judged, r)
		judgedTypes[r.Type] = true
		if r.Back != 1 {
			p.Add("", "%s_f2c(%s_c2f(%s)) is not the handle (Fortran integer %d)", tointPrefix(r.Type), tointPrefix(r.Type), r.What, r.Fint)
		}
	}
	var notTested []string
	for _, a := range out.Absent {
		if !strings.HasPrefix(a, "MPI_Status") {
			notTested = append(notTested, a)
		}
	}
	p.Also("not tested: " + strings.Join(notTested, "; "))
	p.FailAbout(x, x.Impl.ID)
	if len(macros) == len(types) {
		x.Unsupported("not measurable here: mpi.h defines MPI_<Handle>_c2f/_f2c as macros (casts) for all %d handle types, the library takes no part in the conversion%s", len(types), macroFinding(x))
	}
	reason := fmt.Sprintf("%d handles of %d types (predefined, null and user-created) round-trip through the library's c2f/f2c functions", len(judged), len(judgedTypes))
	if len(macros) > 0 {
		reason += fmt.Sprintf("; macros (casts), not judged: %s%s", strings.Join(macros, ", "), macroFinding(x))
	}
	if len(notTested) > 0 {
		reason += "; not tested: " + strings.Join(notTested, "; ")
	}
	return c2f1Exposure.Pass(judged, "%s", reason)
}

// macroFinding says, where the library says it is MPI 4.1 or later, that
// conversions defined as macros are NATIVE-MACRO-01's finding (MPI-4.0 and
// earlier allowed them).
func macroFinding(x *rulebook.X) string {
	if x.Caps == nil {
		return ""
	}
	if v := x.Caps.MPIVersion; v == "4.1" || strings.HasPrefix(v, "5.") {
		return fmt.Sprintf(" (the library says it is MPI %s, whose §2.6.4 lets no handle conversion be a macro: NATIVE-MACRO-01's finding)", v)
	}
	return ""
}

func judgeStatusConv(x *rulebook.X) verdict.Verdict {
	out := f2cRun(x)
	var p rulebook.Problems
	var vias []string
	for _, s := range out.Statuses {
		// f2c.c sets source 3 (a source of 0 could not show its loss)
		// and writes each conversion into its own status, preset to
		// values none of these are
		if s.Source != 3 || s.Tag != 91 || s.Error != out.ErrOther || s.Count != 5 {
			p.Add("", "status after %s: source %d tag %d error %d count %d, want source 3 tag 91 error %d (MPI_ERR_OTHER) count 5",
				s.Via, s.Source, s.Tag, s.Error, s.Count, out.ErrOther)
		}
		vias = append(vias, s.Via)
	}
	where := "the C library"
	if out.FortLib != "" {
		where = "the C library and " + out.FortLib
	}
	var notJudged []string
	for _, m := range out.Missing {
		if why := noFortran(x); why != "" {
			notJudged = append(notJudged, m)
			continue
		}
		p.Add("", "%s; loaded: %s", m, where)
	}
	p.FailAbout(x, x.Impl.ID)
	if len(vias) < 2 && len(notJudged) > 0 {
		x.Unsupported("not judged here: %s; its libraries lack %s", noFortran(x), strings.Join(notJudged, "; "))
	}
	if len(vias) < 2 {
		x.Errorf("", "abi_f2c reported %d statuses, want the original and at least one conversion", len(vias))
	}
	conversions := out.Statuses[1:] // the first is the original status
	reason := fmt.Sprintf("statuses keep source, tag, error and count through %s (defined in %s)", strings.Join(vias[1:], " and "), where)
	if len(notJudged) > 0 {
		reason += fmt.Sprintf("; not judged (%s): %s", noFortran(x), strings.Join(notJudged, "; "))
	}
	for _, a := range out.Absent {
		if strings.HasPrefix(a, "MPI_Status") {
			reason += "; not tested: " + a
		}
	}
	return c2f2Exposure.Pass(conversions, "%s", reason)
}
