package mpi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// The implementations file is written here, next to where it is read
// (config.go, ReadImplFile): provisioning hands the facts of one
// implementation to `mpits impl add`, which validates them and merges the
// entry into the file. Nothing else writes the format.

// implGeneratedBy is the file's "generated_by" when the writer makes it.
const implGeneratedBy = "mpits impl add"

// implFamilies are the families the harness tells apart (the Slurm PMI
// plugin's default, launch.go; the wrapper detection, config.go).
var implFamilies = []string{"mpich", "openmpi"}

// Validate says in one line what is wrong with the entry and what to do: a
// field that must be there and is not, a value outside the known ones, a
// path of an available implementation that does not exist or cannot be run
// (looked up inside its root when it has one). An unavailable entry needs
// only an id and a reason; its paths are not looked at (its build failed).
func (im Impl) Validate() error {
	if im.ID == "" {
		return errors.New(`an implementation needs an "id": give it one (letters, digits, '.', '_', '-')`)
	}
	if !settings.ImplIDPattern.MatchString(im.ID) {
		return fmt.Errorf(`id %q is not allowed: use letters, digits, '.', '_' and '-' only (it names a column of the reports and an entry of MPITS_IMPLS)`, im.ID)
	}
	head := im.ID + ": "
	if im.Family != "" && !slices.Contains(implFamilies, im.Family) {
		return fmt.Errorf(`%sfamily %q is not known: use %s (MPICH and what derives from it, such as Intel MPI or MVAPICH, is mpich)`, head, im.Family, strings.Join(implFamilies, " or "))
	}
	switch im.Launch {
	case settings.LaunchDirect, settings.LaunchDirectName, settings.LaunchSrun, settings.LaunchSalloc:
	default:
		return fmt.Errorf(`%slaunch %q is not known: use %q or nothing (its own launcher), %q or %q`, head, im.Launch, settings.LaunchDirectName, settings.LaunchSrun, settings.LaunchSalloc)
	}
	if im.Slurm != nil && im.Slurm.Nodes < 0 {
		return fmt.Errorf(`%sslurm nodes %d is negative: give a whole number, 1 or more, or leave it out (default 2)`, head, im.Slurm.Nodes)
	}
	if im.TwinOf == im.ID {
		return fmt.Errorf(`%stwin_of names the implementation itself: name the build it is a twin of, or leave it out`, head)
	}
	type words struct {
		name string
		vals []string
	}
	lists := []words{{"prefix", im.Prefix}, {"cflags", im.CFlags}, {"ldflags", im.LDFlags}, {"launcher_args", im.LauncherArgs}, {"lib_dirs", im.LibDirs}}
	if im.ABI != nil {
		lists = append(lists, words{"abi cflags", im.ABI.CFlags}, words{"abi ldflags", im.ABI.LDFlags})
	}
	if im.Slurm != nil {
		lists = append(lists, words{"slurm args", im.Slurm.Args})
	}
	for _, l := range lists {
		for i, v := range l.vals {
			if v == "" {
				return fmt.Errorf(`%s%s has an empty word (number %d): leave it out`, head, l.name, i+1)
			}
		}
	}
	for k := range im.Env {
		if k == "" || strings.ContainsAny(k, "= \t\n") {
			return fmt.Errorf(`%senv has the variable name %q: give each variable as NAME=VALUE, NAME without '=' or spaces`, head, k)
		}
	}
	if im.Layer != nil {
		if err := im.Layer.validate(head); err != nil {
			return err
		}
	}
	if im.ABI != nil && im.ABIReason != "" {
		return fmt.Errorf(`%shas both an abi entry and an abi_reason (why there is none): keep the one that is true`, head)
	}
	if !im.Available {
		if strings.TrimSpace(im.Reason) == "" {
			return fmt.Errorf(`%sis not available and says no reason: give a "reason" (it is reported on every rule)`, head)
		}
		return nil
	}
	if im.Reason != "" {
		return fmt.Errorf(`%sis available but has a reason (%q): leave the reason out, or make it unavailable ("available": false)`, head, verdict.FirstLine(im.Reason))
	}
	for _, f := range []struct{ name, val, what string }{
		{"family", im.Family, "mpich or openmpi"},
		{"version", im.Version, "the MPI library's version, such as 4.0.2"},
		{"cc", im.CC, "its C compiler wrapper, such as /opt/mpi/bin/mpicc"},
		{"launcher", im.Launcher, "its launcher, such as /opt/mpi/bin/mpiexec"},
		{"lib", im.Lib, "the C MPI library the capability probe loads, such as /opt/mpi/lib/libmpi.so.12"},
	} {
		if f.val == "" {
			return fmt.Errorf(`%sis available but has no %s: give %s, or make it unavailable ("available": false) with a "reason"`, head, f.name, f.what)
		}
	}
	where, fix := "", `install it there, or make the implementation unavailable ("available": false) with a "reason"`
	if im.Root != "" {
		if st, err := os.Stat(im.Root); err != nil || !st.IsDir() {
			return fmt.Errorf(`%sroot %s is not a folder: give the folder the implementation is installed in (its paths are as seen inside it), or leave root out`, head, im.Root)
		}
		if len(im.Prefix) == 0 {
			return fmt.Errorf(`%shas a root (%s) but no prefix: give the command that runs a command inside the root, such as "chroot %s"`, head, im.Root, im.Root)
		}
		where = " inside its root " + im.Root
	}
	if len(im.Prefix) > 0 {
		if _, err := exec.LookPath(im.Prefix[0]); err != nil {
			return fmt.Errorf(`%sprefix command %s is not an executable file or on PATH: install it, or give its full path`, head, im.Prefix[0])
		}
	}
	for _, c := range []struct{ name, path string }{{"cc", im.CC}, {"fc", im.FC}, {"launcher", im.Launcher}} {
		if c.path != "" && !im.executable(c.path) {
			return fmt.Errorf(`%s%s %s is not an executable file%s: %s`, head, c.name, c.path, where, fix)
		}
	}
	if strings.Contains(im.Lib, "/") && !im.isFileInRoot(im.Lib) { // a bare soname is the loader's to find
		return fmt.Errorf(`%slib %s does not exist%s: %s`, head, im.Lib, where, fix)
	}
	for _, d := range im.LibDirs {
		if !im.isDirInRoot(d) {
			return fmt.Errorf(`%slib_dirs has %s, which is not a folder%s: %s`, head, d, where, fix)
		}
	}
	if a := im.ABI; a != nil {
		for _, f := range []struct{ name, val string }{{"cc", a.CC}, {"lib", a.Lib}, {"lib_dir", a.LibDir}} {
			if f.val == "" {
				return fmt.Errorf(`%shas an abi entry without its %s: give abi cc, lib and lib_dir, or leave abi out and say why in abi_reason`, head, f.name)
			}
		}
		fixABI := `install it there, or leave abi out and say why in abi_reason`
		if !im.executable(a.CC) {
			return fmt.Errorf(`%sabi cc %s is not an executable file or on PATH%s: %s`, head, a.CC, where, fixABI)
		}
		if !im.isFileInRoot(a.Lib) {
			return fmt.Errorf(`%sabi lib %s does not exist%s: %s`, head, a.Lib, where, fixABI)
		}
		if !im.isDirInRoot(a.LibDir) {
			return fmt.Errorf(`%sabi lib_dir %s is not a folder%s: %s`, head, a.LibDir, where, fixABI)
		}
	}
	return nil
}

func (im Impl) isFileInRoot(p string) bool {
	h, err := inRoot(im.Root, p)
	return err == nil && isFile(h)
}

func (im Impl) isDirInRoot(p string) bool {
	h, err := inRoot(im.Root, p)
	if err != nil {
		return false
	}
	st, err := os.Stat(h)
	return err == nil && st.IsDir()
}

// AddImpl validates im and writes it into the implementations file: in
// place of the entry with the same id, else after the others, which are
// kept as they are. The file is written whole and renamed into place, in
// one format (json.MarshalIndent of ImplFile, two spaces, fields in the
// struct's order, empty ones left out, a newline at the end): the same
// entries give the same bytes. A missing file is made.
func AddImpl(file string, im Impl) error {
	_, err := addImpl(file, im, false)
	return err
}

// AddImplIfAbsent is AddImpl that leaves an entry with im's id as it is;
// it reports whether it wrote im.
func AddImplIfAbsent(file string, im Impl) (bool, error) {
	return addImpl(file, im, true)
}

func addImpl(file string, im Impl, keep bool) (bool, error) {
	if err := im.Validate(); err != nil {
		return false, err
	}
	f, mode, err := readImplFileForWrite(file)
	if err != nil {
		return false, err
	}
	entry := im
	done := false
	for i, old := range f.Implementations {
		if old.ID == im.ID {
			if keep {
				return false, nil
			}
			f.Implementations[i] = &entry
			done = true
		}
	}
	if !done {
		f.Implementations = append(f.Implementations, &entry)
	}
	if f.GeneratedBy == "" {
		f.GeneratedBy = implGeneratedBy
	}
	data, err := encodeImplFile(f)
	if err != nil {
		return false, fmt.Errorf("implementations file %s: cannot encode %s: %v", file, im.ID, err)
	}
	return true, writeImplFile(file, data, mode)
}

// readImplFileForWrite reads the file to merge into: nothing when it does
// not exist; its entries as they are (an entry the harness would refuse
// for what it says is kept: it is not this writer's); an error when it is
// no implementations file (decodeImplFile), which the writer must not
// overwrite.
func readImplFileForWrite(file string) (*ImplFile, os.FileMode, error) {
	st, err := os.Stat(file)
	if errors.Is(err, os.ErrNotExist) {
		return &ImplFile{}, 0o644, nil
	}
	var data []byte
	if err == nil {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("implementations file %s cannot be read (%v): fix its permissions, or write another file (-file)", file, settings.Cause(err))
	}
	f, err := decodeImplFile(file, data)
	if err != nil {
		return nil, 0, fmt.Errorf("%v; nothing was written", err)
	}
	return f, st.Mode().Perm(), nil
}

// encodeImplFile is the file's one format.
func encodeImplFile(f *ImplFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // notes and reasons are read by people: "<" stays "<"
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeImplFile writes data to a new file beside path and renames it
// over path: a reader sees the old file or the new one, never a part.
func writeImplFile(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	fail := func(err error) error {
		return fmt.Errorf("cannot write the implementations file %s (%v): make %s a folder this user can write, or write another file (-file)", path, settings.Cause(err), dir)
	}
	if _, err := os.Stat(dir); err != nil {
		return fail(err) // a mistyped folder is named, not made
	}
	if err := WriteAtomic(path, data, mode); err != nil {
		return fail(err)
	}
	return nil
}
