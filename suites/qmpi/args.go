package qmpi

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// Seed 001, "Requirements": "Complete coverage of all tool functionality -
// Incl. changes to parameters or routines used"; "Tools Responsibilities":
// tool routines call the "follow on routine" like PMPI wrappers do, so what
// a tool passes on is what the layer below (and MPI) gets, and what a tool
// returns is what the caller gets. MPI-4.1 §9.3: under MPI_ERRORS_RETURN
// error codes are returned to the user.
var argsAndResults = harness.Define(harness.Check{
	ID:        "QMPI-ARGS-001",
	Clause:    "seed:001",
	Needs:     "qmpi",
	Title:     "a tool's change to an argument (tag, count, buffer) reaches the layer below and MPI, and a return code a tool sets or an error it returns reaches the application under MPI_ERRORS_RETURN",
	Injectors: []string{"inject_qmpi_drop_error"},
	Run:       runArgsAndResults,
})

type argsApp struct {
	Rank       int   `json:"rank"`
	SendRC     int   `json:"send_rc"`
	RecvRC     int   `json:"recv_rc"`
	RecvTag    int   `json:"recv_tag"`
	RecvCount  int   `json:"recv_count"`
	Recv       []int `json:"recv"`
	TypeSizeRC int   `json:"type_size_rc"`
	BarrierRC  int   `json:"barrier_rc"`
	BarrierCls int   `json:"barrier_class"`
	ErrType    int   `json:"err_type"`
	ErrOther   int   `json:"err_other"`
}

type recSend struct {
	Tag   int `json:"tag"`
	Count int `json:"count"`
	V0    int `json:"v0"`
	V1    int `json:"v1"`
}

func runArgsAndResults(x *harness.X) harness.Verdict {
	requireQMPI(x)
	_, recs := x.Job(harness.Job{
		Name: "qmpi_app_args", Ranks: 2, Program: x.Fixture("qmpi_app_args"),
		RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_args")},
		Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "mod:rec"},
	})
	ev := recordsText(recs)
	apps := decodeAll[argsApp](x, recs, "app_args")
	if len(apps) != 2 {
		x.Failf(ev, "want an app_args record from each of 2 ranks, got %d", len(apps))
	}
	inits := recs.Kind("init", -1)
	if len(inits) != 4 {
		x.Failf(ev, "want init callbacks for mod and rec on both ranks, got %d", len(inits))
	}
	// The layer below sees the changed tag, count and buffer.
	sent := decodeAll[recSend](x, recs, "rec_send")
	if len(sent) != 1 {
		x.Failf(ev, "rec saw %d MPI_Send calls, want 1", len(sent))
	}
	if s := sent[0]; s.Tag != 1010 || s.Count != 2 || s.V0 != 777 || s.V1 != 778 {
		x.Failf(ev, "the inner tool got tag %d, count %d, values %d %d after the outer tool changed them to 1010, 2, 777 778", s.Tag, s.Count, s.V0, s.V1)
	}
	for _, a := range apps {
		if a.Rank == 1 && (a.RecvRC != 0 || a.RecvTag != 1010 || a.RecvCount != 2 || a.Recv[0] != 777 || a.Recv[1] != 778) {
			x.Failf(ev, "rank 1 received rc %d, tag %d, count %d, values %v; the tool sent tag 1010, count 2, values 777 778", a.RecvRC, a.RecvTag, a.RecvCount, a.Recv)
		}
		// The error a tool returns, through the tool above it, to the application.
		if a.TypeSizeRC != a.ErrType {
			x.Failf(ev, "rank %d: MPI_Type_size returned %d to the application; the inner tool returned MPI_ERR_TYPE (%d)", a.Rank, a.TypeSizeRC, a.ErrType)
		}
		// The return code a tool sets in place of MPI's.
		if a.BarrierRC != a.ErrOther {
			x.Failf(ev, "rank %d: MPI_Barrier returned %d to the application; the outer tool returned MPI_ERR_OTHER (%d)", a.Rank, a.BarrierRC, a.ErrOther)
		}
	}
	type modTS struct {
		RCBelow int `json:"rc_below"`
	}
	for _, m := range decodeAll[modTS](x, recs, "mod_type_size") {
		if m.RCBelow != apps[0].ErrType {
			x.Failf(ev, "the outer tool got %d from the inner tool's MPI_Type_size, which returned MPI_ERR_TYPE (%d)", m.RCBelow, apps[0].ErrType)
		}
	}
	return harness.Verdict{Reason: "tag 10→1010, count 1→2 and buffer swapped by mod reached rec and rank 1's MPI_Recv; MPI_ERR_TYPE returned by rec reached mod and the application; MPI_ERR_OTHER set by mod on MPI_Barrier reached the application"}
}

// decodeAll decodes every record of one kind, ending the check with Error
// on a malformed one.
func decodeAll[T any](x *harness.X, recs *harness.Records, kind string) []T {
	out, err := harness.DecodeKind[T](recs, kind)
	if err != nil {
		panic(harness.Verdict{Status: harness.Error, Reason: err.Error()})
	}
	return out
}

// recordsText is every record of a job, rank by rank, capped.
func recordsText(recs *harness.Records) string {
	var lines []string
	for _, r := range recs.All {
		lines = append(lines, fmt.Sprintf("rank %d: %s", r.Rank, r.Raw))
	}
	return capLines(lines, 80)
}
