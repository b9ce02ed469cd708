package mpi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/settings"
)

func logJob(j Job, ran, waited, cpu time.Duration) {
	path := settings.Setting(settings.JobLogEnv).String()
	if path == "" {
		return
	}
	// Appended to only when it is a regular file of this user's: a link or
	// a FIFO another user put at the name is neither followed nor waited on.
	f, err := OpenOwnFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	// every preloaded library by its base name: injectors, then the tool
	var names []string
	for _, p := range strings.FieldsFunc(j.RankEnv["LD_PRELOAD"], func(r rune) bool { return r == ':' || r == ' ' }) {
		names = append(names, filepath.Base(p))
	}
	pre := strings.Join(names, ":")
	// one write: lines of concurrent jobs do not interleave
	fmt.Fprintf(f, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", time.Now().Add(-ran).Format("15:04:05.000"), j.Impl.ID, j.Name, j.Ranks,
		waited.Milliseconds(), ran.Milliseconds(), cpu.Milliseconds(), pre)
}
