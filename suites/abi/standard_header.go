package abi

import (
	"fmt"
	"strings"
)

// The constants are kept once, in standard.go; the C fixture's list of
// them, fixtures/c/abi/standard_constants.h, is generated from it:
//
//	go generate ./suites/abi
//
// and TestStandardConstantsHeader fails when the two differ.
//go:generate env MPITS_UPDATE_CONSTANTS=1 go test -count=1 -run ^TestStandardConstantsHeader$ .

// standardConstantsHeader is the path of the generated header, from this
// package's folder.
const standardConstantsHeader = "../../fixtures/c/abi/standard_constants.h"

// cNotes are comments the header carries after a constant.
var cNotes = map[string]string{
	"MPI_DISPLACEMENT_CURRENT": "MPI_Offset; a macro or an enum member",
}

// renderStandardConstants is fixtures/c/abi/standard_constants.h: every
// constant of standardHandles, standardInts and standardPointers as an
// X-macro, in that order.
func renderStandardConstants() string {
	var b strings.Builder
	b.WriteString(`/* Code generated from suites/abi/standard.go by go generate ./suites/abi; DO NOT EDIT.
 *
 * Every predefined handle, integer constant and constant address the MPI 5.0
 * standard ABI fixes (MPI-5.0 §20.3.3, §20.5 and the "ABI value" column of
 * Annex A.1.1), as X-macros: H(handle type, name), I(name), P(name). The
 * values the standard gives live in suites/abi/standard.go; this list only
 * names them. Handles and addresses are macros, so a header that lacks one
 * is reported (A(name)) instead of failing the build; integer constants may
 * be enum members, which the preprocessor cannot test. Included without the
 * macros it is empty. */
#if defined(H) && defined(I) && defined(P) && defined(A)
`)
	guarded := func(name, use string) {
		fmt.Fprintf(&b, "#ifdef %s\n%s\n#else\nA(%s)\n#endif\n", name, use, name)
	}
	for _, c := range standardHandles {
		guarded(c.Name, fmt.Sprintf("H(%s, %s)", c.Type, c.Name))
	}
	for _, c := range standardInts {
		line := fmt.Sprintf("I(%s)", c.Name)
		if n := cNotes[c.Name]; n != "" {
			line += " /* " + n + " */"
		}
		b.WriteString(line + "\n")
	}
	for _, c := range standardPointers {
		guarded(c.Name, fmt.Sprintf("P(%s)", c.Name))
	}
	b.WriteString("#endif\n")
	return b.String()
}
