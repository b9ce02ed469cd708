package harness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
)

// Every Go file of the module (tests too) reads the environment's MPITS_
// variables through the list, Setting: os.Getenv and os.LookupEnv take only
// literal names, none of them MPITS_, outside settings.go; Setting takes
// only names of the list.
func TestSettingsReadThroughList(t *testing.T) {
	root := settings.ModuleRoot()
	if root == "" {
		t.Fatal("no go.mod above the test's folder")
	}
	listed := map[string]bool{}
	for _, d := range settings.Settings() {
		listed[d.Name] = true
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fun := ""
			switch x := call.Fun.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok {
					fun = id.Name + "." + x.Sel.Name
				}
			case *ast.Ident:
				fun = x.Name
			}
			at := func() string { return rel + ":" + strconv.Itoa(fset.Position(call.Pos()).Line) }
			lit, isLit := call.Args[0].(*ast.BasicLit)
			name := ""
			if isLit && lit.Kind == token.STRING {
				name, _ = strconv.Unquote(lit.Value)
			}
			switch fun {
			case "os.Getenv", "os.LookupEnv", "syscall.Getenv":
				if rel == filepath.Join("harness", "settings", "settings.go") {
					return true
				}
				switch {
				case !isLit:
					t.Errorf("%s: %s of a name that is not a literal: read a setting with settings.Setting", at(), fun)
				case strings.HasPrefix(name, "MPITS_"):
					t.Errorf("%s: %s(%q): read it with settings.Setting (harness/settings/settings.go)", at(), fun, name)
				}
			case "Setting", "settings.Setting":
				if isLit && !listed[name] {
					t.Errorf("%s: Setting(%q): not in the list of settings (harness/settings/settings.go)", at(), name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned %d Go files under %s: the walk missed the module", files, root)
	}
}

// The list is whole: every MPITS_ variable the README or docs/ name, a script in
// ci/ reads or sets, or a C fixture reads is in it, and every name in it is
// used somewhere.
func TestSettingsListWhole(t *testing.T) {
	root := settings.ModuleRoot()
	seen := map[string]bool{}
	for _, d := range settings.Settings() {
		switch {
		case seen[d.Name]:
			t.Errorf("%s is listed twice", d.Name)
		case !strings.HasPrefix(d.Name, "MPITS_"):
			t.Errorf("%s: not an MPITS_ name", d.Name)
		case !slices.Contains(settings.Groups, d.Group):
			t.Errorf("%s: group %q is not one of Groups", d.Name, d.Group)
		case d.Meaning == "":
			t.Errorf("%s says nothing of what it does", d.Name)
		case d.Group != settings.GroupInternal && d.Allowed == "":
			t.Errorf("%s says not what is allowed", d.Name)
		case d.Group == settings.GroupInternal && d.Check != nil:
			t.Errorf("%s is internal, and checked", d.Name)
		}
		seen[d.Name] = true
	}
	// a name, not a family of names (MPITS_OVERHEAD_*)
	name := regexp.MustCompile(`\bMPITS_[A-Z0-9_]*[A-Z0-9]\b`)
	used := map[string]string{} // name -> a file using it
	read := func(rel string, re *regexp.Regexp, mustList bool) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			n := m[len(m)-1]
			if _, ok := used[n]; !ok {
				used[n] = rel
			}
			if mustList && !seen[n] {
				t.Errorf("%s names %s, which is not in the list of settings (harness/settings/settings.go)", rel, n)
			}
		}
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, d := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		rel, _ := filepath.Rel(root, d)
		read(rel, name, true)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasPrefix(rel, "ci"+string(filepath.Separator)) && !strings.HasSuffix(rel, ".md"):
			read(rel, name, true)
		case strings.HasPrefix(rel, filepath.Join("fixtures", "c")) && (strings.HasSuffix(rel, ".c") || strings.HasSuffix(rel, ".h")):
			read(rel, regexp.MustCompile(`getenv\("(MPITS_[A-Z0-9_]+)"\)`), true)
		case strings.HasSuffix(rel, ".go") && rel != filepath.Join("harness", "settings", "settings.go") && rel != filepath.Join("harness", "settings_test.go"):
			read(rel, regexp.MustCompile(`"(MPITS_[A-Z0-9_]+)"`), false)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range settings.Settings() {
		if _, ok := used[d.Name]; !ok {
			t.Errorf("%s is listed, but no Go file, script or fixture uses it: drop it from the list", d.Name)
		}
	}
}

// A bad value is refused before anything runs, in one line naming the
// setting, the value and what is allowed.
func TestCheckSettings(t *testing.T) {
	for _, d := range settings.Settings() {
		t.Setenv(d.Name, "")
	}
	if err := settings.CheckSettings(); err != nil {
		t.Fatalf("nothing set: %v", err)
	}
	for _, c := range []struct{ name, value, want string }{
		{settings.JobsEnv, "abc", `MPITS_JOBS="abc" is not allowed (not a whole number): want a whole number, 1 or more, or unset it (default: eight a core)`},
		{settings.JobsEnv, "0", `MPITS_JOBS="0" is not allowed (less than 1)`},
		{"MPITS_LAUNCH", "mpirun", `MPITS_LAUNCH="mpirun" is not allowed: want direct (or empty), srun or salloc, or unset it (default: each implementation's launch field, direct where it has none)`},
		{"MPITS_PROGRESS", "off", `MPITS_PROGRESS="off" is not allowed: want 0 or 1, or unset it (default: 1)`},
		{settings.StrictEnv, "quality,normativ", `MPITS_STRICT="quality,normativ" is not allowed ("normativ" is not one of them)`},
		{settings.ExpectUpdateEnv, "yes", `MPITS_EXPECT_UPDATE="yes" is not allowed: want 1 to write the expectations, or 0`},
		{settings.ProveEnv, "all", `MPITS_PROVE="all" is not allowed: want everywhere`},
		{"MPITS_IMPL_ID", "my mpi", `MPITS_IMPL_ID="my mpi" is not allowed (holds a character`},
		{"MPITS_SLURM_NODES", "zero", `MPITS_SLURM_NODES="zero" is not allowed (not a whole number)`},
		{settings.TapeEnv, "/no/such/folder", `MPITS_TAPE="/no/such/folder" is not allowed (no such file or directory): want an existing folder`},
		{settings.JobLogEnv, "/no/such/folder/log", `MPITS_JOB_LOG="/no/such/folder/log" is not allowed (its folder: no such file or directory)`},
		{"MPITS_OVERHEAD_TOOLS", "1,many", `MPITS_OVERHEAD_TOOLS="1,many" is not allowed ("many" is neither a number of QMPI tools (0 to 255) nor pmpi)`},
		{"MPITS_OVERHEAD_SAMPLE_SECONDS", "90", `MPITS_OVERHEAD_SAMPLE_SECONDS="90" is not allowed (out of range)`},
		{"MPITS_FUZZTIME", "1 minute", `MPITS_FUZZTIME="1 minute" is not allowed (not a duration)`},
	} {
		t.Setenv(c.name, c.value)
		err := settings.CheckSettings()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "`") {
			t.Errorf("%s=%q: %v\nwant one line beginning %s", c.name, c.value, err, c.want)
		}
		t.Setenv(c.name, "")
	}
	for _, c := range []struct{ name, value string }{
		{settings.JobsEnv, "16"}, {"MPITS_LAUNCH", "direct"}, {"MPITS_LAUNCH", "srun"}, {"MPITS_PROGRESS", "0"},
		{settings.StrictEnv, "quality, interpretation"}, {settings.StrictEnv, "all"}, {settings.ExpectUpdateEnv, "1"}, {settings.ProveEnv, "everywhere"},
		{"MPITS_IMPL_ID", "my-mpi_5.0"}, {settings.TapeEnv, t.TempDir()}, {settings.JobLogEnv, filepath.Join(t.TempDir(), "log")},
		{"MPITS_OVERHEAD_TOOLS", "0, 4,pmpi"}, {"MPITS_OVERHEAD_SAMPLE_SECONDS", "0.05"}, {"MPITS_OVERHEAD_CALLGRIND", "off"},
		{"MPITS_FUZZTIME", "90s"}, {"MPITS_FUZZTIME", "1000x"},
		{"MPITS_MPI", "anything: checked when the implementations load"},
	} {
		t.Setenv(c.name, c.value)
		if err := settings.CheckSettings(); err != nil {
			t.Errorf("%s=%q refused: %v", c.name, c.value, err)
		}
		t.Setenv(c.name, "")
	}
}

// The accessors: the value as set, read when asked for.
func TestSettingValues(t *testing.T) {
	t.Setenv(settings.JobsEnv, " 12 ")
	if n := settings.Setting(settings.JobsEnv).Int(); n != 12 {
		t.Errorf("Int = %d", n)
	}
	if n := mpi.Slots(); n != 12 {
		t.Errorf("Slots = %d with MPITS_JOBS=12", n)
	}
	t.Setenv(settings.StrictEnv, " quality,, all ")
	if l := settings.Setting(settings.StrictEnv).List(); !slices.Equal(l, []string{"quality", "all"}) {
		t.Errorf("List = %q", l)
	}
	t.Setenv("MPITS_LAUNCH", "")
	if v, set := settings.Setting("MPITS_LAUNCH").Lookup(); v != "" || !set {
		t.Errorf("Lookup of a setting set empty = %q, %v", v, set)
	}
	os.Unsetenv("MPITS_LAUNCH")
	if _, set := settings.Setting("MPITS_LAUNCH").Lookup(); set {
		t.Error("Lookup of an unset setting says it is set")
	}
	defer func() {
		if recover() == nil {
			t.Error("Setting of a name not in the list did not panic")
		}
	}()
	bogus := "MPITS_NO_SUCH_SETTING"
	settings.Setting(bogus)
}

// A misspelt setting is refused with the one it was likely meant to be;
// listed ones, and other variables, pass.
func TestUnknownSetting(t *testing.T) {
	err := settings.UnknownSetting([]string{"PATH=/bin", "MPITS_JOBS=4", "MPITS_JOBZ=8"})
	if err == nil || !strings.Contains(err.Error(), "MPITS_JOBZ is not a setting (did you mean MPITS_JOBS?)") {
		t.Errorf("MPITS_JOBZ: got %v", err)
	}
	if err := settings.UnknownSetting([]string{"MPITS_JOBS=4", "MPITS_RECORD_DIR=/tmp/x", "HOME=/root"}); err != nil {
		t.Errorf("listed settings refused: %v", err)
	}
}
