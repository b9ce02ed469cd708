package events

import (
	"fmt"
	"strings"
)

// A profile is the ground truth for one family of event producers, read from
// the producer's source: which action raises which events, the safety level
// (context) it raises them at, and what each element carries. A profile
// applies to an implementation when every event it names is present there,
// whoever the implementation is (selected by event names, never by id).
type profile struct {
	ID      string
	Source  string   // where the producers were read
	Context int      // 0..3: the safety level the events are raised at
	Phases  []phase  // delivery: action -> events, elements -> facts
	Probe   phase    // a cheap repeatable action, for safety levels, drops, handles, info
	Threads phase    // run by 4 threads at once
	Notes   []string // what the profile leaves out, and why
}

// A phase is k instances of an action on the observing ranks.
type phase struct {
	Action string
	K      int
	AllObs bool // every rank observes; otherwise rank 0 only
	Events []eventTruth
}

// eventTruth says what the n-th callback of an event in a phase must read:
// Elems[e] names the fact of the n-th action instance element e equals
// (a fact, or "event:NAME:E" for element E of NAME's first callback on that
// rank), "" for an element no action fact pins down.
type eventTruth struct {
	Name  string
	Elems []string
}

// events lists the phase's event names.
func (p phase) events() []string {
	var out []string
	for _, e := range p.Events {
		out = append(out, e.Name)
	}
	return out
}

// arg is the phase as the fixtures read it (fixtures/c/events/events_actions.h).
func (p phase) arg(mode string, ctx int) string {
	obs := "0"
	if p.AllObs {
		obs = "all"
	}
	s := fmt.Sprintf("%s=%s;k=%d;obs=%s;ev=%s", mode, p.Action, p.K, obs, strings.Join(p.events(), ","))
	if mode == "probe" {
		s += fmt.Sprintf(";ctx=%d", ctx)
	}
	return s
}

// requires is every event name the profile uses.
func (pr profile) requires() []string {
	seen := map[string]bool{}
	var out []string
	for _, ph := range append(append([]phase{}, pr.Phases...), pr.Probe, pr.Threads) {
		for _, n := range ph.events() {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// Safety level ordinals (MPI-4.1 Table 16.5, in order).
const (
	levelNone = iota
	levelMPIRestricted
	levelThreadSafe
	levelAsyncSignalSafe
)

var levelNames = []string{"MPI_T_CB_REQUIRE_NONE", "MPI_T_CB_REQUIRE_MPI_RESTRICTED", "MPI_T_CB_REQUIRE_THREAD_SAFE", "MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE"}

func levelName(l int) string {
	if l >= 0 && l < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level %d (not a safety level)", l)
}

var profiles = []profile{
	{
		// open-mpi/ompi branch v6.0.x (the sid package is 6.0.0rc2):
		// ompi/runtime/ompi_mpit_register_events.c registers the types and their
		// element layouts; the raise sites fill them: comm_cid.c:955 (created:
		// size, handle), comm.c:2532 (freed: handle), comm.c:2365 (name_set,
		// bound to the communicator: handle), errhandler_invoke.c:86 (err_code,
		// MPI_T_BIND_* of the object, errhandler, object), win.c:271 (created:
		// size, disp_unit, flavor, handle), win.c:440 (freed: flavor, handle),
		// ompi_mpi_init.c:760 (model, thread level, world rank, world size,
		// instance id) and ompi_mpi_finalize.c:157 (model, rank, instance id).
		// Handles are the C handle values (Open MPI's own ABI). Every raise goes
		// through mca_base_event_raise / _raise_bound
		// (opal/mca/base/mca_base_event.h:331-352), which pass
		// MCA_BASE_EVENT_CB_REQUIRE_NONE: the context is NONE.
		ID:      "open-mpi-runtime",
		Source:  "open-mpi/ompi v6.0.x ompi/runtime/ompi_mpit_register_events.c and the raise sites",
		Context: levelNone,
		Phases: []phase{
			{Action: "mpi_init", K: 1, AllObs: true, Events: []eventTruth{{"ompi.mpi.initialization", []string{"", "thread_level", "rank", "size", ""}}}},
			{Action: "comm_dup", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.communicator_created", []string{"size", "handle"}}}},
			{Action: "comm_free", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.communicator_freed", []string{"handle"}}}},
			{Action: "comm_set_name", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.communicator_name_set", []string{"handle"}}}},
			{Action: "errhandler", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.errhandler_invoked", []string{"code", "bind", "errhandler", "handle"}}}},
			{Action: "win_create", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.win_created", []string{"size", "disp_unit", "flavor", "handle"}}}},
			{Action: "win_free", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.win_freed", []string{"flavor", "handle"}}}},
			{Action: "mpi_finalize", K: 1, AllObs: true, Events: []eventTruth{{"ompi.mpi.finalization", []string{"", "rank", "event:ompi.mpi.initialization:4"}}}},
		},
		Probe:   phase{Action: "comm_dup", K: 3, AllObs: true, Events: []eventTruth{{"ompi.mpi.communicator_created", []string{"size", "handle"}}}},
		Threads: phase{Action: "comm_dup", K: 5, AllObs: true, Events: []eventTruth{{"ompi.mpi.communicator_created", []string{"size", "handle"}}}},
		Notes: []string{
			"ompi.mca.memory.patcher.released (source ompi.unordered) aggregates OS memory releases at unpredictable moments: no action pins it down",
			"the model element of initialization/finalization is OMPI_T_MODEL_WORLD, an Open MPI constant, not checked",
		},
	},
	{
		// pmodels/mpich tag v4.0.2: src/mpid/ch4/src/mpidig_recvq.c:58-68
		// registers source RECVQ (ordered) and the two events, two MPI_INT at
		// displacements 0 and 4, raised by MPIDIG_DO_ENQUEUE_EVENT /
		// MPIDIG_DO_DEQUEUE_EVENT (mpidig_recvq.h:77-93) with
		// MPI_T_CB_REQUIRE_MPI_RESTRICTED from the address of the request's
		// source rank: the message's source rank, then (by the displacement)
		// the field after it: in 4.0.2's layout the message's context id,
		// which no action of this suite pins down (MPICH's later code puts the
		// tag there: req->status.MPI_SOURCE, then MPI_TAG, on main), so
		// element 1 is not compared. Only messages on ch4's active-message
		// path (shared memory here) pass these queues.
		ID:      "mpich-ch4-recvq",
		Source:  "pmodels/mpich v4.0.2 src/mpid/ch4/src/mpidig_recvq.c, mpidig_recvq.h",
		Context: levelMPIRestricted,
		Phases: []phase{
			{Action: "unexpected_message", K: 5, Events: []eventTruth{
				{"unexp_message_enqueued", []string{"source", ""}},
				{"unexp_message_dequeued", []string{"source", ""}},
			}},
		},
		Probe:   phase{Action: "unexpected_message", K: 3, Events: []eventTruth{{"unexp_message_enqueued", []string{"source", ""}}}},
		Threads: phase{Action: "unexpected_message", K: 5, Events: []eventTruth{{"unexp_message_enqueued", nil}}},
		Notes: []string{
			"element 1 of both events is the message's context id in 4.0.2's layout (the tag only in later MPICH): not compared",
			"under threads only the count of enqueued events is compared; reading a dequeued event crashes 4.0.2 (EVENTS-INSIDE), so the threads job does not register it",
		},
	},
}

// selectProfiles returns the profiles whose events are all present.
func selectProfiles(present map[string]bool) []profile {
	var out []profile
	for _, pr := range profiles {
		ok := true
		for _, n := range pr.requires() {
			ok = ok && present[n]
		}
		if ok {
			out = append(out, pr)
		}
	}
	return out
}

// deliverArgs and probeArgs are the fixture arguments of every profile:
// the fixture skips phases whose events this library lacks.
func deliverArgs() []string {
	var out []string
	for _, pr := range profiles {
		for _, ph := range pr.Phases {
			out = append(out, ph.arg("act", pr.Context))
		}
	}
	return out
}

func probeArgs() []string {
	var out []string
	for _, pr := range profiles {
		out = append(out, pr.Probe.arg("probe", pr.Context))
	}
	return out
}
