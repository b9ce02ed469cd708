package abi

import (
	"fmt"
	"strings"
)

// The standard's defined constants and types, MPI-5.0 Annex A.1.1 and
// A.1.2, as cmd/mpits/constants.go reads them from the text
// (standard_constants_gen.go; ci/test checks it is current):
//
//	go run ./cmd/mpits constants

// a11Const is one row of Annex A.1.1 (standard_constants_gen.go).
type a11Const struct {
	Name, Group string
	// CType is the C type the group gives ("integer constant expression
	// of type int", "MPI_Comm", "char***", ...), "" for Fortran only.
	CType string
	// ValueText is the "ABI value" cell as written, Value the integer it
	// gives where it gives one (HasValue).
	ValueText string
	Value     int64
	HasValue  bool
	Note      string // "deprecated", "as a synonym", "Fortran only"
	// Of is a named predefined datatype's language type ("signed short"),
	// OfColumn the header of that column ("C types", "C++ types").
	Of, OfColumn string
}

// a12Type is one C type definition of Annex A.1.2.
type a12Type struct{ Name, Group string }

// How a constant's C type is checked (MPI-5.0 §2.5.4: "In C, all named MPI
// constants that are described as “integer constant expression” in
// Section Defined Constants [§A.1.1] must be implemented as C integer
// constant expressions of the specified integer type. All other MPI
// constants in C are not required to be C integer constant expressions but
// must be usable in initialization expressions and assignments.").
const (
	kindICE      = "integer constant expression" // of Type, and an integer constant expression
	kindMacro    = "macro"                       // a preprocessor macro whose value has type Type
	kindTyped    = "typed"                       // an expression of type Type
	kindFunction = "function"                    // designates a function of type Type, or points to one
)

// a11C is a constant of Annex A.1.1 with a C binding, once: how its type
// is checked (Kind) and the C type it must have (Type).
type a11C struct {
	a11Const
	Kind, Type string
}

const iceOf = "integer constant expression of type "

// standardCConstants are the constants of A.1.1 that have a C binding, each
// once (the first row that lists it: MPI_AINT ... are listed again among
// the Fortran datatypes, with the same C type and value).
func standardCConstants() []a11C {
	var out []a11C
	seen := map[string]bool{}
	for _, c := range standardA11 {
		if c.CType == "" || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		out = append(out, classifyA11(c))
	}
	return out
}

// classifyA11 says how the C type the text gives a constant is checked.
func classifyA11(c a11Const) a11C {
	t := strings.TrimSpace(c.CType)
	switch {
	case strings.HasPrefix(t, iceOf):
		return a11C{c, kindICE, strings.TrimPrefix(t, iceOf)}
	case t == "C-preprocessor macro that expands to an int value":
		return a11C{c, kindMacro, "int"}
	case (strings.HasSuffix(t, "_function") || strings.HasSuffix(t, "_function_c")) && !strings.Contains(t, "*"):
		// the predefined functions: "C type: MPI_Comm_copy_attr_function"
		// names a function type; the constant is a function or a pointer
		// to one ("ABI value in mpi.h" 0 or 1 is a pointer)
		return a11C{c, kindFunction, t}
	}
	return a11C{c, kindTyped, t}
}

// stdTypeName is how a C type of A.1.1 is written in C ("char***" as is,
// "void * const" as is: the checks ignore top-level qualifiers).
func stdTypeName(t string) string { return t }

// a1Line is what a line of a probe checks: a constant or type and the
// aspect ("declared", "type", "ice", "macro").
type a1Line struct{ name, aspect string }

// a1Probe is a C file that includes mpi.h and then checks, one line each,
// what the standard says of each constant or type.
type a1Probe struct {
	b     strings.Builder
	next  int
	lines map[int]a1Line
}

func newA1Probe() *a1Probe {
	p := &a1Probe{lines: map[int]a1Line{}}
	// <stddef.h> first (a header whose constants use NULL without
	// including it is NATIVE-HDR-04's matter, not these rules')
	p.b.WriteString("#include <stddef.h>\n#include <mpi.h>\n")
	// The probe's own lines: a constant that is folded to a constant but is
	// no integer constant expression is a pedantic diagnostic in gcc,
	// made an error here (and nowhere in the header).
	p.b.WriteString("#pragma GCC diagnostic error \"-Wpedantic\"\n")
	p.next = 4
	return p
}

func (p *a1Probe) add(name, aspect, text string) {
	p.lines[p.next] = a1Line{name, aspect}
	p.b.WriteString(text + "\n")
	p.next++
}

// plain adds a line no error of which is expected (preprocessor lines).
func (p *a1Probe) plain(text string) {
	p.b.WriteString(text + "\n")
	p.next++
}

// constant adds the checks of one constant, under C identifier suffix i.
func (p *a1Probe) constant(i int, c a11C) {
	n, t := c.Name, stdTypeName(c.Type)
	if c.Kind == kindMacro {
		p.plain("#ifndef " + n)
		p.add(n, "macro", fmt.Sprintf("#error \"%s is not a preprocessor macro\"", n))
		p.plain("#endif")
	}
	// one function each: gcc reports an undeclared identifier once per
	// function, and one constant's error must not hide another's
	p.plain(fmt.Sprintf("void mpits_constant_%d(void) {", i))
	p.add(n, "declared", fmt.Sprintf("typedef __typeof__(%s) mpits_declared;", n))
	switch c.Kind {
	case kindFunction:
		// a function designator converts to a pointer (the conditional
		// operator does the conversion, C11 §6.3.2.1)
		p.add(n, "type", fmt.Sprintf("_Static_assert(__builtin_types_compatible_p(__typeof__(1 ? (%s) : (%s)), %s *), \"%s is not a %s\");", n, n, t, n, t))
	case kindTyped:
		// An enumeration constant has type int (C11 §6.4.4.3): the constants
		// of an enumerated type (MPI_T_source_order, MPI_T_cb_safety) may be
		// its enumeration constants.
		p.add(n, "type", fmt.Sprintf("_Static_assert(__builtin_types_compatible_p(__typeof__(%s), %s) || (__builtin_classify_type((%s)0) == 1 && __builtin_types_compatible_p(__typeof__(%s), int)), \"%s is not of type %s\");", n, t, t, n, n, t))
	default:
		p.add(n, "type", fmt.Sprintf("_Static_assert(__builtin_types_compatible_p(__typeof__(%s), %s), \"%s is not of type %s\");", n, t, n, t))
	}
	if c.Kind == kindICE {
		p.add(n, "ice", fmt.Sprintf("_Static_assert((%s) == (%s), \"%s is an integer constant expression\");", n, n, n))
	}
	p.plain("}")
}

// typeDef adds the check that t names a type.
func (p *a1Probe) typeDef(i int, t string) {
	p.add(t, "declared", fmt.Sprintf("typedef %s mpits_type_%d;", t, i))
}

// shower is a second probe that makes gcc name the type of each constant
// whose type was wrong: a pointer to it where a char (*)[1] is wanted is
// an incompatible-pointer-types error that spells the type.
func typeShower(consts []a11C) (string, map[int]string) {
	var b strings.Builder
	b.WriteString("#include <stddef.h>\n#include <mpi.h>\n")
	lines := map[int]string{}
	for i, c := range consts {
		expr := c.Name
		if c.Kind == kindFunction {
			expr = "1 ? (" + c.Name + ") : (" + c.Name + ")"
		}
		lines[i+3] = c.Name
		fmt.Fprintf(&b, "char (*mpits_show_%d)[1] = (__typeof__(%s) *)0;\n", i, expr)
	}
	return b.String(), lines
}
