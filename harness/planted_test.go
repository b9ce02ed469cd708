package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// A run of root's, with another local user's FIFO, link to a root-only
// file, or folder at each name in the shared temporary folder an older
// mpits used (the run stamp, its new folder, the slot folder), and forged
// job folders beside them, neither blocks, nor follows a link, nor removes
// or kills anything not its own; its own stale job folder still goes.
// Each name gets each kind in one of three runs. The kernel's protections
// of sticky folders (fs.protected_*) are not relied on.
func TestPlantedByAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("planting as another user and checking that root is not fooled needs root")
	}
	nobody := lookupNobody(t)
	dir := testModule(t, map[string]string{"stamp_test.go": stampSuite})
	shared := sharedTmp(t)
	if err := os.Symlink(shared, filepath.Join(dir, StampLink)); err != nil {
		t.Fatal(err)
	}
	secretDir := t.TempDir() // root's, 0700
	secret := mpitest.WriteFile(t, filepath.Join(secretDir, "secret"), "root only\n", 0o600)
	impls := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "impls.json"), `{"implementations":[{"id":"none","reason":"a test"}]}`, 0o644)
	uid := os.Getuid()
	names := []string{fmt.Sprintf("mpits-run-stamp.%d", uid), fmt.Sprintf("mpits-%d", uid), fmt.Sprintf("mpits-slots-%d", uid)}
	kinds := []string{"fifo", "link", "folder"}
	for round := range kinds {
		t.Run(fmt.Sprint("round", round), func(t *testing.T) {
			clearFolder(t, shared)
			os.Remove(filepath.Join(dir, RunStamp))
			var script []string
			for i, name := range names {
				script = append(script, plantCommand(kinds[(i+round)%len(kinds)], filepath.Join(shared, name), secret))
			}
			j := plantJobs(t, nobody, shared, secretDir, strings.Join(script, "\n"))
			before, secretBefore := foreignTree(t, shared, nobody), tree(t, secretDir)

			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := goCommand(t, dir, []string{"MPITS_IMPLEMENTATIONS=" + impls, "TMPDIR=" + shared, "MPITS_JOB_DIR=" + shared}, "test", "-count=1", "-timeout=150s", ".")
			run := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
			run.Dir, run.Env, run.WaitDelay = cmd.Dir, cmd.Env, 5*time.Second
			out, err := run.CombinedOutput()
			t.Logf("the run said:\n%s", out)
			if ctx.Err() != nil {
				t.Fatalf("the run blocked (killed after 4 min):\n%s", out)
			}
			if err != nil {
				t.Fatalf("the run stopped: %v\n%s", err, out)
			}
			if n := strings.Count(string(out), "mpits: the slot folder "); n != 1 {
				t.Errorf("the planted slot folder is said %d times, want one line:\n%s", n, out)
			}
			if after := foreignTree(t, shared, nobody); after != before {
				t.Errorf("another user's files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if after := tree(t, secretDir); after != secretBefore {
				t.Errorf("the root-only folder changed:\nbefore:\n%s\nafter:\n%s", secretBefore, after)
			}
			for what, done := range map[string]chan struct{}{"root's process named by a forged job folder": j.ours, "another user's process carrying a token of ours": j.theirs} {
				select {
				case <-done:
					t.Errorf("%s was killed", what)
				default:
				}
			}
			if _, err := os.Lstat(j.stale); err == nil {
				t.Errorf("this user's stale job folder %s was kept: the sweep did not run", j.stale)
			}
			if _, err := os.Stat(filepath.Join(dir, RunStamp)); err != nil {
				t.Errorf("no run stamp in the package folder, the fallback: %v\n%s", err, out)
			}
		})
	}
}

// lookupNobody is user nobody's credential.
func lookupNobody(t *testing.T) *syscall.Credential {
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody to plant files as")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}

// sharedTmp is a folder every user may write, sticky as /tmp is.
func sharedTmp(t *testing.T) string {
	base, err := os.MkdirTemp("", "mpits-planted-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	shared := filepath.Join(base, "tmp")
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return shared
}

// clearFolder empties dir (the last round's plants and whatever it left).
func clearFolder(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// plantCommand is the shell command that puts kind at path.
func plantCommand(kind, path, secret string) string {
	switch kind {
	case "fifo":
		return "mkfifo " + path
	case "link":
		return "ln -s " + secret + " " + path
	}
	return "mkdir " + path + " && echo theirs >" + path + "/x"
}

// plantedJobs are the processes a forged job folder names, and this user's
// own stale job folder.
type plantedJobs struct {
	ours, theirs chan struct{} // closed when the process ends
	stale        string
}

// plantJobs runs script as nobody, with forged job folders in shared: one
// whose owner file names a live process of root's and the token it
// carries, one whose owner file is a FIFO, one without owner and old, and
// a link to a root-only folder that looks like a stale job's. Root's own
// stale job folder names a token another process of nobody's carries.
func plantJobs(t *testing.T, nobody *syscall.Credential, shared, secretDir, script string) plantedJobs {
	host, _ := os.Hostname()
	ourToken, theirToken := mpi.RandomToken(), mpi.RandomToken()
	ours, oursDone := sleeper(t, nil, settings.JobMarker+"="+ourToken)
	_, theirsDone := sleeper(t, nobody, settings.JobMarker+"="+theirToken)
	owner := func(token string) string {
		data, _ := json.Marshal(map[string]any{"host": host, "pid": ours.Process.Pid, "start": "1", "token": token})
		return string(data)
	}
	mpitest.WriteFile(t, filepath.Join(secretDir, "mpits-job-lookalike", ".mpits-owner"), owner(ourToken), 0o600)
	script += fmt.Sprintf(`
mkdir %[1]s/mpits-job-forged && echo '%[2]s' >%[1]s/mpits-job-forged/.mpits-owner && echo '{}' >%[1]s/mpits-job-forged/rank-0.jsonl
mkdir %[1]s/mpits-job-fifo && mkfifo %[1]s/mpits-job-fifo/.mpits-owner
mkdir %[1]s/mpits-job-old && echo theirs >%[1]s/mpits-job-old/x
ln -s %[3]s/mpits-job-lookalike %[1]s/mpits-job-link
`, shared, owner(ourToken), secretDir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	plant := exec.CommandContext(ctx, "sh", "-ec", script)
	plant.SysProcAttr = &syscall.SysProcAttr{Credential: nobody}
	if out, err := plant.CombinedOutput(); err != nil {
		t.Fatalf("planting as nobody: %v\n%s", err, out)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(shared, "mpits-job-old"), old, old); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(shared, "mpits-job-ours")
	mpitest.WriteFile(t, filepath.Join(stale, ".mpits-owner"), owner(theirToken), 0o644)
	if err := os.Chmod(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	return plantedJobs{ours: oursDone, theirs: theirsDone, stale: stale}
}

// sleeper starts a sleep as cred (nil: this user) with env added; it is
// killed at the test's end.
func sleeper(t *testing.T, cred *syscall.Credential, env ...string) (*exec.Cmd, chan struct{}) {
	c := exec.Command("sleep", "600")
	c.Env = append(os.Environ(), env...)
	c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	t.Cleanup(func() { c.Process.Kill(); <-done })
	return c, done
}

// foreignTree lists what in dir belongs to cred's user: path, type, size,
// time (links are not followed).
func foreignTree(t *testing.T, dir string, cred *syscall.Credential) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info fs.FileInfo, err error) error {
		if err == nil && info.Sys().(*syscall.Stat_t).Uid == cred.Uid {
			fmt.Fprintf(&b, "%s %v %d %v\n", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	if b.Len() == 0 {
		t.Fatal("nothing was planted")
	}
	return b.String()
}

// tree lists everything in dir with its content.
func tree(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		data := ""
		if info.Mode().IsRegular() {
			d, _ := os.ReadFile(p)
			data = string(d)
		}
		fmt.Fprintf(&b, "%s %v %d %v %q\n", p, info.Mode(), info.Size(), info.ModTime().UnixNano(), data)
		return nil
	})
	return b.String()
}
