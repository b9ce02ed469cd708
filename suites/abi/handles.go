package abi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Handle serialization (MPI-5.0 §20.4.5) and the reserved handle range
// (§20.3.3), judged from the run of fixtures/c/abi/constants.c that
// ABI-CONST also reads (one run feeds both checks).
var handles = rulebook.Define(rulebook.Check{
	ID:    "ABI-HANDLE",
	Needs: "abi",
	Title: "MPI_<Handle>_toint/_fromint on the predefined handles and on one user-created handle of each of the eleven handle types, and where the library puts the handles it creates",
	Rules: []rulebook.Rule{
		// §20.4.5: "The function MPI_Comm_fromint translates a C integer to the
		// appropriate C communicator handle. Only an integer obtained from a
		// previous call to MPI_Comm_toint may be passed to this function." /
		// "Similar functions are provided for the other types of opaque
		// objects."
		{ID: "ABI-CONV-01", Source: "MPI-5.0 §20.4.5", Basis: rulebook.Normative,
			Text:      "MPI_<Handle>_fromint(MPI_<Handle>_toint(h)) is h, for every predefined handle and a user-created handle of every handle type",
			Injectors: []string{"inject_abi_fromint_off"},
			Exposure:  conv1Exposure.Declared(), Judge: judgeFromint},
		// §20.4.5: "For all predefined handles, the integer value must be the
		// same as the values listed in Section Language Bindings Summary [§A]."
		{ID: "ABI-CONV-02", Source: "MPI-5.0 §20.4.5", Basis: rulebook.Normative,
			Text:      "MPI_<Handle>_toint of every predefined handle is the value the standard lists for it",
			Injectors: []string{"inject_abi_toint_off"},
			Exposure:  conv2Exposure.Declared(), Judge: judgeTointPredefined},
		// §20.4.5: "For user-defined handles, the implementation must return
		// the same integer for every call to this function with the same
		// handle, which does not conflict with the reserved range for
		// predefined handles."
		{ID: "ABI-CONV-03", Source: "MPI-5.0 §20.4.5", Basis: rulebook.Normative,
			Text:      "MPI_<Handle>_toint of a user-created handle gives the same integer on every call, outside the range 1..4095 reserved for predefined handles",
			Injectors: []string{"inject_abi_toint_unstable"},
			Exposure:  conv3Exposure.Declared(), Judge: judgeTointUser},
		// §20.3.3: "Implementations must ensure that the handles they create
		// for the user are never in the range reserved for predefined handle
		// constants. The MPI ABI reserves values corresponding to the integers
		// 1 to 4095 for predefined handle constants." / "Handle arguments with
		// an integer representation of zero are never valid handles."
		{ID: "ABI-HND-03", Source: "MPI-5.0 §20.3.3", Basis: rulebook.Normative,
			Text:      "the handles the library creates for the user (one of each handle type) are never 0 nor in the reserved range 1..4095",
			Injectors: []string{"inject_abi_handle_reserved"},
			Exposure:  hnd3Exposure.Declared(), Judge: judgeUserHandleRange},
	},
})

var (
	// Each round trip could have come back as another handle.
	conv1Exposure = rulebook.Exposure[handleTrip]{Items: "handle round trips"}
	// Each predefined handle could have converted to another integer.
	conv2Exposure = rulebook.Exposure[tointRec]{Items: "predefined handles"}
	// Each handle converted twice: either integer could have been another,
	// or reserved.
	conv3Exposure = rulebook.Exposure[userRec]{Items: "user-created handles"}
	// Each handle created could have lain in the reserved range.
	hnd3Exposure = rulebook.Exposure[userRec]{Items: "user-created handles"}
)

// handleTrip is one handle through fromint(toint(h)): a predefined one by
// name, or a user-created one of a type.
type handleTrip struct{ handle, typ string }

// userTypes are the handle types of the user-created handles, and those the
// fixture could not create.
func userTypes(out *constantsOut) (n int, missing []string) {
	users := map[string]bool{}
	for _, u := range out.User {
		users[u.Type] = true
	}
	for _, t := range handleTypes {
		if !users[t] {
			missing = append(missing, t)
		}
	}
	return len(users), missing
}

func judgeFromint(x *rulebook.X) verdict.Verdict {
	out := constantsRun(x)
	var p rulebook.Problems
	for _, t := range out.Toint {
		if t.Back != 1 {
			p.Add("", "%s_fromint(%s_toint(%s)) is not %s", tointPrefix(t.Type), tointPrefix(t.Type), t.Name, t.Name)
		}
	}
	for _, u := range out.User {
		if u.Back != 1 {
			f := tointPrefix(u.Type)
			p.Add("", "%s_fromint(%s_toint(h)) is not h for a user-created %s", f, f, u.Type)
		}
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_<Handle>_fromint")
	n, missing := userTypes(out)
	reason := fmt.Sprintf("%d predefined handles and user-created handles of %d types come back from fromint(toint(h))", len(out.Toint), n)
	if len(missing) > 0 {
		reason += "; could not create: " + strings.Join(missing, ", ")
	}
	var trips []handleTrip
	for _, t := range out.Toint {
		trips = append(trips, handleTrip{t.Name, t.Type})
	}
	for _, u := range out.User {
		trips = append(trips, handleTrip{"user-created", u.Type})
	}
	return conv1Exposure.Pass(trips, "%s", reason)
}

func judgeTointPredefined(x *rulebook.X) verdict.Verdict {
	out := constantsRun(x)
	var p rulebook.Problems
	seen := map[string]bool{}
	for _, t := range out.Toint {
		seen[t.Name] = true
		want, _ := standardValue(t.Name)
		if t.Int != want.Value {
			p.Add("", "%s_toint(%s) = %#x, its ABI constant is %#x", tointPrefix(t.Type), t.Name, t.Int, want.Value)
		}
	}
	for _, c := range standardHandles {
		if !seen[c.Name] && out.Consts[c.Name].Kind != "absent" {
			p.Add("", "no conversion reported for %s", c.Name)
		}
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_<Handle>_toint")
	return conv2Exposure.Pass(out.Toint, "%d predefined handles convert to their ABI constants", len(out.Toint))
}

func judgeTointUser(x *rulebook.X) verdict.Verdict {
	out := constantsRun(x)
	var p rulebook.Problems
	for _, u := range out.User {
		f := tointPrefix(u.Type)
		if u.Int != u.IntAgain {
			p.Add("", "%s_toint of one user-created handle gave %d, then %d", f, u.Int, u.IntAgain)
		}
		if u.Int >= 1 && u.Int <= 4095 {
			p.Add("", "%s_toint of a user-created handle = %d, inside the range reserved for predefined handles", f, u.Int)
		}
	}
	p.FailAbout(x, x.Impl.ID+"'s MPI_<Handle>_toint of user-created handles")
	n, missing := userTypes(out)
	if n == 0 {
		x.Unsupported("not measurable here: no user-created handle")
	}
	reason := fmt.Sprintf("user-created handles of %d types convert to stable integers outside 1..4095", n)
	if len(missing) > 0 {
		reason += "; could not create: " + strings.Join(missing, ", ")
	}
	return conv3Exposure.Pass(out.User, "%s", reason)
}

func judgeUserHandleRange(x *rulebook.X) verdict.Verdict {
	out := constantsRun(x)
	var p rulebook.Problems
	for _, u := range out.User {
		if u.Pointer >= 0 && u.Pointer <= 4095 {
			p.Add("", "a user-created %s has the value %d, which the ABI reserves (0..4095)", u.Type, u.Pointer)
		}
	}
	p.FailAbout(x, x.Impl.ID+"'s user-created handles")
	n, missing := userTypes(out)
	if n == 0 {
		x.Unsupported("not measurable here: no user-created handle")
	}
	reason := fmt.Sprintf("user-created handles of %d types are outside 0..4095", n)
	if len(missing) > 0 {
		reason += "; could not create: " + strings.Join(missing, ", ")
	}
	return hnd3Exposure.Pass(out.User, "%s", reason)
}

// tointPrefix names the conversion functions of a handle type.
func tointPrefix(t string) string {
	if t == "MPI_Datatype" {
		return "MPI_Type"
	}
	return t
}
