package mpit

import (
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// The records of fixtures/c/mpit/walk.c: one walk over every MPI_T object
// after MPI_Init, shared by the strings, names and metadata checks.
type walkRecs struct {
	recs       *mpi.Records
	summary    walkSummary
	cvars      []cvarRec
	pvars      []pvarRec
	categories []categoryRec
	enums      []enumRec
	events     []eventRec
	sources    []sourceRec
}

type walkSummary struct {
	InitRC     int `json:"init_rc"`
	Cvars      int `json:"cvars"`
	Pvars      int `json:"pvars"`
	Categories int `json:"categories"`
	Events     int `json:"events"`
	Sources    int `json:"sources"`
	Enums      int `json:"enums"`
	MPIVersion int `json:"mpi_version"`
}

type cvarRec struct {
	Index      int    `json:"index"`
	RC         string `json:"rc"`
	Name       string `json:"name"`
	Verbosity  int    `json:"verbosity"`
	VerbValue  int    `json:"verbosity_value"` // what get_info answered
	Datatype   string `json:"datatype"`
	Enum       int    `json:"enum"`
	Bind       string `json:"bind"`
	Scope      string `json:"scope"`
	GetIndexRC string `json:"get_index_rc"`
	GetIndex   int    `json:"get_index"`
}

type pvarRec struct {
	Index      int    `json:"index"`
	RC         string `json:"rc"`
	Name       string `json:"name"`
	Verbosity  int    `json:"verbosity"`
	VerbValue  int    `json:"verbosity_value"` // what get_info answered
	Class      string `json:"class"`
	Datatype   string `json:"datatype"`
	Enum       int    `json:"enum"`
	Bind       string `json:"bind"`
	Readonly   int    `json:"readonly"`
	Continuous int    `json:"continuous"`
	Atomic     int    `json:"atomic"`
	GetIndexRC string `json:"get_index_rc"`
	GetIndex   int    `json:"get_index"`
}

type categoryRec struct {
	Index      int    `json:"index"`
	RC         string `json:"rc"`
	Name       string `json:"name"`
	GetIndexRC string `json:"get_index_rc"`
	GetIndex   int    `json:"get_index"`
	Cvars      []int  `json:"cvars"`
	Pvars      []int  `json:"pvars"`
	Categories []int  `json:"categories"`
	Events     []int  `json:"events"`
	ListsRC    string `json:"lists_rc"`
}

type enumRec struct {
	ID    int    `json:"id"`
	RC    string `json:"rc"`
	Name  string `json:"name"`
	Num   int    `json:"num"`
	Items []struct {
		Value int    `json:"value"`
		Name  string `json:"name"`
		RC    string `json:"rc"`
	} `json:"items"`
}

type eventRec struct {
	Index      int    `json:"index"`
	RC         string `json:"rc"`
	Name       string `json:"name"`
	Verbosity  int    `json:"verbosity"`
	VerbValue  int    `json:"verbosity_value"` // what get_info answered
	Enum       int    `json:"enum"`
	Bind       string `json:"bind"`
	GetIndexRC string `json:"get_index_rc"`
	GetIndex   int    `json:"get_index"`
}

type sourceRec struct {
	Index int    `json:"index"`
	RC    string `json:"rc"`
	Name  string `json:"name"`
}

// walk runs the walk (once per implementation and injector set).
func walk(x *rulebook.X) *walkRecs {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_walk", Ranks: 1, Program: x.Fixture("mpit_walk")})
	w := &walkRecs{recs: recs}
	sums := mpi.Decode[walkSummary](recs, "summary")
	if len(sums) != 1 {
		x.Errorf("", "mpit_walk wrote no summary (it stopped early)")
	}
	w.summary = sums[0]
	if w.summary.InitRC != 0 {
		x.Errorf("", "MPI_T_init_thread failed in mpit_walk")
	}
	w.cvars = mpi.Decode[cvarRec](recs, "cvar")
	w.pvars = mpi.Decode[pvarRec](recs, "pvar")
	w.categories = mpi.Decode[categoryRec](recs, "category")
	w.enums = mpi.Decode[enumRec](recs, "enum")
	w.events = mpi.Decode[eventRec](recs, "event")
	w.sources = mpi.Decode[sourceRec](recs, "source")
	return w
}
