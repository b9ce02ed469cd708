package mpit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What the judges of the pvar operations check (pvar_ops.go) and of
// PVAR-21 and PVAR-22 (pvar_lifecycle.go) share: small helpers over the
// records of pvarJob. Each judge is declared beside its rule.

// failTally ends a rule with Fail on the problems noted in t (evidence
// after them); it returns when there are none.
func failTally(x *rulebook.X, t tally, evidence string) {
	var p rulebook.Problems
	p.Also(evidence)
	t.into(&p, "; ")
	p.FailOn(x)
}

// judgeErrs fails the rule on the error cases named one of what whose code
// or fact is wrong (evidence after them), or ends it unsupported, "not
// measurable here: " why, where none ran; it returns those cases.
func judgeErrs(x *rulebook.X, r *pvarRecs, evidence, why string, what ...string) []errRec {
	errs := r.errsOf(what...)
	failTally(x, noteErrs(errs), evidence)
	if len(errs) == 0 {
		x.Unsupported("not measurable here: %s", why)
	}
	return errs
}

// errsOf returns the error cases' records (err) named one of what.
func (r *pvarRecs) errsOf(what ...string) []errRec {
	var out []errRec
	for _, e := range r.errs {
		if slices.Contains(what, e.What) {
			out = append(out, e)
		}
	}
	return out
}

// noteErrs notes each error case that does not hold: a return code that is
// not one of those wanted, or a fact (errFacts) that is false.
func noteErrs(errs []errRec) tally {
	t := tally{}
	for _, e := range errs {
		if fact, ok := errFacts[e.What]; ok {
			if e.RC != "MPI_SUCCESS" {
				t.note(e.What+" does not hold", fact)
			}
			continue
		}
		if anyOf(e.RC, e.Want) {
			continue
		}
		ex := e.RC
		if e.Index >= 0 {
			ex = fmt.Sprintf("%s (%d): %s", e.Name, e.Index, e.RC)
		} else if e.Name != "" {
			ex = e.Name + ": " + e.RC
		}
		t.note(fmt.Sprintf("%s returned the wrong code (want %s)", e.What, strings.ReplaceAll(e.Want, "|", " or ")), ex)
	}
	return t
}

// rcCounts says which codes the records returned, how often each.
func rcCounts(errs []errRec) string {
	n := map[string]int{}
	for _, e := range errs {
		n[e.RC]++
	}
	var s []string
	for rc, k := range n {
		s = append(s, fmt.Sprintf("%s %s", rc, plural(k, "time", "times")))
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// distinctVars counts the variables the records are about.
func distinctVars(errs []errRec) int {
	seen := map[int]bool{}
	for _, e := range errs {
		seen[e.Index] = true
	}
	return len(seen)
}

// sessionHandles are the handles of the error cases' session A: one per
// variable the fixture could allocate there (each has a read_other_session
// record), the non-continuous ones started.
type sessionHandles struct{ n, continuous, readonly int }

func (r *pvarRecs) errSession() sessionHandles {
	listed := map[int]pvarListed{}
	for _, v := range r.vars {
		listed[v.Index] = v
	}
	var h sessionHandles
	seen := map[int]bool{}
	for _, e := range r.errsOf("read_other_session") {
		if seen[e.Index] {
			continue
		}
		seen[e.Index] = true
		h.n++
		if v := listed[e.Index]; v.Continuous != 0 {
			h.continuous++
		}
		if v := listed[e.Index]; v.Readonly != 0 {
			h.readonly++
		}
	}
	return h
}

// judgeAllHandles judges op(MPI_T_PVAR_ALL_HANDLES) ("start", "stop" or
// "reset") from the error cases: in session A (what its handles give op to
// skip and to do, as kinds says) and in a session with no handle; its pass
// goes through e, the rule's exposure.
func judgeAllHandles(x *rulebook.X, op string, e rulebook.Exposure[errRec], kinds func(sessionHandles) string) verdict.Verdict {
	r := pvarSessionJob(x)
	errs := r.errsOf(op+"_all_handles", op+"_all_handles_empty")
	broken := noteErrs(errs)
	crashed := r.crashed("err_exit")
	if op == "start" {
		for _, e := range crashed {
			broken.note("the error cases killed the process", e.How)
		}
	}
	undefined := pvarUndefined(r, func(what string) bool { return strings.HasSuffix(what, "_all_handles") })
	failTally(x, broken, undefined)
	call := op + "(MPI_T_PVAR_ALL_HANDLES)"
	if len(errs) == 0 && len(crashed) == 0 {
		x.Unsupported("not measurable here: the %s cases did not run", call)
	}
	var in []string
	for _, c := range errs {
		if c.What == op+"_all_handles" {
			h := r.errSession()
			if h.n == 0 {
				// no variable, or none whose handle the error cases made
				in = append(in, fmt.Sprintf("in the error cases' session A, which held no handle (%s listed)", plural(len(r.vars), "performance variable", "performance variables")))
				continue
			}
			in = append(in, fmt.Sprintf("in a session of %s (%s)", plural(h.n, "handle", "handles"), kinds(h)))
		} else {
			in = append(in, "in a session with no handle")
		}
	}
	// where the error cases died before op, no call was judged (the harness
	// makes that unsupported)
	var v verdict.Verdict
	if len(in) == 0 {
		v = e.Pass(nil, "the error cases died before %s (PVAR-33 fails on it)", call)
	} else {
		v = e.Pass(errs, "%s returned MPI_SUCCESS %s", call, strings.Join(in, " and "))
	}
	v.Evidence = undefined
	return v
}

// eachValue calls f on each array of values the traffic run read: the SUM
// and watermark classes' at every point of sessions A and B, the level
// classes' once in each.
func eachValue(r *pvarRecs, f func(name string, index int, class, datatype string, v vals)) {
	for _, s := range r.sums {
		for _, v := range []vals{s.A0, s.AMid, s.AEnd, s.B0, s.BEnd} {
			f(s.Name, s.Index, s.Class, s.Datatype, v)
		}
	}
	for _, s := range r.same {
		f(s.Name, s.Index, s.Class, s.Datatype, s.A)
		f(s.Name, s.Index, s.Class, s.Datatype, s.B)
	}
}

// unsignedType are the datatypes the fixture prints without a sign
// (fixtures/c/mpit/mpit_util.h, mpit_fmt_elem).
var unsignedType = map[string]bool{"MPI_UNSIGNED": true, "MPI_UNSIGNED_LONG": true, "MPI_UNSIGNED_LONG_LONG": true,
	"MPI_UINT32_T": true, "MPI_UINT64_T": true, "MPI_C_BOOL": true, "MPI_CHAR": true}

// pvarUndefined lists the calls of the items run whose outcome the standard
// leaves undefined (§15.3.10), those which selects: recorded, not judged.
func pvarUndefined(r *pvarRecs, which func(what string) bool) string {
	var ub []string
	for _, u := range r.ubs {
		if which(u.What) {
			ub = append(ub, u.What+" "+u.RC)
		}
	}
	for _, e := range r.crashed("ub_exit") {
		ub = append(ub, "then the process died of "+e.How)
	}
	if len(ub) == 0 {
		return ""
	}
	return "not judged (undefined behaviour, §15.3.10): " + strings.Join(ub, ", ")
}
