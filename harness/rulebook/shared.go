package rulebook

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// Several checks often judge the records of one job (a metadata walk, a
// session run), and an injector spec may evaluate a check again: LaunchOnce
// runs each distinct job once per process and implementation and set of
// preloaded injectors, and replays its outcome (a harness panic included).
type launched struct {
	res  *mpi.Result
	recs *mpi.Records
	err  error
}

var launches mpi.Memo[launched]

// LaunchOnce is Launch, run once for identical jobs: rules judged side by
// side that need the same job wait for the one run of it.
func (x *X) LaunchOnce(j mpi.Job) (*mpi.Result, *mpi.Records, error) {
	key := x.Impl.ID + "\x00" + strings.Join(x.Preload, ":") + "\x00" + jobKey(j)
	l := launches.Do(key, func() launched {
		res, recs, err := x.Launch(j)
		return launched{res, recs, err}
	})
	return l.res, l.recs, l.err
}

// jobKey tells identical jobs of one implementation apart.
func jobKey(j mpi.Job) string {
	return strings.Join([]string{j.Name, j.Program, strings.Join(j.Args, "\x01"), strconv.Itoa(j.Ranks), fmt.Sprint(j.OneNode),
		strings.Join(mpi.SortedAssignments(j.Env), "\x01"), strings.Join(mpi.SortedAssignments(j.RankEnv), "\x01")}, "\x00")
}

// JobOnce is Job, run once for identical jobs.
func (x *X) JobOnce(j mpi.Job) (*mpi.Result, *mpi.Records) {
	res, recs, err := x.LaunchOnce(j)
	return res, x.mustBeWhole(j, res, recs, err)
}

// mustBeWhole ends the rule's judgement when the job crashed, hung or
// failed, or its records are missing: inside a library call, as Crashed
// says; elsewhere with Error (the fixture or the suite broke).
func (x *X) mustBeWhole(j mpi.Job, res *mpi.Result, recs *mpi.Records, err error) *mpi.Records {
	if !res.OK() {
		x.Crashed(res, mpi.CrashOf(res, WrittenRecords(recs, err), j.Ranks))
		panic(verdict.Verdict{Status: verdict.Error, Reason: res.Problem(), Evidence: res.Evidence()})
	}
	if err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: err.Error(), Evidence: res.Evidence()})
	}
	return recs
}
