package rulebook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/mpits/mpits/harness/mpi"
)

// A program that may die in one of many items (a variable that crashes the
// library when written, say) is run again, as a new job, from the item after
// the one it died in, rather than forking: MPI defines no MPI or MPI_T call
// in a fork()ed copy of an MPI process. The program numbers its items,
// writes {"kind":"items","count":N} first and {"kind":"attempt","item":N}
// before each (fixtures/c/lib/mpits_items.h), and takes two last
// arguments: "--from=N" (the first item to run) and "--died=a,b" (items seen
// dying in earlier runs, which it must leave alone and treat as unusable).

// Died is an item the program died in.
type Died struct {
	Item int
	How  string // "SIGSEGV", "exit status 1", "hung"
}

// Resumed is the outcome of a program run to its end across its deaths.
type Resumed struct {
	Records []*mpi.Records // one per run, in order
	Died    []Died
}

// resumedPlain keeps the outcome of each resumed program run without
// injectors, by implementation and job.
var resumedPlain sync.Map

func init() { mpi.Memos.OnReset(func() { resumedPlain.Clear() }) }

// maxResumes bounds the runs of one resumed program.
const maxResumes = 64

// LaunchResuming runs j (each run once per identical job, as LaunchOnce) until
// a run ends well. A run that dies before its first attempt, or after its
// last, ends the rule's judgement with Error: it is not an item's doing. With fault
// injectors preloaded it starts from the items that died in the same
// program's run without them: an injector spec proves the judge, and need
// not find the implementation's own deaths again, one launch each. (A
// conforming shim may cure them, so its runs start afresh.)
func (x *X) LaunchResuming(j mpi.Job) *Resumed {
	out := &Resumed{}
	key := x.Impl.ID + "\x00" + jobKey(j)
	if len(x.Preload) > 0 {
		if r, ok := resumedPlain.Load(key); ok && x.Injecting {
			out.Died = append(out.Died, r.(*Resumed).Died...)
		}
	} else {
		defer func() { resumedPlain.Store(key, out) }()
	}
	from, base := 0, j.Args
	j.Urgent = true // each run waits on the one before: the chain is a run's longest path
	defer x.afterChain.Store(true)
	for run := 0; ; run++ {
		if run == maxResumes {
			x.Errorf("", "%s died in %d items in a row; given up", j.Name, maxResumes)
		}
		j.Args = append(append([]string(nil), base...), "--from="+strconv.Itoa(from), "--died="+diedList(out.Died))
		res, recs, err := x.LaunchOnce(j)
		if err != nil && res.OK() {
			x.Errorf(res.Evidence(), "%s: %v", j.Name, err)
		}
		if recs != nil {
			out.Records = append(out.Records, recs)
		}
		if res.OK() {
			return out
		}
		last, ok := lastAttempt(recs)
		if !ok || last < from {
			x.Errorf(res.Evidence(), "%s (from item %d): %s, before its first item", j.Name, from, res.Problem())
		}
		if recs != nil && len(recs.Kind("items_done", -1)) > 0 {
			x.Errorf(res.Evidence(), "%s: %s, after its last item", j.Name, res.Problem())
		}
		out.Died = append(out.Died, Died{Item: last, How: deathOf(res)})
		from = last + 1
		if n, ok := itemCount(recs); ok && from >= n {
			return out // it died in its last item
		}
	}
}

// Items returns the items that died, by item number.
func (r *Resumed) Items() map[int]Died {
	m := map[int]Died{}
	for _, d := range r.Died {
		m[d.Item] = d
	}
	return m
}

func diedList(d []Died) string {
	s := make([]string, len(d))
	for i, x := range d {
		s[i] = strconv.Itoa(x.Item)
	}
	return strings.Join(s, ",")
}

func lastAttempt(recs *mpi.Records) (int, bool) {
	if recs == nil {
		return 0, false
	}
	at := recs.Kind("attempt", -1)
	if len(at) == 0 {
		return 0, false
	}
	var a struct {
		Item *int `json:"item"`
	}
	if json.Unmarshal(at[len(at)-1].Raw, &a) != nil || a.Item == nil {
		return 0, false
	}
	return *a.Item, true
}

func itemCount(recs *mpi.Records) (int, bool) {
	if recs == nil {
		return 0, false
	}
	c, _ := mpi.DecodeKind[struct {
		Count int `json:"count"`
	}](recs, "items")
	if len(c) == 0 {
		return 0, false
	}
	return c[0].Count, true
}

func deathOf(res *mpi.Result) string {
	switch {
	case res.TimedOut:
		return "hung"
	case res.Signal != "":
		return res.Signal
	}
	return fmt.Sprintf("exit status %d", res.ExitCode)
}
