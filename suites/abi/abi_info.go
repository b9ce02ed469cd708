package abi

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_Abi_get_version, MPI_Abi_get_info and MPI_Abi_get_fortran_info,
// called by fixtures/c/abi/abi_info.c before MPI_Init, after it and after
// MPI_Finalize, from the main thread and from four threads at once: one
// run feeds every rule.
var abiInfo = rulebook.Define(rulebook.Check{
	ID:    "ABI-INFO",
	Needs: "abi",
	Title: "the ABI query functions MPI_Abi_get_version, MPI_Abi_get_info and MPI_Abi_get_fortran_info, before MPI_Init, after it and after MPI_Finalize, from one thread and from four at once",
	Rules: []rulebook.Rule{
		// §20.2: "MPI_ABI_GET_VERSION produces the standard ABI version, if
		// supported. [...] The major and minor version of the ABI associated
		// with MPI-5.0 are 1 and 0." / "MPI_ABI_GET_VERSION and
		// MPI_ABI_GET_INFO, can be called at any time in an MPI program."
		{ID: "ABI-VER-01", Source: "MPI-5.0 §20.2", Basis: rulebook.Normative,
			Text:      "MPI_Abi_get_version answers 1.0 before MPI_Init, after it and after MPI_Finalize",
			Injectors: []string{"inject_abi_version_off"},
			Exposure:  ver1Exposure.Declared(), Judge: judgeVersionPhases},
		// §20.2: "These functions must always be thread-safe, as defined in
		// Section MPI and Threads [§11.6]."
		{ID: "ABI-VER-02", Source: "MPI-5.0 §20.2", Basis: rulebook.Normative,
			Text:      "MPI_Abi_get_version, called from four threads at once in each phase (before MPI_Init, after it, after MPI_Finalize), answers 1.0 in every thread",
			Injectors: []string{"inject_abi_version_off"},
			Exposure:  ver2Exposure.Declared(), Judge: judgeVersionThreads},
		// §20.2: "The following keys are predefined for this object:
		// "mpi_aint_size": The size in bytes of MPI_Aint. "mpi_count_size":
		// The size in bytes of MPI_Count. "mpi_offset_size": The size in bytes
		// of MPI_Offset."; "can be called at any time in an MPI program".
		{ID: "ABI-INFO-01", Source: "MPI-5.0 §20.2", Basis: rulebook.Normative,
			Text:      "MPI_Abi_get_info, before MPI_Init, after it and after MPI_Finalize, returns an info object whose mpi_aint_size, mpi_count_size and mpi_offset_size are the sizes of the header's types",
			Injectors: []string{"inject_abi_info_off"},
			Exposure:  info1Exposure.Declared(), Judge: judgeInfoKeys},
		// §20.4.1: "mpi_integer_size": "The size in bytes of the Fortran
		// default INTEGER kind" (and mpi_logical_size, mpi_real_size,
		// mpi_double_precision_size); §20.4: "MPI applications can discover
		// the size of Fortran types such as MPI_INTEGER and MPI_REAL using
		// MPI_TYPE_SIZE": both give the same size.
		{ID: "ABI-FTN-X1", Source: "MPI-5.0 §20.4, §20.4.1", Basis: rulebook.Normative,
			Text:      "where MPI_Abi_get_fortran_info returns an info object, its size keys equal MPI_Type_size of the matching Fortran datatypes",
			Injectors: []string{"inject_abi_fortran_size_off"},
			Exposure:  ftnX1Exposure.Declared(), Judge: judgeFortranInfo},
		// §20.4.1: "MPI_ABI_SET_FORTRAN_INFO allows the application to inform
		// the implementation of the sizes of Fortran types and whether or not
		// optional types are supported by the Fortran compiler. [...] Only the
		// first call to MPI_ABI_SET_FORTRAN_INFO affects the state of the MPI
		// library; all subsequent calls will return the error code
		// MPI_ERR_ABI. If a call to MPI_ABI_SET_FORTRAN_INFO is not
		// successful, the user should call MPI_ABI_GET_FORTRAN_INFO to
		// determine what Fortran compiler properties were set." The fixture
		// sets what get answered with one key (mpi_real2_supported) changed,
		// or gfortran's defaults where get answered MPI_INFO_NULL: a set the
		// library takes must then be read back, the changed key included; a
		// set it refuses need not be, but the keys it did not change must
		// still read as before. Only a taken set can show a lost value or a
		// second set that is not refused.
		{ID: "ABI-FTN-01", Source: "MPI-5.0 §20.4.1", Basis: rulebook.Normative,
			Text:      "after an MPI_Abi_set_fortran_info that succeeds, MPI_Abi_get_fortran_info answers every key that was set with the value set, and a second MPI_Abi_set_fortran_info fails with MPI_ERR_ABI",
			Injectors: []string{"inject_abi_fortran_set_lost"},
			Exposure:  ftn1Exposure.Declared(), Judge: judgeFortranRoundTrip},
	},
})

var (
	// Each call could have answered another version.
	ver1Exposure = rulebook.Exposure[versionCall]{Items: "MPI_Abi_get_version calls"}
	ver2Exposure = rulebook.Exposure[versionCall]{Items: "MPI_Abi_get_version calls"}
	// Each key looked up could have been missing or another size.
	info1Exposure = rulebook.Exposure[infoKey]{Items: "info values"}
	// Each size key present could have disagreed with MPI_Type_size.
	ftnX1Exposure = rulebook.Exposure[fortranSize]{Items: "size keys"}
	// The sets judged: each key set, and the second call. A key can show a
	// lost set only where the set was taken and changed it. The second call
	// is exposed either way: §20.4.1 "all subsequent calls will return the
	// error code MPI_ERR_ABI", whatever became of the first.
	ftn1Exposure = rulebook.Exposure[fortranSet]{Items: "sets (each key set, and the second MPI_Abi_set_fortran_info)",
		When:  "for a key, when the first set was taken and changed it (else no lost value could show); the second call always",
		Could: func(f fortranSet) bool { return f.second || (f.taken && f.changed) }}
)

// fortranSet is one key of the first MPI_Abi_set_fortran_info (taken: the
// set succeeded; changed: get answered otherwise before it), or the second
// call.
type fortranSet struct {
	key                    string
	taken, changed, second bool
}

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

// infoOut is what fixtures/c/abi/abi_info.c recorded.
type infoOut struct {
	calls  []versionCall
	sizes  map[string]string            // the header's types, as measured
	got    map[string]map[string]string // phase -> key -> value
	rcs    []infoRC
	fortRC *infoRC
	finfo  map[string]string
	fsizes []fortranSize
	fset   map[string]string // what the fixture passed to MPI_Abi_set_fortran_info
	fget2  map[string]string // what get answered after it
	get2RC *infoRC
	setRC  *fortranSetRec
}

type fortranSetRec struct {
	RC1    int `json:"rc1"`
	Class1 int `json:"class1"`
	RC2    int `json:"rc2"`
	Class2 int `json:"class2"`
	ErrABI int `json:"err_abi"`
}

func infoRun(x *rulebook.X) *infoOut {
	_, recs := x.JobOnce(mpi.Job{Name: "abi_info", Ranks: 1, Program: x.Fixture("abi_info"),
		RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		x.Errorf("", "abi_info did not reach its end")
	}
	out := &infoOut{sizes: map[string]string{}, got: map[string]map[string]string{}, finfo: map[string]string{}}
	out.calls = mpi.Decode[versionCall](recs, "version")
	for _, m := range mpi.Decode[map[string]any](recs, "sizes") {
		for k, v := range m {
			if f, ok := v.(float64); ok {
				out.sizes[k] = strconv.Itoa(int(f))
			}
		}
	}
	for _, k := range mpi.Decode[infoKey](recs, "info") {
		if out.got[k.When] == nil {
			out.got[k.When] = map[string]string{}
		}
		out.got[k.When][k.Key] = k.Value
	}
	out.rcs = mpi.Decode[infoRC](recs, "info_rc")
	if frc := mpi.Decode[infoRC](recs, "fortran_rc"); len(frc) == 1 {
		out.fortRC = &frc[0]
	}
	for _, k := range mpi.Decode[infoKey](recs, "fortran_info") {
		out.finfo[k.Key] = k.Value
	}
	out.fsizes = mpi.Decode[fortranSize](recs, "fortran_type_size")
	out.fset, out.fget2 = map[string]string{}, map[string]string{}
	for _, k := range mpi.Decode[infoKey](recs, "fortran_set_key") {
		out.fset[k.Key] = k.Value
	}
	for _, k := range mpi.Decode[infoKey](recs, "fortran_get2") {
		out.fget2[k.Key] = k.Value
	}
	if r := mpi.Decode[infoRC](recs, "fortran_get2_rc"); len(r) == 1 {
		out.get2RC = &r[0]
	}
	if r := mpi.Decode[fortranSetRec](recs, "fortran_set"); len(r) == 1 {
		out.setRC = &r[0]
	}
	return out
}

// judgeVersion judges the calls of the main thread (threads false) or of
// the four threads (true).
func judgeVersion(x *rulebook.X, threads bool) verdict.Verdict {
	out := infoRun(x)
	var p rulebook.Problems
	count := map[string]int{}
	var n []versionCall
	for _, c := range out.calls {
		if (c.Thread > 0) != threads {
			continue
		}
		count[c.When]++
		n = append(n, c)
		if c.RC != 0 || c.Major != 1 || c.Minor != 0 {
			who := "the main thread"
			if c.Thread > 0 {
				who = fmt.Sprintf("thread %d", c.Thread)
			}
			p.Add("", "MPI_Abi_get_version %s from %s: rc %d, version %d.%d (want 1.0)", strings.ReplaceAll(c.When, "_", " "), who, c.RC, c.Major, c.Minor)
		}
	}
	want := 1
	if threads {
		want = 4
	}
	for _, ph := range phases {
		if count[ph] != want {
			p.Add("", "%d MPI_Abi_get_version answers %s, want %d", count[ph], ph, want)
		}
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_Abi_get_version")
	if threads {
		return ver2Exposure.Pass(n, "version 1.0 in all %d calls from 4 threads at once, in each of the 3 phases", len(n))
	}
	return ver1Exposure.Pass(n, "version 1.0 before MPI_Init, after it and after MPI_Finalize")
}

func judgeVersionPhases(x *rulebook.X) verdict.Verdict  { return judgeVersion(x, false) }
func judgeVersionThreads(x *rulebook.X) verdict.Verdict { return judgeVersion(x, true) }

func judgeInfoKeys(x *rulebook.X) verdict.Verdict {
	out := infoRun(x)
	var p rulebook.Problems
	var compared []infoKey
	if len(out.rcs) != len(phases) {
		p.Add("", "%d MPI_Abi_get_info calls recorded, want %d", len(out.rcs), len(phases))
	}
	for _, rc := range out.rcs {
		if rc.RC != 0 || rc.Null == 1 {
			p.Add("", "MPI_Abi_get_info %s: rc %d, MPI_INFO_NULL: %v", rc.When, rc.RC, rc.Null == 1)
			continue
		}
		for _, key := range []string{"mpi_aint_size", "mpi_count_size", "mpi_offset_size"} {
			v, ok := out.got[rc.When][key]
			compared = append(compared, infoKey{rc.When, key, v})
			if !ok {
				p.Add("", "MPI_Abi_get_info %s has no key %s", rc.When, key)
			} else if v != out.sizes[key] {
				p.Add("", "MPI_Abi_get_info %s: %s = %q, the header's type has %s bytes", rc.When, key, v, out.sizes[key])
			}
		}
	}
	p.Also(fmt.Sprintf("info keys: %v", out.got))
	p.FailAbout(x, x.Impl.ID+"'s MPI_Abi_get_info")
	return info1Exposure.Pass(compared, "mpi_aint_size/mpi_count_size/mpi_offset_size = %s/%s/%s before MPI_Init, after it and after MPI_Finalize",
		out.sizes["mpi_aint_size"], out.sizes["mpi_count_size"], out.sizes["mpi_offset_size"])
}

func judgeFortranInfo(x *rulebook.X) verdict.Verdict {
	out := infoRun(x)
	if out.fortRC == nil {
		x.Errorf("", "abi_info recorded no MPI_Abi_get_fortran_info call")
	}
	if out.fortRC.RC != 0 || out.fortRC.Null == 1 {
		x.Unsupported("not measurable here: MPI_Abi_get_fortran_info returned rc %d, MPI_INFO_NULL: %v (the library does not know the Fortran compiler)", out.fortRC.RC, out.fortRC.Null == 1)
	}
	var p rulebook.Problems
	var checked []fortranSize
	for _, fs := range out.fsizes {
		v, ok := out.finfo[fs.Key]
		if !ok {
			continue
		}
		checked = append(checked, fs)
		if v != strconv.Itoa(fs.Size) {
			p.Add("", "MPI_Abi_get_fortran_info: %s = %q, MPI_Type_size says %d", fs.Key, v, fs.Size)
		}
	}
	p.Also(fmt.Sprintf("fortran info: %v", out.finfo))
	p.FailAbout(x, x.Impl.ID+"'s MPI_Abi_get_fortran_info")
	if len(checked) == 0 {
		x.Unsupported("not measurable here: MPI_Abi_get_fortran_info has none of the size keys (%d keys)", len(out.finfo))
	}
	return ftnX1Exposure.Pass(checked, "%d keys, %d sizes match MPI_Type_size", len(out.finfo), len(checked))
}

func judgeFortranRoundTrip(x *rulebook.X) verdict.Verdict {
	out := infoRun(x)
	if out.setRC == nil || out.get2RC == nil || len(out.fset) == 0 {
		x.Errorf("", "abi_info recorded no MPI_Abi_set_fortran_info round trip")
	}
	// What get answered before the set (out.finfo: nothing where it
	// answered MPI_INFO_NULL) tells which keys the set changed. A taken set
	// must be read back whole; a refused one leaves the library as it was
	// (or, §20.4.1, as get then says), so only its unchanged keys are held.
	taken := out.setRC.RC1 == 0
	var changed, demanded []string
	var sets []fortranSet
	for _, k := range slices.Sorted(maps.Keys(out.fset)) {
		before, had := out.finfo[k]
		differs := !had || !sameInfoValue(before, out.fset[k])
		sets = append(sets, fortranSet{key: k, taken: taken, changed: differs})
		if differs {
			changed = append(changed, k)
		}
		if taken || !differs {
			demanded = append(demanded, k)
		}
	}
	var p rulebook.Problems
	if out.get2RC.RC != 0 || out.get2RC.Null == 1 {
		if len(demanded) > 0 {
			p.Add("", "MPI_Abi_get_fortran_info after MPI_Abi_set_fortran_info (rc %d): rc %d, MPI_INFO_NULL: %v",
				out.setRC.RC1, out.get2RC.RC, out.get2RC.Null == 1)
		}
	} else {
		for _, k := range demanded {
			v, ok := out.fget2[k]
			switch {
			case !ok:
				p.Add("", "set %s = %q (rc %d), get then has no %s", k, out.fset[k], out.setRC.RC1, k)
			case !sameInfoValue(v, out.fset[k]):
				p.Add("", "set %s = %q (rc %d), get then answers %q", k, out.fset[k], out.setRC.RC1, v)
			}
		}
	}
	if out.setRC.Class2 != out.setRC.ErrABI {
		p.Add("", "the second MPI_Abi_set_fortran_info returned %d (class %d), not MPI_ERR_ABI (%d)", out.setRC.RC2, out.setRC.Class2, out.setRC.ErrABI)
	}
	p.Also(fmt.Sprintf("set: %v\nget after set: %v", out.fset, out.fget2))
	p.FailAbout(x, x.Impl.ID+"'s MPI_Abi_set_fortran_info/MPI_Abi_get_fortran_info")
	sets = append(sets, fortranSet{key: "the second call", second: true})
	if !taken {
		return ftn1Exposure.Pass(sets,
			"the first set of %d keys (%d of them changed from what get answered) was refused (rc %d, class %d), so no value set had to be read back (get then answers the %d unchanged keys as before); the second set fails with MPI_ERR_ABI",
			len(out.fset), len(changed), out.setRC.RC1, out.setRC.Class1, len(demanded))
	}
	return ftn1Exposure.Pass(sets,
		"the first set of %d keys (%d of them changed from what get answered) taken (MPI_SUCCESS), get then answers all %d as set, the second set fails with MPI_ERR_ABI",
		len(out.fset), len(changed), len(out.fset))
}

// sameInfoValue compares info values, booleans in any spelling MPI allows.
func sameInfoValue(a, b string) bool {
	norm := func(s string) string {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "1":
			return "true"
		case "false", "0":
			return "false"
		}
		return strings.TrimSpace(s)
	}
	return norm(a) == norm(b)
}
