package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// malformed is a bad value of one input, the settings it needs beside it
// to be reached, and what the refusal must say.
type malformed struct {
	value string
	env   map[string]string
	want  []string
}

// badSettings is a malformed value of every setting a run reads (every one
// of the list but mpits's own internal ones). A setting any text is a valid
// value of (a path, arguments) is given a control character.
var badSettings = map[string]malformed{
	"MPITS_IMPLEMENTATIONS":         {value: "/nonexistent/impls.json", want: []string{"cannot be read"}},
	"MPITS_MPI":                     {value: "/nonexistent", env: noFile, want: []string{"is not a folder"}},
	"MPITS_MPICC":                   {value: "/nonexistent/mpicc", env: map[string]string{"MPITS_IMPLEMENTATIONS": "", "MPITS_MPIEXEC": "/bin/true"}, want: []string{"/nonexistent/mpicc"}},
	"MPITS_MPIEXEC":                 {value: "/nonexistent/mpiexec", env: map[string]string{"MPITS_IMPLEMENTATIONS": "", "MPITS_MPICC": "/bin/true"}, want: []string{"/nonexistent/mpiexec"}},
	"MPITS_ENV":                     {value: "no-equals", env: map[string]string{"MPITS_IMPLEMENTATIONS": "", "MPITS_MPI": "/usr"}, want: []string{"has no '='"}},
	"MPITS_IMPL_ID":                 {value: "a b", want: []string{"holds a character other than"}},
	"MPITS_IMPLS":                   {value: "nosuch", want: []string{`unknown implementation "nosuch"`}},
	"MPITS_LAUNCHER":                {value: "/nonexistent/mpiexec", want: []string{"is not an executable file"}},
	"MPITS_LAUNCHER_ARGS":           {value: "-x\x1b[2J", want: []string{"holds a control character"}},
	"MPITS_NP_FLAG":                 {value: "-n\a", want: []string{"holds a control character"}},
	"MPITS_LAUNCH":                  {value: "mpirun", want: []string{"want direct (or empty), srun or salloc"}},
	"MPITS_SLURM_MPI":               {value: "pmi\r", want: []string{"holds a control character"}},
	"MPITS_SLURM_NODES":             {value: "0", want: []string{"less than 1"}},
	"MPITS_SLURM_ARGS":              {value: "-p\tdebug", want: []string{"holds a control character"}},
	"MPITS_JOB_DIR":                 {value: "/proc", want: []string{"is not a folder this user can write"}},
	"MPITS_CACHE":                   {value: "/proc/mpits", want: []string{"is not a folder this user can write"}},
	"MPITS_FIXTURES":                {value: "/nonexistent", want: []string{"no such file or directory"}},
	settings.TimeoutEnv:             {value: "soon", want: []string{"not a Go duration"}},
	settings.JobsEnv:                {value: "abc", want: []string{"not a whole number"}},
	settings.StrictEnv:              {value: "normative", want: []string{`"normative" is not one of them`}},
	"MPITS_PROGRESS":                {value: "yes", want: []string{"want 0 or 1"}},
	settings.ExpectEnv:              {value: "/nonexistent/expect", want: []string{"does not exist"}},
	settings.ExpectUpdateEnv:        {value: "true", want: []string{"want 1 to write the expectations"}},
	settings.InjectEnv:              {value: "inject_no_such", want: []string{"inject_no_such is no fault injector"}},
	settings.ProveEnv:               {value: "somewhere", want: []string{"want everywhere"}},
	"MPITS_REPORT_DIR":              {value: "/proc/reports", want: []string{"no file can be made in /proc"}},
	settings.TapeEnv:                {value: "/nonexistent", want: []string{"no such file or directory"}},
	settings.JobLogEnv:              {value: "/nonexistent/jobs.log", want: []string{"its folder"}},
	settings.RunMark:                {value: "run 1", want: []string{"holds more than letters"}},
	settings.RunDirEnv:              {value: "/proc/run", want: []string{"no file can be made in /proc"}},
	"MPITS_OVERHEAD_SAMPLE_SECONDS": {value: "0", want: []string{"MPITS_OVERHEAD_SAMPLE_SECONDS"}},
	"MPITS_OVERHEAD_TOOLS":          {value: "1,x", want: []string{"MPITS_OVERHEAD_TOOLS"}},
	"MPITS_OVERHEAD_CALLGRIND":      {value: "maybe", want: []string{"want 0, off or no"}},
	"MPITS_FUZZTIME":                {value: "long", want: []string{"MPITS_FUZZTIME"}},
	"MPITS_PROVISION":               {value: "2", want: []string{"want 0 or 1"}},
	"MPITS_THIRD_PARTY":             {value: "/x\x01y", want: []string{"holds a control character"}},
	"MPITS_SLURM_DIR":               {value: "/x\ny", want: []string{"holds a control character"}},
	"MPITS_SLURM_DEADLINE":          {value: "-1", want: []string{"less than 1"}},
	"MPITS_UPDATE_CONSTANTS":        {value: "\x1b", want: []string{"holds a control character"}},
	"MPITS_SCREENSHOTS":             {value: "/proc/shots", want: []string{"no file can be made in /proc"}},
	"MPITS_SITE_DIR":                {value: "site\x7f", want: []string{"holds a control character"}},
}

// noFile unsets the implementations file the cases start from, for the
// settings that describe an implementation themselves.
var noFile = map[string]string{"MPITS_IMPLEMENTATIONS": ""}

// badFlags is a malformed value of every flag of mpits run that is not a
// setting's (those take their setting's value of badSettings).
var badFlags = map[string]malformed{
	"env":           {value: "K=line1\nLD_PRELOAD=/x.so", want: []string{"holds a line break"}},
	"labels":        {value: "(", want: []string{`--labels "(": Syntax Error Parsing Label Filter`}},
	"expect-update": {value: "maybe", want: []string{"invalid boolean value"}},
	"junit":         {value: "/proc/j.xml", want: []string{"--junit /proc/j.xml", "no file can be made in /proc"}},
	"json":          {value: "/proc/v.json", want: []string{"--json /proc/v.json", "no file can be made in /proc"}},
	"html":          {value: "/proc/site", want: []string{"--html /proc/site", "no file can be made in /proc"}},
	"no-color":      {value: "maybe", want: []string{"invalid boolean value"}},
	"v":             {value: "2", want: []string{"invalid boolean value"}},
}

// Every setting and every flag of mpits run, given a malformed value, is
// refused before anything runs: exit 2, one line naming it, no escape byte
// echoed, nothing written in the cache.
func TestRunRefusesEveryMalformedInput(t *testing.T) {
	for _, d := range settings.Settings() {
		if _, ok := badSettings[d.Name]; !ok && d.Group != settings.GroupInternal {
			t.Errorf("%s has no malformed value in badSettings", d.Name)
		}
	}
	bySetting := map[string]string{}
	for _, f := range runSettingFlags {
		bySetting[f.flag] = f.setting
	}
	newRunFlags().fs.VisitAll(func(f *flag.Flag) {
		if _, ok := badFlags[f.Name]; !ok && bySetting[f.Name] == "" {
			t.Errorf("--%s has no malformed value in badFlags", f.Name)
		}
	})
	impls := filepath.Join(t.TempDir(), "impls.json")
	mpitest.WriteFile(t, impls, mpitest.TwoImplsHere(t), 0o644)
	try := func(t *testing.T, name string, c malformed, env map[string]string, args []string) {
		mpitest.ClearSettings(t)
		cache := settings.Setting("MPITS_CACHE").String()
		t.Setenv("MPITS_IMPLEMENTATIONS", impls)
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		for k, v := range env {
			t.Setenv(k, v)
		}
		err := cmdRun(args)
		mpitest.WantOneLineErr(t, err, append([]string{name}, c.want...)...)
		if exitCode(err) != 2 {
			t.Errorf("exit %d, want 2", exitCode(err))
		}
		if strings.ContainsAny(fmt.Sprint(err), "\x1b\a\r\t\x00\x7f") {
			t.Errorf("the refusal echoes a control byte: %q", err)
		}
		if entries, _ := os.ReadDir(cache); len(entries) > 0 {
			t.Errorf("the refused run wrote %s in the cache", entries[0].Name())
		}
	}
	for name, c := range badSettings {
		t.Run(name, func(t *testing.T) {
			try(t, name, c, map[string]string{name: c.value}, []string{"--labels", "impl:alpha"})
		})
	}
	newRunFlags().fs.VisitAll(func(f *flag.Flag) {
		t.Run("--"+f.Name, func(t *testing.T) {
			if setting := bySetting[f.Name]; setting != "" {
				try(t, setting, badSettings[setting], nil, []string{"--" + f.Name + "=" + badSettings[setting].value})
				return
			}
			try(t, "-"+f.Name, badFlags[f.Name], nil, []string{"--" + f.Name + "=" + badFlags[f.Name].value})
		})
	})
}
