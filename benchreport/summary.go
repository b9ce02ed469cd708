package benchreport

import (
	"math"
	"strconv"

	"github.com/mpits/mpits/overhead"
)

// estimate is a value with its 95 % interval (CI false: too few samples).
type estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo,omitempty"`
	Hi    float64 `json:"hi,omitempty"`
	CI    bool    `json:"ci"`
	N     int     `json:"n,omitempty"` // samples behind it (the smallest group)
}

// cost is a time with its interval and, where callgrind ran, instructions.
type cost struct {
	Ns     estimate `json:"ns"`
	Instrs *float64 `json:"instrs,omitempty"`
}

type callSummary struct {
	Call    string `json:"call"`
	PerIter int    `json:"intercepted_per_iteration"`
	// the call with no tool on the QMPI build
	NoTool cost `json:"no_tool"`
	// QMPI compiled in but unused: QMPI build minus its twin, both tools=0
	ZeroTool *cost `json:"zero_tool,omitempty"`
	// one more QMPI instance: the slope over 0..32 instances, per iteration
	// and per intercepted call
	PerTool        *cost `json:"per_tool,omitempty"`
	PerToolPerCall *cost `json:"per_tool_per_call,omitempty"`
	// one PMPI tool minus no tool
	PMPI *cost `json:"pmpi,omitempty"`
}

type implSummary struct {
	Impl    string        `json:"impl"`
	Version string        `json:"version,omitempty"`
	Twin    string        `json:"twin,omitempty"`
	Tools   []int         `json:"tools"`
	Calls   []callSummary `json:"calls"`
}

type ohSummary struct {
	CPU      string          `json:"cpu,omitempty"`
	Run      *overhead.Note  `json:"run,omitempty"`
	Floor    map[string]cost `json:"floor,omitempty"`    // loop, direct, indirect as measured
	Indirect *cost           `json:"indirect,omitempty"` // indirect minus loop: one indirect call
	Direct   *cost           `json:"direct,omitempty"`   // direct minus loop
	QMPI     []implSummary   `json:"qmpi"`
	Skipped  []overhead.Note `json:"not_measured,omitempty"`
	// where the instructions go, function by function (profile lines)
	Breakdowns []breakdown `json:"breakdowns,omitempty"`
}

func medianEstimate(xs []float64) estimate {
	lo, hi, _, ok := medianCI(xs, 0.95)
	return estimate{Value: median(xs), Lo: lo, Hi: hi, CI: ok, N: len(xs)}
}

// difference b - a of two keys.
func (d *benchData) difference(a, b overhead.Key) *cost {
	sa, sb := d.samples[a], d.samples[b]
	if len(sa) == 0 || len(sb) == 0 {
		return nil
	}
	v, lo, hi, ok := diffCI(sa, sb)
	c := &cost{Ns: estimate{Value: v, Lo: lo, Hi: hi, CI: ok, N: min(len(sa), len(sb))}}
	ia, okA := d.instr(a)
	ib, okB := d.instr(b)
	if okA && okB {
		c.Instrs = ptr(ib - ia)
	}
	return c
}

func ptr(v float64) *float64 { return &v }

func summarize(d *benchData) *ohSummary {
	s := &ohSummary{CPU: d.cpu, Floor: map[string]cost{}}
	if n, ok := d.runNote(); ok {
		s.Run = &n
	}
	for _, c := range overhead.FloorCalls {
		k := overhead.Key{Call: c.Name}
		if len(d.samples[k]) == 0 {
			continue
		}
		fc := cost{Ns: medianEstimate(d.samples[k])}
		if v, ok := d.instr(k); ok {
			fc.Instrs = ptr(v)
		}
		s.Floor[c.Name] = fc
	}
	loop := overhead.Key{Call: "loop"}
	s.Indirect = d.difference(loop, overhead.Key{Call: "indirect"})
	s.Direct = d.difference(loop, overhead.Key{Call: "direct"})

	for _, x := range d.qmpiImpls() {
		is := implSummary{Impl: x, Version: d.implNote(x).Version, Twin: d.twinOf(x), Tools: d.toolCounts(x)}
		for _, call := range overhead.Calls {
			k0 := overhead.Key{Impl: x, Call: call.Name, Tools: "0"}
			if len(d.samples[k0]) == 0 {
				continue
			}
			cs := callSummary{Call: call.Name, PerIter: call.PerIter, NoTool: cost{Ns: medianEstimate(d.samples[k0])}}
			if v, ok := d.instr(k0); ok {
				cs.NoTool.Instrs = ptr(v)
			}
			if is.Twin != "" {
				cs.ZeroTool = d.difference(overhead.Key{Impl: is.Twin, Call: call.Name, Tools: "0"}, k0)
			}
			cs.PMPI = d.difference(k0, overhead.Key{Impl: x, Call: call.Name, Tools: overhead.PMPI})
			cs.PerTool = d.perTool(x, call.Name, is.Tools)
			if cs.PerTool != nil {
				per := float64(call.PerIter)
				pc := &cost{Ns: cs.PerTool.Ns}
				pc.Ns.Value /= per
				pc.Ns.Lo /= per
				pc.Ns.Hi /= per
				if cs.PerTool.Instrs != nil {
					pc.Instrs = ptr(*cs.PerTool.Instrs / per)
				}
				cs.PerToolPerCall = pc
			}
			is.Calls = append(is.Calls, cs)
		}
		s.QMPI = append(s.QMPI, is)
	}
	s.Breakdowns = d.breakdowns()
	for _, n := range d.notes {
		if n.Kind == "unsupported" || n.Kind == "error" {
			s.Skipped = append(s.Skipped, n)
		}
	}
	return s
}

// perTool is the slope of the cost over the instance counts.
func (d *benchData) perTool(impl, call string, tools []int) *cost {
	if len(tools) < 2 {
		return nil
	}
	var xs, ixs, iys []float64
	var ys [][]float64
	minN := math.MaxInt
	for _, n := range tools {
		k := overhead.Key{Impl: impl, Call: call, Tools: strconv.Itoa(n)}
		if len(d.samples[k]) == 0 {
			continue
		}
		xs = append(xs, float64(n))
		ys = append(ys, d.samples[k])
		minN = min(minN, len(d.samples[k]))
		if v, ok := d.instr(k); ok {
			ixs, iys = append(ixs, float64(n)), append(iys, v)
		}
	}
	if len(xs) < 2 {
		return nil
	}
	v, lo, hi, ok := slopeCI(xs, ys)
	c := &cost{Ns: estimate{Value: v, Lo: lo, Hi: hi, CI: ok, N: minN}}
	if len(ixs) == len(xs) {
		c.Instrs = ptr(leastSquares(ixs, iys))
	}
	return c
}
