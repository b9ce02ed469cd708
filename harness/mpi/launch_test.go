package mpi

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/settings"
)

func TestJobArgvByLaunchMode(t *testing.T) {
	host := &Impl{ID: "m", Family: "mpich", Launcher: "/usr/bin/mpiexec", NPFlag: "-n"}
	ompi := &Impl{ID: "o", Family: "openmpi", Launcher: "mpirun", LauncherArgs: []string{"--oversubscribe"}}
	root := &Impl{ID: "r", Family: "mpich", Launcher: "mpiexec", Root: "/roots/sid", Prefix: []string{"chroot", "/roots/sid"}}
	for _, c := range []struct {
		im    *Impl
		mode  string
		slurm *Slurm
		ranks int
		one   bool
		want  string
	}{
		{host, settings.LaunchDirect, nil, 2, false, "/usr/bin/mpiexec -n 2 prog a"},
		{host, settings.LaunchDirect, nil, 0, false, "prog a"},
		{host, settings.LaunchSrun, nil, 2, false, "srun --mpi=pmi2 --kill-on-bad-exit=1 -J mpits-T -N 2 -n 2 prog a"},
		{host, settings.LaunchSrun, nil, 1, false, "srun --mpi=pmi2 --kill-on-bad-exit=1 -J mpits-T -N 1 -n 1 prog a"},
		{host, settings.LaunchSrun, &Slurm{MPI: "pmix", Nodes: 4, Args: []string{"-p", "debug"}}, 3, false, "srun --mpi=pmix --kill-on-bad-exit=1 -J mpits-T -N 3 -n 3 -p debug prog a"},
		{host, settings.LaunchSrun, nil, 0, false, "prog a"},
		{host, settings.LaunchSrun, nil, 2, true, "srun --mpi=pmi2 --kill-on-bad-exit=1 -J mpits-T -N 1 -n 2 prog a"},
		{host, settings.LaunchDirect, nil, 2, true, "/usr/bin/mpiexec -n 2 prog a"},
		{ompi, settings.LaunchSrun, nil, 4, false, "srun --mpi=pmix --kill-on-bad-exit=1 -J mpits-T -N 2 -n 4 prog a"},
		{ompi, settings.LaunchSalloc, nil, 2, false, "salloc -J mpits-T -N 2 -n 2 mpirun --oversubscribe -n 2 prog a"},
		{root, settings.LaunchDirect, nil, 2, false, "chroot /roots/sid env -C /tmp/j TMPDIR=/tmp/j mpiexec -n 2 prog a"},
		{root, settings.LaunchDirect, nil, 0, false, "chroot /roots/sid env -C /tmp/j TMPDIR=/tmp/j prog a"},
		{root, settings.LaunchSrun, nil, 2, false, "srun --mpi=pmi2 --kill-on-bad-exit=1 -J mpits-T -N 2 -n 2 chroot /roots/sid env -C /tmp/j TMPDIR=/tmp/j prog a"},
		{root, settings.LaunchSalloc, nil, 2, false, "salloc -J mpits-T -N 2 -n 2 chroot /roots/sid env -C /tmp/j TMPDIR=/tmp/j mpiexec -n 2 prog a"},
	} {
		im := *c.im
		im.Launch, im.Slurm = c.mode, c.slurm
		got := strings.Join(im.jobArgv(c.ranks, c.one, im.HostPath("/tmp/j"), "T", "prog", []string{"a"}), " ")
		if got != c.want {
			t.Errorf("%s, %q mode, %d ranks:\n got %s\nwant %s", im.ID, c.mode, c.ranks, got, c.want)
		}
	}
}

func TestLaunchModeSettings(t *testing.T) {
	impls := func() []*Impl { return []*Impl{{ID: "a", Family: "mpich"}} }
	t.Setenv("MPITS_LAUNCH", "direct")
	t.Setenv("MPITS_SLURM_ARGS", "-p x")
	im := impls()
	if err := applyLaunchModes(im); err != nil || im[0].Launch != settings.LaunchDirect || im[0].Slurm != nil {
		t.Errorf("direct: %v, %+v", err, im[0])
	}
	t.Setenv("MPITS_LAUNCH", "mpirun-in-a-box")
	if err := applyLaunchModes(impls()); err == nil || !strings.HasPrefix(err.Error(), `MPITS_LAUNCH="mpirun-in-a-box" is not allowed: want direct (or empty), srun or salloc`) {
		t.Errorf("an unknown mode gave %v", err)
	}
	// the implementations file's "launch" may say direct too; another
	// word is refused with the modes there are
	os.Unsetenv("MPITS_LAUNCH")
	im = []*Impl{{ID: "a", Launch: "direct"}, {ID: "b", Launch: "mpirun-in-a-box"}}
	if err := applyLaunchModes(im[:1]); err != nil || im[0].Launch != settings.LaunchDirect {
		t.Errorf(`"launch": "direct": %v, %q`, err, im[0].Launch)
	}
	if err := applyLaunchModes(im[1:]); err == nil || !strings.Contains(err.Error(), `b: unknown launch mode "mpirun-in-a-box": use "direct" (its own launcher), "srun" or "salloc"`) {
		t.Errorf("an unknown mode in the file gave %v", err)
	}
	t.Setenv("MPITS_LAUNCH", "srun")
	t.Setenv("MPITS_SLURM_NODES", "zero")
	if err := applyLaunchModes(impls()); err == nil || !strings.HasPrefix(err.Error(), `MPITS_SLURM_NODES="zero"`) {
		t.Errorf("a bad node count gave %v", err)
	}
	t.Setenv("MPITS_SLURM_NODES", "3")
	t.Setenv("PATH", t.TempDir()) // no srun
	im = impls()
	err := applyLaunchModes(im)
	if err == nil || !strings.Contains(err.Error(), "srun is not on PATH") || strings.Contains(err.Error(), "\n") {
		t.Errorf("srun missing gave %v", err)
	}
	if want := (&Slurm{Nodes: 3, Args: []string{"-p", "x"}}); !reflect.DeepEqual(im[0].Slurm, want) {
		t.Errorf("slurm options %+v, want %+v", im[0].Slurm, want)
	}
}
