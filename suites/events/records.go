package events

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Records the events fixtures write (fixtures/c/events/events_callbacks.h,
// events_actions.h, events_deliver.c, events_threads.c).

type cbRec struct {
	Seq      int      `json:"seq"`
	Phase    int      `json:"phase"`
	Sub      string   `json:"sub"`
	Event    string   `json:"event"`
	Slot     int      `json:"slot"`
	Level    int      `json:"level"`
	UserOK   bool     `json:"user_ok"`
	HandleOK bool     `json:"handle_ok"`
	PidOK    bool     `json:"pid_ok"`
	Safety   int      `json:"safety"`
	Tid      int      `json:"tid"`
	Elems    []string `json:"elems"`
	ReadRCs  []int    `json:"read_rcs"`
	CopyRC   int      `json:"copy_rc"`
	CopyOK   bool     `json:"copy_ok"`
	TsRC     int      `json:"ts_rc"`
	Ts       string   `json:"ts"`
	SrcRC    int      `json:"src_rc"`
	Src      int      `json:"src"`
	GuardAt  int      `json:"guard_at"` // first guard byte after the extent MPI_T_event_copy changed, -1 none
	Extent   int64    `json:"extent"`
	NowRC    string   `json:"now_rc"` // MPI_T_source_get_timestamp of the instance's source, in the callback
	Now      string   `json:"now"`
	// NA names the queries that returned MPI_T_ERR_NOT_ACCESSIBLE (read,
	// copy, timestamp, source, source_timestamp).
	NA map[string]bool `json:"not_accessible"`
	mpi.FromRank
}

type factRec struct {
	Seq    int               `json:"seq"`
	Phase  int               `json:"phase"`
	Sub    string            `json:"sub"`
	Thread int               `json:"thread"`
	I      int               `json:"i"`
	Facts  map[string]string `json:"facts"`
	mpi.FromRank
}

type phaseRec struct {
	Phase    int      `json:"phase"`
	Mode     string   `json:"mode"`
	Action   string   `json:"action"`
	K        int      `json:"k"`
	Events   []string `json:"events"`
	Binds    []string `json:"binds"`
	Present  bool     `json:"present"`
	Observer bool     `json:"observer"`
	mpi.FromRank
}

type droppedRec struct {
	Seq      int    `json:"seq"`
	Phase    int    `json:"phase"`
	Sub      string `json:"sub"`
	Count    int64  `json:"count"`
	HandleOK bool   `json:"handle_ok"`
	Source   int    `json:"source"`
	Safety   int    `json:"safety"`
	Handler  string `json:"handler"` // "current", or "replaced": a handler set and replaced before
	mpi.FromRank
}

type freecbRec struct {
	Seq      int    `json:"seq"`
	Phase    int    `json:"phase"`
	HandleOK bool   `json:"handle_ok"`
	UserOK   bool   `json:"user_ok"`
	Safety   int    `json:"safety"`
	Sub      string `json:"sub"`
	FreedBy  string `json:"freed_by"` // "main", or "callback": the handle's own callback freed it
	mpi.FromRank
}

// selffreeRec is a callback's MPI_T_event_handle_free of its own handle.
type selffreeRec struct {
	Seq   int    `json:"seq"`
	Phase int    `json:"phase"`
	Sub   string `json:"sub"`
	Slot  int    `json:"slot"`
	RC    string `json:"rc"`
	mpi.FromRank
}

// cbpvarRec is the performance-variable calls made inside a callback.
type cbpvarRec struct {
	Seq   int               `json:"seq"`
	Phase int               `json:"phase"`
	Sub   string            `json:"sub"`
	Pvar  string            `json:"pvar"`
	Calls map[string]string `json:"calls"`
	NA    map[string]bool   `json:"not_accessible"`
	mpi.FromRank
}

// pvarRec is the performance variable chosen for the calls in a callback.
type pvarRec struct {
	Phase     int    `json:"phase"`
	Index     int    `json:"index"`
	Name      string `json:"name"`
	SessionRC int    `json:"session_rc"`
	HandleRC  int    `json:"handle_rc"`
	Count     int    `json:"count"`
	Used      bool   `json:"used"`
	mpi.FromRank
}

// evsigRec is what an event type must keep identical across processes.
type evsigRec struct {
	Index     int    `json:"index"`
	RC        int    `json:"rc"`
	Name      string `json:"name"`
	Verbosity string `json:"verbosity"`
	Num       int    `json:"num"`
	Types     string `json:"types"`
	Enum      string `json:"enum"`
	Bind      string `json:"bind"`
	mpi.FromRank
}

type preinitRec struct {
	NumRC int `json:"num_rc"`
	Num   int `json:"num"`
	mpi.FromRank
}

type eventsRec struct {
	Rank    int      `json:"rank"`
	Size    int      `json:"size"`
	Names   []string `json:"names"`
	Sources int      `json:"sources"`
	Note    string   `json:"note"`
	// NADefined: mpi.h defines MPI_T_ERR_NOT_ACCESSIBLE (MPI 4.0 added it).
	NADefined bool `json:"not_accessible_defined"`
}

type errorRec struct {
	Phase int    `json:"phase"`
	Sub   string `json:"sub"`
	What  string `json:"what"`
	RC    int    `json:"rc"`
	mpi.FromRank
}

// jobOut is one fixture job: what happened and the records it left.
type jobOut struct {
	Name     string
	Problem  string // "" when the job ended well
	Signal   string
	Evidence string
	Recs     *mpi.Records
	RecErr   error
	Died     map[int]rulebook.Died // items a resumed job died in (metaJob)
	Res      *mpi.Result           // how the job ended (sharedJob), for placing a death
	Ranks    int
}

// sharedJob runs a fixture once per (implementation, arguments, preloaded
// injectors) for all the rules that judge it (harness LaunchOnce). Its
// ranks share a node, also through Slurm: the profiles know what an action
// raises only there (MPICH's receive-queue events are raised for messages
// on ch4's shared-memory path, not for those a network module matches).
func sharedJob(x *rulebook.X, name string, ranks int, args []string) *jobOut {
	res, recs, err := x.LaunchOnce(mpi.Job{Name: name, Ranks: ranks, Program: x.Fixture(name), Args: args, OneNode: true})
	return &jobOut{Name: name, Problem: res.Problem(), Signal: res.Signal, Evidence: res.Evidence(), Recs: recs, RecErr: err, Res: res, Ranks: ranks}
}

// placeCrash ends the rule's judgement when the job died inside a call the
// fixture announced (MPITS_CALL): the rule's fail when it governs that
// call, not judged with a cause naming it otherwise (rulebook.Crashed). It
// returns when the job ended well or its death is not placed.
func (j *jobOut) placeCrash(x *rulebook.X) {
	if j.Res != nil {
		x.Crashed(j.Res, mpi.CrashOf(j.Res, rulebook.WrittenRecords(j.Recs, j.RecErr), j.Ranks))
	}
}

// mustBeWhole ends the rule's judgement when the job broke (a crash, a
// hang or missing records), for rules a broken job cannot judge: as
// placeCrash says for a death inside an announced call, with Error
// otherwise.
func (j *jobOut) mustBeWhole(x *rulebook.X) {
	if j.Problem != "" {
		j.placeCrash(x)
		x.Errorf(j.Evidence, "%s", j.Problem)
	}
	if j.RecErr != nil {
		x.Errorf(j.Evidence, "%s", j.RecErr.Error())
	}
}

// errors are the "error" records: calls the fixture could not make.
func (j *jobOut) errors() []errorRec { return mpi.DecodeRanked[errorRec](j.Recs, "error") }

// eventsRun is what the delivery and probe jobs tell about an implementation.
type eventsRun struct {
	Deliver, Probe *jobOut
	Names          []string
	Sources        int
	NADefined      bool
	Profiles       []profile
}

// needEvents ends the rule's judgement unsupported when the implementation has no
// event types after MPI_Init, or none a profile describes (without the
// events interface, the rule's Needs stops it before its judge runs).
func needEvents(x *rulebook.X) *eventsRun {
	n := x.Caps.AfterInit.Events
	if n == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	r := &eventsRun{
		Deliver: sharedJob(x, "events_deliver", 2, deliverArgs()),
		Probe:   sharedJob(x, "events_deliver", 2, probeArgs()),
	}
	// The probe job registers only probe events and must end well; the
	// delivery job may crash in a callback (a verdict of its own rule, CB-X1).
	r.Probe.mustBeWhole(x)
	evs := mpi.DecodeRanked[eventsRec](r.Probe.Recs, "events")
	if len(evs) == 0 {
		x.Errorf(r.Probe.Evidence, "events_deliver wrote no events record")
	}
	r.Names, r.Sources, r.NADefined = evs[0].Names, evs[0].Sources, evs[0].NADefined
	present := map[string]bool{}
	for _, name := range r.Names {
		present[name] = true
	}
	r.Profiles = selectProfiles(present)
	if len(r.Profiles) == 0 {
		x.Unsupported("no profile describes these %d events (%s): no ground truth to check delivery against", len(r.Names), strings.Join(r.Names, ", "))
	}
	return r
}

// hexValue parses a fixture's hex value ("" is no value).
func hexValue(s string) (uint64, bool) {
	var v uint64
	_, err := fmt.Sscanf(s, "%x", &v)
	return v, err == nil
}

// jsonOf shows records as evidence, one per line.
func jsonOf[T any](recs []T) string {
	var b strings.Builder
	for _, r := range recs {
		data, _ := json.Marshal(r)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// bySub groups callback records by (phase, sub).
func bySub(cbs []cbRec) map[string][]cbRec {
	out := map[string][]cbRec{}
	for _, c := range cbs {
		k := fmt.Sprintf("%d/%s", c.Phase, c.Sub)
		out[k] = append(out[k], c)
	}
	for k := range out {
		sort.SliceStable(out[k], func(a, b int) bool { return out[k][a].Rank < out[k][b].Rank })
	}
	return out
}
