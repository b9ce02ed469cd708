package abi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 21.4 (handle serialization): "For all predefined handles, the
// integer value must be the same as the values listed"; for user-defined
// handles "the same integer for every call ... with the same handle, which
// does not conflict with the reserved range for predefined handles"; and
// MPI_<Handle>_fromint gives back the handle. 21.3.3: handles the
// implementation creates are never in the reserved range 1..4095 (nor 0).
var handles = harness.Define(harness.Check{
	ID:        "ABI-HANDLE-001",
	Clause:    "MPI-5.0:21.4",
	Needs:     "abi",
	Title:     "MPI_<Handle>_toint gives every predefined handle its ABI constant and every user-created handle (one of each of the eleven handle types) a stable integer outside 1..4095, and MPI_<Handle>_fromint gives each handle back",
	Injectors: []string{"inject_abi_toint_off", "inject_abi_fromint_off"},
	Run:       runHandles,
})

func runHandles(x *harness.X) harness.Verdict {
	requireABI(x)
	out := constantsRun(x)
	var p problems
	seen := map[string]bool{}
	for _, t := range out.Toint {
		seen[t.Name] = true
		want, _ := standardValue(t.Name)
		if t.Int != want.Value {
			p.addf("%s_toint(%s) = %#x, its ABI constant is %#x", tointPrefix(t.Type), t.Name, t.Int, want.Value)
		}
		if t.Back != 1 {
			p.addf("%s_fromint(%s_toint(%s)) is not %s", tointPrefix(t.Type), tointPrefix(t.Type), t.Name, t.Name)
		}
	}
	for _, c := range standardHandles {
		if !seen[c.Name] && out.Consts[c.Name].Kind != "absent" {
			p.addf("no conversion reported for %s", c.Name)
		}
	}
	users := map[string]bool{}
	for _, u := range out.User {
		users[u.Type] = true
		f := tointPrefix(u.Type)
		if u.Int != u.IntAgain {
			p.addf("%s_toint of one user-created handle gave %d, then %d", f, u.Int, u.IntAgain)
		}
		if u.Int >= 1 && u.Int <= 4095 {
			p.addf("%s_toint of a user-created handle = %d, inside the range reserved for predefined handles", f, u.Int)
		}
		if u.Back != 1 {
			p.addf("%s_fromint(%s_toint(h)) is not h for a user-created %s", f, f, u.Type)
		}
		if u.Pointer >= 0 && u.Pointer <= 4095 {
			p.addf("a user-created %s has the value %d, which the ABI reserves (0..4095)", u.Type, u.Pointer)
		}
	}
	var missing []string
	for _, t := range handleTypes {
		if !users[t] {
			missing = append(missing, t)
		}
	}
	p.fail(x, x.Impl.ID+"'s handle conversions", "")
	reason := fmt.Sprintf("%d predefined handles convert to their ABI constants and back; user-created handles of %d types convert to stable integers outside 1..4095 and back", len(out.Toint), len(users))
	if len(missing) > 0 {
		reason += "; could not create: " + strings.Join(missing, ", ")
	}
	return harness.Verdict{Reason: reason}
}

// tointPrefix names the conversion functions of a handle type.
func tointPrefix(t string) string {
	if t == "MPI_Datatype" {
		return "MPI_Type"
	}
	return t
}
