package mpit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T metadata across processes and over time, from one run of
// fixtures/c/mpit/across.c on two ranks: every rank walks the variables and
// categories before MPI_Init, after it, and after some traffic.
var acrossCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-ACROSS",
	Needs: "mpit",
	Title: "the same variable or category has the same metadata on every rank; counts never decrease, indices never move and get_info keeps its answers over a run",
	Rules: []rulebook.Rule{
		// §15.3.6.1: "If the name of a control variable is equivalent across
		// connected MPI processes, the following OUT parameters must be
		// identical: verbosity, datatype, enumtype, bind, and scope. The
		// returned description must be equivalent." (enumtype compared by
		// what it stands for: its name and items; handles are local.)
		{ID: "META-16", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "control variables of the same name on two ranks have the same verbosity, datatype, enumeration, binding, scope and description",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: meta16Exposure.Declared(), Judge: judgeMetadataAcrossRanks("cvar", meta16Exposure)},
		// §15.3.7.2: "If a performance variable has an equivalent name and has
		// the same class across connected MPI processes, the following OUT
		// parameters must be identical: verbosity, varclass, datatype,
		// enumtype, bind, readonly, continuous, and atomic. The returned
		// description must be equivalent."
		{ID: "META-17", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "performance variables of the same name and class on two ranks have the same verbosity, datatype, enumeration, binding, flags and description",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: meta17Exposure.Declared(), Judge: judgeMetadataAcrossRanks("pvar", meta17Exposure)},
		// §15.3.9.1: "If the name of a category is equivalent across connected
		// MPI processes, then the returned description must be equivalent."
		// Two ranks of one binary, one environment and one node register the
		// same categories; a description could only differ where what is
		// registered does. So the judge also runs the ranks with different
		// settings (rank 1 with a component closed), and counts as exposed
		// the categories whose members then differ between the ranks.
		{ID: "META-19", Source: "MPI-5.0 §15.3.9.1", Basis: rulebook.Normative,
			Text:      "categories of the same name on two ranks have the same description, judged also with the ranks launched with different settings (rank 1 with a component closed)",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: meta19Exposure.Declared(), Judge: judgeMeta19},
		// §15.3.6.1: "MPI implementations are not allowed to change the index
		// of a control variable or to delete a variable once it has been added
		// to the set." An index that get_info refuses later may be a deleted
		// variable or an inactive one ("When a variable becomes inactive, e.g.,
		// through dynamic unloading, accessing its value should return a
		// corresponding return code."): the readings of CVAR-1, reported here,
		// not judged; a count that falls or an index that names another
		// variable is judged.
		{ID: "CVAR-2", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "the number of control variables never decreases and no index comes to name another variable, before MPI_Init, after it and after traffic",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: indicesFollowedExposure.Declared(), Judge: judgeIndicesStay("cvar")},
		// §15.3.7.2: the same sentence for performance variables.
		{ID: "PVAR-2", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "the number of performance variables never decreases and no index comes to name another variable, before MPI_Init, after it and after traffic",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: indicesFollowedExposure.Declared(), Judge: judgeIndicesStay("pvar")},
		// §15.3.9: "MPI implementations are not allowed to change the index of
		// a category or delete it once it has been added to the set." and
		// "they are not allowed to remove variables from categories or change
		// the order in which they are returned."
		{ID: "CAT-10", Source: "MPI-5.0 §15.3.9", Basis: rulebook.Normative,
			Text:      "the number of categories never decreases, no index comes to name another category, and a category's members are never removed or reordered, before MPI_Init, after it and after traffic",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: indicesFollowedExposure.Declared(), Judge: judgeIndicesStay("category")},
		// §15.3.9.2: "Starting from array index 0, each function writes up to
		// len elements into the array. If the category contains more than len
		// elements, the function returns an arbitrary subset of size len.
		// Otherwise, the entire set of elements is returned in the beginning
		// entries of the array, and any remaining array entries are not
		// modified."
		{ID: "CAT-7", Source: "MPI-5.0 §15.3.9.2", Basis: rulebook.Normative,
			Text:      "with len above a category's member count the member queries write the whole set first and leave the rest of the array alone; with len below it, len distinct members and nothing past len",
			Injectors: []string{"inject_mpit_category_drift"}, Exposure: cat7Exposure.Declared(), Judge: judgeCat7},
		// §15.3.9.2: "If two calls to this routine return the same update
		// number, it is guaranteed that the category information has not
		// changed between the two calls."
		{ID: "CAT-9", Source: "MPI-5.0 §15.3.9.2", Basis: rulebook.Normative,
			Text:      "while MPI_T_category_changed returns the same update number, every category keeps its name, description and members",
			Injectors: []string{"inject_mpit_category_drift"}, Exposure: cat9Exposure.Declared(), Judge: judgeCat9},
		// §15.3.6.1: "After a successful call to MPI_T_CVAR_GET_INFO for a
		// particular variable, subsequent calls to this routine that query
		// information about the same variable must return the same
		// information. An MPI implementation is not allowed to alter any of the
		// returned values."
		{ID: "CVAR-3", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_get_info of one index returns the same information every time, before MPI_Init, after it and after traffic",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: repeatedAnswersExposure.Declared(), Judge: judgeSameOverTime("cvar")},
		// §15.3.7.2: the same sentences for MPI_T_PVAR_GET_INFO.
		{ID: "PVAR-3", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_get_info of one index returns the same information every time, before MPI_Init, after it and after traffic",
			Injectors: []string{"inject_mpit_meta_drift"}, Exposure: repeatedAnswersExposure.Declared(), Judge: judgeSameOverTime("pvar")},
		// §15.3.5: "Therefore, within the context of the MPI tool information
		// interface, it is permissible to use a subset of MPI datatypes as
		// specified below before MPI initialization." (judge: across_local.go)
		{ID: "INIT-12", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "the datatype handles MPI_T_cvar_get_info and MPI_T_pvar_get_info return before MPI_Init are, compared after MPI_Init, the predefined Table 19 handles (MPI_INT, MPI_UNSIGNED, ...) get_info returns for the same variables then",
			Injectors: []string{"inject_mpit_dt_before_init"}, Exposure: init12Exposure.Declared(), Judge: judgeInit12},
		// Table 20: "MPI_T_SCOPE_LOCAL | may be writeable, writing only
		// affects the calling MPI process" (judge: across_local.go).
		{ID: "CVAR-17", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "a write of a LOCAL-scope control variable on rank 0 that takes (reads back) leaves the value rank 1 reads unchanged",
			Injectors: []string{"inject_mpit_cvar_local_leak"}, Exposure: cvar17Exposure.Declared(), Judge: judgeCvar17},
	},
})

var walks = []string{"before", "after_init", "after_traffic"}

type acrossObj struct {
	When    string `json:"when"`
	Object  string `json:"object"`
	Index   int    `json:"index"`
	Name    string `json:"name"`
	Class   int    `json:"class"`
	Meta    string `json:"meta"`
	Members string `json:"members"`
	rank    int
}

type acrossCount struct {
	When   string `json:"when"`
	Object string `json:"object"`
	Num    int    `json:"num"`
}

// acrossRun is the records of the two ranks.
type acrossRun struct {
	objs   map[string][]acrossObj // object kind -> records, all ranks and walks
	counts map[[2]int]map[string]int
}

func acrossJob(x *rulebook.X) *acrossRun {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across", Ranks: 2, Program: x.Fixture("mpit_across")})
	return readAcross(x, recs)
}

// acrossSettingsJob is the across job whose rank 1 is launched with
// another setting (across.c, "settings"), and the setting.
func acrossSettingsJob(x *rulebook.X) (*acrossRun, string) {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across_settings", Ranks: 2, Program: x.Fixture("mpit_across"), Args: []string{"settings"}})
	setting := "none"
	for _, s := range mpi.Decode[struct {
		Setting string `json:"setting"`
	}](recs, "rank_setting") {
		setting = s.Setting
	}
	return readAcross(x, recs), setting
}

func readAcross(x *rulebook.X, recs *mpi.Records) *acrossRun {
	r := &acrossRun{objs: map[string][]acrossObj{}, counts: map[[2]int]map[string]int{}}
	for _, rec := range recs.All {
		switch rec.Kind {
		case "obj":
			var o acrossObj
			if err := rec.Decode(&o); err != nil {
				x.Errorf(string(rec.Raw), "%v", err)
			}
			o.rank = rec.Rank
			r.objs[o.Object] = append(r.objs[o.Object], o)
		case "count":
			var c acrossCount
			if err := rec.Decode(&c); err != nil {
				x.Errorf(string(rec.Raw), "%v", err)
			}
			k := [2]int{rec.Rank, walkNo(c.When)}
			if r.counts[k] == nil {
				r.counts[k] = map[string]int{}
			}
			r.counts[k][c.Object] = c.Num
		}
	}
	return r
}

func walkNo(when string) int {
	for i, w := range walks {
		if w == when {
			return i
		}
	}
	return -1
}

// key is how an object is named across ranks: pvars by name and class.
func (o acrossObj) key() string {
	if o.Object == "pvar" {
		return fmt.Sprintf("%s (class %d)", o.Name, o.Class)
	}
	return o.Name
}

// metaDiff names the fields of two metadata strings that differ.
func metaDiff(a, b string) string {
	fa, fb := strings.Fields(a), strings.Fields(b)
	var d []string
	for i := range fa {
		if i < len(fb) && fa[i] != fb[i] {
			// "name=value vs value"; a field without "=" (an empty
			// member list, another build's format) is shown whole.
			_, value, ok := strings.Cut(fb[i], "=")
			if !ok {
				value = fb[i]
			}
			d = append(d, fa[i]+" vs "+value)
		}
	}
	if len(fa) != len(fb) {
		d = append(d, a+" vs "+b)
	}
	return strings.Join(d, ", ")
}

// The variables of rank 0 META-16 and META-17 judge (judgeMetadataAcrossRanks):
// only a name both ranks have can be compared.
var (
	meta16Exposure = rulebook.Exposure[rankObject]{Items: kindWords("cvar") + " of rank 0",
		When: "when rank 1 has one of the same name", Could: func(o rankObject) bool { return o.onBoth }}
	meta17Exposure = rulebook.Exposure[rankObject]{Items: kindWords("pvar") + " of rank 0",
		When: "when rank 1 has one of the same name", Could: func(o rankObject) bool { return o.onBoth }}
)

// rankObject is a variable or category of rank 0, and whether rank 1 has
// one of the same name.
type rankObject struct {
	obj    acrossObj
	onBoth bool
}

// judgeMetadataAcrossRanks judges that the variables or categories (kind)
// of one name have the same metadata on ranks 0 and 1 of the across job;
// its pass goes through e, the rule's exposure.
func judgeMetadataAcrossRanks(kind string, e rulebook.Exposure[rankObject]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := acrossJob(x)
		byRank := [2]map[string]acrossObj{{}, {}}
		for _, o := range r.objs[kind] {
			if o.When == "after_traffic" && o.rank < 2 {
				byRank[o.rank][o.key()] = o
			}
		}
		var bad []string
		var rank0 []rankObject
		both := 0
		for k, a := range byRank[0] {
			b, ok := byRank[1][k]
			rank0 = append(rank0, rankObject{a, ok})
			if !ok {
				continue
			}
			both++
			if a.Meta != b.Meta {
				bad = append(bad, fmt.Sprintf("%s %s: rank 0 %s", kindWord[kind], k, metaDiff(a.Meta, b.Meta)+" on rank 1"))
			}
		}
		if both == 0 {
			x.Unsupported("not measurable here: no %s of the same name on both ranks", kindWord[kind])
		}
		sort.Strings(bad)
		x.FailOn(bad, "")
		return e.Pass(rank0, "%d of the same name (%s) on both ranks have the same metadata (of %d on rank 0)", both, kindWord[kind], len(byRank[0]))
	}
}

// meta19Exposure: a description could only differ where what is
// registered does.
var meta19Exposure = rulebook.Exposure[[2]acrossObj]{Items: "categories of the same name on both ranks",
	When:  "when, with rank 1 under another setting, its members (counts or indices) differ between the ranks (their registration differed, so their description could have)",
	Could: func(p [2]acrossObj) bool { return p[0].Members != p[1].Members }}

// judgeMeta19 judges category descriptions across ranks in the across job
// and in the one whose ranks differ in a setting; exposed are the
// categories whose members differ between the ranks there (their
// registration differed, so their description could have).
func judgeMeta19(x *rulebook.X) verdict.Verdict {
	var bad []string
	same, _ := categoriesOnBoth(acrossJob(x))
	settings, setting := acrossSettingsJob(x)
	both, differ := categoriesOnBoth(settings)
	for _, pairs := range [][][2]acrossObj{same, both} {
		for _, p := range pairs {
			if p[0].Meta != p[1].Meta {
				bad = append(bad, fmt.Sprintf("category %s: rank 0 %s on rank 1", p[0].Name, metaDiff(p[0].Meta, p[1].Meta)))
			}
		}
	}
	slices.Sort(bad)
	x.FailOn(slices.Compact(bad), "")
	if len(same)+len(both) == 0 {
		x.Unsupported("not measurable here: no category of the same name on both ranks")
	}
	if setting == "none" {
		x.Errorf("", "mpit_across_settings recorded no setting on rank 1")
	}
	return meta19Exposure.Pass(both, "%d of the same name on both ranks have the same description (launched alike, and with rank 1 under %s); with the setting, %d had different members (counts or indices) on the two ranks, where a description could differ too%s", len(both), setting, len(differ), inParens(examples(differ)))
}

func inParens(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// categoriesOnBoth pairs the categories of one name on ranks 0 and 1 after
// traffic, and those of them whose members differ.
func categoriesOnBoth(r *acrossRun) (pairs [][2]acrossObj, differ []string) {
	byRank := [2]map[string]acrossObj{{}, {}}
	for _, o := range r.objs["category"] {
		if o.When == "after_traffic" && o.rank < 2 {
			byRank[o.rank][o.key()] = o
		}
	}
	for _, k := range slices.Sorted(maps.Keys(byRank[0])) {
		b, ok := byRank[1][k]
		if !ok {
			continue
		}
		pairs = append(pairs, [2]acrossObj{byRank[0][k], b})
		if byRank[0][k].Members != b.Members {
			differ = append(differ, k)
		}
	}
	return pairs, differ
}

// indicesFollowedExposure, shared by CVAR-2, PVAR-2 and CAT-10: an index
// refused later is not judged (CVAR-1's readings), so only one that
// answered in the next walk too could show a change.
var indicesFollowedExposure = rulebook.Exposure[followedIndex]{Items: "indices followed from one walk to the next",
	When:  "when the index answered get_info in the next walk too",
	Could: func(i followedIndex) bool { return i.answered }}

// followedIndex is an index of one walk looked for in the next: whether it
// answered there.
type followedIndex struct{ answered bool }

func judgeIndicesStay(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := acrossJob(x)
		var bad, inactive []string
		measured := false
		// followed: an index of one walk looked for in the next; compared:
		// those that answered in both (one refused later is not judged)
		var followed []followedIndex
		compared := 0
		for rank := 0; rank < 2; rank++ {
			names := make([]map[int]acrossObj, len(walks))
			for i := range names {
				names[i] = map[int]acrossObj{}
			}
			for _, o := range r.objs[kind] {
				if o.rank == rank && walkNo(o.When) >= 0 {
					names[walkNo(o.When)][o.Index] = o
				}
			}
			for w := 1; w < len(walks); w++ {
				before, now := r.counts[[2]int{rank, w - 1}][kind], r.counts[[2]int{rank, w}][kind]
				if now < before {
					bad = append(bad, fmt.Sprintf("rank %d: %s count fell from %d (%s) to %d (%s)", rank, kindWord[kind], before, walks[w-1], now, walks[w]))
				}
				// in index order: the reason names the first few
				for _, i := range slices.Sorted(maps.Keys(names[w-1])) {
					o := names[w-1][i]
					measured = true
					n, ok := names[w][i]
					followed = append(followed, followedIndex{ok})
					if ok {
						compared++
					}
					switch {
					case !ok && i < now:
						// refused now: deleted, or inactive (e.g. its component
						// unloaded), which CVAR-1's two readings leave open
						inactive = append(inactive, fmt.Sprintf("rank %d: %d (%s)", rank, i, o.Name))
					case ok && n.key() != o.key():
						bad = append(bad, fmt.Sprintf("rank %d: %s %d was %s %s, is %s %s", rank, kindWord[kind], i, o.key(), walks[w-1], n.key(), walks[w]))
					case ok && kind == "category" && n.Members != o.Members && !membersGrew(o.Members, n.Members):
						bad = append(bad, fmt.Sprintf("rank %d: category %d (%s) members %s: %s, %s: %s", rank, i, o.Name, walks[w-1], o.Members, walks[w], n.Members))
					}
				}
			}
		}
		if !measured {
			x.Unsupported("not measurable here: no %s answered get_info", kindWord[kind])
		}
		sort.Strings(bad)
		x.FailOn(bad, "")
		reason := fmt.Sprintf("%s counts never fell and no index changed its %s over the three walks on both ranks (%d indices compared from one walk to the next)", kindWord[kind], kindWord[kind], compared)
		if len(inactive) > 0 {
			reason += fmt.Sprintf("; %d indices that answered get_info in one walk refused it in a later one (inactive, see CVAR-1): %s", len(inactive), examples(inactive))
		}
		return indicesFollowedExposure.Pass(followed, "%s", reason)
	}
}

// membersGrew tells members that were only added to (a count grew, so the
// hashes differ without a removal or a reordering being shown).
func membersGrew(before, now string) bool {
	fb, fn := strings.Fields(before), strings.Fields(now)
	if len(fb) != len(fn) {
		return false
	}
	grew := false
	for i := 1; i < len(fb); i += 2 {
		var nb, nn int
		fmt.Sscanf(fb[i], "%d/", &nb)
		fmt.Sscanf(fn[i], "%d/", &nn)
		switch {
		case nn < nb:
			return false
		case nn > nb:
			grew = true
		case fb[i] != fn[i]:
			return false
		}
	}
	return grew
}

// repeatedAnswersExposure, shared by CVAR-3 and PVAR-3: another object at
// the index is CVAR-2's and PVAR-2's, so only an answer about the object
// the first named is compared.
var repeatedAnswersExposure = rulebook.Exposure[repeatedAnswer]{Items: "repeated get_info answers",
	When:  "when it names the object the first answer at the index named",
	Could: func(a repeatedAnswer) bool { return a.sameObject }}

// repeatedAnswer is a get_info answer at an index after the first there:
// whether it names the same object.
type repeatedAnswer struct{ sameObject bool }

func judgeSameOverTime(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := acrossJob(x)
		first := map[[2]int]acrossObj{}
		var bad []string
		// n repeated answers; compared: those naming the same object as the
		// first (another object at the index is CVAR-2's and PVAR-2's)
		var repeated []repeatedAnswer
		compared := 0
		objs := append([]acrossObj{}, r.objs[kind]...)
		sort.SliceStable(objs, func(i, j int) bool { return walkNo(objs[i].When) < walkNo(objs[j].When) })
		for _, o := range objs {
			k := [2]int{o.rank, o.Index}
			f, ok := first[k]
			if !ok {
				first[k] = o
				continue
			}
			repeated = append(repeated, repeatedAnswer{f.key() == o.key()})
			if f.key() == o.key() {
				compared++
			}
			if f.key() == o.key() && f.Meta != o.Meta {
				bad = append(bad, fmt.Sprintf("rank %d: %s %d (%s): %s %s", o.rank, kindWord[kind], o.Index, o.Name, metaDiff(f.Meta, o.Meta), "("+f.When+" vs "+o.When+")"))
			}
		}
		if len(repeated) == 0 {
			x.Unsupported("not measurable here: no %s answered get_info twice", kindWord[kind])
		}
		sort.Strings(bad)
		x.FailOn(bad, "")
		return repeatedAnswersExposure.Pass(repeated, "%d repeated get_info answers, each the same as the first (%d of them about the object the first named)", len(repeated), compared)
	}
}

type lenRec struct {
	Index      int    `json:"index"`
	Members    string `json:"members"`
	N          int    `json:"n"`
	OverRC     int    `json:"over_rc"`
	OverOK     int    `json:"over_ok"`
	UnderRC    int    `json:"under_rc"`
	UnderOK    int    `json:"under_ok"`
	UnderTried int    `json:"under_tried"`
}

// cat7Exposure: the arrays are filled with a sentinel first, so each query
// could show what it wrote.
var cat7Exposure = rulebook.Exposure[memberQuery]{Items: "member queries"}

// memberQuery is one member query of a category, with len above its member
// count or below it.
type memberQuery struct {
	index int
	over  bool
}

func judgeCat7(x *rulebook.X) verdict.Verdict {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across", Ranks: 2, Program: x.Fixture("mpit_across")})
	var bad []string
	over, under := 0, 0
	var queries []memberQuery
	for _, r := range mpi.Decode[lenRec](recs, "len") {
		over++
		queries = append(queries, memberQuery{r.Index, true})
		if r.OverOK == 0 {
			bad = append(bad, fmt.Sprintf("category %d, %s (%d): len %d gave rc %d and did not write the whole set first, leaving the rest alone", r.Index, r.Members, r.N, r.N+3, r.OverRC))
		}
		if r.UnderTried == 1 {
			under++
			queries = append(queries, memberQuery{r.Index, false})
			if r.UnderOK == 0 {
				bad = append(bad, fmt.Sprintf("category %d, %s (%d): len %d gave rc %d and not %d distinct members with nothing past them", r.Index, r.Members, r.N, r.N-1, r.UnderRC, r.N-1))
			}
		}
	}
	if over == 0 {
		x.Unsupported("not measurable here: no category has members")
	}
	x.FailOn(bad, "")
	return cat7Exposure.Pass(queries, "%d member queries with len above the count and %d below it (both ranks) wrote what §15.3.9.2 says", over, under)
}

type updateRec struct {
	When   string `json:"when"`
	At     string `json:"at"`
	RC     int    `json:"rc"`
	Update int    `json:"update"`
}

// cat9Exposure: each category of a pair of walks with the same update
// number could have changed.
var cat9Exposure = rulebook.Exposure[acrossObj]{Items: "categories compared across walks"}

func judgeCat9(x *rulebook.X) verdict.Verdict {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across", Ranks: 2, Program: x.Fixture("mpit_across")})
	r := acrossJob(x)
	var bad []string
	// compared: pairs of walks with the same update number; cats: the
	// categories of those pairs, each of which could have changed
	compared := 0
	var cats []acrossObj
	for rank := 0; rank < 2; rank++ {
		upd := map[string]int{}
		for _, rec := range recs.Kind("changed", rank) {
			var c updateRec
			if err := rec.Decode(&c); err != nil || c.RC != 0 {
				x.Errorf(string(rec.Raw), "rank %d: MPI_T_category_changed did not answer", rank)
			}
			upd[c.When+" "+c.At] = c.Update
		}
		byWalk := map[string]map[int]acrossObj{}
		for _, o := range r.objs["category"] {
			if o.rank == rank {
				if byWalk[o.When] == nil {
					byWalk[o.When] = map[int]acrossObj{}
				}
				byWalk[o.When][o.Index] = o
			}
		}
		for w := 1; w < len(walks); w++ {
			a, b := walks[w-1], walks[w]
			if upd[a+" start"] != upd[b+" end"] {
				continue // the categories may have changed in between
			}
			compared++
			for i, o := range byWalk[a] {
				cats = append(cats, o)
				n, ok := byWalk[b][i]
				switch {
				case !ok:
					bad = append(bad, fmt.Sprintf("rank %d: category %d (%s) answered %s, not %s, the update number staying %d", rank, i, o.Name, a, b, upd[b+" end"]))
				case n.Name != o.Name || n.Meta != o.Meta || n.Members != o.Members:
					bad = append(bad, fmt.Sprintf("rank %d: category %d (%s) changed between %s and %s (%s), the update number staying %d", rank, i, o.Name, a, b, metaDiff(o.Meta+" "+o.Members, n.Meta+" "+n.Members), upd[b+" end"]))
				}
			}
		}
	}
	if compared == 0 {
		x.Unsupported("not measurable here: the update number changed between every two walks")
	}
	sort.Strings(bad)
	x.FailOn(bad, "")
	return cat9Exposure.Pass(cats, "categories were the same across %d pairs of walks with the same update number (%d categories compared)", compared, len(cats))
}
