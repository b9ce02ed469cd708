package mpi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/settings"
)

// The suites of one run share their capability probes: an implementation is
// probed once a run, not once a suite package. A run is one ci/run-suites
// (which sets MPITS_RUN_DIR) or one `go test` command, whose packages are
// the children of one go process (its pid and start time name the run).

// runDir is this run's shared folder, made if need be; "" when none can be.
func runDir() string {
	if d := settings.Setting(settings.RunDirEnv).String(); d != "" {
		if os.MkdirAll(d, 0o755) != nil {
			return ""
		}
		return d
	}
	base := filepath.Join(CacheDir(), "runs")
	if os.MkdirAll(base, 0o755) != nil {
		return ""
	}
	if info, err := os.Lstat(base); err != nil || !ownDir(info) {
		return "" // another user's (a cache in /tmp): not ours to prune or trust
	}
	pruneRuns(base)
	ppid := os.Getppid()
	d := filepath.Join(base, fmt.Sprintf("go-%d-%s", ppid, procStart(ppid)))
	if os.MkdirAll(d, 0o755) != nil {
		return ""
	}
	return d
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

// pruneRuns removes the folders of this user's runs that ended long ago.
func pruneRuns(base string) {
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && ownDir(info) && time.Since(info.ModTime()) > 6*time.Hour {
			os.RemoveAll(filepath.Join(base, e.Name()))
		}
	}
}

// ProbeOnce is Probe, once per run: the first suite of the run to need im
// probes it and keeps the result in the run's folder; the others read it.
func ProbeOnce(im *Impl) *Caps {
	dir := runDir()
	if dir == "" {
		return Probe(im)
	}
	path := filepath.Join(dir, "caps-"+im.ID+".json")
	unlock, err := LockFile(path + ".lock")
	if err != nil {
		return Probe(im)
	}
	defer unlock()
	var c Caps
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &c) == nil && c.Impl == im.ID {
		return &c
	}
	p := Probe(im)
	_ = WriteJSON(path, p)
	return p
}

// WriteJSON writes v indented, atomically (suites may write the same file).
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(data, '\n'), 0o644)
}
