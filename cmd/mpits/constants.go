package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The standard's defined constants and types (MPI-5.0 Annex A.1.1 and
// A.1.2), in the text of ../shared/reference/standard: every constant with
// its group, the C type the group gives it and its "ABI value" where the
// text gives one; every C type definition of A.1.2. Read from the text as
// it is laid out there (one table row a line, cells separated by " | "):
//
//   - a group starts after a blank line with its title (one or two lines);
//     its header says the C type: "C type: T | ABI value" (rows "NAME |
//     value"), "C type: MPI_Datatype | C types | ABI value" (rows "NAME |
//     the datatype's C type | value"), "Handle | Type | ABI value" (rows
//     "NAME | T | value"), "C constant (type: T) | is equivalent to ..."
//     (rows "NAME | the Fortran constant", no value), or "C/Fortran name"
//     (the C type on the line after the name: "T / Fortran type", with the
//     value after " | " on either line);
//   - a group with a Fortran type and no C type is Fortran only (its
//     constants are listed with no C type);
//   - "(deprecated)", "(as a synonym)" and "(Fortran only)" after a name
//     are kept as its note.
const constantsFile = "mpi50-A1-defined-constants-types.txt"

var (
	constName  = regexp.MustCompile(`^(MPI_[A-Z0-9_]+)((?: \([a-zA-Z ]+\))*)(?: \| (.*))?$`)
	footnote   = regexp.MustCompile(`\^[0-9,]+`)
	voidValue  = regexp.MustCompile(`^\(\(void\s*\*\)\s*(-?[0-9]+)\)$`)
	hexAside   = regexp.MustCompile(`^(-?[0-9]+) \(0x[0-9A-Fa-f]+\)$`)
	cTypeOnly  = regexp.MustCompile(`^C constant \(type: ([^)]+)\)`)
	typeName   = regexp.MustCompile(`^MPI_[A-Za-z0-9_]+$`)
	typeHeader = regexp.MustCompile(`^/\* (.*) \*/$`)
)

type a1Const struct {
	Name, Group, CType, ValueText, Note string
	// a named predefined datatype's middle cell and that column's
	// header: "signed short" of "C types"
	Of, OfColumn string
}

type a1Type struct{ Name, Group string }

// abiValue is the integer a value cell gives ("12 (0xC)", "0x09",
// "((void*)1)"), or false ("N/A", "c_intptr_t", none).
func abiValue(cell string) (int64, bool) {
	s := strings.TrimSpace(cell)
	if m := hexAside.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if m := voidValue.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	v, err := strconv.ParseInt(s, 0, 64)
	return v, err == nil
}

// parseA1 reads the constants of A.1.1 and the C types of A.1.2.
func parseA1(path string) ([]a1Const, []a1Type, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%v: pass -standard with the folder of the standard's text", err)
	}
	defer f.Close()
	var (
		consts []a1Const
		types  []a1Type
		part   string // "A.1.1", "A.1.2"
		// the group being read
		title     []string
		subtitle  string
		cType     string
		ofColumn  string
		mode      string // "cols": NAME | value; "three": NAME | x | value; "handle": NAME | T | value; "equiv": NAME | other; "nextline": C type on the next line
		hasHeader bool
		blank     = true
		rows      bool
		pending   = -1 // index in consts of a "nextline" constant waiting for its C type
		typeGroup string
		// the constants of a group with no C type
		fortranOnly = map[int]bool{}
	)
	newGroup := func() {
		title, subtitle, cType, mode, hasHeader, rows, pending = nil, "", "", "", false, false, -1
	}
	groupName := func() string {
		g := strings.Join(title, " ")
		if subtitle != "" {
			g += ": " + subtitle
		}
		return g
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "A.1.1 "):
			part = "A.1.1"
			continue
		case strings.HasPrefix(line, "A.1.2 "):
			part = "A.1.2"
			continue
		case strings.HasPrefix(line, "A.1.3 "):
			part = ""
			continue
		}
		switch part {
		case "A.1.2":
			if strings.HasPrefix(line, "The following are defined Fortran") {
				part = ""
			} else if m := typeHeader.FindStringSubmatch(line); m != nil {
				typeGroup = m[1]
			} else if typeName.MatchString(line) {
				types = append(types, a1Type{line, typeGroup})
			}
			continue
		case "A.1.1":
		default:
			continue
		}
		// A.1.1: the tables are indented; the prose before them is not.
		if line == "" {
			blank = true
			pending = -1
			continue
		}
		if !strings.HasPrefix(raw, "  ") || line == "(Continued on next page)" {
			continue
		}
		wasBlank := blank
		blank = false
		clean := strings.TrimSpace(footnote.ReplaceAllString(line, ""))
		if wasBlank && !strings.HasPrefix(clean, "MPI_") && !strings.HasPrefix(clean, "^") {
			newGroup()
			// "Error classes (continued)" goes on with "Error classes"
			title = []string{strings.TrimSuffix(clean, " (continued)")}
			continue
		}
		m := constName.FindStringSubmatch(clean)
		switch {
		case strings.HasPrefix(clean, "C type: "):
			hasHeader = true
			cells := strings.Split(strings.TrimPrefix(clean, "C type: "), " | ")
			cType = strings.TrimSpace(cells[0])
			mode, ofColumn = "cols", ""
			if len(cells) == 3 {
				mode, ofColumn = "three", strings.TrimSpace(cells[1])
			}
			if len(cells) == 2 && strings.HasPrefix(cells[1], "ABI value") {
				mode = "cols"
			}
			continue
		case cTypeOnly.MatchString(clean):
			hasHeader = true
			cType = cTypeOnly.FindStringSubmatch(clean)[1]
			mode = "equiv"
			continue
		case strings.HasPrefix(clean, "C/Fortran name"):
			hasHeader = true
			mode = "nextline"
			continue
		case clean == "Handle | Type | ABI value":
			hasHeader = true
			mode = "handle"
			continue
		case strings.HasPrefix(clean, "Fortran type:"):
			hasHeader = true
			if mode == "" {
				mode = "fortran"
				if strings.Contains(clean, " | ") {
					mode = "fortrancols"
				}
			}
			continue
		case m == nil && !hasHeader && !rows:
			// a title's second line, or a sub-table's title
			if r := clean[0]; (r >= 'a' && r <= 'z') || strings.HasSuffix(title[len(title)-1], " the") {
				title = append(title, clean)
			} else {
				subtitle = clean
			}
			continue
		case m == nil && rows && mode == "handle" && !strings.Contains(clean, "|"):
			// "Other Handles": a sub-table of the same group
			subtitle, hasHeader = clean, false
			continue
		}
		if m == nil {
			if mode == "nextline" && pending >= 0 {
				// "T / Fortran type", "T | value", "T / Fortran | value"
				c := &consts[pending]
				typ, val, hasVal := strings.Cut(clean, " | ")
				typ, _, _ = strings.Cut(typ, " / ")
				if hasVal {
					c.ValueText = strings.TrimSpace(val)
				}
				if c.CType == "" && !strings.HasPrefix(clean, "/") && !strings.HasPrefix(clean, "or ") {
					c.CType = strings.TrimSpace(typ)
				}
			}
			continue // footnotes, their continuations, remarks, Fortran continuations
		}
		if !hasHeader && mode == "" {
			return nil, nil, fmt.Errorf("%s: constant %s before its group's header", path, m[1])
		}
		rows = true
		c := a1Const{Name: m[1], Group: groupName()}
		for _, n := range strings.Split(strings.TrimSpace(m[2]), ")") {
			if n = strings.Trim(strings.TrimSpace(n), "("); n != "" {
				if c.Note != "" {
					c.Note += ", "
				}
				c.Note += n
			}
		}
		cells := []string{}
		if m[3] != "" {
			cells = strings.Split(m[3], " | ")
		}
		switch mode {
		case "cols":
			c.CType = cType
			if len(cells) > 0 {
				c.ValueText = strings.TrimSpace(cells[len(cells)-1])
			}
		case "three":
			c.CType = cType
			if len(cells) != 2 {
				return nil, nil, fmt.Errorf("%s: %s: want 3 cells", path, clean)
			}
			c.ValueText = strings.TrimSpace(cells[1])
			c.Of, c.OfColumn = strings.TrimSpace(cells[0]), ofColumn
		case "handle":
			if len(cells) != 2 {
				return nil, nil, fmt.Errorf("%s: %s: want 3 cells", path, clean)
			}
			c.CType, c.ValueText = strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		case "equiv":
			c.CType = cType
		case "nextline":
			if len(cells) > 0 {
				c.ValueText = strings.TrimSpace(cells[0])
			}
			pending = len(consts)
		case "fortrancols":
			if len(cells) > 0 {
				c.ValueText = strings.TrimSpace(cells[0])
			}
		case "fortran":
		}
		if strings.HasPrefix(mode, "fortran") {
			fortranOnly[len(consts)] = true
		}
		consts = append(consts, c)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	for i, c := range consts {
		if c.Group == "" || (c.CType == "") != fortranOnly[i] {
			return nil, nil, fmt.Errorf("%s: %s: C type %q in group %q, which gives a C type: %t", path, c.Name, c.CType, c.Group, !fortranOnly[i])
		}
	}
	if len(consts) == 0 || len(types) == 0 {
		return nil, nil, fmt.Errorf("%s: no constant or no type found in A.1.1/A.1.2", path)
	}
	return consts, types, nil
}

func constantsGo(dir string) (string, error) {
	consts, types, err := parseA1(filepath.Join(dir, constantsFile))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("// Code generated by go run ./cmd/mpits constants from ../shared/reference/standard; DO NOT EDIT.\n\npackage abi\n\n")
	b.WriteString("// standardA11 are the constants of MPI-5.0 Annex A.1.1 in the order the text\n")
	b.WriteString("// gives them: name, group, the C type the group gives (\"\" for Fortran\n")
	b.WriteString("// only), the \"ABI value\" cell as written (\"\" where there is none), the\n")
	b.WriteString("// value it gives (HasValue false for \"N/A\" and the like) and the note\n")
	b.WriteString("// after the name; for a named predefined datatype, Of is its row's middle\n")
	b.WriteString("// cell (\"signed short\") and OfColumn that column's header (\"C types\",\n")
	b.WriteString("// \"Fortran types\", \"C++ types\"). A constant listed in two groups\n")
	b.WriteString("// (MPI_AINT, ...) is listed twice. cmd/mpits/constants.go says how the\n")
	b.WriteString("// text is read.\n")
	b.WriteString("var standardA11 = []a11Const{\n")
	for _, c := range consts {
		v, ok := abiValue(c.ValueText)
		fmt.Fprintf(&b, "\t{Name: %q, Group: %q, CType: %q, ValueText: %q, Value: %d, HasValue: %t, Note: %q, Of: %q, OfColumn: %q},\n",
			c.Name, c.Group, c.CType, c.ValueText, v, ok, c.Note, c.Of, c.OfColumn)
	}
	b.WriteString("}\n\n")
	b.WriteString("// standardA12 are the C type definitions of MPI-5.0 Annex A.1.2 (\"The\n")
	b.WriteString("// following are defined C type definitions included in the file mpi.h.\"),\n")
	b.WriteString("// each with the comment it is listed under.\n")
	b.WriteString("var standardA12 = []a12Type{\n")
	for _, t := range types {
		fmt.Fprintf(&b, "\t{%q, %q},\n", t.Name, t.Group)
	}
	b.WriteString("}\n")
	return b.String(), nil
}
