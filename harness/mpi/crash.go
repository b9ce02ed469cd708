package mpi

import (
	"fmt"
	"slices"
	"strings"
)

// A job that did not end well died somewhere: in the library, when the
// fixture had announced a call (MPITS_CALL in fixtures/c/lib/mpits_record.h)
// that did not come back, or in the suite's own code otherwise. Crash says
// where, from the records the ranks wrote before they died.

// Crash is how a job ended inside library calls: the call each dying rank
// had open.
type Crash struct {
	Fixture string
	How     string     // "crashed (SIGSEGV)", "hung", "exited with status 1"
	In      []OpenCall // the open call of each rank taken to have died, by rank
}

// OpenCall is a library call a rank announced and did not return from.
type OpenCall struct {
	Rank int
	Call string
}

// CrashOf says where a job that did not end well died, from recs (the
// records every rank wrote, or a MissingRecords' Partial): nil when the job
// ended well or a death cannot be placed inside a library call. A rank that
// recorded its fatal signal ("died") died in its open call, or, with none
// open, in the fixture's own code (nil). Without such a record (a library's
// own handler took the signal, or the job hung or exited), every rank of
// the job must have a call open: one outside a call may have died in the
// fixture's code while the others waited in theirs.
func CrashOf(res *Result, recs *Records, ranks int) *Crash {
	if res == nil || res.OK() || recs == nil {
		return nil
	}
	open := openCalls(recs)
	c := &Crash{Fixture: recs.Fixture, How: crashHow(res)}
	for _, r := range recs.Kind("died", -1) {
		call, ok := open[r.Rank]
		if !ok {
			return nil
		}
		var d struct {
			Signal int `json:"signal"`
		}
		if r.Decode(&d) == nil && d.Signal > 0 && res.Signal == "" {
			c.How = fmt.Sprintf("crashed (%s)", SignalName(d.Signal))
		}
		c.In = append(c.In, OpenCall{r.Rank, call})
	}
	if len(c.In) > 0 {
		return c
	}
	for rank := range max(ranks, 1) {
		call, ok := open[rank]
		if !ok {
			return nil
		}
		c.In = append(c.In, OpenCall{rank, call})
	}
	return c
}

// openCalls is, per rank, the innermost call announced ("calling") without
// its "returned" (a tool's call inside the application's nests in it).
func openCalls(recs *Records) map[int]string {
	stacks := map[int][]string{}
	for _, r := range recs.All {
		if r.Kind != "calling" && r.Kind != "returned" {
			continue
		}
		var c struct {
			Call string `json:"call"`
		}
		if r.Decode(&c) != nil {
			continue
		}
		s := stacks[r.Rank]
		if r.Kind == "calling" {
			stacks[r.Rank] = append(s, c.Call)
			continue
		}
		for i := len(s) - 1; i >= 0; i-- { // the matching call, and any left open inside it
			if s[i] == c.Call {
				stacks[r.Rank] = s[:i]
				break
			}
		}
	}
	open := map[int]string{}
	for rank, s := range stacks {
		if len(s) > 0 {
			open[rank] = s[len(s)-1]
		}
	}
	return open
}

func crashHow(res *Result) string {
	switch {
	case res.TimedOut:
		return fmt.Sprintf("hung (killed at its deadline, %s)", res.Duration.Round(1e6))
	case res.Signal != "":
		return fmt.Sprintf("crashed (%s)", res.Signal)
	}
	return fmt.Sprintf("exited with status %d", res.ExitCode)
}

// Calls are the distinct open calls, in rank order.
func (c *Crash) Calls() []string {
	var out []string
	for _, o := range c.In {
		if !slices.Contains(out, o.Call) {
			out = append(out, o.Call)
		}
	}
	return out
}

// String is where the job died, one line: "the library crashed (SIGSEGV)
// in MPI_Comm_create_errhandler (job mpit_errors, ranks 0 and 1)".
func (c *Crash) String() string {
	var ranks []string
	for _, o := range c.In {
		ranks = append(ranks, fmt.Sprint(o.Rank))
	}
	which := "rank " + ranks[0]
	if len(ranks) > 1 {
		which = "ranks " + strings.Join(ranks[:len(ranks)-1], ", ") + " and " + ranks[len(ranks)-1]
	}
	return fmt.Sprintf("the library %s in %s (job %s, %s)", c.How, strings.Join(c.Calls(), " and "), c.Fixture, which)
}
