package mpi

import (
	"sync/atomic"
)

// CorpusRoot is where a replayed implementation lives: nowhere, so that a
// judge that reads the implementation's files, rather than its jobs'
// records, finds none and says so.
const CorpusRoot = "/nonexistent/mpits-corpus"

// ReadFiles is set when a replayed judge asks for a path of the
// implementation (Impl.HostPath): its verdict may rest on more than records.
var ReadFiles atomic.Bool

// OffTape ends a judge in a replay that needs what the tape does not
// hold: a job the run did not launch, or a direct run (a build, a
// preprocessed header) that no tape replays.
type OffTape struct{ What string }

// EndsJudgement: a replay ends the rule as meant (StopOf).
func (OffTape) EndsJudgement() {}

// Replaying is set by a replay: Run and Build then start nothing.
var Replaying atomic.Bool

// offTapeIfReplaying ends a judge that would start a process in a replay.
func offTapeIfReplaying(what string) {
	if Replaying.Load() {
		panic(OffTape{What: what + " is no job of the tape: a replay starts no process"})
	}
}
