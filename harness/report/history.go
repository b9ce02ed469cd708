package report

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/mpits/mpits/harness/mpi"
)

// HistoryOrder sorts implementations by family, then by version, so that a
// row of the matrix reads as a history (MPICH 4.0.2, 4.2.1, 5.0.2; Open MPI
// 4.1.4, 5.0.7, 6.0.0rc2). Builds of one version keep the provisioning order.
func HistoryOrder(probed []mpi.Probed) []mpi.Probed {
	out := slices.Clone(probed)
	slices.SortStableFunc(out, func(a, b mpi.Probed) int {
		if a.Impl.Family != b.Impl.Family {
			return compareFamily(a.Impl.Family, b.Impl.Family)
		}
		return compareVersions(a.Impl.Version, b.Impl.Version)
	})
	return out
}

func compareFamily(a, b string) int {
	rank := func(f string) int { // the families the project provisions first
		switch f {
		case "mpich":
			return 0
		case "openmpi":
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

var versionPart = regexp.MustCompile(`[0-9]+|[a-z]+`)

// compareVersions compares release numbers part by part; a pre-release
// ("6.0.0rc2") comes before its release ("6.0.0").
func compareVersions(a, b string) int {
	pa, pb := versionPart.FindAllString(a, -1), versionPart.FindAllString(b, -1)
	for i := 0; i < len(pa) || i < len(pb); i++ {
		if i == len(pa) || i == len(pb) {
			// "6.0.0" against "6.0.0rc2": the one with a letter part is older.
			longer, sign := pb, -1
			if i == len(pb) {
				longer, sign = pa, 1
			}
			if _, err := strconv.Atoi(longer[i]); err != nil {
				return -sign
			}
			return sign
		}
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			return na - nb
		case ea != nil && eb == nil: // a letter part before a number: a pre-release
			return -1
		case ea == nil && eb != nil:
			return 1
		case ea != nil && eb != nil && pa[i] != pb[i]:
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
