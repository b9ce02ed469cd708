package abi

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What each implementation's ABI header fixes (measured by compiling
// fixtures/c/abi/constants.c with it) and what its libmpi_abi means by it
// (datatype sizes, error classes, where it writes status fields): one run
// feeds these rules and ABI-HANDLE's. A value fixed at compile time cannot
// be changed by a preloaded injector, so each rule also judges the
// library's use of what it covers, which an injector can break.
var constants = rulebook.Define(rulebook.Check{
	ID:    "ABI-CONST",
	Needs: "abi",
	Title: "the MPI 5 ABI header's constants, types and layouts against the values the standard fixes and the other implementations' ABI headers, and the library's use of them",
	Rules: []rulebook.Rule{
		// §20.3.1: "The MPI status object is a struct containing 8 integers:
		// the three public member fields [...] and 5 private member fields";
		// "The MPI status object must use exactly eight C int worth of
		// storage." (typedef with MPI_SOURCE, MPI_TAG, MPI_ERROR first).
		{ID: "ABI-STAT-01", Source: "MPI-5.0 §20.3.1", Basis: rulebook.Normative,
			Text:      "MPI_Status is eight ints with MPI_SOURCE, MPI_TAG and MPI_ERROR at offsets 0, 4 and 8 in the header, and the library writes the fields of an array of statuses there",
			Injectors: []string{"inject_abi_status_swap"},
			Exposure:  stat1Exposure.Declared(), Judge: judgeStatusLayout},
		// §20.3.5: "MPI_Aint should be defined as a C typedef to intptr_t";
		// "the standard ABI defines MPI_Offset to be the C standard integer type
		// int64_t (or an equivalent type). On systems where intptr_t is 32 or
		// 64 bits, MPI_Count is the C standard integer type int64_t".
		{ID: "ABI-TYP-01", Source: "MPI-5.0 §20.3.5", Basis: rulebook.Normative,
			Text:      "MPI_Aint, MPI_Offset and MPI_Count are signed 8-byte integers (64-bit platform) in the header, and MPI_Type_size of MPI_AINT, MPI_OFFSET and MPI_COUNT is 8",
			Injectors: []string{"inject_abi_type_size_off"},
			Exposure:  typ1Exposure.Declared(), Judge: judgeIntTypes},
		// §20.3.3: "The MPI ABI defines handle constants to be compile-time
		// constants, which are specified as integer expressions cast to the
		// appropriate handle type."; "The definition of these constants is
		// described in Section Handle Constants [§20.5]"; §20.3.2: "Handles for
		// MPI objects are defined to be incomplete struct pointers".
		{ID: "ABI-HND-02", Source: "MPI-5.0 §20.3.2, §20.3.3, §20.5", Basis: rulebook.Normative,
			Text:      "every predefined handle constant is a compile-time constant with the value the standard fixes, the same in every implementation's ABI header, and the library sizes the predefined datatypes it supports accordingly (a fixed-size type its size, a C type its sizeof); the constant's type is ABI-DECL-01's",
			Injectors: []string{"inject_abi_type_size_off"},
			Exposure:  hnd2Exposure.Declared(), Judge: judgeHandleConstants},
		// §20.4: "MPI applications can discover the size of Fortran types such
		// as MPI_INTEGER and MPI_REAL using MPI_TYPE_SIZE. Lack of support in
		// the implementation for optional predefined datatypes is indicated
		// when the type size returned is MPI_UNDEFINED." So MPI_Type_size of
		// an optional predefined datatype (the Fortran ones, the C++ ones,
		// MPI_LONG_DOUBLE_INT) succeeds, with a size or with MPI_UNDEFINED.
		{ID: "ABI-DTYPE-01", Source: "MPI-5.0 §20.4", Basis: rulebook.Normative,
			Text:      "MPI_Type_size of every optional predefined datatype (Fortran, C++, MPI_LONG_DOUBLE_INT) succeeds and gives a positive size, or MPI_UNDEFINED where the library lacks the type",
			Injectors: []string{"inject_abi_optional_size_off"},
			Exposure:  dtype1Exposure.Declared(), Judge: judgeOptionalTypes},
		// §20.3.4: "Integer constants fall into groups, where all constants in
		// each group must have unique values."; §20.3.3: "All of the constants
		// are specified in Section Defined Constants [§A.1.1]" (the ABI value
		// column).
		{ID: "ABI-INT-01", Source: "MPI-5.0 §20.3.3, §20.3.4, Annex A", Basis: rulebook.Normative,
			Text:      "every integer constant and constant address of the header has the value the standard fixes, the same in every implementation's ABI header, and the library classes each error class as itself",
			Injectors: []string{"inject_abi_error_class_off"},
			Exposure:  int1Exposure.Declared(), Judge: judgeIntConstants},
	},
})

var (
	// The status array was filled with -7 before MPI_Waitall: every field
	// read could have shown a status written elsewhere, every layout value
	// another.
	stat1Exposure = rulebook.Exposure[constCheck]{Items: "layout values and status fields"}
	typ1Exposure  = rulebook.Exposure[constCheck]{Items: "layout values and datatype sizes"}
	// A datatype whose size neither a fixed size nor a C type says could
	// not have been sized wrongly.
	hnd2Exposure = rulebook.Exposure[constCheck]{Items: "handle constants, handle-type layouts and datatype sizes",
		When:  "unless a datatype size held to nothing (an optional type the library lacks, or with neither a fixed size nor a C type)",
		Could: func(c constCheck) bool { return c.held }}
	// Each call could have failed or answered neither a size nor
	// MPI_UNDEFINED.
	dtype1Exposure = rulebook.Exposure[tsizeRec]{Items: "MPI_Type_size calls on optional datatypes"}
	int1Exposure   = rulebook.Exposure[constCheck]{Items: "integer constants and error classes"}
)

// constCheck is one value judged: a header constant or layout value, a
// status field, a datatype size or an error class. held: the value was held
// to something (false only for a datatype size nothing fixes).
type constCheck struct {
	name string
	held bool
}

// heldCount is how many of checks were held to something.
func heldCount(checks []constCheck) int {
	n := 0
	for _, c := range checks {
		if c.held {
			n++
		}
	}
	return n
}

type constRec struct {
	Name  string `json:"name"`
	Kind  string `json:"class"`
	Type  string `json:"type"`
	Value int64  `json:"value"`
}

type layoutRec struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

type tointRec struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Int  int64  `json:"int"`
	Back int    `json:"back"`
}

type tsizeRec struct {
	Name  string `json:"name"`
	RC    int    `json:"rc"`
	Size  int    `json:"size"`
	CSize int    `json:"csize"`
}

type eclassRec struct {
	Name  string `json:"name"`
	RC    int    `json:"rc"`
	Class int64  `json:"class"`
}

type statusRec struct {
	Raw0, Raw1, Raw8, Raw9 int
	Source0                int `json:"source0"`
	Tag0                   int `json:"tag0"`
	Source1                int `json:"source1"`
	Tag1                   int `json:"tag1"`
	Count0                 int `json:"count0"`
	Count1                 int `json:"count1"`
	ThirdUntouched         int `json:"third_untouched"`
}

type userRec struct {
	Type     string `json:"type"`
	Int      int64  `json:"int"`
	IntAgain int64  `json:"int_again"`
	Back     int    `json:"back"`
	Pointer  int64  `json:"pointer"`
}

// constantsOut is what fixtures/c/abi/constants.c reported.
type constantsOut struct {
	Consts map[string]constRec
	Layout map[string]int64
	Toint  []tointRec
	Tsize  []tsizeRec
	Eclass []eclassRec
	Status []statusRec
	User   []userRec
}

// constantsRun runs x's own ABI build of constants.c on x's libmpi_abi (one
// rank), remembered when no injector is preloaded.
func constantsRun(x *rulebook.X) *constantsOut {
	run := func() *constantsOut {
		_, recs := x.Job(mpi.Job{Name: "abi_constants", Ranks: 1, Program: x.Fixture("abi_constants"),
			RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
		out := &constantsOut{Consts: map[string]constRec{}, Layout: map[string]int64{}}
		for _, c := range mpi.Decode[constRec](recs, "const") {
			out.Consts[c.Name] = c
		}
		for _, l := range mpi.Decode[layoutRec](recs, "layout") {
			out.Layout[l.Name] = l.Value
		}
		out.Toint = mpi.Decode[tointRec](recs, "toint")
		out.Tsize = mpi.Decode[tsizeRec](recs, "tsize")
		out.Eclass = mpi.Decode[eclassRec](recs, "eclass")
		// sorted here, once: rules share out (remember)
		sort.Slice(out.Eclass, func(i, j int) bool { return out.Eclass[i].Name < out.Eclass[j].Name })
		out.Status = mpi.Decode[statusRec](recs, "status")
		out.User = mpi.Decode[userRec](recs, "user")
		if len(recs.Kind("done", -1)) != 1 {
			x.Errorf("", "abi_constants did not reach its end")
		}
		return out
	}
	if len(x.Preload) > 0 {
		return run()
	}
	return remember("constants|"+x.Impl.ID, run)
}

// undeclared turns a build failure of the constants fixture over a missing
// standard constant into a Fail (the header lacks what the standard fixes).
func undeclared(x *rulebook.X) {
	b, ok := x.Fixtures["abi_constants"]
	if !ok || b.Error == "" {
		return
	}
	var missing []string
	for _, l := range strings.Split(b.Error, "\n") {
		if i := strings.Index(l, "undeclared"); i >= 0 && strings.Contains(l, "error:") {
			missing = append(missing, strings.TrimSpace(l[strings.Index(l, "error:")+6:]))
		}
	}
	if len(missing) > 0 {
		x.Failf(b.Error, "%s's ABI header lacks standard constants: %s", x.Impl.ID, strings.Join(missing, "; "))
	}
}

// constantsFor runs the constants fixture and ends the rule as Fail when
// the header lacks a standard constant (the fixture does not compile).
func constantsFor(x *rulebook.X) *constantsOut {
	undeclared(x)
	return constantsRun(x)
}

// headerValues judges the header's values of the constants in lists
// against the standard and against the other ABI headers.
func headerValues(x *rulebook.X, out *constantsOut, p *rulebook.Problems, lists ...[]stdConst) (n []constCheck, notes, compared []string) {
	mine := map[string]bool{}
	for _, list := range lists {
		for _, c := range list {
			mine[c.Name] = true
			got, ok := out.Consts[c.Name]
			switch {
			case !ok:
				x.Errorf("", "fixture abi_constants did not report %s (standard_constants.h and standard.go disagree)", c.Name)
			case got.Kind == "absent" && deprecatedBefore32[c.Name]:
				notes = append(notes, c.Name)
			case got.Kind == "absent":
				p.Add("", "the header does not define %s (the standard fixes it to %#x)", c.Name, c.Value)
			case got.Value != c.Value:
				p.Add("", "%s = %#x in the header, the standard fixes %#x", c.Name, got.Value, c.Value)
			default:
				n = append(n, constCheck{c.Name, true})
			}
		}
	}
	for name := range out.Consts {
		if _, ok := standardValue(name); !ok {
			x.Errorf("", "fixture abi_constants reported %s, which standard.go does not know", name)
		}
	}
	for _, e := range abiEnvs(x) {
		if e.Impl.ID == x.Impl.ID {
			continue
		}
		var other *constantsOut
		if v := attempt(func() { other = constantsRun(e.X()) }); v != nil {
			notes = append(notes, fmt.Sprintf("%s's header not compared: %s", e.Impl.ID, v.Reason))
			continue
		}
		compared = append(compared, e.Impl.ID)
		for _, name := range slices.Sorted(maps.Keys(out.Consts)) {
			if !mine[name] {
				continue
			}
			a, b := out.Consts[name], other.Consts[name]
			if deprecatedBefore32[name] && (a.Kind == "absent" || b.Kind == "absent") {
				continue // either way is allowed
			}
			if a.Kind != b.Kind || a.Value != b.Value {
				p.Add("", "%s: %s's header says %s, %s's says %s", name, x.Impl.ID, constText(a), e.Impl.ID, constText(b))
			}
		}
	}
	return n, notes, compared
}

// layoutKeys judges the header's layout values whose names match keep.
func layoutKeys(out *constantsOut, p *rulebook.Problems, keep func(string) bool) []constCheck {
	var n []constCheck
	for _, k := range slices.Sorted(maps.Keys(standardLayout)) {
		if !keep(k) {
			continue
		}
		n = append(n, constCheck{k, true})
		if got, ok := out.Layout[k]; !ok || got != standardLayout[k] {
			p.Add("", "%s = %d in the header, the standard fixes %d", k, got, standardLayout[k])
		}
	}
	return n
}

func judgeStatusLayout(x *rulebook.X) verdict.Verdict {
	out := constantsFor(x)
	var p rulebook.Problems
	n := layoutKeys(out, &p, func(k string) bool { return strings.Contains(k, "MPI_Status") })
	n = append(n, libraryStatus(out, &p)...)
	p.FailAbout(x, x.Impl.ID+"'s MPI_Status")
	return stat1Exposure.Pass(n, "MPI_Status is 32 bytes with MPI_SOURCE/MPI_TAG/MPI_ERROR at 0/4/8, and MPI_Waitall writes source and tag of each status of an array there")
}

var intTypes = map[string]bool{"MPI_AINT": true, "MPI_COUNT": true, "MPI_OFFSET": true}

func judgeIntTypes(x *rulebook.X) verdict.Verdict {
	out := constantsFor(x)
	var p rulebook.Problems
	layout := layoutKeys(out, &p, func(k string) bool {
		return strings.Contains(k, "MPI_Aint") || strings.Contains(k, "MPI_Offset") || strings.Contains(k, "MPI_Count")
	})
	seen := 0
	for _, t := range out.Tsize {
		if !intTypes[t.Name] {
			continue
		}
		seen++
		layout = append(layout, constCheck{t.Name, true})
		if t.RC != 0 || t.Size != fixedSizes[t.Name] {
			p.Add("", "MPI_Type_size(%s) = %d (rc %d), want %d", t.Name, t.Size, t.RC, fixedSizes[t.Name])
		}
	}
	if seen != len(intTypes) {
		p.Add("", "%d of the sizes of MPI_AINT, MPI_COUNT and MPI_OFFSET recorded, want 3", seen)
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_Aint/MPI_Offset/MPI_Count")
	return typ1Exposure.Pass(layout, "MPI_Aint, MPI_Offset and MPI_Count are signed 8-byte integers, and MPI_Type_size of MPI_AINT, MPI_OFFSET and MPI_COUNT is 8")
}

func judgeHandleConstants(x *rulebook.X) verdict.Verdict {
	out := constantsFor(x)
	var p rulebook.Problems
	n, notes, compared := headerValues(x, out, &p, standardHandles)
	layout := layoutKeys(out, &p, func(k string) bool {
		for _, t := range handleTypes {
			if strings.HasSuffix(k, "("+t+")") {
				return true
			}
		}
		return false
	})
	sized := librarySizes(out, &p)
	fixed := heldCount(sized)
	p.FailAbout(x, x.Impl.ID+"'s predefined handle constants")
	reason := fmt.Sprintf("%d predefined handles as the standard fixes them, the 11 handle types pointers; the library sizes %d predefined datatypes accordingly", len(n), fixed)
	if len(sized) > fixed {
		reason += fmt.Sprintf(" (%d more held to no size: Fortran and C++ types whose size nothing fixes, or optional ones the library lacks)", len(sized)-fixed)
	}
	if len(compared) > 0 {
		reason += "; same values as " + strings.Join(compared, ", ")
	}
	if len(notes) > 0 {
		reason += "; " + strings.Join(notes, "; ")
	}
	return hnd2Exposure.Pass(slices.Concat(n, layout, sized), "%s", reason)
}

func judgeIntConstants(x *rulebook.X) verdict.Verdict {
	out := constantsFor(x)
	var p rulebook.Problems
	n, notes, compared := headerValues(x, out, &p, standardInts, standardPointers)
	classes := libraryClasses(out, &p)
	p.FailAbout(x, x.Impl.ID+"'s integer constants")
	reason := fmt.Sprintf("%d integer constants and constant addresses as the standard fixes them; %d error classes are their own class", len(n), len(classes))
	if len(compared) > 0 {
		reason += "; same values as " + strings.Join(compared, ", ")
	}
	if len(notes) > 0 {
		reason += "; not defined (deprecated in MPI-3.1 or earlier, allowed): " + strings.Join(notes, ", ")
	}
	return int1Exposure.Pass(append(n, classes...), "%s", reason)
}

func constText(c constRec) string {
	if c.Kind == "" {
		return "nothing"
	}
	if c.Kind == "absent" {
		return "no definition"
	}
	return fmt.Sprintf("%#x", c.Value)
}

// librarySizes: the library sizes the predefined datatypes (other than
// MPI_AINT/MPI_COUNT/MPI_OFFSET, ABI-TYP-01's) as the handle values mean.
// One check per datatype judged, held when its size was held to
// something: a fixed size, the size of their C type, or (a required type)
// a call that must succeed; an optional type the library lacks (or
// misreports: ABI-DTYPE-01's) is held to nothing here.
func librarySizes(out *constantsOut, p *rulebook.Problems) (n []constCheck) {
	for _, t := range out.Tsize {
		if intTypes[t.Name] {
			continue
		}
		fixed, isFixed := fixedSizes[t.Name]
		lacked := isOptional(t) && (t.RC != 0 || t.Size <= 0)
		n = append(n, constCheck{t.Name, !lacked && (isFixed || t.CSize > 0 || !isOptional(t))})
		switch {
		case isOptional(t) && (t.RC != 0 || t.Size <= 0):
			// ABI-DTYPE-01's: lacking or misreporting an optional type
			continue
		case t.RC != 0:
			p.Add("", "MPI_Type_size(%s) returned %d", t.Name, t.RC)
		case isFixed && t.Size != fixed:
			p.Add("", "MPI_Type_size(%s) = %d, the fixed-size type has %d bytes", t.Name, t.Size, fixed)
		case t.CSize > 0 && t.Size != t.CSize:
			p.Add("", "MPI_Type_size(%s) = %d, its C type has %d bytes", t.Name, t.Size, t.CSize)
		}
	}
	return n
}

// isOptional: a predefined datatype the library may lack (MPI-5.0 §20.4):
// the C++ types, MPI_LONG_DOUBLE_INT and those without a C type (Fortran).
func isOptional(t tsizeRec) bool { return optionalTypes[t.Name] || t.CSize < 0 }

func judgeOptionalTypes(x *rulebook.X) verdict.Verdict {
	out := constantsRun(x)
	undefined, _ := standardValue("MPI_UNDEFINED")
	var p rulebook.Problems
	var lacking []string
	var n []tsizeRec
	for _, t := range out.Tsize {
		if !isOptional(t) {
			continue
		}
		n = append(n, t)
		switch {
		case t.RC != 0:
			p.Add("", "MPI_Type_size(%s) returned error %d instead of a size or MPI_UNDEFINED", t.Name, t.RC)
		case int64(t.Size) == undefined.Value:
			lacking = append(lacking, t.Name)
		case t.Size <= 0:
			p.Add("", "MPI_Type_size(%s) = %d: neither a size nor MPI_UNDEFINED (%d)", t.Name, t.Size, undefined.Value)
		}
	}
	if len(n) == 0 {
		x.Errorf("", "abi_constants recorded no MPI_Type_size of an optional datatype")
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_Type_size of optional datatypes")
	reason := fmt.Sprintf("MPI_Type_size succeeds on all %d optional predefined datatypes", len(n))
	if len(lacking) > 0 {
		reason += fmt.Sprintf("; MPI_UNDEFINED (lacked) for %d: %s", len(lacking), shorten(strings.Join(lacking, ", "), 200))
	} else {
		reason += ", each with a positive size (the library lacks none)"
	}
	return dtype1Exposure.Pass(n, "%s", reason)
}

// libraryClasses: every error class is its own class (out.Eclass is in
// name order).
func libraryClasses(out *constantsOut, p *rulebook.Problems) []constCheck {
	var n []constCheck
	for _, e := range out.Eclass {
		n = append(n, constCheck{e.Name, true})
		want, _ := standardValue(e.Name)
		if e.RC != 0 || e.Class != want.Value {
			p.Add("", "MPI_Error_class(%s) = %d (rc %d): an error class is its own class", e.Name, e.Class, e.RC)
		}
	}
	return n
}

// libraryStatus: the library writes statuses where the layout says; the
// fields judged.
func libraryStatus(out *constantsOut, p *rulebook.Problems) []constCheck {
	if len(out.Status) != 1 {
		p.Add("", "no status record")
		return nil
	}
	s := out.Status[0]
	// Two receives (3 ints, tag 78; 4 ints, tag 79) from rank 0 completed by
	// one MPI_Waitall into MPI_Status[3]: ints 0/1 and 8/9 of the array are
	// the first two statuses' MPI_SOURCE/MPI_TAG.
	want := []struct {
		what      string
		got, want int
	}{{"int 0 of the status array (statuses[0].MPI_SOURCE)", s.Raw0, 0}, {"int 1 (statuses[0].MPI_TAG)", s.Raw1, 78},
		{"int 8 (statuses[1].MPI_SOURCE)", s.Raw8, 0}, {"int 9 (statuses[1].MPI_TAG)", s.Raw9, 79},
		{"MPI_Get_count of statuses[0]", s.Count0, 3}, {"MPI_Get_count of statuses[1]", s.Count1, 4},
		{"statuses[2] left alone", s.ThirdUntouched, 1}}
	var n []constCheck
	for _, w := range want {
		n = append(n, constCheck{w.what, true})
		if w.got != w.want {
			p.Add("", "after MPI_Waitall, %s = %d, want %d", w.what, w.got, w.want)
		}
	}
	return n
}
