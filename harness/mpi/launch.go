package mpi

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// Slurm says how jobs go through Slurm in the srun and salloc modes.
type Slurm struct {
	MPI   string   `json:"mpi,omitempty"`   // srun's --mpi plugin; default by family: pmi2 (MPICH), pmix (Open MPI)
	Nodes int      `json:"nodes,omitempty"` // nodes a job of several ranks spreads over; default 2
	Args  []string `json:"args,omitempty"`  // more srun/salloc options, e.g. ["-p", "debug"]
}

// SlurmMPI is the PMI plugin srun starts ranks of im with.
func (im *Impl) SlurmMPI() string {
	if im.Slurm != nil && im.Slurm.MPI != "" {
		return im.Slurm.MPI
	}
	if im.Family == "openmpi" {
		return "pmix"
	}
	return "pmi2"
}

// SlurmNodes is how many nodes a job of several ranks spreads over.
func (im *Impl) SlurmNodes() int {
	if im.Slurm != nil && im.Slurm.Nodes > 0 {
		return im.Slurm.Nodes
	}
	return 2
}

// slurmNodes is how many nodes a job of n ranks is placed on: as many as
// asked for, but not more than ranks, so that a job of several ranks
// crosses nodes.
func (im *Impl) slurmNodes(n int) int { return max(1, min(im.SlurmNodes(), n)) }

// slurmJobName names a job's Slurm allocation after its marker, so that a
// job killed at its deadline is cancelled by name.
func slurmJobName(token string) string { return "mpits-" + token }

// jobArgv is the command line of a job: the program run directly (ranks 0)
// or launched with ranks ranks in the implementation's launch mode, through
// Slurm on as many nodes as it may (one when oneNode). Jobs of an
// implementation in a root start in dir, as a host job does.
func (im *Impl) jobArgv(ranks int, oneNode bool, dir, token, prog string, args []string) []string {
	inRoot := func(argv []string) []string {
		if im.Root == "" || len(im.Prefix) == 0 {
			return argv
		}
		// chroot starts in the root's "/": start in the job folder, so
		// relative output paths land there; it is TMPDIR too (Run).
		inner := im.InnerPath(dir)
		return append(append(append([]string{}, im.Prefix...), "env", "-C", inner, "TMPDIR="+inner), argv...)
	}
	if ranks == 0 {
		return inRoot(append([]string{prog}, args...))
	}
	slurmArgs := func() []string {
		nodes := im.slurmNodes(ranks)
		if oneNode {
			nodes = 1
		}
		a := []string{"-J", slurmJobName(token), "-N", strconv.Itoa(nodes), "-n", strconv.Itoa(ranks)}
		if im.Slurm != nil {
			a = append(a, im.Slurm.Args...)
		}
		return a
	}
	switch im.Launch {
	case settings.LaunchSrun:
		// --kill-on-bad-exit: a rank that dies ends the job, as mpiexec does.
		argv := append([]string{"srun", "--mpi=" + im.SlurmMPI(), "--kill-on-bad-exit=1"}, slurmArgs()...)
		return append(argv, inRoot(append([]string{prog}, args...))...)
	case settings.LaunchSalloc:
		return append(append([]string{"salloc"}, slurmArgs()...), inRoot(im.ownLaunch(ranks, prog, args))...)
	}
	return inRoot(im.ownLaunch(ranks, prog, args))
}

// cancelSlurmJob cancels what is left of a job's Slurm allocation: a
// launcher killed at the deadline cannot tell the controller itself.
func cancelSlurmJob(token string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = exec.CommandContext(ctx, "scancel", "--name", slurmJobName(token)).Run()
}

// checkLaunch says in one line why im's launch mode cannot work here: an
// unknown mode, or Slurm's commands missing or its controller not
// answering.
func checkLaunch(im *Impl) error {
	switch im.Launch {
	case settings.LaunchDirect:
		return nil
	case settings.LaunchSrun, settings.LaunchSalloc:
	default:
		return fmt.Errorf("%s: unknown launch mode %q: use %q (its own launcher), %q or %q", im.ID, im.Launch, settings.LaunchDirectName, settings.LaunchSrun, settings.LaunchSalloc)
	}
	for _, c := range []string{im.Launch, "sinfo", "scancel"} {
		if _, err := exec.LookPath(c); err != nil {
			return fmt.Errorf("%s is launched with %s, but %s is not on PATH: install Slurm's clients or unset MPITS_LAUNCH", im.ID, im.Launch, c)
		}
	}
	if err := slurmAnswers(); err != nil {
		return err
	}
	if im.Launch == settings.LaunchSrun && im.Slurm != nil && im.Slurm.MPI != "" {
		plugins, err := slurmPlugins()
		if err != nil {
			return err
		}
		if !slices.Contains(plugins, im.Slurm.MPI) {
			return fmt.Errorf("%s: srun has no --mpi plugin %q (MPITS_SLURM_MPI or the entry's slurm.mpi): srun --mpi=list gives %s", im.ID, im.Slurm.MPI, strings.Join(plugins, ", "))
		}
	}
	return nil
}

// slurmPlugins are the --mpi plugins srun lists, asked once a process.
var slurmPlugins = sync.OnceValues(func() ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "srun", "--mpi=list").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("srun --mpi=list: %s", verdict.FirstLine(strings.TrimSpace(string(out))+" "+err.Error()))
	}
	return srunPlugins(string(out)), nil
})

// srunPlugins are the plugins in srun --mpi=list's output: one a line
// under a heading, then the PMIx versions after "available:".
func srunPlugins(out string) []string {
	var plugins []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "srun: "))
		if _, versions, ok := strings.Cut(line, "available:"); ok {
			plugins = append(plugins, strings.Fields(strings.ReplaceAll(versions, ",", " "))...)
			continue
		}
		if line == "" || strings.Contains(line, " ") {
			continue // the heading
		}
		plugins = append(plugins, line)
	}
	return plugins
}

// slurmAnswers asks the controller once a process whether it answers.
var slurmAnswers = sync.OnceValue(func() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sinfo", "-h", "-o", "%D %t").CombinedOutput()
	if err != nil {
		return fmt.Errorf("Slurm does not answer (sinfo: %s): bring the cluster up (ci/slurm-cluster up) or point SLURM_CONF at its slurm.conf", verdict.FirstLine(strings.TrimSpace(string(out))+" "+err.Error()))
	}
	return nil
})

// applyLaunchModes sets the launch mode and Slurm options of every
// implementation from the settings (MPITS_LAUNCH, MPITS_SLURM_MPI,
// MPITS_SLURM_NODES, MPITS_SLURM_ARGS) and checks that each mode can work.
func applyLaunchModes(impls []*Impl) error {
	launch, nodes := settings.Setting("MPITS_LAUNCH"), settings.Setting("MPITS_SLURM_NODES")
	for _, v := range []settings.Value{launch, nodes} {
		if err := v.Err(); err != nil {
			return err
		}
	}
	mode, set := launch.Lookup()
	for _, im := range impls {
		if set {
			im.Launch = mode
		}
		if im.Launch == settings.LaunchDirectName {
			im.Launch = settings.LaunchDirect
		}
		if im.Launch == settings.LaunchDirect {
			continue
		}
		if im.Slurm == nil {
			im.Slurm = &Slurm{}
		}
		if v := settings.Setting("MPITS_SLURM_MPI").String(); v != "" {
			im.Slurm.MPI = v
		}
		if n := nodes.Int(); n > 0 {
			im.Slurm.Nodes = n
		}
		if v := settings.Setting("MPITS_SLURM_ARGS"); v.String() != "" {
			im.Slurm.Args = v.Fields()
		}
		if err := checkLaunch(im); err != nil {
			return err
		}
	}
	return nil
}

// slurmRootProblem says, measured, why an implementation in a root cannot
// run jobs of two ranks through Slurm from the host: the cluster's PMI
// server is the host's, the library the root's, and they may not agree
// (Open MPI 5 and 6 with Slurm 22.05's PMIx). A host implementation that
// cannot is not excused: its verdicts are errors with the evidence.
func slurmRootProblem(im *Impl) string {
	if im.Launch == settings.LaunchDirect || im.Root == "" {
		return ""
	}
	b := Build(im, launchCheck)
	if b.Error != "" {
		return ""
	}
	res, err := Run(Job{Impl: im, Name: "launch_check", Ranks: 2, Program: b.Path, Deadline: 60 * time.Second})
	if err != nil {
		return ""
	}
	defer res.Cleanup()
	if res.OK() {
		return ""
	}
	return fmt.Sprintf("two ranks in the root %s cannot be launched through %s from the host: %s", im.Root, im.Launch, saying(im, res))
}
