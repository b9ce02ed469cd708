package harness

import (
	"fmt"
	"strings"
)

// Several checks often judge the records of one job (a metadata walk, a
// session run), and an injector spec may evaluate a check again: LaunchOnce
// runs each distinct job once per process and implementation and set of
// preloaded injectors, and replays its outcome (a harness panic included).
type launched struct {
	res  *Result
	recs *Records
	err  error
}

var launches Memo[launched]

// LaunchOnce is Launch, run once for identical jobs: rules judged side by
// side that need the same job wait for the one run of it.
func (x *X) LaunchOnce(j Job) (*Result, *Records, error) {
	key := x.Impl.ID + "\x00" + strings.Join(x.Preload, ":") + "\x00" + jobKey(j)
	l := launches.Do(key, func() launched {
		res, recs, err := x.Launch(j)
		return launched{res, recs, err}
	})
	return l.res, l.recs, l.err
}

// jobKey tells identical jobs of one implementation apart.
func jobKey(j Job) string {
	return strings.Join([]string{j.Name, j.Program, strings.Join(j.Args, "\x01"), itoa(j.Ranks), fmt.Sprint(j.OneNode),
		strings.Join(sortedAssignments(j.Env), "\x01"), strings.Join(sortedAssignments(j.RankEnv), "\x01")}, "\x00")
}

// JobOnce is Job, run once for identical jobs.
func (x *X) JobOnce(j Job) (*Result, *Records) {
	res, recs, err := x.LaunchOnce(j)
	return res, mustBeWhole(res, recs, err)
}

// mustBeWhole ends the rule's judgement with Error when the job crashed, hung or failed,
// or its records are missing.
func mustBeWhole(res *Result, recs *Records, err error) *Records {
	if !res.OK() {
		panic(Verdict{Status: Error, Reason: res.Problem(), Evidence: res.Evidence()})
	}
	if err != nil {
		panic(Verdict{Status: Error, Reason: err.Error(), Evidence: res.Evidence()})
	}
	return recs
}
