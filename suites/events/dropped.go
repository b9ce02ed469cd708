package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// drop4Exposure: every dropped-handler call could have got a wrong source
// or no safety level.
var drop4Exposure = rulebook.Exposure[droppedRec]{Items: "dropped-handler calls"}

// judgeDroppedArgs judges the source index and cb_safety of every
// dropped-handler call of the probe and delivery jobs: the source is the
// one the callbacks of the same phase on that rank report for their
// instances (MPI_T_event_get_source), or at least a valid index.
func judgeDroppedArgs(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	var bad, ev []string
	var calls []droppedRec
	for _, j := range []*jobOut{r.Probe, r.Deliver} {
		reported := map[[2]int]map[int]bool{} // (rank, phase) -> sources
		for _, c := range mpi.DecodeRanked[cbRec](j.Recs, "cb") {
			if c.SrcRC != 0 {
				continue
			}
			k := [2]int{c.Rank, c.Phase}
			if reported[k] == nil {
				reported[k] = map[int]bool{}
			}
			reported[k][c.Src] = true
		}
		for _, d := range mpi.DecodeRanked[droppedRec](j.Recs, "dropped") {
			calls = append(calls, d)
			add := func(format string, args ...any) {
				bad = append(bad, fmt.Sprintf(format, args...))
				ev = append(ev, jsonOf([]droppedRec{d}))
			}
			if d.Safety < 0 {
				add("rank %d: the dropped handler got a cb_safety that is no safety level", d.Rank)
			}
			want := reported[[2]int{d.Rank, d.Phase}]
			switch {
			case len(want) > 0 && !want[d.Source]:
				add("rank %d: the dropped handler got source_index %d; the delivered instances of that event report source %s", d.Rank, d.Source, setList(want))
			case len(want) == 0 && (d.Source < 0 || d.Source >= r.Sources):
				add("rank %d: the dropped handler got source_index %d; MPI_T_source_get_num gives %d", d.Rank, d.Source, r.Sources)
			}
		}
	}
	x.FailOn(bad, strings.Join(ev, ""))
	if len(calls) == 0 {
		x.Unsupported("not measurable here: no dropped handler ran")
	}
	return drop4Exposure.Pass(calls, "%d dropped-handler call(s) got the source of their event and a safety level", len(calls))
}

func setList(m map[int]bool) string {
	var out []string
	for k := range m {
		out = append(out, fmt.Sprint(k))
	}
	return strings.Join(out, " or ")
}
