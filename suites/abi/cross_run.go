package abi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	. "github.com/onsi/gomega"
)

// One binary, built once against the first ABI implementation's header,
// run on every implementation's libmpi_abi.
var crossRun = rulebook.Define(rulebook.Check{
	ID:    "ABI-RUN",
	Needs: "abi",
	Title: "a fixture built once against one implementation's MPI 5 ABI header, run on 2 ranks on each implementation's libmpi_abi",
	Rules: []rulebook.Rule{
		// §20.1: "A standard ABI for MPI serves many purposes, including support
		// for applications compiled with one implementation of MPI to be
		// executed with another implementation."; §20.2.1: "ABI-compliant
		// implementations must not require more than mpi_abi or its versioned
		// variant as the sole direct dependency of the application binary."
		{ID: "ABI-LIB-02", Source: "MPI-5.0 §20.1, §20.2.1", Basis: rulebook.Normative,
			Text:      "a binary built once against the first ABI implementation's header runs unchanged on 2 ranks on this implementation's libmpi_abi: the ranks meet (MPI_Allreduce), MPI_Abi_get_version answers 1.0 and MPI_Get_library_version names this implementation",
			Injectors: []string{"inject_abi_version_off"},
			Exposure:  lib2Exposure.Declared(), Judge: runCrossRun},
	},
})

// Each rank could have failed to meet the other, answered another version
// or run on another library.
var lib2Exposure = rulebook.Exposure[runRec]{Items: "ranks"}

type versionRec struct {
	When  string `json:"when"`
	RC    int    `json:"rc"`
	Major int    `json:"major"`
	Minor int    `json:"minor"`
}

type runRec struct {
	Rank    int    `json:"rank"`
	Size    int    `json:"size"`
	Sum     int    `json:"sum"`
	Library string `json:"library"`
}

// builder is the first implementation of the run whose ABI build succeeded:
// every ABI implementation runs that one binary.
func builder(x *rulebook.X) (*rulebook.Env, string) {
	for _, e := range x.All {
		if b, ok := e.Fixtures["abi_version"]; ok && e.Caps.HasABI() && b.Error == "" {
			return e, b.Path
		}
	}
	return nil, ""
}

func runCrossRun(x *rulebook.X) verdict.Verdict {
	b, path := builder(x)
	if b == nil {
		x.Fixture("abi_version") // ends the rule's judgement with the build error
	}
	_, recs := x.JobOnce(mpi.Job{
		Name: "abi_version built with " + b.Impl.ID, Ranks: 2, Program: x.PathFrom(b.Impl, path),
		RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir},
	})
	versions, err := mpi.DecodeKind[versionRec](recs, "abi_version")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(versions).To(HaveLen(4), "MPI_Abi_get_version before and after MPI_Init on 2 ranks")
	for _, v := range versions {
		x.Expect(v.RC).To(BeZero(), "MPI_Abi_get_version %s", v.When)
		x.Expect(fmt.Sprintf("%d.%d", v.Major, v.Minor)).To(Equal("1.0"), "MPI_Abi_get_version %s", v.When)
	}
	runs, err := mpi.DecodeKind[runRec](recs, "run")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(runs).To(HaveLen(2))
	// The binary must have run on x's library, not on whatever libmpi_abi the
	// loader found first: its version string names the same implementation.
	family := strings.Fields(x.Caps.LibraryVersion + " ?")[0]
	for _, r := range runs {
		x.Expect(r.Size).To(Equal(2))
		x.Expect(r.Sum).To(Equal(1), "MPI_Allreduce(MPI_SUM) of the ranks")
		x.Expect(r.Library).To(HavePrefix(family), "library the binary ran on")
	}
	reason := fmt.Sprintf("built with %s: the 2 ranks met (MPI_Allreduce), MPI_Abi_get_version answered 1.0 before and after MPI_Init on each, MPI_Get_library_version names %s", b.Impl.ID, family)
	if b.Impl.ID == x.Impl.ID {
		reason += " (the builder itself: here the binary runs on the library whose header it was built with)"
	}
	return lib2Exposure.Pass(runs, "%s", reason)
}
