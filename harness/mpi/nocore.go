package mpi

import (
	"sync"
	"syscall"
)

// Jobs dump no core. A crash's evidence is its records, its output and the
// library frame the crash handler names; a core of an Open MPI rank (tens
// of MB) would be written into the job folder only to be removed with it,
// and where cores go to a collector (systemd-coredump) each of a run's
// crashes (seventeen in a row in one pvar walk) would be kept there. The
// soft limit is this process's, so every job, launcher and rank inherits
// it (srun hands it on to the ranks); the hard limit stays as it was.
var noCores sync.Once

func dumpNoCores() {
	noCores.Do(func() {
		var l syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_CORE, &l) == nil && l.Cur != 0 {
			l.Cur = 0
			_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &l)
		}
	})
}
