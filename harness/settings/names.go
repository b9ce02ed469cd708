package settings

const (
	ExpectEnv       = "MPITS_EXPECT"
	ExpectUpdateEnv = "MPITS_EXPECT_UPDATE"
)

// InjectEnv preloads fault injectors of the suite (comma-separated names,
// e.g. inject_mpit_string_len) into every job its rules are judged from, as
// if the implementation had changed: a test setting, with which
// ci/vendor-scenario breaks one rule of a real implementation; the verdicts
// are then not the implementation's own. Fault-injector specs are not
// meant to run with it.
const InjectEnv = "MPITS_INJECT"

// RecordEnv names the folder where fixtures write rank-<r>.jsonl records.
const RecordEnv = "MPITS_RECORD_DIR"

// JobMarker is set in every job's environment; processes carrying it are the
// job's, whatever session or process group they moved to.
const JobMarker = "MPITS_JOB"

// RunMark names a mark every job of the run carries in its environment
// (MPITS_RUN_MARK=value), so that a script can tell what its run left
// running from another run's processes.
const RunMark = "MPITS_RUN_MARK"

// JobLogEnv names a file every job appends a line to: when it started,
// implementation, name, ranks, how long it waited for slots and ran, the CPU
// time of the launcher and what it waited for (all ms), and its preloaded
// libraries. It shows where a run's time goes.
const JobLogEnv = "MPITS_JOB_LOG"

// How an implementation's jobs are launched: a mode is an option of the
// implementation (its "launch" field, or MPITS_LAUNCH for all), not a copy
// of it, so its verdicts keep the implementation's id and compare with the
// direct run.
const (
	LaunchDirect = ""       // the implementation's own launcher (mpiexec, mpirun)
	LaunchSrun   = "srun"   // Slurm's srun starts the ranks, through a PMI plugin
	LaunchSalloc = "salloc" // the implementation's own launcher inside a Slurm allocation
	// LaunchDirectName is what MPITS_LAUNCH and an implementation's
	// "launch" field may say for LaunchDirect.
	LaunchDirectName = "direct"
)

// A process started with probeLibEnv set is a probe helper: it answers for
// that one library and exits (see probeLibrary).
const (
	ProbeLibEnv  = "MPITS_PROBE_LIB"
	ProbeModeEnv = "MPITS_PROBE_MODE"
)

// ProveEnv, set to "everywhere", runs each fault injector (and conforming
// shim) on every implementation where its rule gives the other verdict
// without it, not only on the cheapest one (ci/conformance sets it): a pass
// its injector does not turn on that implementation shows a judge that
// cannot see the fault there, and reports/matrix.md marks it.
const ProveEnv = "MPITS_PROVE"

// StrictEnv names the setting that makes quality (and interpretation)
// verdicts fail the run too: MPITS_STRICT=quality, or =all.
const StrictEnv = "MPITS_STRICT"

// RunDirEnv names the folder the suites of one run share.
const RunDirEnv = "MPITS_RUN_DIR"

// JobsEnv overrides the number of slots (default: eight a core).
const JobsEnv = "MPITS_JOBS"

// TapeEnv names the folder a run writes its jobs' outcomes to.
const TapeEnv = "MPITS_TAPE"

// TimeoutEnv is how long a run may take before it ends as an interrupt does.
const TimeoutEnv = "MPITS_TIMEOUT"
