package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The judges of MPIT-CVAR-RW (cvars.go): CVAR-10, -11, -12 and -X3
// judge the reads run of mpit_cvar_rw (cvarReads), CVAR-13, -14 and -15
// its writes run (cvarWrites).

// cvarReadsOut is the reads run: every variable read through a handle, a
// "read" record for each whose handle, read or free went wrong, and the
// variable set through the environment.
type cvarReadsOut struct {
	sum     cvarSum
	reads   []cvarReadRec
	env     []cvarEnvRec
	envName string // "" when none of envCandidates is a variable here
	ev      string
}

// cvarReads is the reads run (one job for every rule that judges it):
// Error when it died or wrote no summary.
func cvarReads(x *rulebook.X) *cvarReadsOut {
	job, envName := cvarReadsJob(x)
	res, recs, err := x.LaunchOnce(job)
	if err != nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	if !res.OK() {
		x.Errorf(res.Evidence(), "the reads run died: %s", res.Problem())
	}
	sums := mpi.Decode[cvarSum](recs, "summary")
	if len(sums) != 1 {
		x.Errorf(res.Evidence(), "the fixture wrote no summary (it stopped early)")
	}
	return &cvarReadsOut{sum: sums[0], reads: mpi.Decode[cvarReadRec](recs, "read"), env: mpi.Decode[cvarEnvRec](recs, "env"), envName: envName, ev: res.Evidence()}
}

// Where a variable of a "read" record went wrong first: its object, its
// handle, its read (inactive or failed), its count, or freeing the handle.
const (
	stepObject = iota
	stepAlloc
	stepInactive
	stepRead
	stepOverrun
	stepFree
	stepNone
)

// readStep is the first step of r that went wrong; a rule judges only the
// variables that got as far as its step.
func readStep(r cvarReadRec) int {
	switch {
	case r.Object == 0:
		return stepObject
	case r.AllocRC != "MPI_SUCCESS":
		return stepAlloc
	case r.ReadRC == "MPI_T_ERR_INVALID_INDEX":
		return stepInactive // "When a variable becomes inactive ... a corresponding return code"
	case r.ReadRC != "MPI_SUCCESS":
		return stepRead
	case r.Overrun != 0:
		return stepOverrun
	case r.FreeRC != "MPI_SUCCESS" || r.FreedNull != 1:
		return stepFree
	}
	return stepNone
}

// stoppedBefore is how many variables read through a handle went wrong
// before step (the summary counts every variable read; those with no
// record went right).
func (o *cvarReadsOut) stoppedBefore(step int) int {
	n := 0
	for _, r := range o.reads {
		if s := readStep(r); s >= stepInactive && s < step {
			n++
		}
	}
	return n
}

// needReads ends a rule unsupported when no variable was read through a
// handle.
func (o *cvarReadsOut) needReads(x *rulebook.X) {
	if o.sum.Read == 0 {
		x.Unsupported("not measurable here: none of the %d control variables was read through a handle", o.sum.Num)
	}
}

// cvar10Exposure: each variable read got a handle (which could have been
// refused) and a read into canaries after the count; the fixture counts
// them.
var cvar10Exposure = rulebook.Exposure[countedItem]{Items: "control variables read through a handle",
	When: "every one (its handle could have been refused, its read could have run into the canaries after the count)"}

// CVAR-10: a handle for every variable, and no read past its count.
func judgeCvar10(x *rulebook.X) verdict.Verdict {
	o := cvarReads(x)
	var bad []string
	for _, r := range o.reads {
		switch readStep(r) {
		case stepObject:
			bad = append(bad, fmt.Sprintf("control variable %s (%d) is bound to an object this fixture cannot make", r.Name, r.Index))
		case stepAlloc:
			bad = append(bad, fmt.Sprintf("MPI_T_cvar_handle_alloc(%s) returned %s", r.Name, r.AllocRC))
		case stepOverrun:
			bad = append(bad, fmt.Sprintf("MPI_T_cvar_read(%s) wrote past the %d elements of %s its handle counts", r.Name, r.Count, r.Datatype))
		}
	}
	x.FailOn(bad, o.ev)
	o.needReads(x)
	return cvar10Exposure.Pass(countedItems(o.sum.Read), "MPI_T_cvar_handle_alloc gave a handle for every control variable asked (each bound to an object this fixture made), and %d of the %d were read through one; none of the %d reads that succeeded wrote past the handle's count",
		o.sum.Read, o.sum.Num, max(o.sum.Read-o.stoppedBefore(stepOverrun), 0))
}

// cvar11Exposure: a valid handle is not MPI_T_CVAR_HANDLE_NULL, so each
// free had to write the handle.
var cvar11Exposure = rulebook.Exposure[countedItem]{Items: "handles freed",
	When: "every one (a valid handle is not MPI_T_CVAR_HANDLE_NULL: each free had to write it)"}

// CVAR-11: freeing a handle sets it to MPI_T_CVAR_HANDLE_NULL.
func judgeCvar11(x *rulebook.X) verdict.Verdict {
	o := cvarReads(x)
	var bad []string
	for _, r := range o.reads {
		if readStep(r) == stepFree {
			bad = append(bad, fmt.Sprintf("MPI_T_cvar_handle_free(%s) returned %s (handle set to MPI_T_CVAR_HANDLE_NULL: %v)", r.Name, r.FreeRC, r.FreedNull == 1))
		}
	}
	x.FailOn(bad, o.ev)
	o.needReads(x)
	// judged: the handles freed after a read within the count (a variable
	// that went wrong earlier is another rule's)
	freed := max(o.sum.Read-o.stoppedBefore(stepFree), 0)
	return cvar11Exposure.Pass(countedItems(freed), "MPI_T_cvar_handle_free succeeded and set the handle to MPI_T_CVAR_HANDLE_NULL for each of the %d control variables read within its count (of %d read through a handle)",
		freed, o.sum.Read)
}

// cvar12Exposure: each read through a handle could have failed.
var cvar12Exposure = rulebook.Exposure[countedItem]{Items: "reads through a handle",
	When: "every read (each could have failed)"}

// CVAR-12: a read through a valid handle succeeds (or finds the variable
// inactive).
func judgeCvar12(x *rulebook.X) verdict.Verdict {
	o := cvarReads(x)
	var bad, inactive []string
	for _, r := range o.reads {
		switch readStep(r) {
		case stepRead:
			bad = append(bad, fmt.Sprintf("MPI_T_cvar_read(%s) returned %s", r.Name, r.ReadRC))
		case stepInactive:
			inactive = append(inactive, r.Name)
		}
	}
	x.FailOn(bad, o.ev)
	o.needReads(x)
	reason := fmt.Sprintf("MPI_T_cvar_read succeeded on %d of the %d control variables read through a handle", o.sum.Read-len(inactive), o.sum.Read)
	if len(inactive) > 0 {
		reason += fmt.Sprintf("; %d read as inactive (MPI_T_ERR_INVALID_INDEX), e.g. %s", len(inactive), inactive[0])
	}
	return cvar12Exposure.Pass(countedItems(o.sum.Read), "%s", reason)
}

// cvarX3Exposure: envValue (4711) is the default of none of envCandidates,
// so a library that ignored the environment would read its default.
var cvarX3Exposure = rulebook.Exposure[cvarEnvRec]{Items: "variables set through the environment",
	When: "every one read (the value set is the default of none of them: a library that ignored it would read its default)"}

// CVAR-X3: the variable set through the environment reads the value set.
func judgeCvarX3(x *rulebook.X) verdict.Verdict {
	o := cvarReads(x)
	if o.envName == "" {
		var names []string
		for _, c := range envCandidates {
			names = append(names, c.name)
		}
		x.Unsupported("not measurable here: none of %s is a control variable of MPI_INT or MPI_UNSIGNED here: no variable to set through the environment", strings.Join(names, ", "))
	}
	if len(o.env) == 0 {
		x.Errorf(o.ev, "the reads run wrote no env record for %s", o.envName)
	}
	var bad, good []string
	var read []cvarEnvRec
	for _, e := range o.env {
		switch {
		case e.IndexRC != "MPI_SUCCESS" || e.ReadRC != "MPI_SUCCESS":
			bad = append(bad, fmt.Sprintf("control variable %s (set through the environment): get_index %s, read %s", e.Name, e.IndexRC, e.ReadRC))
		case len(e.Value) == 0 || string(e.Value[0]) != e.Expected:
			bad = append(bad, fmt.Sprintf("control variable %s was set to %s through the environment but reads %s", e.Name, e.Expected, e.Value))
		default:
			good = append(good, fmt.Sprintf("%s set through the environment to %s reads %s", e.Name, e.Expected, e.Value))
			read = append(read, e)
		}
	}
	x.FailOn(bad, o.ev)
	return cvarX3Exposure.Pass(read, "%s", strings.Join(good, "; "))
}

// cvarWritesOut is the writes run: one write per variable bound to no
// object, and the variables whose write killed the process.
type cvarWritesOut struct {
	writes []cvarWriteRec
	tries  map[int]cvarTryRec // by index: the variable each item was about to write
	died   []rulebook.Died    // item i writes variable i
	ev     string
}

// cvarWrites is the writes run, again from the variable after any whose
// write killed the process (one chain of runs for every rule that judges
// it).
func cvarWrites(x *rulebook.X) *cvarWritesOut {
	job, _ := cvarReadsJob(x)
	job.Name, job.Args = "mpit_cvar_rw_writes", []string{"writes"}
	res := x.LaunchResuming(job)
	o := &cvarWritesOut{tries: map[int]cvarTryRec{}, died: res.Died}
	for _, wr := range res.Records {
		o.writes = append(o.writes, mpi.Decode[cvarWriteRec](wr, "write")...)
		for _, t := range mpi.Decode[cvarTryRec](wr, "write_try") {
			o.tries[t.Index] = t
		}
	}
	o.ev = fmt.Sprintf("%s: %d run(s)", job.Name, len(res.Records))
	for _, d := range res.Died {
		o.ev += fmt.Sprintf("; died in item %d (%s)", d.Item, d.How)
	}
	return o
}

// readOnly tells the scopes no write may change: CONSTANT and READONLY (as
// the fixture names scopes).
func readOnly(scope string) bool { return scope == "CONSTANT" || scope == "READONLY" }

// deaths are the writes that killed the process, of read-only scopes or of
// the others.
func (o *cvarWritesOut) deaths(ofReadOnly bool) []string {
	var out []string
	for _, d := range o.died {
		c := o.tries[d.Item]
		if readOnly(c.Scope) == ofReadOnly {
			out = append(out, fmt.Sprintf("writing control variable %s (%d, scope %s) killed the process: %s", c.Name, d.Item, c.Scope, d.How))
		}
	}
	return out
}

func (r cvarWriteRec) who() string { return fmt.Sprintf("%s (%d, scope %s)", r.Name, r.Index, r.Scope) }

// cvar13Exposure: only a write of a different value can show that it did
// not set the variable: one of the value already there (strings, variables
// with no other valid value) reads back the same either way.
var cvar13Exposure = rulebook.Exposure[cvarWriteRec]{Items: "accepted writes",
	When:  "when the value written differs from the old one (one already there reads back the same either way)",
	Could: func(r cvarWriteRec) bool { return r.How == "changed" }}

// CVAR-13: an accepted write reads back, and the old value writes back.
func judgeCvar13(x *rulebook.X) verdict.Verdict {
	o := cvarWrites(x)
	var bad []string
	var accepted []cvarWriteRec
	changed := 0
	for _, r := range o.writes {
		if r.How == "readonly" || r.WriteRC != "MPI_SUCCESS" {
			continue // CVAR-15's, CVAR-14's
		}
		accepted = append(accepted, r)
		if r.ReadsWritten != 1 {
			bad = append(bad, fmt.Sprintf("%s: wrote %s (MPI_SUCCESS), read back %s", r.who(), r.Written, r.ReadBack))
		}
		if cvar13Exposure.Could(r) {
			changed++
			if r.RestoreRC != "MPI_SUCCESS" || r.RestoreRead != 0 {
				bad = append(bad, fmt.Sprintf("%s: writing the old value %s back returned %s (read back: %d)", r.who(), r.Old, r.RestoreRC, r.RestoreRead))
			}
		}
	}
	bad = append(bad, o.deaths(false)...)
	x.FailOn(bad, o.ev)
	if len(accepted) == 0 {
		x.Unsupported("not measurable here: MPI_T_cvar_write accepted none of the %d writes of writable-scope variables", writableScopeWrites(o.writes))
	}
	return cvar13Exposure.Pass(accepted, "%d writes MPI_T_cvar_write accepted (of %d writes of writable-scope variables) read back the value written; %d of them wrote a different value, and writing the old value back succeeded and read it back (the other %d wrote the value already there)",
		len(accepted), writableScopeWrites(o.writes), changed, len(accepted)-changed)
}

// countsBy is the sum of the counts and each as "<count> <key>", by key.
func countsBy(m map[string]int) (int, []string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n, parts := 0, make([]string, 0, len(m))
	for _, k := range keys {
		n += m[k]
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return n, parts
}

// writableScopeWrites counts the writes of variables of writable scopes.
func writableScopeWrites(ws []cvarWriteRec) int {
	n := 0
	for _, r := range ws {
		if r.How != "readonly" {
			n++
		}
	}
	return n
}

// cvar14Exposure: each write could have returned another code (that a
// refused write left the value shows only where it wrote a different value,
// but the code shows on every one).
var cvar14Exposure = rulebook.Exposure[cvarWriteRec]{Items: "writes of writable-scope variables",
	When: "every write succeeding or refused (each could have returned another code)"}

// CVAR-14: a write of a writable scope succeeds or is refused, and a
// refused write leaves the value.
func judgeCvar14(x *rulebook.X) verdict.Verdict {
	o := cvarWrites(x)
	var bad []string
	accepted, refusedChanged := 0, 0
	refused := map[string]int{}
	var answered []cvarWriteRec // succeeded or refused
	for _, r := range o.writes {
		if r.How == "readonly" {
			continue // CVAR-15's
		}
		switch r.WriteRC {
		case "MPI_SUCCESS":
			accepted++
			answered = append(answered, r)
		case "MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_INVALID":
			refused[r.WriteRC]++
			answered = append(answered, r)
			if r.How == "changed" {
				refusedChanged++
			}
			if r.ReadsOld != 1 {
				bad = append(bad, fmt.Sprintf("%s changed although the write was refused with %s: %s → %s", r.who(), r.WriteRC, r.Old, r.ReadBack))
			}
		default:
			bad = append(bad, fmt.Sprintf("writing %s returned %s", r.who(), r.WriteRC))
		}
	}
	x.FailOn(bad, o.ev)
	n, by := countsBy(refused)
	if accepted+n == 0 {
		x.Unsupported("not measurable here: no write of a writable-scope variable (of %d writes)", len(o.writes))
	}
	reason := fmt.Sprintf("%d writes of writable-scope variables: %d returned MPI_SUCCESS", accepted+n, accepted)
	if n > 0 {
		reason += fmt.Sprintf(", %d were refused (%s) and left the value (%d of them wrote a different value)", n, strings.Join(by, ", "), refusedChanged)
	} else {
		reason += ", none was refused"
	}
	return cvar14Exposure.Pass(answered, "%s", reason)
}

// cvar15Exposure: each write could have returned another code; that the
// value stayed shows nothing here, each write being of the value just read.
var cvar15Exposure = rulebook.Exposure[cvarWriteRec]{Items: "writes of read-only variables",
	When: "every write (each could have returned another code)"}

// CVAR-15: a write of a read-only scope is refused with
// MPI_T_ERR_CVAR_SET_NEVER and leaves the value.
func judgeCvar15(x *rulebook.X) verdict.Verdict {
	o := cvarWrites(x)
	var bad []string
	var writes []cvarWriteRec
	scopes := map[string]int{}
	for _, r := range o.writes {
		if r.How != "readonly" {
			continue // CVAR-13's, CVAR-14's
		}
		writes = append(writes, r)
		scopes[r.Scope]++
		if r.WriteRC != "MPI_T_ERR_CVAR_SET_NEVER" {
			bad = append(bad, fmt.Sprintf("writing read-only %s returned %s, not MPI_T_ERR_CVAR_SET_NEVER", r.who(), r.WriteRC))
		} else if r.ReadsOld != 1 {
			bad = append(bad, fmt.Sprintf("read-only %s changed although the write was refused: %s → %s", r.who(), r.Old, r.ReadBack))
		}
	}
	bad = append(bad, o.deaths(true)...)
	x.FailOn(bad, o.ev)
	if len(writes) == 0 {
		x.Unsupported("not measurable here: no control variable of scope CONSTANT or READONLY bound to no object to write (the %d writes were all of writable scopes)", len(o.writes))
	}
	_, by := countsBy(scopes)
	return cvar15Exposure.Pass(writes, "%d writes of read-only variables (%s), each of the value just read, returned MPI_T_ERR_CVAR_SET_NEVER (that the value stayed shows nothing: it was the value written)", len(writes), strings.Join(by, ", "))
}
