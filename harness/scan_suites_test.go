package harness

// Scans of the suites' source (../suites) for two mistakes the compiler
// lets through. They read the code with go/parser alone, so they see what
// is written, not what runs: the patterns below are those that occur.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// suiteSource is one suite package's parsed files, test files left out.
type suiteSource struct {
	dir   string
	fset  *token.FileSet
	files []*ast.File
}

func parseSuiteSources(t *testing.T) []suiteSource {
	t.Helper()
	dirs, err := os.ReadDir("../suites")
	if err != nil {
		t.Fatal(err)
	}
	var out []suiteSource
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join("../suites", d.Name())
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		s := suiteSource{dir: dir, fset: token.NewFileSet()}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(s.fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			s.files = append(s.files, f)
		}
		if len(s.files) > 0 {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatal("no suite packages under ../suites")
	}
	return out
}

// where is a position as file:line from the module's root.
func (s suiteSource) where(p token.Pos) string {
	pos := s.fset.Position(p)
	return fmt.Sprintf("%s:%d", strings.TrimPrefix(filepath.ToSlash(pos.Filename), "../"), pos.Line)
}

// xParams are the names of a function's parameters (and receiver) of type
// *rulebook.X: the judge's context.
func xParams(recv *ast.FieldList, ft *ast.FuncType) []string {
	var names []string
	for _, fl := range []*ast.FieldList{recv, ft.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			star, ok := f.Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			sel, ok := star.X.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "X" {
				continue
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "rulebook" {
				continue
			}
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
	}
	return names
}

// A judge's failure is a verdict (x.Errorf, x.Failf, x.Unsupported), never
// a panic of its own: where a *rulebook.X is in scope, a panic must say in
// a "panic-ok:" comment on its line why it stays (re-raising a stop
// recovered elsewhere).
func TestScanSuitesPanics(t *testing.T) {
	var found []string
	calls := 0
	for _, s := range parseSuiteSources(t) {
		for _, f := range s.files {
			ok := map[int]bool{} // lines with a panic-ok: comment
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if strings.Contains(c.Text, "panic-ok:") {
						ok[s.fset.Position(c.Pos()).Line] = true
					}
				}
			}
			var visit func(n ast.Node, inScope bool)
			visit = func(n ast.Node, inScope bool) {
				ast.Inspect(n, func(m ast.Node) bool {
					switch m := m.(type) {
					case *ast.FuncLit:
						if m != n {
							visit(m.Body, inScope || len(xParams(nil, m.Type)) > 0)
							return false
						}
					case *ast.CallExpr:
						if id, isIdent := m.Fun.(*ast.Ident); isIdent && id.Name == "panic" {
							calls++
							if inScope && !ok[s.fset.Position(m.Pos()).Line] {
								found = append(found, s.where(m.Pos()))
							}
						}
					}
					return true
				})
			}
			for _, d := range f.Decls {
				if fd, isFunc := d.(*ast.FuncDecl); isFunc && fd.Body != nil {
					visit(fd.Body, len(xParams(fd.Recv, fd.Type)) > 0)
				}
			}
		}
	}
	t.Logf("%d panic calls in the suites, %d of them where a *rulebook.X is in scope without a panic-ok: comment", calls, len(found))
	for _, w := range found {
		t.Errorf("%s: panic where a *rulebook.X is in scope: end the rule with x.Errorf (the suite or a fixture broke) or another verdict", w)
	}
}

// scanRule is a rule as its check's literal declares it.
type scanRule struct {
	id, needs string
	judge     ast.Node // the function its judge names, or the literal
}

// scanRules finds the rules of rulebook.Check literals: their ids, their
// need (their own, else their check's) and the function their Judge names
// (judgeX, judgeFor(args), or a function literal).
func scanRules(s suiteSource, funcs map[string][]*ast.FuncDecl) []scanRule {
	var out []scanRule
	str := func(e ast.Expr) string {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			v, _ := strconv.Unquote(b.Value)
			return v
		}
		return ""
	}
	for _, f := range s.files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sel, ok := lit.Type.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Check" {
				return true
			}
			checkNeeds := ""
			var rules *ast.CompositeLit
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				switch kv.Key.(*ast.Ident).Name {
				case "Needs":
					checkNeeds = str(kv.Value)
				case "Rules":
					rules, _ = kv.Value.(*ast.CompositeLit)
				}
			}
			if rules == nil {
				return true
			}
			for _, e := range rules.Elts {
				rl, ok := e.(*ast.CompositeLit)
				if !ok {
					continue
				}
				r := scanRule{needs: checkNeeds}
				for _, re := range rl.Elts {
					kv, ok := re.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					switch kv.Key.(*ast.Ident).Name {
					case "ID":
						r.id = str(kv.Value)
					case "Needs":
						r.needs = str(kv.Value)
					case "Judge":
						switch j := kv.Value.(type) {
						case *ast.FuncLit:
							r.judge = j
						case *ast.Ident:
							if d := funcs[j.Name]; len(d) > 0 {
								r.judge = d[0]
							}
						case *ast.CallExpr:
							if id, ok := j.Fun.(*ast.Ident); ok && len(funcs[id.Name]) > 0 {
								r.judge = funcs[id.Name][0]
							}
						}
					}
				}
				if r.judge != nil && r.needs != "" {
					out = append(out, r)
				}
			}
			return false
		})
	}
	return out
}

// capTests are the places a function tests a capability the way
// Caps.Lacks does (which is what a rule's Needs stops it on):
// x.Caps.AfterInit.Cvars < 0 (mpit), x.Caps.AfterInit.Events < 0 (events),
// directly or through a variable set from it, x.Caps.QMPI.Works (qmpi),
// x.Caps.HasABI() (abi) and x.Caps.Lacks("need"), x being a *rulebook.X.
func capTests(fd *ast.FuncDecl) map[token.Pos]string {
	out := map[token.Pos]string{}
	xs := map[string]bool{}
	for _, n := range xParams(fd.Recv, fd.Type) {
		xs[n] = true
	}
	// chain is e as a selector chain rooted in a *rulebook.X ("Caps.QMPI.Works").
	chain := func(e ast.Expr) string {
		var parts []string
		for {
			switch v := e.(type) {
			case *ast.SelectorExpr:
				parts = append([]string{v.Sel.Name}, parts...)
				e = v.X
				continue
			case *ast.Ident:
				if xs[v.Name] {
					return strings.Join(parts, ".")
				}
			}
			return ""
		}
	}
	counts := map[string]string{"Caps.AfterInit.Cvars": "mpit", "Caps.AfterInit.Events": "events"}
	vars := map[string]string{} // variables set from a count: n := x.Caps.AfterInit.Events
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			for _, name := range xParams(nil, n.Type) {
				xs[name] = true
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && counts[chain(n.Rhs[0])] != "" {
					vars[id.Name] = counts[chain(n.Rhs[0])]
				}
			}
		case *ast.BinaryExpr:
			if lit, ok := n.Y.(*ast.BasicLit); n.Op == token.LSS && ok && lit.Value == "0" {
				if need := counts[chain(n.X)]; need != "" {
					out[n.Pos()] = need
				} else if id, ok := n.X.(*ast.Ident); ok && vars[id.Name] != "" {
					out[n.Pos()] = vars[id.Name]
				}
			}
		case *ast.SelectorExpr:
			if chain(n) == "Caps.QMPI.Works" {
				out[n.Pos()] = "qmpi"
			}
		case *ast.CallExpr:
			switch chain(n.Fun) {
			case "Caps.HasABI":
				out[n.Pos()] = "abi"
			case "Caps.Lacks":
				if len(n.Args) == 1 {
					if b, ok := n.Args[0].(*ast.BasicLit); ok {
						need, _ := strconv.Unquote(b.Value)
						out[n.Pos()] = need
					}
				}
			}
		}
		return true
	})
	return out
}

// A rule whose Needs names a capability is never judged without it
// (Evaluate), so its judge testing that capability again is dead code. A
// test of a capability in a function is flagged when every rule that
// reaches the function (its judge calls it, directly or through other
// functions of the package) needs that capability; a function some rule
// without the need also reaches keeps its test. Calls are followed by
// name: a function's name anywhere in a body, a method's as a call's
// selector.
func TestScanSuitesNeedsRepeated(t *testing.T) {
	var found []string
	rulesSeen, tests := 0, 0
	for _, s := range parseSuiteSources(t) {
		funcs := map[string][]*ast.FuncDecl{}   // package functions by name
		methods := map[string][]*ast.FuncDecl{} // methods by name
		for _, f := range s.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fd.Recv != nil {
						methods[fd.Name.Name] = append(methods[fd.Name.Name], fd)
					} else {
						funcs[fd.Name.Name] = append(funcs[fd.Name.Name], fd)
					}
				}
			}
		}
		callees := func(n ast.Node) []*ast.FuncDecl {
			var out []*ast.FuncDecl
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.Ident:
					out = append(out, funcs[m.Name]...)
				case *ast.CallExpr:
					if sel, ok := m.Fun.(*ast.SelectorExpr); ok {
						out = append(out, methods[sel.Sel.Name]...)
					}
				}
				return true
			})
			return out
		}
		reach := map[*ast.FuncDecl]map[string][]string{} // function → need → rules reaching it
		rules := scanRules(s, funcs)
		rulesSeen += len(rules)
		for _, r := range rules {
			seen := map[*ast.FuncDecl]bool{}
			var walk func(n ast.Node)
			walk = func(n ast.Node) {
				if fd, ok := n.(*ast.FuncDecl); ok {
					if seen[fd] {
						return
					}
					seen[fd] = true
					if reach[fd] == nil {
						reach[fd] = map[string][]string{}
					}
					reach[fd][r.needs] = append(reach[fd][r.needs], r.id)
				}
				for _, c := range callees(n) {
					walk(c)
				}
			}
			walk(r.judge)
		}
		for fd, needs := range reach {
			for pos, need := range capTests(fd) {
				tests++
				if ids, ok := needs[need]; ok && len(needs) == 1 {
					some := strings.Join(ids[:min(len(ids), 4)], " ")
					if len(ids) > 4 {
						some += " …"
					}
					found = append(found, fmt.Sprintf("%s: %s tests the capability %q, which every rule reaching it declares in Needs (%d rules: %s), so the test never holds",
						s.where(pos), fd.Name.Name, need, len(ids), some))
				}
			}
		}
	}
	if rulesSeen == 0 {
		t.Fatal("no rules found in the suites' rulebook.Check literals")
	}
	sort.Strings(found)
	t.Logf("%d rules of rulebook.Check literals followed, %d capability tests in the functions they reach", rulesSeen, tests)
	for _, f := range found {
		t.Error(f)
	}
}
