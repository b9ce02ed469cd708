package mpi

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mpits/mpits/harness/settings"
)

// An implementation is probed once a process, and once for every process
// of a run that shares MPITS_RUN_DIR (ci/run-suites' four go test
// packages). Either way a probe is found again only under what it depends
// on (ImplIdentity): two MPIs judged one after the other under the default
// id, or one MPI rebuilt under the same prefix, each get their own.

// probes keeps this process's probes, by ImplIdentity.
var probes Memo[*Caps]

// ProbeOnce is Probe, once per identity: the first caller probes, the
// others (and, with MPITS_RUN_DIR set, the run's other processes) read it.
func ProbeOnce(im *Impl) *Caps {
	id := ImplIdentity(im)
	return probes.Do(id, func() *Caps {
		dir := settings.Setting(settings.RunDirEnv).String()
		if dir == "" || os.MkdirAll(dir, 0o700) != nil {
			return Probe(im)
		}
		path := ProbeFile(dir, im)
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
	})
}

// ProbeFile is the file of run folder dir that keeps im's probe.
func ProbeFile(dir string, im *Impl) string {
	return filepath.Join(dir, "caps-"+ImplIdentity(im)[:32]+".json")
}

// WriteJSON writes v indented, atomically (suites may write the same file).
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(data, '\n'), 0o644)
}
