package qmpi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001, "Tools Responsibilities" and seed 000, "Calling Additional
// QMPI Tools": stacks where each instance registers a different subset of
// functions. The three rules judge the same three runs.
var passThrough = rulebook.Define(rulebook.Check{
	ID:    "QMPI-PASS",
	Needs: "qmpi",
	Title: "a function a tool does not register reaches the next tool that does, and MPI, exactly once (stacks where each tool registers a different subset)",
	Rules: []rulebook.Rule{
		// seed 000: function_ptr is "A pointer to a function that should be
		// called when an application calls the specified function".
		{ID: "QMPI-FUNC-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "every instance that registered a function sees each of the application's calls of it exactly once",
			Injectors: []string{"inject_qmpi_drop_register"},
			Exposure:  func1Exposure.Declared(), Judge: judgePass("registered")},
		// seed 000: "When the tool is done with its own interception, it
		// should call this function to determine the next tool in the QMPI
		// stack"; seed 001: the follow-on routine "Can be actual MPI or
		// another tool - transparent".
		{ID: "QMPI-NEXT-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "calling what QMPI_Get_function gives reaches MPI's own function after the last instance, exactly once per call (no message sent twice, no reduction done twice)",
			Injectors: []string{"inject_qmpi_call_twice"},
			Exposure:  next1Exposure.Declared(), Judge: judgePass("mpi")},
		// seed 001, "Tools Responsibilities": "Routines not implemented are
		// handled by MPI - Automatically set to a 'follow-on' routine".
		{ID: "QMPI-NEXT-02", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "a function an instance does not register goes straight on: that instance sees none of its calls, and the instances that register it nest in list order around MPI",
			Injectors: []string{"inject_qmpi_skip_next"},
			Exposure:  next2Exposure.Declared(), Judge: judgePass("unregistered")},
	},
})

// passStack is a stack and the functions each name registers.
type passStack struct {
	list  string
	funcs map[string][]string // name → functions ("none": nothing)
}

var passStacks = []passStack{
	{"L0:L1:L2:L3", map[string][]string{
		"L0": {"send", "barrier", "init", "finalize"},
		"L1": {},
		"L2": {"allreduce", "comm_rank", "barrier"},
		"L3": {"send", "recv", "comm_rank"},
	}},
	{"L0:L1:L2", map[string][]string{"L0": {}, "L1": {"send", "recv"}, "L2": {}}},
	{"L0:L1", map[string][]string{"L0": {}, "L1": {}}},
}

func (p passStack) spec() string {
	var parts []string
	for _, n := range listNames(p.list) {
		fs := strings.Join(p.funcs[n], ",")
		if fs == "" {
			fs = "none"
		}
		parts = append(parts, n+"="+fs)
	}
	return strings.Join(parts, ";")
}

// registrants are the names, in list order, that register fn.
func (p passStack) registrants(fn string) []string {
	var out []string
	for _, n := range listNames(p.list) {
		for _, f := range p.funcs[n] {
			if f == fn {
				out = append(out, n)
			}
		}
	}
	return out
}

const passSends = 3

// Counts and sequences of a function the application called could show a
// missed, doubled or misplaced call (it needs a call); every rank's results
// could show MPI reached twice.
var (
	func1Exposure = rulebook.Exposure[callCount]{Items: "call counts of registering instances (per stack, rank, instance and function)",
		When:  "when the application called the function (a missed, doubled or misplaced call needs a call)",
		Could: func(c callCount) bool { return c.made > 0 }}
	next1Exposure = rulebook.Exposure[*layerRank]{Items: "ranks (per stack)"}
	next2Exposure = rulebook.Exposure[callCount]{Items: "call counts of non-registering instances and call sequences (per stack, rank and function)",
		When:  "when the application called the function (a missed, doubled or misplaced call needs a call)",
		Could: func(c callCount) bool { return c.made > 0 }}
)

func judgePass(what string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		var f rulebook.Problems
		var counts []callCount  // the counts and sequences compared
		var judged []*layerRank // for "mpi": the ranks' results
		for _, p := range passStacks {
			ranks := runLayer(x, layerRun{List: p.list, Funcs: p.spec(), Trace: "send,recv,allreduce,comm_rank", Args: []string{"init", fmt.Sprint(passSends)}})
			for _, r := range ranks {
				ev := r.evidence()
				switch what {
				case "mpi":
					judged = append(judged, r)
					// MPI did the work once: no duplicate message, the sum not doubled.
					if r.Result.ExtraMessages != 0 || (r.Rank == 1 && r.Result.Received != passSends) {
						f.Add(ev, "%s (%s): rank %d received %d messages for %d sends: MPI_Send did not reach MPI exactly once", p.list, p.spec(), r.Rank, r.Result.Received, passSends)
					}
					if r.Result.Sum != r.Result.WantSum {
						f.Add(ev, "%s (%s): rank %d: in-place MPI_Allreduce gave %d, want %d: it did not reach MPI exactly once", p.list, p.spec(), r.Rank, r.Result.Sum, r.Result.WantSum)
					}
				case "registered", "unregistered":
					for _, in := range r.Inits {
						s := r.summaryOf(in.Tool)
						if s == nil {
							f.Add(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
							continue
						}
						for _, fn := range layerFns {
							registered := slices.Contains(p.funcs[in.Name], fn)
							want := int64(0)
							if registered {
								want = r.Calls.Calls[fn]
							}
							if registered == (what == "registered") {
								counts = append(counts, callCount{rank: r.Rank, counter: p.list + " " + in.Name, fn: fn, made: r.Calls.Calls[fn]})
							}
							if registered == (what == "registered") && s.Calls[fn] != want {
								f.Add(ev, "%s (%s): rank %d: %s saw %d MPI_%s calls, want %d (the application made %d)", p.list, p.spec(), r.Rank, in.Name, s.Calls[fn], fnTitle(fn), want, r.Calls.Calls[fn])
							}
						}
					}
					if len(r.Inits) != len(listNames(p.list)) {
						f.Add(ev, "%s: rank %d: %d init callbacks for %d listed instances", p.list, r.Rank, len(r.Inits), len(listNames(p.list)))
					}
					if what == "registered" {
						continue
					}
					for _, fn := range []string{"send", "recv", "allreduce", "comm_rank"} {
						got := sequence(r, fn)
						want := nested(p.registrants(fn), int(r.Calls.Calls[fn]))
						if len(p.registrants(fn)) == 0 {
							want = nil // no tool traces it: MPI is reached unseen
						}
						counts = append(counts, callCount{rank: r.Rank, counter: p.list + " sequence", fn: fn, made: r.Calls.Calls[fn]})
						if d := firstDiff(got, want); d != "" {
							f.Add(ev, "%s (%s): rank %d, MPI_%s: %s (got %s)", p.list, p.spec(), r.Rank, fnTitle(fn), d, strings.Join(head(got, 12), " "))
						}
					}
				}
			}
		}
		f.FailOn(x)
		switch what {
		case "registered":
			return func1Exposure.Pass(counts, "3 stacks (%s): every registering instance saw each call of its functions once", passStacks[0].spec())
		case "mpi":
			return next1Exposure.Pass(judged, "3 stacks: MPI did each send and the in-place MPI_Allreduce exactly once")
		}
		return next2Exposure.Pass(counts, "3 stacks (%s): instances that did not register a function saw none of its calls, which went on to the next registering instance and MPI, nested in list order", passStacks[0].spec())
	}
}
