package abi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
	. "github.com/onsi/gomega"
)

// MPI 5.0, the standard ABI (MPI_Abi_get_version): one binary built against
// the standard header runs on every libmpi_abi, which answers version 1.0.
var crossRun = harness.Define(harness.Check{
	ID:        "ABI-RUN-001",
	Clause:    "MPI-5.0:ABI",
	Needs:     "abi",
	Title:     "a fixture built once against one implementation's MPI 5 ABI header runs on every implementation that ships libmpi_abi, and MPI_Abi_get_version answers 1.0 on each",
	Injectors: []string{"inject_abi_version_off"},
	Run:       runCrossRun,
})

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
func builder(x *harness.X) (*harness.Env, string) {
	for _, e := range x.All {
		if b, ok := e.Fixtures["abi_version"]; ok && e.Caps.HasABI() && b.Error == "" {
			return e, b.Path
		}
	}
	return nil, ""
}

func runCrossRun(x *harness.X) harness.Verdict {
	if !x.Caps.HasABI() {
		x.Unsupported("%s", x.Caps.ABI.Reason)
	}
	b, path := builder(x)
	if b == nil {
		x.Fixture("abi_version") // ends the check with the build error
	}
	_, recs := x.Job(harness.Job{
		Name: "abi_version built with " + b.Impl.ID, Ranks: 2, Program: x.PathFrom(b.Impl, path),
		RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir},
	})
	versions, err := harness.DecodeKind[versionRec](recs, "abi_version")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(versions).To(HaveLen(4), "MPI_Abi_get_version before and after MPI_Init on 2 ranks")
	for _, v := range versions {
		x.Expect(v.RC).To(BeZero(), "MPI_Abi_get_version %s", v.When)
		x.Expect(fmt.Sprintf("%d.%d", v.Major, v.Minor)).To(Equal("1.0"), "MPI_Abi_get_version %s", v.When)
	}
	runs, err := harness.DecodeKind[runRec](recs, "run")
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
	return harness.Verdict{Reason: "built with " + b.Impl.ID}
}
