package mpi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// What an MPI is, for the fixture cache: a vendor installs tonight's build
// where yesterday's was, behind the same bin/mpicc, so the settings of the
// implementations file do not tell two builds apart. The wrapper's own
// account of itself (-show, --showme), the mpi.h it compiles against and
// the library it links do.

// mpiIdentities keeps each implementation's identity for this process,
// by its settings (settingsKey).
var mpiIdentities Memo[string]

// settingsKey is an implementation's settings, every field of its entry:
// two entries of one id (two runs of "custom") differ in them.
func settingsKey(im *Impl) string {
	data, _ := json.Marshal(im)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ImplIdentity is what a probe of im depends on: its settings (wrappers,
// launcher, flags, environment), what its MPI is (mpiIdentity) and the
// launcher's file. Never its id alone, nor the process that asks.
func ImplIdentity(im *Impl) string {
	h := sha256.New()
	fmt.Fprintf(h, "settings %s\x00mpi %s\x00", settingsKey(im), mpiIdentity(im))
	if launcher := im.launcherPath(); launcher != "" {
		fmt.Fprintf(h, "launcher %s\x00%s\x00", launcher, fileDigest(launcher))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// launcherPath is the launcher's file as this host sees it, "" when it
// cannot be found (the probe then says so).
func (im *Impl) launcherPath() string {
	l := im.Launcher
	if l == "" {
		return ""
	}
	if !filepath.IsAbs(l) {
		if im.Root != "" {
			return ""
		}
		p, err := exec.LookPath(l)
		if err != nil {
			return ""
		}
		l = p
	}
	return im.HostPath(l)
}

// mpiIdentity is a digest of the wrappers' answers, of every mpi.h their
// include folders hold and of the libraries (the C, the Fortran and the
// standard-ABI ones), as this process found them first.
func mpiIdentity(im *Impl) string {
	return mpiIdentities.Do(settingsKey(im), func() string {
		h := sha256.New()
		var includes []string
		for _, w := range []string{im.CC, im.FC} {
			if w == "" {
				continue
			}
			show := wrapperShow(im, w)
			fmt.Fprintf(h, "wrapper %s\x00%s\x00", w, show)
			includes = append(includes, includeDirs(strings.Fields(show))...)
		}
		includes = append(includes, includeDirs(im.CFlags)...)
		var libs []string
		if im.Lib != "" {
			libs = append(libs, im.HostPath(im.Lib))
		}
		if im.ABI != nil {
			includes = append(includes, includeDirs(im.ABI.CFlags)...)
			if im.ABI.Lib != "" {
				libs = append(libs, im.HostPath(im.ABI.Lib))
			}
		}
		for _, d := range includes {
			p := im.HostPath(filepath.Join(d, "mpi.h"))
			fmt.Fprintf(h, "header %s\x00%s\x00", p, fileDigest(p))
		}
		for _, p := range libs {
			fmt.Fprintf(h, "library %s\x00%s\x00", p, fileDigest(p))
		}
		return hex.EncodeToString(h.Sum(nil))
	})
}

// wrapperShow is what a compiler wrapper says it runs: MPICH's -show, Open
// MPI's --showme, or, when it answers neither, why (a broken wrapper that
// is mended then gets a new key, and its fixtures are built again).
func wrapperShow(im *Impl, wrapper string) string {
	var why []string
	for _, flag := range []string{"--showme", "-show"} {
		out, err := im.ask(wrapper, flag)
		if err == nil && len(strings.Fields(out)) > 0 {
			return out
		}
		why = append(why, fmt.Sprintf("%s: %v", flag, err))
	}
	return "no answer: " + strings.Join(why, "; ")
}

// nativeIncludes keeps each implementation's C include folders.
var nativeIncludes Memo[[]string]

// IncludeDirs are the folders the implementation's C compiler wrapper, and
// its own C flags, put on the include path, as this host sees them (inside
// the implementation's root, where it has one): where its mpi.h is.
func (im *Impl) IncludeDirs() []string {
	return nativeIncludes.Do(settingsKey(im), func() []string {
		var dirs []string
		if im.CC != "" {
			dirs = includeDirs(strings.Fields(wrapperShow(im, im.CC)))
		}
		var out []string
		for _, d := range append(dirs, includeDirs(im.CFlags)...) {
			out = append(out, im.HostPath(d))
		}
		return out
	})
}

// includeDirs are the -I folders of a command line.
func includeDirs(args []string) []string {
	var out []string
	for _, a := range args {
		if d, ok := strings.CutPrefix(a, "-I"); ok && d != "" {
			out = append(out, d)
		}
	}
	return out
}

// fileDigest is a file's sha256, or "absent" (a header that is not in one
// of the folders is no part of what the MPI is).
func fileDigest(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "absent"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable: " + err.Error()
	}
	return hex.EncodeToString(h.Sum(nil))
}
