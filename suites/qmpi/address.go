package qmpi

import (
	"fmt"
	"path"
	"strings"

	"github.com/mpits/mpits/harness"
	. "github.com/onsi/gomega"
)

// Seed 000, "Interception": QMPI_Context_get_calling_address gives "the
// address of the application the called the MPI function", "the address of
// the point where the application originally called the MPI function before
// entering the QMPI tool stack. If both a PMPI and QMPI tool are registered
// and active at the same time, the address will be that of the PMPI
// function, rather than the application." An address: a code address inside
// the calling function, as dladdr sees it.
var callingAddress = harness.Define(harness.Check{
	ID:        "QMPI-ADDR-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "QMPI_Get_calling_address gives an address inside the application function that called (from main and from a nested function), and with a PMPI tool loaded, inside the PMPI tool's function",
	Injectors: []string{"inject_qmpi_wrong_address"},
	Run:       runCallingAddress,
})

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

func runCallingAddress(x *harness.X) harness.Verdict {
	requireQMPI(x)
	app := x.Fixture("qmpi_app_addr")
	pmpi := x.Fixture("qmpi_pmpi_tool")
	var problems []string
	var evidence []string
	for _, withPMPI := range []bool{false, true} {
		preload := x.Fixture("qmpi_tool_addr")
		name := "qmpi_app_addr"
		if withPMPI {
			preload = pmpi + ":" + preload
			name += " with a PMPI tool"
		}
		_, recs := x.Job(harness.Job{
			Name: name, Ranks: 1, Program: app,
			RankEnv: map[string]string{"LD_PRELOAD": preload},
			Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "addr", "MPITS_QMPI_TRACE": "none"},
		})
		evidence = append(evidence, name+":\n"+recordsText(recs))
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
		if len(got) != 3 {
			x.Failf(strings.Join(evidence, "\n"), "%s: the tool saw %d of the application's 3 MPI_Barrier calls", name, len(got))
		}
		for _, a := range got {
			wantSym, wantObj := a.site, path.Base(app)
			if withPMPI {
				wantSym, wantObj = "MPI_Barrier", path.Base(pmpi)
			}
			ok := a.RC == 0 && a.Obj != nil && path.Base(*a.Obj) == wantObj && deref(a.Sym) == wantSym && a.Inside
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: MPI_Barrier called from %s: QMPI_Get_calling_address returned %d and gave %s, want an address inside %s of %s", name, a.site, a.RC, a, wantSym, wantObj))
			}
		}
	}
	if len(problems) > 0 {
		x.Failf(strings.Join(problems, "\n")+"\n\n"+strings.Join(evidence, "\n"), "%s (%d of 6 calls wrong)", problems[0], len(problems))
	}
	return harness.Verdict{Reason: "the calling address lay inside main and inside the nested caller, and with a PMPI tool loaded inside the PMPI tool's MPI_Barrier"}
}
