// Package readme runs the commands the README and the pages of docs/ show,
// verbatim, on one installed implementation: an edit that breaks one fails
// here; and it resolves their links.
package readme

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpi"
)

// A block is one ```sh block of a page and the marker above it:
// <!-- readme-test: exit=N prints="TEXT" --> runs it, wanting that exit
// status and TEXT in its output; <!-- readme-test: skip="WHY" --> says why
// it is not run here. Every ```sh block has one.
type block struct {
	page   string // README.md or docs/NAME.md
	line   int    // of the block's first command
	script string
	exit   int
	prints string
	skip   string
}

var (
	markerRe = regexp.MustCompile(`^<!-- readme-test: (.*) -->$`)
	attrRe   = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S+)`)
)

// pages are the files whose blocks run, in the order they run: the README's
// commands build ./mpits and the expectations the pages of docs/ use.
func pages(t *testing.T) []string {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		out = append(out, filepath.ToSlash(strings.TrimPrefix(d, "../")))
	}
	return out
}

// allBlocks reads every page's blocks, in order.
func allBlocks(t *testing.T) []block {
	var all []block
	for _, p := range pages(t) {
		data, err := os.ReadFile("../" + p)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := blocks(p, string(data))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, bs...)
	}
	return all
}

// blocks reads the ```sh blocks of page with their markers.
func blocks(page, text string) ([]block, error) {
	lines := strings.Split(text, "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		b := block{page: page, line: i + 2}
		j := i - 1
		for j >= 0 && strings.TrimSpace(lines[j]) == "" {
			j--
		}
		m := []string(nil)
		if j >= 0 {
			m = markerRe.FindStringSubmatch(strings.TrimSpace(lines[j]))
		}
		if m == nil {
			return nil, fmt.Errorf("%s:%d: a ```sh block without a <!-- readme-test: ... --> marker above it: say what it exits with and prints, or why it is not run", page, i+1)
		}
		for _, a := range attrRe.FindAllStringSubmatch(m[1], -1) {
			val := a[2]
			if strings.HasPrefix(val, `"`) {
				var err error
				if val, err = strconv.Unquote(val); err != nil {
					return nil, fmt.Errorf("%s:%d: marker %s: %v", page, j+1, a[0], err)
				}
			}
			switch a[1] {
			case "exit":
				n, err := strconv.Atoi(val)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: exit=%s is not a number", page, j+1, val)
				}
				b.exit = n
			case "prints":
				b.prints = val
			case "skip":
				b.skip = val
			default:
				return nil, fmt.Errorf("%s:%d: unknown marker attribute %s (exit, prints, skip)", page, j+1, a[1])
			}
		}
		if b.skip == "" && b.prints == "" {
			return nil, fmt.Errorf("%s:%d: the marker says neither what the block prints nor why it is skipped", page, j+1)
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		b.script = strings.Join(body, "\n")
		out = append(out, b)
	}
	return out, nil
}

// TestBlocksHaveMarkers holds in any checkout: every ```sh block of the
// README and of docs/ says how it is tested.
func TestBlocksHaveMarkers(t *testing.T) {
	run := map[string]int{}
	for _, b := range allBlocks(t) {
		if b.skip == "" {
			run[b.page]++
		}
	}
	if run["README.md"] < 5 {
		t.Fatalf("only %d README blocks are run: the vendor's commands went missing?", run["README.md"])
	}
}

// TestCommands runs every marked block in order (the README's, then each
// page of docs/ by name), in a copy of the tree,
// with MPI_PREFIX the installation prefix of mpich-tools (README_TEST_MPI
// overrides).
func TestCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs every vendor command of the README on an MPI, minutes; run without -short")
	}
	prefix := readmeMPI(t)
	bs := allBlocks(t)
	tree := copyTree(t)
	tmp := t.TempDir()
	env := append(os.Environ(), "MPI_PREFIX="+prefix, "TMPDIR="+tmp, "PATH="+goBin()+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, b := range bs {
		if b.skip != "" {
			t.Logf("%s:%d: not run: %s", b.page, b.line, b.skip)
			continue
		}
		start := time.Now()
		out, code := runBlock(t, tree, env, b.script)
		t.Logf("%s:%d: exit %d in %s", b.page, b.line, code, time.Since(start).Round(time.Second))
		if code != b.exit || !strings.Contains(out, b.prints) {
			t.Fatalf("%s:%d: want exit %d and %q in the output; got exit %d, output ending:\n%s\n---\n%s", b.page, b.line, b.exit, b.prints, code, tail(out, 3000), b.script)
		}
	}
}

// readmeMPI is the prefix the commands run on.
func readmeMPI(t *testing.T) string {
	if p := os.Getenv("README_TEST_MPI"); p != "" {
		return p
	}
	file := filepath.Join(mpi.CacheDir(), "implementations.json")
	impls, err := mpi.ReadImplFile(file)
	if os.IsNotExist(err) {
		t.Skipf("no implementations file at %s: run ci/provision, or set README_TEST_MPI to an MPI's prefix", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range impls {
		if im.ID == "mpich-tools" && im.Available {
			p, err := im.InstallPrefix()
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("%s has no available mpich-tools: run ci/provision", file)
	return ""
}

// copyTree copies the files git tracks (as they are in the work tree)
// into a new folder: the commands build and write there, as in a clone.
func copyTree(t *testing.T) string {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	list, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("the tree is not a git checkout (git ls-files: %v)", err)
	}
	dst := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		from, to := filepath.Join(root, f), filepath.Join(dst, f)
		st, err := os.Lstat(from)
		if err != nil {
			continue // deleted in the work tree
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if st.Mode()&os.ModeSymlink != 0 {
			link, _ := os.Readlink(from)
			err = os.Symlink(link, to)
		} else {
			var data []byte
			if data, err = os.ReadFile(from); err == nil {
				err = os.WriteFile(to, data, st.Mode().Perm())
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// runBlock runs script with bash in dir, stopping at the first command
// that fails, killed with its children after ten minutes.
func runBlock(t *testing.T, dir string, env []string, script string) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the block ran past its ten minutes:\n%s\n---\n%s", tail(out.String(), 3000), script)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	return out.String(), 0
}

// goBin is the folder of the go command running this test.
func goBin() string { return filepath.Join(runtime.GOROOT(), "bin") }

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
