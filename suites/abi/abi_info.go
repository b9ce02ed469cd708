package abi

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 21.2: "MPI_ABI_GET_VERSION and MPI_ABI_GET_INFO can be called at
// any time in an MPI program. These functions must always be thread-safe";
// "The major and minor version of the ABI associated with MPI-5.0 are 1 and
// 0". MPI_Abi_get_info's keys mpi_aint_size, mpi_count_size and
// mpi_offset_size give the sizes of those types; MPI_Abi_get_fortran_info
// (where the library has Fortran support) describes the Fortran types.
var abiInfo = harness.Define(harness.Check{
	ID:        "ABI-INFO-001",
	Clause:    "MPI-5.0:21.2",
	Needs:     "abi",
	Title:     "MPI_Abi_get_version answers 1.0 before MPI_Init, after it and after MPI_Finalize, from the main thread and from four threads at once; MPI_Abi_get_info's size keys match the header's types in all three phases; MPI_Abi_get_fortran_info, where it answers, matches MPI_Type_size of the Fortran types",
	Injectors: []string{"inject_abi_version_off", "inject_abi_info_off"},
	Run:       runABIInfo,
})

type versionCall struct {
	When   string `json:"when"`
	Thread int    `json:"thread"`
	RC     int    `json:"rc"`
	Major  int    `json:"major"`
	Minor  int    `json:"minor"`
}

type infoRC struct {
	When string `json:"when"`
	RC   int    `json:"rc"`
	Null int    `json:"null"`
}

type infoKey struct {
	When  string `json:"when"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

type fortranSize struct {
	Key  string `json:"key"`
	Size int    `json:"size"`
}

var phases = []string{"before_init", "after_init", "after_finalize"}

func runABIInfo(x *harness.X) harness.Verdict {
	requireABI(x)
	_, recs := x.Job(harness.Job{Name: "abi_info", Ranks: 1, Program: x.Fixture("abi_info"),
		RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		panic(harness.Verdict{Status: harness.Error, Reason: "abi_info did not reach its end"})
	}
	var p problems
	calls := decode[versionCall](x, recs, "version")
	count := map[string]int{}
	for _, c := range calls {
		count[c.When]++
		if c.RC != 0 || c.Major != 1 || c.Minor != 0 {
			who := "the main thread"
			if c.Thread > 0 {
				who = fmt.Sprintf("thread %d", c.Thread)
			}
			p.addf("MPI_Abi_get_version %s from %s: rc %d, version %d.%d (want 1.0)", strings.ReplaceAll(c.When, "_", " "), who, c.RC, c.Major, c.Minor)
		}
	}
	for _, ph := range phases {
		if count[ph] != 5 {
			p.addf("%d MPI_Abi_get_version answers %s, want 5 (main thread and 4 threads)", count[ph], ph)
		}
	}
	// The sizes the header gives, as the fixture measured them.
	sizes := map[string]string{}
	for _, r := range recs.Kind("sizes", -1) {
		var m map[string]any
		r.Decode(&m)
		for k, v := range m {
			if f, ok := v.(float64); ok {
				sizes[k] = strconv.Itoa(int(f))
			}
		}
	}
	got := map[string]map[string]string{}
	for _, k := range decode[infoKey](x, recs, "info") {
		if got[k.When] == nil {
			got[k.When] = map[string]string{}
		}
		got[k.When][k.Key] = k.Value
	}
	for _, rc := range decode[infoRC](x, recs, "info_rc") {
		if rc.RC != 0 || rc.Null == 1 {
			p.addf("MPI_Abi_get_info %s: rc %d, MPI_INFO_NULL: %v", rc.When, rc.RC, rc.Null == 1)
			continue
		}
		for _, key := range []string{"mpi_aint_size", "mpi_count_size", "mpi_offset_size"} {
			v, ok := got[rc.When][key]
			if !ok {
				p.addf("MPI_Abi_get_info %s has no key %s", rc.When, key)
			} else if v != sizes[key] {
				p.addf("MPI_Abi_get_info %s: %s = %q, the header's type has %s bytes", rc.When, key, v, sizes[key])
			}
		}
	}
	// Fortran: only where the library answers.
	fortran := "MPI_Abi_get_fortran_info: "
	frc := recs.Kind("fortran_rc", -1)
	var fr infoRC
	if len(frc) == 1 {
		frc[0].Decode(&fr)
	}
	finfo := map[string]string{}
	for _, k := range decode[infoKey](x, recs, "fortran_info") {
		finfo[k.Key] = k.Value
	}
	if fr.RC != 0 || fr.Null == 1 {
		fortran += fmt.Sprintf("not available (rc %d)", fr.RC)
	} else {
		checked := 0
		for _, fs := range decode[fortranSize](x, recs, "fortran_type_size") {
			v, ok := finfo[fs.Key]
			if !ok {
				continue
			}
			checked++
			if v != strconv.Itoa(fs.Size) {
				p.addf("MPI_Abi_get_fortran_info: %s = %q, MPI_Type_size says %d", fs.Key, v, fs.Size)
			}
		}
		fortran += fmt.Sprintf("%d keys, %d sizes match MPI_Type_size", len(finfo), checked)
	}
	p.fail(x, x.Impl.ID+"'s MPI_Abi_get_version/MPI_Abi_get_info", fmt.Sprintf("info keys: %v\nfortran info: %v", got, finfo))
	return harness.Verdict{Reason: fmt.Sprintf("version 1.0 in %d calls (3 phases × main + 4 threads); mpi_aint_size/mpi_count_size/mpi_offset_size = %s/%s/%s in every phase; %s",
		len(calls), sizes["mpi_aint_size"], sizes["mpi_count_size"], sizes["mpi_offset_size"], fortran)}
}
