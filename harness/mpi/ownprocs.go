package mpi

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mpits/mpits/harness/settings"
)

// jobMark tells a job's processes: the marker in their environment
// (JobMarker=token) and the earliest they can have started, in clock ticks
// since boot (procStat): a job's processes start after the process that
// made it.
type jobMark struct {
	token string
	since uint64
}

// killOwnMarked kills the processes ownMarkedPids finds until none is left
// (at most 1 s). A token is no secret (a Slurm job's name, visible in ps,
// carries it), so a process another user started with it, or one of ours
// older than the job, is left alone.
func killOwnMarked(marks []jobMark) {
	if len(marks) == 0 {
		return
	}
	for round := 0; round < 50; round++ {
		found := ownMarkedPids(marks)
		if len(found) == 0 {
			return
		}
		for _, pid := range found {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ownMarkedPids are the live processes but this one that are this user's
// (real and effective uid), carry a mark's token in their environment and
// started no earlier than its since.
func ownMarkedPids(marks []jobMark) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !procOfThisUser(pid) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		state, start, ok := procStat(pid)
		if !ok || state == "Z" || state == "X" {
			continue
		}
		env = append([]byte{0}, env...)
		for _, m := range marks {
			if start >= m.since && bytes.Contains(env, []byte("\x00"+settings.JobMarker+"="+m.token+"\x00")) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// procOfThisUser says whether process pid runs as this user: its real and
// effective uid (the Uid line of /proc/PID/status) are ours.
func procOfThisUser(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	uid := strconv.Itoa(os.Getuid())
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "Uid:" {
			return f[1] == uid && f[2] == uid
		}
	}
	return false
}
