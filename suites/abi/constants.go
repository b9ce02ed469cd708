package abi

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 21.3.1 (MPI_Status: eight ints, the public fields first), 21.3.3
// and 21.5 (predefined handles are the compile-time integers of the Huffman
// code), 22.1.1 (the ABI value of every constant): each implementation's
// ABI header has exactly those values, the headers agree with each other,
// and the library means the same by them (datatype sizes, error classes, the
// place it writes status fields).
var constants = harness.Define(harness.Check{
	ID:        "ABI-CONST-001",
	Clause:    "MPI-5.0:21.5",
	Needs:     "abi",
	Title:     "the MPI 5 ABI header gives every predefined handle, integer constant and constant address the value the standard fixes, lays out MPI_Status, MPI_Aint, MPI_Offset, MPI_Count and the handles as fixed, agrees with the other implementations' ABI headers, and the library sizes datatypes, classes errors and writes statuses accordingly",
	Injectors: []string{"inject_abi_type_size_off", "inject_abi_status_swap"},
	Run:       runConstants,
})

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
func constantsRun(x *harness.X) *constantsOut {
	run := func() *constantsOut {
		_, recs := x.Job(harness.Job{Name: "abi_constants", Ranks: 1, Program: x.Fixture("abi_constants"),
			RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
		out := &constantsOut{Consts: map[string]constRec{}, Layout: map[string]int64{}}
		for _, c := range decode[constRec](x, recs, "const") {
			out.Consts[c.Name] = c
		}
		for _, l := range decode[layoutRec](x, recs, "layout") {
			out.Layout[l.Name] = l.Value
		}
		out.Toint = decode[tointRec](x, recs, "toint")
		out.Tsize = decode[tsizeRec](x, recs, "tsize")
		out.Eclass = decode[eclassRec](x, recs, "eclass")
		out.Status = decode[statusRec](x, recs, "status")
		out.User = decode[userRec](x, recs, "user")
		if len(recs.Kind("done", -1)) != 1 {
			panic(harness.Verdict{Status: harness.Error, Reason: "abi_constants did not reach its end"})
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
func undeclared(x *harness.X) {
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

func runConstants(x *harness.X) harness.Verdict {
	requireABI(x)
	undeclared(x)
	out := constantsRun(x)
	var p problems
	var notes []string
	known := map[string]bool{}
	for _, list := range [][]stdConst{standardHandles, standardInts, standardPointers} {
		for _, c := range list {
			known[c.Name] = true
			got, ok := out.Consts[c.Name]
			switch {
			case !ok:
				panic(harness.Verdict{Status: harness.Error, Reason: "fixture abi_constants did not report " + c.Name + " (standard_constants.h and standard.go disagree)"})
			case got.Kind == "absent" && deprecatedBefore32[c.Name]:
				notes = append(notes, c.Name)
			case got.Kind == "absent":
				p.addf("the header does not define %s (the standard fixes it to %#x)", c.Name, c.Value)
			case got.Value != c.Value:
				p.addf("%s = %#x in the header, the standard fixes %#x", c.Name, got.Value, c.Value)
			case c.Type != "int" && c.Type != "pointer" && got.Type != c.Type:
				p.addf("%s has type %s in the header, not %s", c.Name, got.Type, c.Type)
			}
		}
	}
	for name := range out.Consts {
		if !known[name] {
			panic(harness.Verdict{Status: harness.Error, Reason: "fixture abi_constants reported " + name + ", which standard.go does not know"})
		}
	}
	for _, k := range sortedKeys(standardLayout) {
		if got, ok := out.Layout[k]; !ok || got != standardLayout[k] {
			p.addf("%s = %d in the header, the standard fixes %d", k, got, standardLayout[k])
		}
	}
	// The headers agree with each other.
	var compared []string
	for _, e := range abiEnvs(x) {
		if e.Impl.ID == x.Impl.ID {
			continue
		}
		var other *constantsOut
		if v := attempt(func() { other = constantsRun(envX(x, e)) }); v != nil {
			notes = append(notes, fmt.Sprintf("%s's header not compared: %s", e.Impl.ID, v.Reason))
			continue
		}
		compared = append(compared, e.Impl.ID)
		for _, name := range sortedKeys(out.Consts) {
			a, b := out.Consts[name], other.Consts[name]
			if deprecatedBefore32[name] && (a.Kind == "absent" || b.Kind == "absent") {
				continue // either way is allowed
			}
			if a.Kind != b.Kind || a.Value != b.Value {
				p.addf("%s: %s's header says %s, %s's says %s", name, x.Impl.ID, constText(a), e.Impl.ID, constText(b))
			}
		}
		for _, k := range sortedKeys(out.Layout) {
			if out.Layout[k] != other.Layout[k] {
				p.addf("%s: %d in %s's header, %d in %s's", k, out.Layout[k], x.Impl.ID, other.Layout[k], e.Impl.ID)
			}
		}
	}
	libraryMeaning(out, &p)
	extra := ""
	if len(notes) > 0 {
		extra = "absent from the header (deprecated in MPI-3.1 or earlier, allowed): " + strings.Join(notes, ", ")
	}
	p.fail(x, x.Impl.ID+"'s ABI header and library", extra)
	reason := fmt.Sprintf("%d constants as the standard fixes them, MPI_Status 32 bytes with MPI_SOURCE/MPI_TAG/MPI_ERROR at 0/4/8, MPI_Aint/MPI_Offset/MPI_Count 8 bytes; %d datatype sizes, %d error classes and the status layout as the library uses them",
		len(out.Consts)-len(notes), len(out.Tsize), len(out.Eclass))
	if len(compared) > 0 {
		reason += "; same header as " + strings.Join(compared, ", ")
	}
	if len(notes) > 0 {
		reason += "; not defined (deprecated in MPI-2.0, allowed): " + strings.Join(notes, ", ")
	}
	return harness.Verdict{Reason: reason}
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

// libraryMeaning: the library sizes the predefined datatypes, classes the
// error classes and writes statuses as the standard's values mean.
func libraryMeaning(out *constantsOut, p *problems) {
	undefined, _ := standardValue("MPI_UNDEFINED")
	for _, t := range out.Tsize {
		fixed, isFixed := fixedSizes[t.Name]
		switch {
		case t.RC != 0:
			p.addf("MPI_Type_size(%s) returned %d", t.Name, t.RC)
		case int64(t.Size) == undefined.Value && (optionalTypes[t.Name] || (t.CSize < 0)):
			// an optional datatype the library does not support
		case isFixed && t.Size != fixed:
			p.addf("MPI_Type_size(%s) = %d, the fixed-size type has %d bytes", t.Name, t.Size, fixed)
		case t.CSize > 0 && t.Size != t.CSize:
			p.addf("MPI_Type_size(%s) = %d, its C type has %d bytes", t.Name, t.Size, t.CSize)
		case t.CSize < 0 && !isFixed && t.Size <= 0:
			p.addf("MPI_Type_size(%s) = %d: neither a size nor MPI_UNDEFINED", t.Name, t.Size)
		}
	}
	sort.Slice(out.Eclass, func(i, j int) bool { return out.Eclass[i].Name < out.Eclass[j].Name })
	for _, e := range out.Eclass {
		want, _ := standardValue(e.Name)
		if e.RC != 0 || e.Class != want.Value {
			p.addf("MPI_Error_class(%s) = %d (rc %d): an error class is its own class", e.Name, e.Class, e.RC)
		}
	}
	if len(out.Status) != 1 {
		p.addf("no status record")
		return
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
	for _, w := range want {
		if w.got != w.want {
			p.addf("after MPI_Waitall, %s = %d, want %d", w.what, w.got, w.want)
		}
	}
}
