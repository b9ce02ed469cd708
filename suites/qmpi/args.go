package qmpi

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001: tool routines call the "follow on routine" like PMPI wrappers
// do, so what a tool passes on is what the layer below (and MPI) gets, and
// what a tool returns is what its caller gets. The three rules judge one
// run of app_args under mod:rec (fixtures/c/qmpi/tool_args.c).
var argsAndResults = rulebook.Define(rulebook.Check{
	ID:    "QMPI-ARGS",
	Needs: "qmpi",
	Title: "a tool's change to an argument (tag, count, buffer) reaches the layer below and MPI, and a return code a tool sets or an error it returns reaches the application under MPI_ERRORS_RETURN",
	Rules: []rulebook.Rule{
		// seed 001, "Requirements": "Complete coverage of all tool
		// functionality - Incl. changes to parameters or routines used".
		{ID: "QMPI-ARGS-X1", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "what an outer tool passes on in place of the application's arguments (tag 10→1010, count 1→2, its own buffer) is what the inner tool gets and what MPI sends",
			Injectors: []string{"inject_qmpi_alter_args"},
			Exposure:  argsExposures["changed"].Declared(), Judge: judgeArgs("changed")},
		// seed 000, QMPI_Register_function: "This function pointer will be
		// the same signature as the MPI function, with an additional
		// QMPI_Context argument in the first position": the tool gets the
		// application's arguments.
		{ID: "QMPI-FUNC-02", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "the first tool's interception function receives the application's MPI_Send arguments unchanged (buffer value 5, count 1, MPI_INT, dest 1, tag 10, MPI_COMM_WORLD)",
			Injectors: []string{"inject_qmpi_entry_alters"},
			Exposure:  argsExposures["received"].Declared(), Judge: judgeArgs("received")},
		// seed 001, "Tools Responsibilities": a tool calls the "follow on
		// routine", which "Can be actual MPI or another tool - transparent";
		// MPI-5.0 §9.3: with MPI_ERRORS_RETURN the error code is returned.
		{ID: "QMPI-FUNC-03", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "an error code the inner tool returns (MPI_ERR_TYPE from MPI_Type_size) reaches the outer tool that called it, and the application through it, unchanged",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  argsExposures["passed"].Declared(), Judge: judgeArgs("passed")},
		// seed 001, "Requirements": "Incl. changes to parameters or routines
		// used": the outermost tool's return value is the call's.
		{ID: "QMPI-ARGS-X2", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "a return code the outermost tool returns in place of MPI's (MPI_ERR_OTHER from MPI_Barrier) is what the application's call returns",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  argsExposures["set"].Declared(), Judge: judgeArgs("set")},
	},
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

// argsExposures: each place judged (a call intercepted, a receiver of an
// argument or code) could have shown the argument or code other than the
// tool gave it.
var argsExposures = map[string]rulebook.Exposure[argsReceiver]{
	"received": {Items: "MPI_Send calls the outer tool intercepted"},
	"changed":  {Items: "receivers of the changed arguments (the inner tool, rank 1's MPI_Recv)"},
	"passed":   {Items: "receivers of the inner tool's error (the outer tool, the application)"},
	"set":      {Items: "MPI_Barrier calls of the application"},
}

// argsReceiver names one place that got an argument or a return code.
type argsReceiver string

// judgeArgs judges one statement on the one run of app_args under mod:rec.
func judgeArgs(what string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		_, recs := x.JobOnce(mpi.Job{
			Name: "qmpi_app_args", Ranks: 2, Program: x.Fixture("qmpi_app_args"),
			RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_args")},
			Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "mod:rec"},
		})
		ev := recordsText(recs)
		apps := mpi.Decode[argsApp](recs, "app_args")
		if len(apps) != 2 {
			x.Errorf(ev, "want an app_args record from each of 2 ranks, got %d", len(apps))
		}
		if inits := recs.Kind("init", -1); len(inits) != 4 {
			x.Errorf(ev, "want init callbacks for mod and rec on both ranks, got %d (QMPI-REG-02 judges the callbacks)", len(inits))
		}
		var f rulebook.Problems
		var judged []argsReceiver // the places judged
		switch what {
		case "received":
			type modIn struct {
				Tag, Count, V0, Dest, Int, World int
			}
			got := mpi.Decode[modIn](recs, "mod_send_in")
			if len(got) != 1 {
				f.Add(ev, "the outer tool saw %d MPI_Send calls, want 1", len(got))
			}
			for _, m := range got {
				judged = append(judged, "the outer tool's MPI_Send")
				if m.Tag != 10 || m.Count != 1 || m.V0 != 5 || m.Dest != 1 || m.Int != 1 || m.World != 1 {
					f.Add(ev, "the outer tool got tag %d, count %d, value %d, dest %d, MPI_INT %v, MPI_COMM_WORLD %v; the application passed tag 10, count 1, value 5, dest 1, MPI_INT, MPI_COMM_WORLD", m.Tag, m.Count, m.V0, m.Dest, m.Int == 1, m.World == 1)
				}
			}
		case "changed":
			sent := mpi.Decode[recSend](recs, "rec_send")
			for range sent {
				judged = append(judged, "the inner tool's MPI_Send")
			}
			if len(sent) != 1 {
				f.Add(ev, "rec saw %d MPI_Send calls, want 1", len(sent))
			} else if s := sent[0]; s.Tag != 1010 || s.Count != 2 || s.V0 != 777 || s.V1 != 778 {
				f.Add(ev, "the inner tool got tag %d, count %d, values %d %d after the outer tool changed them to 1010, 2, 777 778", s.Tag, s.Count, s.V0, s.V1)
			}
			for _, a := range apps {
				if a.Rank == 1 {
					judged = append(judged, "rank 1's MPI_Recv")
				}
				if a.Rank == 1 && (a.RecvRC != 0 || a.RecvTag != 1010 || a.RecvCount != 2 || len(a.Recv) < 2 || a.Recv[0] != 777 || a.Recv[1] != 778) {
					f.Add(ev, "rank 1 received rc %d, tag %d, count %d, values %v; the tool sent tag 1010, count 2, values 777 778", a.RecvRC, a.RecvTag, a.RecvCount, a.Recv)
				}
			}
		case "passed":
			type modTS struct {
				RCBelow int `json:"rc_below"`
			}
			for _, m := range mpi.Decode[modTS](recs, "mod_type_size") {
				judged = append(judged, "the outer tool's MPI_Type_size")
				if m.RCBelow != apps[0].ErrType {
					f.Add(ev, "the outer tool got %d from the inner tool's MPI_Type_size, which returned MPI_ERR_TYPE (%d)", m.RCBelow, apps[0].ErrType)
				}
			}
			for _, a := range apps {
				judged = append(judged, argsReceiver(fmt.Sprintf("rank %d's MPI_Type_size", a.Rank)))
				if a.TypeSizeRC != a.ErrType {
					f.Add(ev, "rank %d: MPI_Type_size returned %d to the application; the inner tool returned MPI_ERR_TYPE (%d)", a.Rank, a.TypeSizeRC, a.ErrType)
				}
			}
		case "set":
			for _, a := range apps {
				judged = append(judged, argsReceiver(fmt.Sprintf("rank %d's MPI_Barrier", a.Rank)))
				if a.BarrierRC != a.ErrOther {
					f.Add(ev, "rank %d: MPI_Barrier returned %d to the application; the outer tool returned MPI_ERR_OTHER (%d)", a.Rank, a.BarrierRC, a.ErrOther)
				}
			}
		}
		f.FailOn(x)
		return argsExposures[what].Pass(judged, "%s", map[string]string{
			"received": "mod:rec: the outer tool got MPI_Send's arguments as the application passed them (value 5, count 1, MPI_INT, dest 1, tag 10, MPI_COMM_WORLD)",
			"changed":  "mod:rec: tag 10→1010, count 1→2 and the buffer swapped by mod reached rec and rank 1's MPI_Recv",
			"passed":   "mod:rec: MPI_ERR_TYPE returned by rec's MPI_Type_size reached mod and the application",
			"set":      "mod:rec: MPI_ERR_OTHER returned by mod in place of MPI_Barrier's MPI_SUCCESS reached the application",
		}[what])
	}
}

// recordsText is every record of a job, rank by rank, capped.
func recordsText(recs *mpi.Records) string {
	var lines []string
	for _, r := range recs.All {
		lines = append(lines, fmt.Sprintf("rank %d: %s", r.Rank, r.Raw))
	}
	return capLines(lines, 80)
}
