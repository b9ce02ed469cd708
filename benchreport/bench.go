// Package benchreport turns the overhead benchmarks' output (Go benchmark
// format) into the overhead report: benchstat tables, a plot, and the
// per-tool and zero-tool costs with their intervals.
package benchreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchstat"

	"github.com/mpits/mpits/overhead"
)

// Write reads the output of go test -bench ./overhead (one or more
// files) and writes into out the overhead report: overhead.md (the per-tool
// and zero-tool costs against the floor), tables.txt (benchstat),
// overhead.svg and summary.json. It returns a one-line account.
func Write(out string, inputs []string) (string, error) {
	d, err := readBench(inputs)
	if err != nil {
		return "", err
	}
	if len(d.samples) == 0 {
		return "", fmt.Errorf("overhead: no BenchmarkOverhead or BenchmarkFloor result in %s", strings.Join(inputs, ", "))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	sum := summarize(d)
	tables := benchTables(d)
	files := map[string][]byte{
		"tables.txt":   []byte(tablesText(tables)),
		"overhead.svg": []byte(plotSVG(d, sum)),
		"overhead.md":  []byte(reportMarkdown(d, sum, tables, inputs)),
	}
	js, _ := json.MarshalIndent(sum, "", "  ")
	files["summary.json"] = append(js, '\n')
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("overhead: %d results of %d benchmarks from %s -> %s/{overhead.md,tables.txt,overhead.svg,summary.json}",
		d.results, len(d.samples), strings.Join(inputs, ", "), out), nil
}

// benchData is what the benchmark output holds.
type benchData struct {
	samples  map[overhead.Key][]float64        // ns/call
	instrs   map[overhead.Key][]float64        // instrs/call (the same value on every line of a key)
	profiles map[overhead.Key]overhead.Profile // instrs/call function by function (profile lines)
	notes    []overhead.Note
	cpu      string
	impls    []string // in order of appearance
	results  int
}

func readBench(files []string) (*benchData, error) {
	d := &benchData{samples: map[overhead.Key][]float64{}, instrs: map[overhead.Key][]float64{}, profiles: map[overhead.Key]overhead.Profile{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := d.add(f, data); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *benchData) add(file string, data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, overhead.NoteTag):
			var n overhead.Note
			if err := json.Unmarshal([]byte(strings.TrimPrefix(text, overhead.NoteTag)), &n); err != nil {
				return fmt.Errorf("%s:%d: %v", file, line, err)
			}
			d.notes = append(d.notes, n)
		case strings.HasPrefix(text, overhead.ProfileTag):
			var p overhead.Profile
			if err := json.Unmarshal([]byte(strings.TrimPrefix(text, overhead.ProfileTag)), &p); err != nil {
				return fmt.Errorf("%s:%d: %v", file, line, err)
			}
			d.profiles[overhead.Key{Impl: p.Impl, Call: p.Call, Tools: p.Tools}] = p
		case strings.HasPrefix(text, "cpu: "):
			d.cpu = strings.TrimPrefix(text, "cpu: ")
		case strings.HasPrefix(text, overhead.OverheadBench+"/"), strings.HasPrefix(text, overhead.FloorBench+"/"):
			f := strings.Fields(text)
			k, err := overhead.ParseName(f[0])
			if err != nil || len(f) < 4 {
				continue // a line of another shape (e.g. --- FAIL)
			}
			d.results++
			if k.Impl != "" && !slices.Contains(d.impls, k.Impl) {
				d.impls = append(d.impls, k.Impl)
			}
			for i := 2; i+1 < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return fmt.Errorf("%s:%d: %q is not a number", file, line, f[i])
				}
				switch f[i+1] {
				case overhead.UnitNs:
					d.samples[k] = append(d.samples[k], v)
				case overhead.UnitInstrs:
					d.instrs[k] = append(d.instrs[k], v)
				}
			}
		}
	}
	return sc.Err()
}

// instr is the instruction count of k (ok false if there is none).
func (d *benchData) instr(k overhead.Key) (float64, bool) {
	v := d.instrs[k]
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

// implNote is the "impl" note of an implementation, if the output has one.
func (d *benchData) implNote(id string) overhead.Note {
	for _, n := range d.notes {
		if n.Kind == "impl" && n.Impl == id {
			return n
		}
	}
	return overhead.Note{Impl: id}
}

func (d *benchData) runNote() (overhead.Note, bool) {
	for _, n := range d.notes {
		if n.Kind == "run" {
			return n, true
		}
	}
	return overhead.Note{}, false
}

// toolCounts are the numbers of QMPI instances measured on impl, ascending.
func (d *benchData) toolCounts(impl string) []int {
	seen := map[int]bool{}
	for k := range d.samples {
		if n, ok := k.ToolsNumber(); ok && k.Impl == impl {
			seen[n] = true
		}
	}
	var out []int
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// qmpiImpls are the implementations measured with QMPI instances.
func (d *benchData) qmpiImpls() []string {
	var out []string
	for _, id := range d.impls {
		if ns := d.toolCounts(id); len(ns) > 0 && ns[len(ns)-1] > 0 {
			out = append(out, id)
		}
	}
	return out
}

// twinOf is the measured twin build of impl ("" if none).
func (d *benchData) twinOf(impl string) string {
	for _, id := range d.impls {
		if d.implNote(id).TwinOf == impl {
			return id
		}
	}
	return ""
}

// benchTable is one benchstat comparison.
type benchTable struct {
	Title, About string
	Text         string
}

// benchTables are the comparisons of the report, made by benchstat: each
// configuration is one benchstat "config" (a column), each call kind a row.
func benchTables(d *benchData) []benchTable {
	var out []benchTable
	add := func(title, about string, configs []string, keys func(config string, call overhead.Call) overhead.Key) {
		c := &benchstat.Collection{Alpha: 0.05}
		any := false
		for _, cfg := range configs {
			var b strings.Builder
			for _, call := range overhead.Calls {
				k := keys(cfg, call)
				in, haveIn := d.instr(k)
				for _, v := range d.samples[k] {
					any = true
					fmt.Fprintf(&b, "Benchmark%s 1 %g %s", call.Name, v, overhead.UnitNs)
					if haveIn {
						fmt.Fprintf(&b, " %g %s", in, overhead.UnitInstrs)
					}
					b.WriteByte('\n')
				}
			}
			c.AddConfig(cfg, []byte(b.String()))
		}
		if !any {
			return
		}
		var text bytes.Buffer
		benchstat.FormatText(&text, c.Tables())
		out = append(out, benchTable{Title: title, About: about, Text: text.String()})
	}
	for _, x := range d.qmpiImpls() {
		if y := d.twinOf(x); y != "" {
			add(fmt.Sprintf("QMPI compiled out (%s) vs in (%s), no tool", y, x),
				"The same MPICH source and configure flags but --enable-qmpi: the cost of QMPI compiled in but unused.",
				[]string{y, x}, func(cfg string, call overhead.Call) overhead.Key {
					return overhead.Key{Impl: cfg, Call: call.Name, Tools: "0"}
				})
		}
	}
	for _, x := range d.qmpiImpls() {
		var cfgs []string
		for _, n := range d.toolCounts(x) {
			cfgs = append(cfgs, "tools="+strconv.Itoa(n))
		}
		add(fmt.Sprintf("QMPI instances on %s", x),
			"0 to 32 instances of the pass-through QMPI tool (MPIR_CVAR_QMPI_TOOL_LIST=p:p:...); benchstat's ± is the range of the samples without outliers.",
			cfgs, func(cfg string, call overhead.Call) overhead.Key {
				return overhead.Key{Impl: x, Call: call.Name, Tools: strings.TrimPrefix(cfg, "tools=")}
			})
		if y := d.twinOf(x); y != "" {
			add(fmt.Sprintf("QMPI instances on %s (QMPI in) against %s (QMPI out)", x, y),
				"The cost of one QMPI instance over a build without QMPI.",
				[]string{y + " tools=0", x + " tools=1"}, func(cfg string, call overhead.Call) overhead.Key {
					impl, tools, _ := strings.Cut(cfg, " tools=")
					return overhead.Key{Impl: impl, Call: call.Name, Tools: tools}
				})
		}
	}
	for _, x := range d.impls {
		if len(d.samples[overhead.Key{Impl: x, Call: overhead.Calls[0].Name, Tools: overhead.PMPI}]) == 0 {
			continue
		}
		if len(d.toolCounts(x)) > 1 {
			add(fmt.Sprintf("QMPI vs PMPI on %s: one pass-through PMPI tool against one pass-through QMPI instance", x),
				"The old way (one LD_PRELOADed PMPI wrapper) against one QMPI instance, on the same library.",
				[]string{"pmpi", "qmpi-1"}, func(cfg string, call overhead.Call) overhead.Key {
					t := overhead.PMPI
					if cfg == "qmpi-1" {
						t = "1"
					}
					return overhead.Key{Impl: x, Call: call.Name, Tools: t}
				})
		}
		add(fmt.Sprintf("PMPI on %s: no tool against one pass-through PMPI tool", x),
			"What the old way costs on this library.",
			[]string{"no-tool", "pmpi"}, func(cfg string, call overhead.Call) overhead.Key {
				t := "0"
				if cfg == "pmpi" {
					t = overhead.PMPI
				}
				return overhead.Key{Impl: x, Call: call.Name, Tools: t}
			})
	}
	add("Implementations side by side, no tool",
		"Every implementation measured, with no tool: what the libraries themselves cost per call.",
		d.impls, func(cfg string, call overhead.Call) overhead.Key {
			return overhead.Key{Impl: cfg, Call: call.Name, Tools: "0"}
		})
	// The floor, as a table of its own (one configuration).
	c := &benchstat.Collection{Alpha: 0.05}
	var b strings.Builder
	for _, call := range overhead.FloorCalls {
		k := overhead.Key{Call: call.Name}
		in, haveIn := d.instr(k)
		for _, v := range d.samples[k] {
			fmt.Fprintf(&b, "Benchmark%s 1 %g %s", call.Name, v, overhead.UnitNs)
			if haveIn {
				fmt.Fprintf(&b, " %g %s", in, overhead.UnitInstrs)
			}
			b.WriteByte('\n')
		}
	}
	if b.Len() > 0 {
		c.AddConfig("floor", []byte(b.String()))
		var text bytes.Buffer
		benchstat.FormatText(&text, c.Tables())
		out = append(out, benchTable{Title: "The floor: an empty loop iteration, a direct and an indirect call",
			About: "No MPI: fixtures/c/bench/floor.c, pinned to the same core in the same run.", Text: text.String()})
	}
	return out
}

func tablesText(tables []benchTable) string {
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s\n# %s\n\n%s", t.Title, t.About, t.Text)
	}
	return b.String()
}
