package abi

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 003 (wi4mpi): every implementation family has its own ABI, and a
// binary moves between two only where handles, constants and the status
// layout agree (else a translation layer must map them). The fingerprint of
// each implementation's own ABI is recorded and compared (abi-fingerprint.md);
// the check itself asks that the library agree with its own header (the
// sizes its datatypes have, the place it writes status fields), that
// predefined handles of one type differ, and MPI-4.1 2.5.8 ("MPI_Count ...
// at least as large as MPI_Aint and MPI_Offset"; MPI_Aint holds an address).
var fingerprintCheck = rulebook.Define(rulebook.Check{
	ID:    "NATIVE-PRINT",
	Needs: "mpi", // the native library: every implementation
	Title: "the fingerprint of each implementation's own (pre-standard) ABI: handle representation and sizes, MPI_Status layout, predefined handles and constants, sonames (abi-fingerprint.md)",
	Rules: []rulebook.Rule{
		// Seed 003 (wi4mpi) translates between the implementations' own ABIs
		// from what each header fixes and what each library does with it:
		// a fingerprint only describes an ABI where the library keeps to its
		// own header (datatype sizes, where it writes status fields, distinct
		// predefined handles) and its integer types can hold what they must.
		{ID: "NATIVE-PRINT-01", Source: "seed 003", Basis: rulebook.SeedBasis,
			Text:      "the fingerprint of the implementation's own ABI is taken and compared with the others, and the library agrees with its own header: MPI_Type_size of C datatypes is their sizeof, statuses are written where the header puts the fields, predefined handles of one type are distinct, MPI_Count holds MPI_Aint and MPI_Offset and MPI_Aint an address",
			Injectors: []string{"inject_native_status_swap"},
			// The fixture announces MPI_Type_size: a library that dies there
			// (a translation layer mapping a predefined type to none) does
			// not agree with its own header.
			Governs:  []string{"MPI_Type_size"},
			Exposure: print1Exposure.Declared(), Judge: runFingerprint},
	},
})

type fpHandle struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

type fpInt struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

type fpDistinct struct {
	Name string `json:"name"`
	OK   int    `json:"ok"`
}

type fpStatus struct {
	Source0        int `json:"source0"`
	Tag0           int `json:"tag0"`
	Source1        int `json:"source1"`
	Tag1           int `json:"tag1"`
	Count0         int `json:"count0"`
	Count1         int `json:"count1"`
	ThirdUntouched int `json:"third_untouched"`
}

type fpLibrary struct {
	Version    string `json:"version"`
	MPI        string `json:"mpi"`
	CommWorldF int64  `json:"comm_world_f"`
}

// fingerprint is one implementation's pre-standard ABI, as measured.
type fingerprint struct {
	Impl    string
	Problem string // why it could not be taken
	// notTaken is the verdict that stopped it where that is the rule's on
	// its own implementation too: a cause (the library died in a call it
	// announced that the rule does not govern: not judged), a lacking name
	// (unsupported) or a death in MPI_Type_size, which it governs (fail).
	notTaken *verdict.Verdict
	Layout   map[string]int64
	Handles  map[string]string
	Ints     map[string]int64
	Distinct []fpDistinct
	Tsize    []tsizeRec
	Status   []fpStatus
	Library  fpLibrary
	Soname   string   // of the implementation's C MPI library
	LibPath  string   // that library, resolved
	Needs    []string // the MPI libraries a binary built with its mpicc needs
}

func takeFingerprint(x *rulebook.X) *fingerprint {
	fp := &fingerprint{Impl: x.Impl.ID, Layout: map[string]int64{}, Handles: map[string]string{}, Ints: map[string]int64{}}
	if lib, err := readELF(realHost(x.Impl, x.Impl.Lib)); err == nil {
		fp.Soname, fp.LibPath = lib.Soname, lib.Path
	}
	path := x.Fixture("abi_fingerprint")
	if bin, err := readELF(x.Impl.HostPath(path)); err == nil {
		fp.Needs = bin.mpiNeeded()
	}
	_, recs := x.JobOnce(mpi.Job{Name: "abi_fingerprint", Ranks: 1, Program: path, Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		x.Errorf("", "abi_fingerprint did not reach its end")
	}
	for _, l := range mpi.Decode[layoutRec](recs, "layout") {
		fp.Layout[l.Name] = l.Value
	}
	for _, h := range mpi.Decode[fpHandle](recs, "handle") {
		fp.Handles[h.Name] = h.Value
	}
	for _, i := range mpi.Decode[fpInt](recs, "int") {
		fp.Ints[i.Name] = i.Value
	}
	fp.Distinct = mpi.Decode[fpDistinct](recs, "distinct")
	fp.Tsize = mpi.Decode[tsizeRec](recs, "tsize")
	fp.Status = mpi.Decode[fpStatus](recs, "status")
	if libs := mpi.Decode[fpLibrary](recs, "library"); len(libs) == 1 {
		fp.Library = libs[0]
	}
	return fp
}

// allFingerprints: x's (with x's injectors), the others' remembered.
func allFingerprints(x *rulebook.X) (mine *fingerprint, all []*fingerprint) {
	for _, e := range x.All {
		var fp *fingerprint
		switch {
		case e.Impl.ID == x.Impl.ID && len(x.Preload) > 0:
			fp = takeFingerprint(x)
			mine = fp
			all = append(all, fp)
			continue
		case e.Caps == nil || !e.Caps.Available:
			fp = &fingerprint{Impl: e.Impl.ID, Problem: "unavailable"}
		default:
			ex := x.On(e) // NATIVE-PRINT-01's Governs place a death in another's job too
			if e.Impl.ID == x.Impl.ID {
				ex = x
			}
			fp = remember("fingerprint|"+e.Impl.ID, func() *fingerprint {
				var got *fingerprint
				if v := attempt(func() { got = takeFingerprint(ex) }); v != nil {
					fp := &fingerprint{Impl: e.Impl.ID, Problem: v.Reason}
					if v.Cause != "" || v.Status == verdict.Unsupported || v.Status == verdict.Fail {
						fp.notTaken = v
					}
					return fp
				}
				return got
			})
		}
		if e.Impl.ID == x.Impl.ID {
			mine = fp
		}
		all = append(all, fp)
	}
	return mine, all
}

// What the library could have got wrong against its own header: each
// datatype size, the status array (filled with -7 before), each set of
// predefined handles, and the two integer-type sizes.
var print1Exposure = rulebook.Exposure[fpCheck]{Items: "checks (datatype sizes, status arrays, sets of predefined handles, integer type sizes)"}

// fpCheck names one check of the library against its own header.
type fpCheck string

func runFingerprint(x *rulebook.X) verdict.Verdict {
	mine, all := allFingerprints(x)
	writeFingerprintReport(all)
	table := fingerprintSummary(all)
	if mine.notTaken != nil {
		panic(*mine.notTaken) // panic-ok: the verdict that stopped its fingerprint: not judged (a cause), unsupported (a lacking name) or a fail (a death in MPI_Type_size, which the rule governs)
	}
	if mine.Problem != "" {
		x.Errorf(table, "fingerprint not taken: %s", mine.Problem)
	}
	var p rulebook.Problems
	for _, t := range mine.Tsize {
		if t.Size != t.CSize {
			p.Add("", "MPI_Type_size(%s) = %d, the header's C type has %d bytes", t.Name, t.Size, t.CSize)
		}
	}
	if len(mine.Status) != 1 {
		p.Add("", "no status record")
	} else if s := mine.Status[0]; s.Source0 != 0 || s.Tag0 != 78 || s.Source1 != 0 || s.Tag1 != 79 || s.Count0 != 3 || s.Count1 != 4 || s.ThirdUntouched != 1 {
		p.Add("", "after MPI_Waitall of two receives (source 0, tags 78 and 79, 3 and 4 ints) into MPI_Status[3]: statuses[0] source %d tag %d count %d, statuses[1] source %d tag %d count %d, statuses[2] untouched %v: the library does not write statuses where its header puts the fields",
			s.Source0, s.Tag0, s.Count0, s.Source1, s.Tag1, s.Count1, s.ThirdUntouched == 1)
	}
	for _, d := range mine.Distinct {
		if d.OK != 1 {
			p.Add("", "predefined %s constants are not distinct", d.Name)
		}
	}
	l := mine.Layout
	if l["sizeof(MPI_Count)"] < l["sizeof(MPI_Aint)"] || l["sizeof(MPI_Count)"] < l["sizeof(MPI_Offset)"] {
		p.Add("", "sizeof(MPI_Count) = %d is smaller than MPI_Aint (%d) or MPI_Offset (%d)", l["sizeof(MPI_Count)"], l["sizeof(MPI_Aint)"], l["sizeof(MPI_Offset)"])
	}
	if l["sizeof(MPI_Aint)"] < l["sizeof(void*)"] {
		p.Add("", "sizeof(MPI_Aint) = %d cannot hold an address (%d bytes)", l["sizeof(MPI_Aint)"], l["sizeof(void*)"])
	}
	p.Also(table)
	p.FailAbout(x, x.Impl.ID+"'s own ABI")
	var checks []fpCheck
	for _, t := range mine.Tsize {
		checks = append(checks, fpCheck("MPI_Type_size("+t.Name+")"))
	}
	for range mine.Status {
		checks = append(checks, "the status array")
	}
	for _, d := range mine.Distinct {
		checks = append(checks, fpCheck("distinct "+d.Name))
	}
	checks = append(checks, "sizeof(MPI_Count)", "sizeof(MPI_Aint)")
	pass := print1Exposure.Pass(checks, "%s: %s handles, MPI_Status %d bytes (source/tag/error at %d/%d/%d), library %s; %s",
		x.Impl.ID, representation(mine), l["sizeof(MPI_Status)"], l["offsetof(MPI_Status,MPI_SOURCE)"],
		l["offsetof(MPI_Status,MPI_TAG)"], l["offsetof(MPI_Status,MPI_ERROR)"], mine.Soname, compatibleWith(mine, all))
	pass.Evidence = table
	return pass
}

// representation: "pointer (8 bytes)" or "integer (4 bytes)", or mixed.
func representation(fp *fingerprint) string {
	kinds := map[string]bool{}
	for k, v := range fp.Layout {
		if strings.HasPrefix(k, "is_pointer(") {
			t := strings.TrimSuffix(strings.TrimPrefix(k, "is_pointer("), ")")
			kind := "integer"
			if v == 1 {
				kind = "pointer"
			}
			kinds[fmt.Sprintf("%s (%d bytes)", kind, fp.Layout["sizeof("+t+")"])] = true
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(kinds)), " and ")
}

// compatibility is the comparison of two fingerprints: what differs.
func compatibility(a, b *fingerprint) []string {
	if a.Problem != "" || b.Problem != "" {
		return []string{"not compared"}
	}
	var diff []string
	if a.Soname != b.Soname {
		diff = append(diff, fmt.Sprintf("soname %s vs %s", a.Soname, b.Soname))
	}
	if !sameStrings(a.Needs, b.Needs) {
		diff = append(diff, fmt.Sprintf("binaries need %v vs %v", a.Needs, b.Needs))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Layout)) {
		if strings.HasPrefix(k, "MPI_VERSION") || strings.HasPrefix(k, "MPI_SUBVERSION") {
			continue
		}
		if bv, ok := b.Layout[k]; ok && bv != a.Layout[k] {
			diff = append(diff, fmt.Sprintf("%s %d vs %d", k, a.Layout[k], bv))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Handles)) {
		if bv, ok := b.Handles[k]; ok && bv != a.Handles[k] {
			diff = append(diff, fmt.Sprintf("%s %s vs %s", k, a.Handles[k], bv))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Ints)) {
		if bv, ok := b.Ints[k]; ok && bv != a.Ints[k] {
			diff = append(diff, fmt.Sprintf("%s %d vs %d", k, a.Ints[k], bv))
		}
	}
	return diff
}

func sameStrings(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}

// binaryCompatible: everything a binary depends on agrees, the library
// name included (so the loader can pick either by path alone).
func binaryCompatible(a, b *fingerprint) bool { return len(compatibility(a, b)) == 0 }

// abiCompatible: the same ABI apart from the library's name.
func abiCompatible(a, b *fingerprint) bool {
	for _, d := range compatibility(a, b) {
		if !strings.HasPrefix(d, "soname") && !strings.HasPrefix(d, "binaries need") {
			return false
		}
	}
	return a.Problem == "" && b.Problem == ""
}

// nameDifference says how two implementations of one ABI differ in the
// libraries their binaries ask the loader for.
func nameDifference(a, b *fingerprint) string {
	if a.Soname != b.Soname {
		return fmt.Sprintf("other library name: %s vs %s", a.Soname, b.Soname)
	}
	return fmt.Sprintf("their binaries need %s vs %s", strings.Join(a.Needs, " "), strings.Join(b.Needs, " "))
}

func compatibleWith(fp *fingerprint, all []*fingerprint) string {
	var bin, abi []string
	for _, o := range all {
		if o.Impl == fp.Impl {
			continue
		}
		switch {
		case binaryCompatible(fp, o):
			bin = append(bin, o.Impl)
		case abiCompatible(fp, o):
			abi = append(abi, o.Impl+" ("+nameDifference(fp, o)+")")
		}
	}
	var parts []string
	if len(bin) > 0 {
		parts = append(parts, "binary-compatible with "+strings.Join(bin, ", "))
	}
	if len(abi) > 0 {
		parts = append(parts, "same ABI as "+strings.Join(abi, ", "))
	}
	if len(parts) == 0 {
		return "binary-compatible with no other implementation of the run"
	}
	return strings.Join(parts, "; ")
}

// fingerprintSummary is the compact table that goes into verdicts.
func fingerprintSummary(all []*fingerprint) string {
	var b strings.Builder
	b.WriteString("| |")
	for _, fp := range all {
		b.WriteString(" " + fp.Impl + " |")
	}
	b.WriteString("\n|---|")
	for range all {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	row := func(name string, f func(*fingerprint) string) {
		b.WriteString("| " + name + " |")
		for _, fp := range all {
			v := "–"
			if fp.Problem == "" {
				v = f(fp)
			} else if name == "library" {
				v = "not taken: " + shorten(fp.Problem, 60)
			}
			b.WriteString(" " + report.Cell(v) + " |")
		}
		b.WriteString("\n")
	}
	row("library", func(fp *fingerprint) string { return shorten(fp.Library.Version, 40) + " (MPI " + fp.Library.MPI + ")" })
	row("soname / binaries need", func(fp *fingerprint) string { return fp.Soname + " / " + strings.Join(fp.Needs, " ") })
	row("handles", representation)
	row("MPI_Status bytes (source,tag,error)", func(fp *fingerprint) string {
		return fmt.Sprintf("%d (%d,%d,%d)", fp.Layout["sizeof(MPI_Status)"], fp.Layout["offsetof(MPI_Status,MPI_SOURCE)"],
			fp.Layout["offsetof(MPI_Status,MPI_TAG)"], fp.Layout["offsetof(MPI_Status,MPI_ERROR)"])
	})
	row("Aint/Offset/Count/Fint bytes", func(fp *fingerprint) string {
		return fmt.Sprintf("%d/%d/%d/%d", fp.Layout["sizeof(MPI_Aint)"], fp.Layout["sizeof(MPI_Offset)"], fp.Layout["sizeof(MPI_Count)"], fp.Layout["sizeof(MPI_Fint)"])
	})
	for _, h := range []string{"MPI_COMM_WORLD", "MPI_INT", "MPI_SUM"} {
		h := h
		row(h, func(fp *fingerprint) string { return fp.Handles[h] })
	}
	row("ANY_SOURCE/ANY_TAG/PROC_NULL/UNDEFINED", func(fp *fingerprint) string {
		return fmt.Sprintf("%d/%d/%d/%d", fp.Ints["MPI_ANY_SOURCE"], fp.Ints["MPI_ANY_TAG"], fp.Ints["MPI_PROC_NULL"], fp.Ints["MPI_UNDEFINED"])
	})
	row("binary-compatible with", func(fp *fingerprint) string {
		var c []string
		for _, o := range all {
			if o.Impl != fp.Impl && binaryCompatible(fp, o) {
				c = append(c, o.Impl)
			}
		}
		for _, o := range all {
			if o.Impl != fp.Impl && !binaryCompatible(fp, o) && abiCompatible(fp, o) {
				c = append(c, o.Impl+" ("+nameDifference(fp, o)+")")
			}
		}
		if len(c) == 0 {
			return "none"
		}
		return strings.Join(c, ", ")
	})
	return b.String()
}

// writeFingerprintReport writes abi-fingerprint.md: every measured value
// side by side, then the pairwise differences.
func writeFingerprintReport(all []*fingerprint) {
	var b strings.Builder
	b.WriteString("# ABI fingerprints\n\nWritten by the ABI suite (NATIVE-PRINT-01, fixtures/c/abi/fingerprint.c): each implementation's own " +
		"(pre-standard) ABI, measured from a program built with its own `mpicc` and from the ELF files. A pointer handle is " +
		"named by the symbol it points to (`&ompi_mpi_comm_world`), an integer handle by its value.\n\n")
	b.WriteString("## Summary\n\n" + fingerprintSummary(all) + "\n")
	b.WriteString("## Every value\n\n| |")
	for _, fp := range all {
		b.WriteString(" " + fp.Impl + " |")
	}
	b.WriteString("\n|---|")
	for range all {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	names := map[string]bool{}
	for _, fp := range all {
		for k := range fp.Layout {
			names["layout "+k] = true
		}
		for k := range fp.Handles {
			names["handle "+k] = true
		}
		for k := range fp.Ints {
			names["const "+k] = true
		}
	}
	keys := slices.Sorted(maps.Keys(names))
	sort.SliceStable(keys, func(i, j int) bool { return order(keys[i]) < order(keys[j]) })
	line := func(label string, f func(*fingerprint) string) {
		b.WriteString("| " + report.Cell(label) + " |")
		for _, fp := range all {
			v := "–"
			if fp.Problem == "" {
				v = f(fp)
			}
			b.WriteString(" " + report.Cell(v) + " |")
		}
		b.WriteString("\n")
	}
	line("library version", func(fp *fingerprint) string { return fp.Library.Version })
	line("MPI version (MPI_Get_version)", func(fp *fingerprint) string { return fp.Library.MPI })
	line("library file", func(fp *fingerprint) string { return filepath.Base(fp.LibPath) })
	line("soname", func(fp *fingerprint) string { return fp.Soname })
	line("MPI libraries a binary needs", func(fp *fingerprint) string { return strings.Join(fp.Needs, " ") })
	line("MPI_Comm_c2f(MPI_COMM_WORLD)", func(fp *fingerprint) string { return fmt.Sprint(fp.Library.CommWorldF) })
	for _, k := range keys {
		k := k
		kind, name, _ := strings.Cut(k, " ")
		line(name, func(fp *fingerprint) string {
			switch kind {
			case "layout":
				if v, ok := fp.Layout[name]; ok {
					return fmt.Sprint(v)
				}
			case "handle":
				return fp.Handles[name]
			case "const":
				if v, ok := fp.Ints[name]; ok {
					return fmt.Sprint(v)
				}
			}
			return "absent"
		})
	}
	b.WriteString("\n## Pairwise\n\n")
	for i, a := range all {
		for _, c := range all[i+1:] {
			d := compatibility(a, c)
			verdict := "binary-compatible"
			switch {
			case a.Problem != "" || c.Problem != "":
				verdict = "not compared"
			case len(d) > 0 && abiCompatible(a, c):
				verdict = "same ABI, but " + nameDifference(a, c)
			case len(d) > 0:
				verdict = fmt.Sprintf("not binary-compatible (%d differences)", len(d))
			}
			fmt.Fprintf(&b, "- **%s / %s**: %s", a.Impl, c.Impl, verdict)
			if len(d) > 0 && verdict != "not compared" {
				show := d
				if len(show) > 8 {
					show = append(show[:8:8], fmt.Sprintf("… %d more", len(d)-8))
				}
				b.WriteString(": " + strings.Join(show, "; "))
			}
			b.WriteString("\n")
		}
	}
	for _, fp := range all {
		if fp.Problem != "" {
			fmt.Fprintf(&b, "\n%s: fingerprint not taken: %s\n", fp.Impl, fp.Problem)
		}
	}
	report.Write("abi-fingerprint.md", b.String())
}

func order(k string) int {
	switch {
	case strings.HasPrefix(k, "layout"):
		return 0
	case strings.HasPrefix(k, "handle"):
		return 1
	}
	return 2
}
