package abi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI-5.0 21.2 ("The MPI ABI Header File and Shared Library"): an ABI
// binary must "not require more than mpi_abi or its versioned variant as the
// sole direct dependency", so the same binary file runs on any
// implementation whose libmpi_abi the loader finds: here by LD_LIBRARY_PATH
// alone (no RPATH/RUNPATH in the binary), under that implementation's own
// launcher. The library and its launcher must match (the process manager
// interface is outside the ABI): other pairings are run once and recorded
// in abi-cross-run.md, never judged.
var launch = rulebook.Define(rulebook.Check{
	ID:    "ABI-LAUNCH",
	Needs: "abi",
	Title: "the ABI binaries built with every implementation's ABI header, each needing only libmpi_abi.so.1, run on 2 ranks under this implementation's launcher, its libmpi_abi chosen by LD_LIBRARY_PATH alone (other launchers: abi-cross-run.md, not judged)",
	Rules: []rulebook.Rule{
		// §20.2.1: "ABI-compliant implementations must not require more than
		// mpi_abi or its versioned variant as the sole direct dependency of the
		// application binary." / "Implementors are expected to follow
		// platform-specific conventions for dynamic shared library naming and
		// versioning" (on Linux, the loader's search path picks the library).
		{ID: "ABI-LIB-05", Source: "MPI-5.0 §20.2.1", Basis: rulebook.Normative,
			Text:      "a binary built with any implementation's ABI header needs libmpi_abi.so.1 alone (no RPATH) and, with LD_LIBRARY_PATH pointing at this implementation's libmpi_abi, runs on 2 ranks under this implementation's launcher on that library and no other MPI library",
			Injectors: []string{"inject_abi_libversion_off"},
			Exposure:  lib5Exposure.Declared(), Judge: runLaunch},
	},
})

// Each binary could have needed more, carried an RPATH, or run (or failed
// to run) on another library.
var lib5Exposure = rulebook.Exposure[builtWith]{Items: "binaries (one per ABI header)"}

// builtWith names a binary by the implementation whose ABI header built it.
type builtWith string

type launchRec struct {
	Rank      int    `json:"rank"`
	Size      int    `json:"size"`
	Sum       int    `json:"sum"`
	ABI       string `json:"abi"`
	Library   string `json:"library"`
	MPIInitIn string `json:"mpi_init_in"`
}

type loadedRec struct {
	Path string `json:"path"`
}

func runLaunch(x *rulebook.X) verdict.Verdict {
	var p rulebook.Problems
	var ran []builtWith
	want := realHost(x.Impl, x.Impl.ABI.Lib)
	wantFamily := family(x.Caps.LibraryVersion)
	for _, b := range abiEnvs(x) {
		path, why := built(b, "abi_launch")
		if path == "" {
			p.Add("", "the binary built with %s's header did not build: %s", b.Impl.ID, why)
			continue
		}
		bin, err := readELF(b.Impl.HostPath(path))
		if err != nil {
			x.Errorf("", "%v", err)
		}
		if m := bin.mpiNeeded(); len(m) != 1 || m[0] != "libmpi_abi.so.1" {
			p.Add("", "the binary built with %s needs %v, not libmpi_abi.so.1 alone", b.Impl.ID, m)
		}
		if len(bin.Runpath) > 0 {
			p.Add("", "the binary built with %s has RPATH/RUNPATH %v: the loader path is not the only choice", b.Impl.ID, bin.Runpath)
		}
		inner := x.PathFrom(b.Impl, path)
		if sum(b.Impl.HostPath(path)) != sum(x.Impl.HostPath(inner)) {
			p.Add("", "the binary built with %s changed on its way to %s", b.Impl.ID, x.Impl.ID)
		}
		_, recs := x.JobOnce(mpi.Job{Name: "abi_launch built with " + b.Impl.ID, Ranks: 2, Program: inner,
			RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
		runs := mpi.Decode[launchRec](recs, "run")
		if len(runs) != 2 {
			p.Add("", "built with %s: %d ranks reported, want 2", b.Impl.ID, len(runs))
		}
		for _, r := range runs {
			if r.Size != 2 || r.Sum != 1 {
				p.Add("", "built with %s: rank %d saw size %d and rank sum %d (want 2 and 1: the ranks did not meet)", b.Impl.ID, r.Rank, r.Size, r.Sum)
			}
			if r.ABI != "1.0" {
				p.Add("", "built with %s: MPI_Abi_get_version %s", b.Impl.ID, r.ABI)
			}
			if family(r.Library) != wantFamily {
				p.Add("", "built with %s: rank %d's library says %q, not %s's %q", b.Impl.ID, r.Rank, r.Library, x.Impl.ID, wantFamily)
			}
			if got := realHost(x.Impl, r.MPIInitIn); got != want {
				p.Add("", "built with %s: rank %d took MPI_Init from %s (%s), not %s", b.Impl.ID, r.Rank, r.MPIInitIn, got, want)
			}
		}
		for _, l := range mpi.Decode[loadedRec](recs, "loaded") {
			if got := realHost(x.Impl, l.Path); got != want {
				p.Add("", "built with %s: %s (%s) was loaded besides %s", b.Impl.ID, l.Path, got, want)
			}
		}
		ran = append(ran, builtWith(b.Impl.ID))
	}
	if len(x.Preload) == 0 {
		otherLaunchers(x)
	}
	writeCrossRunReport(x)
	p.FailAbout(x, "on "+x.Impl.ID)
	var names []string
	for _, b := range ran {
		names = append(names, string(b))
	}
	return lib5Exposure.Pass(ran, "binaries built with %s (needing libmpi_abi.so.1 only, no RPATH) ran on 2 ranks under %s's launcher on %s, picked by LD_LIBRARY_PATH=%s",
		strings.Join(names, ", "), x.Impl.ID, x.Impl.ABI.Lib, x.Impl.ABI.LibDir)
}

// otherLaunchers runs x's libmpi_abi under every other ABI implementation's
// launcher in the same root, once, for the report (not the verdict).
func otherLaunchers(x *rulebook.X) {
	path, _ := built(x.Own(), "abi_launch")
	if path == "" {
		return
	}
	for _, l := range abiEnvs(x) {
		if l.Impl.ID == x.Impl.ID || l.Impl.Root != x.Impl.Root {
			continue
		}
		key := x.Impl.ID + "|" + l.Impl.ID
		outcome := remember("launcher|"+key, func() string {
			lx := l.X()
			var res *mpi.Result
			var recs *mpi.Records
			var recErr error
			if v := attempt(func() {
				res, recs, recErr = lx.Launch(mpi.Job{Name: "abi_launch of " + x.Impl.ID + " under " + l.Impl.ID + "'s launcher",
					Ranks: 2, Program: path, RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 30 * time.Second})
			}); v != nil {
				return v.Reason
			}
			switch {
			case !res.OK():
				return res.Problem() + ": " + shorten(telling(res.Stdout+res.Stderr), 200)
			case recErr != nil:
				return "ran, but " + recErr.Error()
			}
			var sizes []string
			for _, r := range recs.Kind("run", -1) {
				var lr launchRec
				if err := r.Decode(&lr); err != nil {
					return "ran, but " + err.Error()
				}
				sizes = append(sizes, fmt.Sprint(lr.Size))
			}
			return "ran; the ranks saw communicator sizes " + strings.Join(sizes, ", ")
		})
		crossRuns.Lock()
		crossRuns.launchers[x.Impl.ID+" ("+x.Impl.ABI.Lib+")|"+l.Impl.ID+" ("+l.Impl.Launcher+")"] = outcome
		crossRuns.Unlock()
	}
}

func sum(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil))
}

// telling is the line of a failed launch that says most: one naming the
// process manager interface or an abort, else the last lines.
func telling(out string) string {
	for _, words := range [][]string{{"PMI"}, {"Abort", "Fatal"}} {
		for _, l := range strings.Split(out, "\n") {
			for _, w := range words {
				if strings.Contains(l, w) {
					return strings.TrimSpace(l)
				}
			}
		}
	}
	return lastLines(out, 2)
}
