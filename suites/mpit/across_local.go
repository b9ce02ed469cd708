package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// INIT-12 and CVAR-17, from fixtures/c/mpit/across.c: the datatype handles
// get_info returned before MPI_Init, compared after MPI_Init (the across
// job), and writes of LOCAL-scope control variables seen from another rank
// (its "local" job, two ranks).

type dtBeforeRec struct {
	Object string `json:"object"`
	Index  int    `json:"index"`
	Name   string `json:"name"`
	Before string `json:"before"`
	After  string `json:"after"`
}

type dtBeforeSum struct {
	Object     string `json:"object"`
	Compared   int    `json:"compared"`
	Equal      int    `json:"equal"`
	NotTable19 int    `json:"not_table19"`
	Bad        int    `json:"bad"`
}

// init12Exposure: each datatype compared could have been another handle;
// the fixture gives their number only.
var init12Exposure = rulebook.Exposure[countedItem]{Items: "variables' datatype handles"}

// §15.3.5: "Since the initialization of the MPI tool information interface
// is separate from the initialization of MPI, MPI tool information interface
// routines can be called before MPI initialization. Consequently, these
// routines can also use MPI datatypes before MPI initialization. Therefore,
// within the context of the MPI tool information interface, it is
// permissible to use a subset of MPI datatypes as specified below before MPI
// initialization." A datatype get_info returns before MPI_Init is one of
// Table 19's: compared after MPI_Init, the very handle MPI_INT, MPI_UNSIGNED,
// ... that get_info returns for the variable then.
func judgeInit12(x *rulebook.X) verdict.Verdict {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across", Ranks: 2, Program: x.Fixture("mpit_across")})
	var bad []string
	compared, other := 0, 0
	// the first 40 mismatches of each rank and kind
	for _, r := range mpi.Decode[dtBeforeRec](recs, "dt_before") {
		what := "control variable"
		if r.Object == "pvar" {
			what = "performance variable"
		}
		bad = append(bad, fmt.Sprintf("%s %s (%d): the datatype get_info returned before MPI_Init is %s, after MPI_Init it returns %s",
			what, r.Name, r.Index, dtWord(r.Before), r.After))
	}
	sums := mpi.Decode[dtBeforeSum](recs, "dt_before_sum")
	if len(sums) == 0 {
		x.Errorf("", "mpit_across wrote no dt_before_sum record")
	}
	// one summary per rank and kind: the ranks walk the same variables
	most := map[string]dtBeforeSum{}
	for _, s := range sums {
		if m, ok := most[s.Object]; !ok || s.Compared+s.Bad > m.Compared+m.Bad {
			most[s.Object] = s
		}
	}
	var parts, totals []string
	for _, kind := range []string{"cvar", "pvar"} {
		s, ok := most[kind]
		if !ok {
			continue
		}
		compared += s.Compared
		other += s.NotTable19
		word := map[string]string{"cvar": "control", "pvar": "performance"}[kind]
		if s.Compared > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", s.Compared, word))
		}
		if s.Bad > 0 {
			totals = append(totals, fmt.Sprintf("%d of %d %s variables", s.Bad, s.Compared, word))
		}
	}
	bad = uniq(bad)
	sort.Strings(bad)
	if len(totals) > 0 {
		bad = append([]string{"datatype handles from before MPI_Init that are not the predefined handle get_info returns after it: " + strings.Join(totals, ", ")}, bad...)
	}
	x.FailOn(bad, "")
	if compared == 0 {
		x.Unsupported("not measurable here: no variable answered get_info before MPI_Init with a Table 19 datatype (%d answered with another type)", other)
	}
	return init12Exposure.Pass(countedItems(compared), "on both ranks, the datatypes of %s variables got before MPI_Init are, after MPI_Init, the predefined handles get_info returns then (%d of a type outside Table 19 left to META-6)",
		strings.Join(parts, " and "), other)
}

func dtWord(name string) string {
	if name == "other" {
		return "no predefined datatype handle"
	}
	return name
}

type localWriteRec struct {
	Name       string `json:"name"`
	Datatype   string `json:"datatype"`
	Old        vals   `json:"old"`
	Written    vals   `json:"written"`
	ReadRC     string `json:"read_rc"`
	WriteRC    string `json:"write_rc"`
	ReadBackRC string `json:"read_back_rc"`
	Took       int    `json:"took"`
	RestoreRC  string `json:"restore_rc"`
}

type localReadRec struct {
	Name      string `json:"name"`
	AllocRC   string `json:"alloc_rc"`
	Count     int    `json:"count"`
	RCBefore  string `json:"rc_before"`
	RCAfter   string `json:"rc_after"`
	Before    vals   `json:"before"`
	After     vals   `json:"after"`
	Took      int    `json:"took"`
	Unchanged int    `json:"unchanged"`
}

type localDone struct {
	Candidates int `json:"candidates"`
	Tried      int `json:"tried"`
	Took       int `json:"took"`
	Ranks      int `json:"ranks"`
}

// cvar17Exposure: a write of a value rank 1 held already would read the
// same whether the write reached it or not.
var cvar17Exposure = rulebook.Exposure[localWrite]{Items: "writes that took on rank 0",
	When:  "when rank 1 did not hold the value written before the write",
	Could: func(w localWrite) bool { return !w.rank1Before.same(w.written, false) }}

// localWrite is a write that took on rank 0, beside what rank 1 read of
// the variable before it.
type localWrite struct {
	written, rank1Before vals
}

// Table 20 (§15.3.6.1): "MPI_T_SCOPE_LOCAL | may be writeable, writing only
// affects the calling MPI process". Rank 0 writes, rank 1 reads the same
// variable (by name) before and after: its value must not move.
func judgeCvar17(x *rulebook.X) verdict.Verdict {
	res, recs, err := x.LaunchOnce(mpi.Job{Name: "mpit_across_local", Ranks: 2, Program: x.Fixture("mpit_across"), Args: []string{"local"}})
	if err != nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	done := mpi.Decode[localDone](recs, "local_done")
	if !res.OK() {
		// a write that kills its own process is CVAR-13/14's (the writes
		// run); this rule is about what another process sees
		last := "before its first write"
		if tries := mpi.Decode[struct {
			Name string `json:"name"`
		}](recs, "local_try"); len(tries) > 0 && len(done) == 0 {
			last = "writing " + tries[len(tries)-1].Name
		}
		x.Errorf(res.Evidence(), "the job died (%s) %s", res.Problem(), last)
	}
	if len(done) != 1 {
		x.Errorf(res.Evidence(), "mpit_across local wrote no local_done record")
	}
	d := done[0]
	writes := map[string]localWriteRec{}
	refused := map[string]int{}
	for _, w := range mpi.Decode[localWriteRec](recs, "local_write") {
		writes[w.Name] = w
		if w.Took == 0 {
			why := w.WriteRC
			if w.WriteRC == "MPI_SUCCESS" {
				why = "accepted, but read back otherwise"
			}
			refused[why]++
		}
	}
	var bad, seen, moved []string
	var took []localWrite
	exposed := 0 // writes of a value rank 1 did not hold already
	for _, r := range mpi.Decode[localReadRec](recs, "local_read") {
		w, ok := writes[r.Name]
		if !ok || w.Took == 0 {
			continue
		}
		if r.AllocRC != "MPI_SUCCESS" || r.RCBefore != "MPI_SUCCESS" || r.RCAfter != "MPI_SUCCESS" {
			x.Errorf(res.Evidence(), "rank 1 could not read %s: handle %s, reads %s and %s", r.Name, r.AllocRC, r.RCBefore, r.RCAfter)
		}
		switch {
		case r.Unchanged == 1:
			seen = append(seen, fmt.Sprintf("%s %s→%s", r.Name, w.Old, w.Written))
			took = append(took, localWrite{w.Written, r.Before})
			if !r.Before.same(w.Written, false) {
				exposed++
			}
		case r.After.same(w.Written, false) && !r.Before.same(w.Written, false):
			bad = append(bad, fmt.Sprintf("%s: rank 0 wrote %s over %s; rank 1 read %s before and the written %s after", r.Name, w.Written, w.Old, r.Before, r.After))
		default:
			// rank 1's value moved, but not to what rank 0 wrote: not
			// the write's doing (a variable that changes by itself)
			moved = append(moved, fmt.Sprintf("%s (rank 1 read %s, then %s; rank 0 wrote %s)", r.Name, r.Before, r.After, w.Written))
		}
	}
	x.FailOn(bad, "")
	note := ""
	if len(moved) > 0 {
		note = "; not judged, rank 1's value moved by itself, not to the value written: " + strings.Join(moved, ", ")
	}
	if len(seen) == 0 {
		var why []string
		for k, n := range refused {
			why = append(why, fmt.Sprintf("%d %s", n, k))
		}
		sort.Strings(why)
		reason := "none"
		if len(why) > 0 {
			reason = strings.Join(why, ", ")
		}
		x.Unsupported("not measurable here: no control variable of scope LOCAL took a write whose effect rank 1 could judge (%d LOCAL-scope integer variables bound to no object, %d tried on %d ranks; writes: %s%s)", d.Candidates, d.Tried, d.Ranks, reason, note)
	}
	return cvar17Exposure.Pass(took, "rank 0 wrote %s (of %d LOCAL-scope variables tried); rank 1 read each unchanged (%d of them a value rank 1 did not hold)%s", strings.Join(seen, ", "), d.Tried, exposed, note)
}
