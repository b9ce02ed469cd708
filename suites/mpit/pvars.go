package mpit

import (
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// The records of fixtures/c/mpit/pvars.c, shared by the session and the
// operations checks: its items run (the operations that may kill the
// process, resumed after each death) and its traffic run (2 ranks, traffic
// with known counts, without the variables whose allocation killed the
// items run).
type pvarRecs struct {
	recs      *mpi.Records
	summary   pvarSummary
	vars      []pvarListed
	probes    []probeRec
	exits     []childExit
	sums      []sumRec
	same      []sameRec
	stops     []stopRec
	truth     []truthRec
	startstop []startStopRec
	mutates   []mutateRec
	errs      []errRec
	ubs       []ubRec
	freed     []ubRec
	unstarted []unstartedRec
	itemRuns  int // the runs of the items program (one, and one more after each death)
}

type pvarSummary struct {
	InitRC int `json:"init_rc"`
	Num    int `json:"num"`
	Listed int `json:"listed"`
	Used   int `json:"used"`
	NX     int `json:"nx"`
	MP     int `json:"mp"`
}

type pvarListed struct {
	Index      int    `json:"index"`
	Name       string `json:"name"`
	Class      string `json:"class"`
	Datatype   string `json:"datatype"`
	Bind       int    `json:"bind"`
	Bound      int    `json:"bound"`
	Readonly   int    `json:"readonly"`
	Continuous int    `json:"continuous"`
	Atomic     int    `json:"atomic"`
	Usable     int    `json:"usable"`
}

type probeRec struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	SessionRC string `json:"session_rc"`
	AllocRC   string `json:"alloc_rc"`
	Count     int    `json:"count"`
	ReadRC    string `json:"read_rc"`
	Overrun   int    `json:"overrun"`
	FreeRC    string `json:"free_rc"`
	FreedNull int    `json:"freed_null"` // the handle is MPI_T_PVAR_HANDLE_NULL after the free (-1: not freed)
}

// childExit is an item of the items run the process died in: Kind is
// probe_exit, mutate_exit (Index: the variable's), err_exit, ub_exit or
// freed_exit (Index: the case's).
type childExit struct {
	Kind  string
	Index int
	How   string // "SIGSEGV", "SIGALRM" (the fixture's 20 s alarm), "exit status 1"
}

type sumRec struct {
	Index      int     `json:"index"`
	Name       string  `json:"name"`
	Class      string  `json:"class"`
	Datatype   string  `json:"datatype"`
	Continuous int     `json:"continuous"`
	Count      int     `json:"count"`
	A0         vals    `json:"a0"`
	AMid       vals    `json:"a_mid"`
	AEnd       vals    `json:"a_end"`
	B0         vals    `json:"b0"`
	BEnd       vals    `json:"b_end"`
	RCA        string  `json:"rc_a"`
	RCB        string  `json:"rc_b"`
	WallA      float64 `json:"wall_a"`
	WallB      float64 `json:"wall_b"`
}

type sameRec struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Class    string `json:"class"`
	Datatype string `json:"datatype"`
	A        vals   `json:"a"`
	B        vals   `json:"b"`
	RCA      string `json:"rc_a"`
	RCB      string `json:"rc_b"`
}

type stopRec struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Datatype string `json:"datatype"`
	AStopped vals   `json:"a_stopped"`
	ALater   vals   `json:"a_later"`
	BBefore  vals   `json:"b_before"`
	BLater   vals   `json:"b_later"`
	DOK      int    `json:"d_ok"` // session D's handle, started after A's stop, was read
	DBefore  vals   `json:"d_before"`
	DLater   vals   `json:"d_later"`
}

// unstartedRec is a handle of session C, allocated with A's (before
// traffic X), read at allocation and after X, then started after X beside
// B's (made after X).
type unstartedRec struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Class    string `json:"class"`
	Datatype string `json:"datatype"`
	RC0      string `json:"rc0"`      // the read at allocation
	RCPre    string `json:"rc_pre"`   // the read after X, before the start
	StartRC  string `json:"start_rc"` // the start
	RC       string `json:"rc"`       // the read after the start
	C0       vals   `json:"c0"`
	CPre     vals   `json:"c_pre"`
	CStarted vals   `json:"c_started"`
	A0       vals   `json:"a0"`
	AMid     vals   `json:"a_mid"`
	B0       vals   `json:"b0"`
}

type truthRec struct {
	What     string  `json:"what"`
	Name     string  `json:"name"`
	Index    int     `json:"index"`
	Point    string  `json:"point"`
	Element  int     `json:"element"`
	Expected float64 `json:"expected"`
	Got      float64 `json:"got"`
	RC       string  `json:"rc"`
}

type startStopRec struct {
	Index   int    `json:"index"`
	Name    string `json:"name"`
	StartRC string `json:"start_rc"`
	StopRC  string `json:"stop_rc"`
}

type mutateRec struct {
	Index           int    `json:"index"`
	Name            string `json:"name"`
	Class           string `json:"class"`
	Datatype        string `json:"datatype"`
	Atomic          int    `json:"atomic"`
	A0              vals   `json:"a0"`
	B0              vals   `json:"b0"`
	Written         vals   `json:"written"`
	WriteRC         string `json:"write_rc"`
	AAfterWrite     vals   `json:"a_after_write"`
	BAfterWrite     vals   `json:"b_after_write"`
	ResetRC         string `json:"reset_rc"`
	AAfterReset     vals   `json:"a_after_reset"`
	BAfterReset     vals   `json:"b_after_reset"`
	ReadresetRC     string `json:"readreset_rc"`
	ReadresetValue  vals   `json:"readreset_value"`
	AAfterReadreset vals   `json:"a_after_readreset"`
	BAfterReadreset vals   `json:"b_after_readreset"`
}

type errRec struct {
	What  string `json:"what"`
	Index int    `json:"index"`
	Name  string `json:"name"`
	RC    string `json:"rc"`
	Want  string `json:"want"`
}

type ubRec struct {
	What string `json:"what"`
	RC   string `json:"rc"`
}

// pvarJob runs the session job (once per implementation and injector set)
// for a rule about a variable's handle or value: after checking that there
// are performance variables to run it with.
func pvarJob(x *rulebook.X) *pvarRecs {
	if x.Caps.AfterInit.Pvars == 0 {
		x.Unsupported("MPI_T_pvar_get_num gives 0 after MPI_Init: no performance variables")
	}
	return pvarSessionJob(x)
}

// pvarSessionJob runs the session job for a rule about sessions themselves
// (create, free, MPI_T_PVAR_ALL_HANDLES in a session with no handle, a
// freed session), which needs no variable: the items run's error and
// freed-session cases make and use sessions whatever MPI_T_pvar_get_num
// gives.
func pvarSessionJob(x *rulebook.X) *pvarRecs {
	if n := x.Caps.AfterInit.Pvars; n < 0 {
		x.Unsupported("MPI_T_pvar_get_num could not be asked after MPI_Init (%s)", x.Caps.AfterInit.Note)
	}
	// Both ranks on one node, also through Slurm: what the traffic must move
	// (MPICH's receive-queue variables) moves for messages on the
	// shared-memory path, not for those a network module matches.
	items := x.LaunchResuming(mpi.Job{Name: "mpit_pvars_items", Ranks: 2, Program: x.Fixture("mpit_pvars"), Args: []string{"items"}, OneNode: true})
	n := -1 // the number of listed variables: the items run counts 2n + 5 items
	var avoid []string
	for _, recs := range items.Records {
		for _, c := range mpi.Decode[struct {
			Count int `json:"count"`
		}](recs, "items") {
			n = (c.Count - 5) / 2
		}
	}
	for _, d := range items.Died {
		if d.Item < n {
			avoid = append(avoid, strconv.Itoa(d.Item))
		}
	}
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_pvars", Ranks: 2, Program: x.Fixture("mpit_pvars"), OneNode: true,
		Args: []string{"traffic", "--avoid=" + strings.Join(avoid, ",")}})
	r := &pvarRecs{recs: recs, itemRuns: len(items.Records)}
	sums := mpi.Decode[pvarSummary](recs, "summary")
	if len(sums) != 1 {
		x.Errorf("", "mpit_pvars wrote no summary (it stopped early)")
	}
	r.summary = sums[0]
	r.vars = mpi.Decode[pvarListed](recs, "pvar")
	if n >= 0 && n != len(r.vars) {
		x.Errorf("", "the items run listed %d variables, the traffic run %d: positions do not name the same variables", n, len(r.vars))
	}
	for _, d := range items.Died {
		e := childExit{Index: -1, How: d.How}
		switch {
		case d.Item < n:
			e.Kind, e.Index = "probe_exit", r.vars[d.Item].Index
		case d.Item < 2*n:
			e.Kind, e.Index = "mutate_exit", r.vars[d.Item-n].Index
		case d.Item == 2*n:
			e.Kind = "err_exit"
		case d.Item == 2*n+1:
			e.Kind = "ub_exit"
		default:
			e.Kind, e.Index = "freed_exit", d.Item-2*n-2 // the freed-session case
		}
		r.exits = append(r.exits, e)
	}
	for _, recs := range items.Records {
		r.probes = append(r.probes, mpi.Decode[probeRec](recs, "probe")...)
		r.mutates = append(r.mutates, mpi.Decode[mutateRec](recs, "mutate")...)
		r.errs = append(r.errs, mpi.Decode[errRec](recs, "err")...)
		r.ubs = append(r.ubs, mpi.Decode[ubRec](recs, "ub")...)
		r.freed = append(r.freed, mpi.Decode[ubRec](recs, "freed")...)
	}
	r.sums = mpi.Decode[sumRec](recs, "sum")
	r.same = mpi.Decode[sameRec](recs, "same")
	r.stops = mpi.Decode[stopRec](recs, "stop")
	r.truth = mpi.Decode[truthRec](recs, "truth")
	r.startstop = mpi.Decode[startStopRec](recs, "startstop")
	r.unstarted = mpi.Decode[unstartedRec](recs, "unstarted")
	return r
}

// crashed returns the items of one kind the process died in, by variable index.
func (r *pvarRecs) crashed(kind string) map[int]childExit {
	out := map[int]childExit{}
	for _, e := range r.exits {
		if e.Kind == kind {
			out[e.Index] = e
		}
	}
	return out
}

func (r *pvarRecs) name(index int) string {
	for _, v := range r.vars {
		if v.Index == index {
			return v.Name
		}
	}
	return "?"
}
