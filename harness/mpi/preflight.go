package mpi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mpits/mpits/harness/settings"
)

// Settings are checked before anything runs: a wrong one gives one line
// naming it, rather than hundreds of per-check errors later.

// geteuid is os.Geteuid, which tests replace to be a plain user.
var geteuid = os.Geteuid

// DefaultImplFile is the implementations file read when no setting names
// one: the cache's; for a plain user who has none, the one root provisioned
// (a plain user's cache is ~/.cache/mpits, which provisioning never fills).
// It is also the file `mpits impl add` writes unless told another.
func DefaultImplFile() string {
	own := filepath.Join(CacheDir(), "implementations.json")
	if settings.Setting("MPITS_CACHE").String() != "" {
		return own
	}
	return firstReadable(own, filepath.Join(systemCache, "implementations.json"))
}

// firstReadable is own if it exists, else other if it can be read, else own.
func firstReadable(own, other string) string {
	if _, err := os.Stat(own); err == nil {
		return own
	}
	if f, err := os.Open(other); err == nil {
		f.Close()
		return other
	}
	return own
}

// checkTrusted refuses an implementations file another user could have
// written: its wrappers and launchers would run as this user. It must be a
// regular file of this user's or root's that no one else can write.
func checkTrusted(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return nil // not there: the reading says so
	}
	sys, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): nothing of it is used; set MPITS_IMPLEMENTATIONS or MPITS_MPI", path, info.Mode().Type())
	case !ok || (int(sys.Uid) != os.Getuid() && sys.Uid != 0):
		return fmt.Errorf("%s belongs to uid %d, neither you (uid %d) nor root: its commands would run as you, so nothing of it is used; set MPITS_IMPLEMENTATIONS or MPITS_MPI", path, sys.Uid, os.Getuid())
	case info.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s can be written by other users (mode %o): its commands would run as you, so nothing of it is used; close it (chmod go-w)", path, info.Mode().Perm())
	}
	return nil
}

// checkCache makes sure builds and run folders can be written to the cache.
func checkCache() error {
	d := CacheDir()
	name := "MPITS_CACHE=" + d
	if settings.Setting("MPITS_CACHE").String() == "" {
		name = "the cache folder " + d + " (MPITS_CACHE unset)"
	}
	// What the cache holds is executed (fixtures) and trusted (the
	// implementations file, probes): it must be this user's and no one
	// else's to write.
	if d == tempCacheDir() {
		if err := PrivateDir(d); err != nil {
			return fmt.Errorf("%s, in a folder every user can write: %v; nothing of it is used: set MPITS_CACHE to a folder of yours", name, err)
		}
	}
	err := os.MkdirAll(d, 0o755)
	if err == nil {
		if info, lerr := os.Lstat(d); lerr == nil {
			switch {
			case !info.IsDir() || !ownedBy(info):
				return fmt.Errorf("%s is not a folder of yours (uid %d): its fixtures would run as you; set MPITS_CACHE to a folder of yours", name, os.Getuid())
			case info.Mode().Perm()&0o022 != 0:
				return fmt.Errorf("%s can be written by other users (mode %o): its fixtures would run as you; close it (chmod go-w) or set MPITS_CACHE to a folder of yours", name, info.Mode().Perm())
			}
		}
	}
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(d, ".writable-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return nil
		}
	}
	return fmt.Errorf("%s is not a folder this user can write (%v): set MPITS_CACHE to one (built fixtures go there)", name, settings.Cause(err))
}

// checkJobDir makes sure MPITS_JOB_DIR, when set, is a folder this user
// can make job folders in (on the host; a root has its own /tmp).
func checkJobDir() error {
	d := settings.Setting("MPITS_JOB_DIR").String()
	if d == "" {
		return nil
	}
	f, err := os.MkdirTemp(d, ".writable-")
	if err != nil {
		return fmt.Errorf("MPITS_JOB_DIR=%s is not a folder this user can write (%v): set it to one every node of your cluster shares, or unset it (default /tmp)", d, settings.Cause(err))
	}
	return os.Remove(f)
}

// checkPaths says in one line which of an available implementation's cc,
// launcher and lib does not exist, looked up inside its root when it has
// one; from is the implementations file it comes from ("" for a setting).
func checkPaths(im *Impl, from string) error {
	if !im.Available {
		return nil
	}
	head, fix := im.ID+": ", "set MPITS_MPI or MPITS_MPICC+MPITS_MPIEXEC to your MPI"
	if from != "" {
		head, fix = fmt.Sprintf("implementations file %s: %s: ", from, im.ID), "fix the path, or set \"available\": false with a \"reason\""
	}
	where := ""
	if im.Root != "" {
		where = " inside its root " + im.Root
	}
	if l := settings.Setting("MPITS_LAUNCHER").String(); l != "" && !im.executable(l) {
		return fmt.Errorf("MPITS_LAUNCHER=%s is not an executable file or on PATH%s (for %s): set it to a launcher's full path or install it", l, where, im.ID)
	}
	for _, c := range []struct{ what, path string }{{"cc", im.CC}, {"launcher", im.Launcher}} {
		if !im.executable(c.path) {
			return fmt.Errorf("%s%s %s is not an executable file%s: %s", head, c.what, c.path, where, fix)
		}
	}
	if strings.Contains(im.Lib, "/") { // a bare soname is the loader's to find
		if p, err := inRoot(im.Root, im.Lib); err != nil || !isFile(p) {
			return fmt.Errorf("%slib %s does not exist%s: %s", head, im.Lib, where, fix)
		}
	}
	return nil
}

// executable reports whether the implementation can run p: a path, or a
// name found on PATH (inside its root when it has one).
func (im *Impl) executable(p string) bool {
	if p == "" {
		return false
	}
	cands := []string{p}
	if !strings.Contains(p, "/") {
		cands = nil
		for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
			if filepath.IsAbs(dir) {
				cands = append(cands, filepath.Join(dir, p))
			}
		}
	}
	for _, c := range cands {
		if h, err := inRoot(im.Root, c); err == nil && isExecutable(h) {
			return true
		}
	}
	return false
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// inRoot is the host path of p as a process chrooted to root sees it: an
// absolute symbolic link (Debian's alternatives) points into root, not the
// host. Without root, p itself.
func inRoot(root, p string) (string, error) {
	if root == "" {
		return p, nil
	}
	rest := strings.Split(filepath.Clean("/"+p), "/")
	cur := "/"
	for links := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		target, err := os.Readlink(filepath.Join(root, next))
		if err != nil {
			if _, err := os.Lstat(filepath.Join(root, next)); err != nil {
				return "", err
			}
			cur = next // not a link
			continue
		}
		if links++; links > 40 {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return filepath.Join(root, cur), nil
}
