package mpi

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpitest"
)

// The job log is appended to only when it is a regular file of this
// user's: a link is not followed, a FIFO is not waited on.
func TestJobLogNeverFollowsOrBlocks(t *testing.T) {
	mpitest.ClearSettings(t)
	dir := t.TempDir()
	secret, link, fifo := mpitest.Planted(t, dir)
	for _, p := range []string{link, fifo} {
		t.Setenv("MPITS_JOB_LOG", p)
		done := make(chan struct{})
		go func() { logJob(Job{Impl: &Impl{ID: "x"}, Name: "j"}, time.Second, 0, 0); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("the job log at %s blocked", p)
		}
	}
	mpitest.SecretUnchanged(t, secret)
	own := filepath.Join(dir, "jobs.log")
	t.Setenv("MPITS_JOB_LOG", own)
	logJob(Job{Impl: &Impl{ID: "x"}, Name: "j"}, time.Second, 0, 0)
	if got, _ := os.ReadFile(own); len(got) == 0 {
		t.Error("a regular file of ours got no line")
	}
}
