package mpit

import (
	"github.com/mpits/mpits/harness"
)

// The records of fixtures/c/mpit/pvars.c (2 ranks, traffic with known
// counts), shared by the session and the operations checks.
type pvarRecs struct {
	recs      *harness.Records
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
}

// childExit is how a forked child of the fixture ended (kind tells which).
type childExit struct {
	Kind   string
	What   string `json:"what"`
	Index  int    `json:"index"`
	Signal int    `json:"signal"`
	Exit   int    `json:"exit"`
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
// after checking that there are performance variables to run it with.
func pvarJob(x *harness.X) *pvarRecs {
	switch n := x.Caps.AfterInit.Pvars; {
	case n < 0:
		x.Unsupported("MPI_T_pvar_get_num could not be asked after MPI_Init (%s)", x.Caps.AfterInit.Note)
	case n == 0:
		x.Unsupported("MPI_T_pvar_get_num gives 0 after MPI_Init: no performance variables")
	}
	_, recs := x.JobOnce(harness.Job{Name: "mpit_pvars", Ranks: 2, Program: x.Fixture("mpit_pvars")})
	r := &pvarRecs{recs: recs}
	sums := decode[pvarSummary](recs, "summary")
	if len(sums) != 1 {
		panic(harness.Verdict{Status: harness.Error, Reason: "mpit_pvars wrote no summary (it stopped early)"})
	}
	r.summary = sums[0]
	r.vars = decode[pvarListed](recs, "pvar")
	r.probes = decode[probeRec](recs, "probe")
	for _, kind := range []string{"probe_exit", "mutate_exit", "err_exit", "ub_exit"} {
		for _, e := range decode[childExit](recs, kind) {
			e.Kind = kind
			r.exits = append(r.exits, e)
		}
	}
	r.sums = decode[sumRec](recs, "sum")
	r.same = decode[sameRec](recs, "same")
	r.stops = decode[stopRec](recs, "stop")
	r.truth = decode[truthRec](recs, "truth")
	r.startstop = decode[startStopRec](recs, "startstop")
	r.mutates = decode[mutateRec](recs, "mutate")
	r.errs = decode[errRec](recs, "err")
	r.ubs = decode[ubRec](recs, "ub")
	return r
}

// crashed returns the children of one kind that died, by variable index.
func (r *pvarRecs) crashed(kind string) map[int]childExit {
	out := map[int]childExit{}
	for _, e := range r.exits {
		if e.Kind == kind && (e.Signal != 0 || e.Exit != 0) {
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
