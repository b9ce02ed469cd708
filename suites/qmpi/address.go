package qmpi

import (
	"fmt"
	"path"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	. "github.com/onsi/gomega"
)

// Seed 000, "Interception": QMPI_Context_get_calling_address gives "the
// address of the application the called the MPI function", "the address of
// the point where the application originally called the MPI function before
// entering the QMPI tool stack. If both a PMPI and QMPI tool are registered
// and active at the same time, the address will be that of the PMPI
// function, rather than the application." An address: a code address inside
// the calling function, as dladdr sees it.
var callingAddress = rulebook.Define(rulebook.Check{
	ID:    "QMPI-ADDR",
	Needs: "qmpi",
	Title: "QMPI_Get_calling_address gives an address inside the application function that called (from main and from a nested function), and with a PMPI tool loaded, inside the PMPI tool's function",
	Rules: []rulebook.Rule{
		// seed 000: "The the address of the point where the application
		// originally called the MPI function before entering the QMPI tool
		// stack."
		{ID: "QMPI-ADDR-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:       "QMPI_Get_calling_address gives an address inside the application function that called MPI_Barrier (main, and a function nested two calls deep)",
			Injectors:  []string{"inject_qmpi_wrong_address", "inject_qmpi_address_crash"},
			Governs:    []string{"QMPI_Get_calling_address"},
			Conformers: []string{"conform_qmpi_calling_address"},
			Exposure:   addr1Exposure.Declared(), Judge: judgeCallingAddress(false)},
		// seed 000: "If both a PMPI and QMPI tool are registered and active
		// at the same time, the address will be that of the PMPI function,
		// rather than the application."
		{ID: "QMPI-ADDR-02", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:       "with a PMPI tool wrapping MPI_Barrier loaded as well, QMPI_Get_calling_address gives an address inside the PMPI tool's MPI_Barrier",
			Injectors:  []string{"inject_qmpi_wrong_address", "inject_qmpi_address_crash"},
			Governs:    []string{"QMPI_Get_calling_address"},
			Conformers: []string{"conform_qmpi_calling_address"},
			Exposure:   addr2Exposure.Declared(), Judge: judgeCallingAddress(true)},
		// seed 000: "The the address of the point where the application
		// originally called the MPI function before entering the QMPI tool
		// stack." A Fortran application calls the MPI library's Fortran
		// binding: the point where it called is in the application, not in
		// the binding that then calls the C function.
		{ID: "QMPI-ADDR-03", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:       "for MPI_BARRIER called through mpif.h (from the main program and from a subroutine), QMPI_Get_calling_address gives an address inside the Fortran application, not inside the MPI library's Fortran binding",
			Injectors:  []string{"inject_qmpi_wrong_address", "inject_qmpi_address_crash"},
			Governs:    []string{"QMPI_Get_calling_address"},
			Conformers: []string{"conform_qmpi_fortran_address"},
			Exposure:   addr3Exposure.Declared(), Judge: judgeFortranCallingAddress},
	},
})

// Each address the tool got could have lain anywhere else.
var (
	addr1Exposure = rulebook.Exposure[addrRec]{Items: "calling addresses"}
	addr2Exposure = rulebook.Exposure[addrRec]{Items: "calling addresses"}
	addr3Exposure = rulebook.Exposure[addrRec]{Items: "calling addresses"}
)

type addrRec struct {
	RC         int     `json:"rc"`
	Addr       string  `json:"addr"`
	Obj        *string `json:"obj"`
	Sym        *string `json:"sym"`
	Inside     bool    `json:"inside"`
	Text       string  `json:"text"`
	TextObj    *string `json:"text_obj"`
	TextSym    *string `json:"text_sym"`
	TextInside bool    `json:"text_inside"`
	site       string
}

func (a addrRec) String() string {
	s := fmt.Sprintf("%s", a.Addr)
	if a.Obj != nil {
		s += fmt.Sprintf(" (in %s, symbol %q, inside it: %v)", path.Base(*a.Obj), deref(a.Sym), a.Inside)
		return s
	}
	s += " (in no loaded object"
	if a.Text != "" {
		s += fmt.Sprintf("; the memory there holds the text %q", a.Text)
		if a.TextObj != nil {
			s += fmt.Sprintf(", an address in %s, symbol %q, inside it: %v", path.Base(*a.TextObj), deref(a.TextSym), a.TextInside)
		}
	}
	return s + ")"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// judgeCallingAddress runs app_addr under the addr tool, with or without a
// PMPI tool wrapping MPI_Barrier, and judges the 3 calling addresses.
func judgeCallingAddress(withPMPI bool) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		app := x.Fixture("qmpi_app_addr")
		pmpi := x.Fixture("qmpi_pmpi_tool")
		preload := x.Fixture("qmpi_tool_addr")
		name := "qmpi_app_addr"
		if withPMPI {
			preload = pmpi + ":" + preload
			name += " with a PMPI tool"
		}
		job := mpi.Job{
			Name: name, Ranks: 1, Program: app,
			RankEnv: map[string]string{"LD_PRELOAD": preload},
			Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "addr", "MPITS_QMPI_TRACE": "none"},
		}
		_, recs, whole := addrJob(x, job)
		ev := name + ":\n" + recordsText(recs)
		var got []addrRec
		site := ""
		for _, r := range recs.All {
			switch r.Kind {
			case "site":
				var s struct {
					Fn string `json:"fn"`
				}
				x.Expect(r.Decode(&s)).To(Succeed())
				site = s.Fn
			case "addr":
				var a addrRec
				x.Expect(r.Decode(&a)).To(Succeed())
				a.site = site
				got = append(got, a)
			}
		}
		var f rulebook.Problems
		if whole.ok() && len(got) != 3 {
			f.Add(ev, "%s: the tool saw %d of the application's 3 MPI_Barrier calls", name, len(got))
		}
		for _, a := range got {
			wantSym, wantObj := a.site, path.Base(app)
			if withPMPI {
				wantSym, wantObj = "MPI_Barrier", path.Base(pmpi)
			}
			ok := a.RC == 0 && a.Obj != nil && path.Base(*a.Obj) == wantObj && deref(a.Sym) == wantSym && a.Inside
			if !ok {
				f.Add(ev, "%s: MPI_Barrier called from %s: QMPI_Get_calling_address returned %d and gave %s, want an address inside %s of %s%s", name, a.site, a.RC, a, wantSym, wantObj, whole.after())
			}
		}
		f.FailOn(x)
		whole.mustHaveEnded(x)
		if withPMPI {
			return addr2Exposure.Pass(got, "with a PMPI tool loaded, the calling address of all %d MPI_Barrier calls lay inside the PMPI tool's MPI_Barrier", len(got))
		}
		return addr1Exposure.Pass(got, "the calling address lay inside main and inside the nested caller, for all %d MPI_Barrier calls", len(got))
	}
}

// judgeFortranCallingAddress runs the mpif.h program fortran_addr.f90 under
// the addr tool (one rank) and judges where its 2 calling addresses lie.
func judgeFortranCallingAddress(x *rulebook.X) verdict.Verdict {
	if !x.Caps.Fortran.MPIFH {
		x.Unsupported("not measurable here: no working mpif.h binding: %s", x.Caps.Fortran.Reason)
	}
	app := x.Fixture("qmpi_fortran_addr")
	res, recs, whole := addrJob(x, mpi.Job{
		Name: "qmpi_fortran_addr", Ranks: 1, Program: app,
		RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_addr")},
		Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "addr", "MPITS_QMPI_TRACE": "none"},
	})
	ev := "qmpi_fortran_addr:\n" + recordsText(recs) + "\n" + res.Evidence()
	if whole.ok() && !strings.Contains(res.Stdout, "mpits-fortran-addr-ok") {
		x.Errorf(ev, "qmpi_fortran_addr did not run to its end")
	}
	var got []addrRec
	for _, r := range recs.Kind("addr", -1) {
		var a addrRec
		x.Expect(r.Decode(&a)).To(Succeed())
		got = append(got, a)
	}
	var f rulebook.Problems
	if whole.ok() && len(got) != 2 {
		f.Add(ev, "the tool saw %d of the Fortran program's 2 MPI_BARRIER calls", len(got))
	}
	var where []string
	for i, a := range got {
		from := []string{"the main program", "the subroutine mpits_fortran_nested"}[min(i, 1)]
		if a.RC != 0 || a.Obj == nil || path.Base(*a.Obj) != path.Base(app) {
			f.Add(ev, "MPI_BARRIER called through mpif.h from %s: QMPI_Get_calling_address returned %d and gave %s, want an address inside the application %s%s", from, a.RC, a, path.Base(app), whole.after())
			continue
		}
		where = append(where, fmt.Sprintf("%s (symbol %q)", from, deref(a.Sym)))
	}
	f.FailOn(x)
	whole.mustHaveEnded(x)
	return addr3Exposure.Pass(got, "the calling address of both MPI_BARRIER calls of the mpif.h program lay inside the application: %s", strings.Join(where, ", "))
}

// An address job that died after its tool took addresses (a library that
// corrupted its heap answering dies at a later free or at MPI_Finalize; one
// may hang) is judged on the addresses recorded before: a wrong one fails
// the rule whatever came after. With none wrong, where it died decides
// (rulebook.Crashed: inside QMPI_Get_calling_address it fails the rule).
type addrEnd struct {
	job  mpi.Job
	res  *mpi.Result
	recs *mpi.Records
	err  error
}

// addrJob runs j once; recs are what its ranks wrote, also when it died.
func addrJob(x *rulebook.X, j mpi.Job) (*mpi.Result, *mpi.Records, addrEnd) {
	res, recs, err := x.LaunchOnce(j)
	end := addrEnd{j, res, recs, err}
	if end.ok() {
		return res, recs, end
	}
	written := rulebook.WrittenRecords(recs, err)
	if written == nil {
		x.Whole(j, res, recs, err) // records that do not parse: an error
	}
	return res, written, end
}

func (e addrEnd) ok() bool { return e.res.OK() && e.err == nil }

// after is how the job ended, for a problem found in what it wrote before.
func (e addrEnd) after() string {
	if e.ok() {
		return ""
	}
	return "; then " + rulebook.HowEnded(e.job, e.res, rulebook.WrittenRecords(e.recs, e.err))
}

// mustHaveEnded ends the judgement of a job that died with no address
// wrong (rulebook.Whole).
func (e addrEnd) mustHaveEnded(x *rulebook.X) {
	if !e.ok() {
		x.Whole(e.job, e.res, e.recs, e.err)
	}
}
