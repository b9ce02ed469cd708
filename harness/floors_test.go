package harness

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// floors are the harness's packages from the bottom up: a package imports
// only packages of the floors below its own, never one beside or above it.
var floors = [][]string{
	{"harness/settings", "harness/verdict", "fixtures"},
	{"harness/mpi", "harness/mpitest"},
	{"harness/rulebook"},
	{"harness"},
	{"harness/report"},
	{"harness/report/site"},
}

// TestFloors reads every non-test file of the harness's packages and fails
// on an import that runs sideways or up, and on a package no floor holds.
func TestFloors(t *testing.T) {
	const module = "github.com/mpits/mpits/"
	floorOf := map[string]int{}
	for i, f := range floors {
		for _, p := range f {
			floorOf[p] = i
		}
	}
	dirs, err := filepath.Glob("*")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"."}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && d != "testdata" {
			pkgs = append(pkgs, d)
		}
	}
	seen := 0
	for _, dir := range pkgs {
		pkg := filepath.ToSlash(filepath.Join("harness", dir))
		mine, ok := floorOf[pkg]
		if !ok {
			t.Errorf("%s is on no floor: add it to floors (floors_test.go)", pkg)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			seen++
			for _, im := range af.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				other, ok := strings.CutPrefix(path, module)
				if !ok {
					continue
				}
				if fl, known := floorOf[other]; !known || fl >= mine {
					t.Errorf("%s imports %s: %s is on floor %d, which may import only the floors below it", filepath.ToSlash(filepath.Join("harness", f)), other, pkg, mine)
				}
			}
		}
	}
	if seen < 40 {
		t.Fatalf("read %d files: the walk missed the harness", seen)
	}
}
