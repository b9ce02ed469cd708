package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/report/site"
)

// Every output a run writes at a path the user names is checked before
// anything runs: a refusal is one line, exit 2, and names the path.
func TestOutputsCheckedBeforeTheRun(t *testing.T) {
	mpitest.ClearSettings(t)
	dir := t.TempDir()
	secret, link, fifo := mpitest.Planted(t, dir)
	busy := filepath.Join(dir, "busy")
	mpitest.WriteFile(t, filepath.Join(busy, "index.html"), "mine", 0o644)
	ours := filepath.Join(dir, "ours")
	mpitest.WriteFile(t, filepath.Join(ours, site.Marker), "", 0o644)
	mpitest.WriteFile(t, filepath.Join(ours, "index.html"), "old site", 0o644)
	for _, c := range []struct {
		name  string
		files map[string]string
		html  string
		want  []string // "" for accepted
	}{
		{"json in /proc", map[string]string{"--json": "/proc/v.json"}, "", []string{"--json /proc/v.json", "no file can be made in /proc"}},
		{"junit in /proc", map[string]string{"--junit": "/proc/j.xml"}, "", []string{"--junit /proc/j.xml", "no file can be made in /proc"}},
		{"html in /proc", nil, "/proc/site", []string{"--html /proc/site", "no file can be made in /proc"}},
		{"junit a FIFO", map[string]string{"--junit": fifo}, "", []string{"is a named pipe (FIFO), not a regular file"}},
		{"json a link", map[string]string{"--json": link}, "", []string{"is a symbolic link, not a regular file"}},
		{"json a folder", map[string]string{"--json": dir}, "", []string{"is a folder, not a regular file"}},
		{"html a busy folder", nil, busy, []string{"--html " + busy, "holds files mpits did not write (index.html)"}},
		{"html a FIFO", nil, fifo, []string{"is a named pipe (FIFO), not a folder"}},
		{"new files in new folders", map[string]string{"--json": filepath.Join(dir, "a", "b", "v.json"), "--junit": filepath.Join(dir, "j.xml")}, filepath.Join(dir, "new-site"), nil},
		{"a site mpits wrote", nil, ours, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range c.files {
				files[k] = v
			}
			err := checkOutputs(files, c.html, false)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			mpitest.WantOneLineErr(t, err, c.want...)
			if exitCode(err) != 2 {
				t.Errorf("exit %d, want 2", exitCode(err))
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("the checks left files behind: %d entries", len(entries))
	}
	t.Setenv("MPITS_JOB_LOG", fifo)
	mpitest.WantOneLineErr(t, checkOutputs(map[string]string{}, "", false), "MPITS_JOB_LOG "+fifo, "not a regular file")
	mpitest.SecretUnchanged(t, secret)
}
