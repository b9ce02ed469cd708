package abi

import (
	"fmt"
	"strings"
	"time"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 19.3.4 (Transfer of Handles): "MPI_<HANDLE>_F2C(MPI_<HANDLE>_C2F(h))
// ... returns the original handle" for every handle type; 19.3.5 (Status):
// MPI_Status_c2f/_f2c and MPI_Status_c2f08/_f082c convert a status without
// losing its contents (source, tag, error, and what MPI_Get_count reads).
// These C functions are declared in mpi.h; a C program built with the C
// compiler wrapper must be able to call them. The native ABIs only: the
// standard ABI leaves them out (MPI-5.0 chapter 21, the Fortran ABI).
var fortranConv = harness.Define(harness.Check{
	ID:        "ABI-F2C-001",
	Clause:    "MPI-4.1:20.3.4",
	Needs:     "abi",
	Title:     "MPI_<Handle>_c2f then _f2c gives back predefined and user-created handles of every handle type of the implementation's own ABI, and MPI_Status_c2f/_f2c and _c2f08/_f082c keep source, tag, error and count",
	Injectors: []string{"inject_native_c2f_off"},
	Run:       runFortranConv,
})

type roundTrip struct {
	Type string `json:"type"`
	What string `json:"what"`
	Back int    `json:"back"`
	Fint int64  `json:"fint"`
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

func runFortranConv(x *harness.X) harness.Verdict {
	_, recs := x.Job(harness.Job{Name: "abi_f2c", Ranks: 1, Program: x.Fixture("abi_f2c"), Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		panic(harness.Verdict{Status: harness.Error, Reason: "abi_f2c did not reach its end"})
	}
	var p problems
	types := map[string]bool{}
	rts := decode[roundTrip](x, recs, "roundtrip")
	for _, r := range rts {
		types[r.Type] = true
		if r.Back != 1 {
			p.addf("%s_f2c(%s_c2f(%s)) is not the handle (Fortran integer %d)", tointPrefix(r.Type), tointPrefix(r.Type), r.What, r.Fint)
		}
	}
	var errOther int
	for _, r := range recs.Kind("error_other", -1) {
		var v struct {
			Value int `json:"value"`
		}
		r.Decode(&v)
		errOther = v.Value
	}
	sts := decode[convStatus](x, recs, "status")
	want := convStatus{Source: 0, Tag: 91, Error: errOther, Count: 5}
	var vias []string
	for _, s := range sts {
		if s.Source != want.Source || s.Tag != want.Tag || s.Error != want.Error || s.Count != want.Count {
			p.addf("status after %s: source %d tag %d error %d count %d, want source 0 tag 91 error %d (MPI_ERR_OTHER) count 5",
				s.Via, s.Source, s.Tag, s.Error, s.Count, errOther)
		}
		vias = append(vias, s.Via)
	}
	for _, m := range decode[whatRec](x, recs, "missing") {
		p.addf("%s", m.What)
	}
	var absent []string
	for _, a := range decode[whatRec](x, recs, "absent") {
		absent = append(absent, a.What)
	}
	p.fail(x, x.Impl.ID, "not tested: "+strings.Join(absent, "; "))
	if len(vias) < 2 {
		panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("abi_f2c reported %d statuses, want the original and at least one conversion", len(vias))})
	}
	reason := fmt.Sprintf("%d handles of %d types (predefined and user-created) round-trip through c2f/f2c; statuses keep source, tag, error and count through %s",
		len(rts), len(types), strings.Join(vias[1:], " and "))
	if len(absent) > 0 {
		reason += "; not tested: " + strings.Join(absent, "; ")
	}
	return harness.Verdict{Reason: reason}
}
