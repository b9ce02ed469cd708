package mpi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// Every job folder names the process that made it (jobOwnerFile), so that a
// run can tell the folders left behind by a run that could not clean up
// (killed with SIGKILL, or the machine rebooted) from those of a run still
// going, its own or another's, and remove them when it starts.

// jobOwnerFile, in a job folder, names the process that made it.
const jobOwnerFile = ".mpits-owner"

// jobOwner is a job folder's owner: a process of a host, told apart from a
// later process with the same pid by its start time, and the job's marker.
type jobOwner struct {
	Host  string `json:"host"`
	PID   int    `json:"pid"`
	Start string `json:"start"`
	Token string `json:"token"`
	// RunMark is the run's MPITS_RUN_MARK, if any: a script counts the
	// folders its own run left, never another run's.
	RunMark string `json:"run_mark,omitempty"`
}

var hostname = sync.OnceValue(func() string { h, _ := os.Hostname(); return h })

// writeOwner records this process as the owner of the job folder dir.
func writeOwner(dir, token string) error {
	data, _ := json.Marshal(jobOwner{Host: hostname(), PID: os.Getpid(), Start: procStart(os.Getpid()), Token: token,
		RunMark: settings.Setting(settings.RunMark).String()})
	return os.WriteFile(filepath.Join(dir, jobOwnerFile), append(data, '\n'), 0o644)
}

// ownerlessAge is how old a job folder without an owner file must be to be
// taken as stale: one made by an earlier version of mpits, or one whose
// maker has not yet written the file (it does so at once).
const ownerlessAge = time.Hour

// sweepJobDirs removes, in each folder, the job folders no live process
// owns: their owner, a process of this host, is gone (a pid alive again
// with another start time is another process), or they have no owner and
// are older than ownerlessAge. What is left of their jobs (processes with
// their marker, killOwnMarked) is killed first. Folders of other hosts (a
// job folder shared by the nodes of a cluster) and of live processes are
// left alone, and so is all that is not this user's own job folder
// (ownDir): in /tmp anyone can make an mpits-job-* with an owner file that
// names a token of ours. It returns the folders removed.
func sweepJobDirs(dirs []string) []string {
	var stale []string
	var marks []jobMark
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), "mpits-job-") {
				continue
			}
			p := filepath.Join(d, e.Name())
			info, err := os.Lstat(p)
			if err != nil || !ownDir(info) {
				continue
			}
			if ok, m := staleJobDir(p, info); ok {
				stale = append(stale, p)
				if m.token != "" {
					marks = append(marks, m)
				}
			}
		}
	}
	killOwnMarked(marks)
	var removed []string
	for _, p := range stale {
		// p is ours in a sticky /tmp: no one else can put another folder
		// in its place, and RemoveAll follows no link within it.
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	sort.Strings(removed)
	return removed
}

// staleJobDir says whether the job folder p (info from Lstat) has no live
// owner, and the mark of its job if it has one.
func staleJobDir(p string, info os.FileInfo) (bool, jobMark) {
	f, err := OpenOwnFile(filepath.Join(p, jobOwnerFile), os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return time.Since(info.ModTime()) > ownerlessAge, jobMark{}
	}
	var o jobOwner
	if err == nil {
		err = json.NewDecoder(io.LimitReader(f, 4096)).Decode(&o)
		f.Close()
	}
	if err != nil || o.PID <= 0 {
		return false, jobMark{} // not ours to judge (a link, a file being written)
	}
	if o.Host != hostname() || ownerAlive(o.PID, o.Start) {
		return false, jobMark{}
	}
	since, _ := strconv.ParseUint(o.Start, 10, 64)
	return true, jobMark{token: o.Token, since: since}
}

// ownerAlive says whether process pid, started at start (procStart),
// still runs.
func ownerAlive(pid int, start string) bool {
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil || isZombie(pid) {
		return false
	}
	return procStart(pid) == start
}

// jobDirs are the folders the implementations' jobs are made in, on the host.
func jobDirs(impls []*Impl) []string {
	var dirs []string
	for _, im := range impls {
		if d := im.HostPath(JobDir()); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// SweepAtStart removes the stale job folders of the run's implementations
// and says so in one line.
func SweepAtStart(suite string, impls []*Impl, out io.Writer) {
	removed := sweepJobDirs(jobDirs(impls))
	if len(removed) == 0 || out == nil {
		return
	}
	var where []string
	for _, p := range removed {
		if d := filepath.Dir(p); !slices.Contains(where, d) {
			where = append(where, d)
		}
	}
	fmt.Fprintf(out, "mpits %s: removed %s in %s that no live process owned (left by a run killed before it could clean up)\n",
		suite, verdict.Plural(len(removed), "job folder"), strings.Join(where, ", "))
}

// procStart is a process's start time in clock ticks since boot (field 22
// of /proc/PID/stat), which tells a reused pid apart; "0" when unknown.
func procStart(pid int) string {
	_, start, _ := procStat(pid)
	return strconv.FormatUint(start, 10)
}

// procStat is a process's state letter (R, S, Z...) and start time from
// /proc/PID/stat; ok is false when it cannot be read.
func procStat(pid int) (state string, start uint64, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) <= 19 {
		return "", 0, false
	}
	start, err = strconv.ParseUint(f[19], 10, 64)
	return f[0], start, err == nil
}
