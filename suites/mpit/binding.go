package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Binding variables to MPI objects (MPI-5.0 §15.3.2, §15.3.6.2, §15.3.7.4),
// from fixtures/c/mpit/binding.c, one run per rule.
var bindingCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-BINDING",
	Needs: "mpit",
	Title: "variables bound to an MPI object get a handle on a valid object of their kind; for variables bound to none, obj_handle is ignored",
	Rules: []rulebook.Rule{
		// §15.3.2: "the variable must be bound to exactly one MPI object before
		// it can be used"; §15.3.6.2: "This routine binds the control variable
		// specified by the argument index to an MPI object. The object is passed
		// in the argument obj_handle as an address to a local variable that
		// stores the object's handle." (§15.3.7.4 alike for pvars)
		{ID: "META-4", Source: "MPI-5.0 §15.3.2, §15.3.6.2, §15.3.7.4", Basis: rulebook.Normative,
			Text:      "a control or performance variable bound to a kind of object (communicator, datatype, error handler, group, info, operation, request, window) gets a handle on a valid object of that kind",
			Injectors: []string{"inject_mpit_bind_refused"}, Exposure: bindingExposure.Declared(), Judge: judgeBinding("bound")},
		// §15.3.6.2: "The argument obj_handle is ignored if the
		// MPI_T_CVAR_GET_INFO call for this control variable returned
		// MPI_T_BIND_NO_OBJECT in the argument bind." (§15.3.7.4 alike)
		{ID: "META-5", Source: "MPI-5.0 §15.3.6.2, §15.3.7.4", Basis: rulebook.Normative,
			Text:      "for a variable bound to no object, handle allocation ignores obj_handle: it succeeds with a pointer to nothing valid",
			Injectors: []string{"inject_mpit_bind_refused"}, Exposure: bindingExposure.Declared(), Judge: judgeBinding("noobject")},
	},
})

type bindRec struct {
	Var    string `json:"var"`
	Index  int    `json:"index"`
	Name   string `json:"name"`
	Object string `json:"object"`
	RC     string `json:"rc"`
}

// bindingExposure, shared by META-4 and META-5: each handle_alloc returned
// and could have refused.
var bindingExposure = rulebook.Exposure[bindRec]{Items: "handle allocations"}

func judgeBinding(mode string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		res, recs, err := x.LaunchOnce(mpi.Job{Name: "mpit_binding_" + mode, Ranks: 1, Program: x.Fixture("mpit_binding"), Args: []string{mode}})
		if recs == nil && res.OK() {
			x.Errorf(res.Evidence(), "%v", err)
		}
		if recs == nil {
			recs = &mpi.Records{}
		}
		got := mpi.Decode[bindRec](recs, mode)
		var bad, kinds []string
		seen := map[string]int{}
		for _, r := range got {
			seen[r.Var+" "+r.Object]++
			if r.RC != "MPI_SUCCESS" {
				bad = append(bad, fmt.Sprintf("%s %d (%s) bound to %s: handle_alloc returned %s", r.Var, r.Index, r.Name, r.Object, r.RC))
			}
		}
		if !res.OK() {
			// An attempt with no result is the allocation it died in; a
			// death outside every allocation (MPI_Init, making the objects,
			// a free, MPI_Finalize) judges no binding.
			if a, ok := unanswered(recs, got); ok {
				bad = append(bad, fmt.Sprintf("the process died (%s) in handle_alloc of %s %d (%s)", res.Problem(), a.Var, a.Index, a.Name))
			} else if len(bad) == 0 {
				where := "before its first handle allocation"
				if len(got) > 0 {
					where = fmt.Sprintf("after its handle allocation %d, outside any", len(got))
				}
				x.Errorf(res.Evidence(), "mpit_binding %s died %s: %s", mode, where, res.Problem())
			}
		}
		x.FailOn(bad, res.Evidence())
		if len(got) == 0 {
			if mode == "bound" {
				x.Unsupported("not measurable here: no variable is bound to a kind of object this program makes (%d of other kinds)", len(recs.Kind("unmade", 0)))
			}
			x.Unsupported("not measurable here: no variable is bound to no object")
		}
		for k, n := range seen {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
		}
		return bindingExposure.Pass(got, "%d handles allocated: %s", len(got), strings.Join(sortedStrings(kinds), ", "))
	}
}

// unanswered is the first attempt recorded with no result after it: the
// handle allocation the process died in.
func unanswered(recs *mpi.Records, got []bindRec) (bindRec, bool) {
	done := map[string]bool{}
	for _, r := range got {
		done[fmt.Sprintf("%s/%d", r.Var, r.Index)] = true
	}
	for _, a := range mpi.Decode[bindRec](recs, "attempt") {
		if !done[fmt.Sprintf("%s/%d", a.Var, a.Index)] {
			return a, true
		}
	}
	return bindRec{}, false
}

func sortedStrings(s []string) []string {
	out := append([]string{}, s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
