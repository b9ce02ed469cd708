package benchreport

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/mpits/mpits/overhead"
)

// plotSVG draws ns/call and instrs/call against the number of QMPI
// instances, one panel per call kind: the median of each configuration with
// its 95 % interval (the sample range when there are too few samples for
// one), the twin build without QMPI as a square at 0 tools, and the PMPI
// tool as a dashed line. Hand-written SVG: no plotting dependency.
func plotSVG(d *benchData, s *ohSummary) string {
	const (
		cols   = 4
		pw, ph = 280, 200 // panel
		ml, mr = 58, 12   // margins inside a panel
		mt, mb = 26, 34
		head   = 70
		secGap = 34
	)
	type panel struct {
		call  overhead.Call
		instr bool
	}
	var ns, in []panel
	for _, c := range overhead.Calls {
		if hasCall(d, c.Name, false) {
			ns = append(ns, panel{c, false})
		}
		if hasCall(d, c.Name, true) {
			in = append(in, panel{c, true})
		}
	}
	rows := func(n int) int { return (n + cols - 1) / cols }
	width := cols*pw + 20
	legend, legendH := plotLegend(d, s, 10, 56, width-10)
	top := head + legendH
	height := top + secGap + rows(len(ns))*ph + 16
	if len(in) > 0 {
		height += secGap + rows(len(in))*ph
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="15" font-weight="bold">Cost per call against the number of pass-through QMPI tools</text>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="38">%s</text>`+"\n", html.EscapeString(plotCaption(d, s)))
	b.WriteString(legend)

	y0 := top + secGap
	section := func(title string, panels []panel, top int) {
		fmt.Fprintf(&b, `<text x="10" y="%d" font-size="13" font-weight="bold">%s</text>`+"\n", top-12, html.EscapeString(title))
		for i, p := range panels {
			px, py := 10+(i%cols)*pw, top+(i/cols)*ph
			drawPanel(&b, d, s.Indirect, p.call, p.instr, px, py, pw, ph, ml, mr, mt, mb)
		}
	}
	section("ns/call (time per iteration; lower is better)", ns, y0)
	if len(in) > 0 {
		y1 := y0 + rows(len(ns))*ph + secGap
		section("instrs/call (instructions per iteration, callgrind; exact)", in, y1)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// legendLine is the height of one line of the legend.
const legendLine = 16

// textWidth estimates the width of text at font-size 11 sans-serif: 6.2 px a
// character is above the average of DejaVu Sans and Helvetica, so an item
// placed by it does not run past the canvas.
func textWidth(text string) int {
	return int(math.Ceil(6.2 * float64(len([]rune(text)))))
}

// plotLegend lays out the legend's items from (x0, y) and starts a new line
// where the next item would pass right, so that every item stays inside the
// canvas; it returns the SVG and the height the lines beyond the first take.
func plotLegend(d *benchData, s *ohSummary, x0, y, right int) (string, int) {
	type item struct {
		marker func(x, y int) string // draws the marker, y the text's baseline
		mw     int                   // the marker's width with its gap
		text   string
	}
	var items []item
	for i, impl := range d.qmpiImpls() {
		col := seriesColor(i)
		items = append(items, item{func(x, y int) string {
			return fmt.Sprintf(`<circle cx="%d" cy="%d" r="4" fill="%s"/>`, x+4, y-4, col)
		}, 12, impl + " with QMPI instances (median, 95 % CI)"})
		if tw := d.twinOf(impl); tw != "" {
			items = append(items, item{func(x, y int) string {
				return fmt.Sprintf(`<rect x="%d" y="%d" width="8" height="8" fill="none" stroke="black" stroke-width="1.5"/>`, x, y-8)
			}, 12, tw + " (QMPI compiled out), no tool"})
		}
	}
	items = append(items, item{func(x, y int) string {
		return fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ff7f0e" stroke-width="1.5" stroke-dasharray="5,3"/>`, x, y-4, x+22, y-4)
	}, 28, "one PMPI tool"})
	if s.Indirect != nil {
		items = append(items, item{func(x, y int) string {
			return fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#777" stroke-width="1.5" stroke-dasharray="1,3"/>`, x, y-4, x+22, y-4)
		}, 28, "the floor: each tool one indirect call per intercepted call"})
	}
	const gap = 24
	var b strings.Builder
	x, y1 := x0, y
	for _, it := range items {
		w := it.mw + textWidth(it.text)
		if x > x0 && x+w > right {
			x, y1 = x0, y1+legendLine
		}
		fmt.Fprintf(&b, "%s<text x=\"%d\" y=\"%d\">%s</text>\n", it.marker(x, y1), x+it.mw, y1, html.EscapeString(it.text))
		x += w + gap
	}
	return b.String(), y1 - y
}

func plotCaption(d *benchData, s *ohSummary) string {
	parts := []string{}
	if s.Run != nil {
		parts = append(parts, fmt.Sprintf("%d sample(s) per point, each of at least %g s", s.Run.Rounds, s.Run.SampleSeconds))
	}
	if s.Indirect != nil {
		t := fmt.Sprintf("one indirect call: %s ns", fmtNum(s.Indirect.Ns.Value))
		if s.Indirect.Instrs != nil {
			t += fmt.Sprintf(", %s instructions", fmtNum(*s.Indirect.Instrs))
		}
		parts = append(parts, t+" (same run)")
	}
	if d.cpu != "" {
		parts = append(parts, d.cpu)
	}
	return strings.Join(parts, "; ")
}

func hasCall(d *benchData, call string, instr bool) bool {
	for _, impl := range d.qmpiImpls() {
		for _, n := range d.toolCounts(impl) {
			k := overhead.Key{Impl: impl, Call: call, Tools: strconv.Itoa(n)}
			if instr {
				if _, ok := d.instr(k); ok {
					return true
				}
			} else if len(d.samples[k]) > 0 {
				return true
			}
		}
	}
	return false
}

func seriesColor(i int) string {
	palette := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	return palette[i%len(palette)]
}

// point is one configuration in a panel: median and interval.
type point struct{ x, y, lo, hi float64 }

func pointOf(d *benchData, k overhead.Key, instr bool) (point, bool) {
	if instr {
		v, ok := d.instr(k)
		return point{y: v, lo: v, hi: v}, ok
	}
	xs := d.samples[k]
	if len(xs) == 0 {
		return point{}, false
	}
	lo, hi, _, ok := medianCI(xs, 0.95)
	if !ok { // too few samples for an interval: show their range
		lo, hi = minMax(xs)
	}
	return point{y: median(xs), lo: lo, hi: hi}, true
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

func drawPanel(b *strings.Builder, d *benchData, ind *cost, call overhead.Call, instr bool, px, py, pw, ph, ml, mr, mt, mb int) {
	type series struct {
		pts  []point
		col  string
		twin *point
		pmpi *point
	}
	var all []series
	xmax, ymax := 1.0, 0.0
	for i, impl := range d.qmpiImpls() {
		s := series{col: seriesColor(i)}
		for _, n := range d.toolCounts(impl) {
			if p, ok := pointOf(d, overhead.Key{Impl: impl, Call: call.Name, Tools: strconv.Itoa(n)}, instr); ok {
				p.x = float64(n)
				s.pts = append(s.pts, p)
				xmax, ymax = math.Max(xmax, p.x), math.Max(ymax, p.hi)
			}
		}
		if tw := d.twinOf(impl); tw != "" {
			if p, ok := pointOf(d, overhead.Key{Impl: tw, Call: call.Name, Tools: "0"}, instr); ok {
				s.twin = &p
				ymax = math.Max(ymax, p.hi)
			}
		}
		if p, ok := pointOf(d, overhead.Key{Impl: impl, Call: call.Name, Tools: overhead.PMPI}, instr); ok {
			s.pmpi = &p
			ymax = math.Max(ymax, p.y)
		}
		all = append(all, s)
	}
	step := niceStep(ymax / 4)
	if step <= 0 {
		step = 1
	}
	ytop := math.Ceil(ymax*1.05/step) * step
	if ytop <= 0 {
		ytop = step
	}
	x0, y0 := float64(px+ml), float64(py+ph-mb)
	w, h := float64(pw-ml-mr), float64(ph-mt-mb)
	sx := func(v float64) float64 { return x0 + v/xmax*w }
	sy := func(v float64) float64 { return y0 - v/ytop*h }
	fmt.Fprintf(b, `<g><text x="%.1f" y="%d" font-weight="bold">%s</text>`+"\n", x0, py+mt-8, html.EscapeString(call.Name))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n", x0, y0-h, w, h)
	for v := 0.0; v <= ytop+step/2; v += step {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			x0, sy(v), x0+w, sy(v), x0-4, sy(v)+4, fmtNum(v))
	}
	for _, t := range []float64{0, 4, 8, 16, 24, 32} {
		if t > xmax {
			continue
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/><text x="%.1f" y="%.1f" text-anchor="middle">%g</text>`+"\n",
			sx(t), y0, sx(t), y0+4, sx(t), y0+15, t)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">QMPI tools</text>`+"\n", x0+w/2, y0+28)
	// The floor: from the 0-tool median, what a tool costing one indirect
	// call per intercepted call would add (clipped to the panel).
	if ind != nil && len(all) > 0 && len(all[0].pts) > 0 && all[0].pts[0].x == 0 {
		per := ind.Ns.Value
		if instr {
			per = math.NaN()
			if ind.Instrs != nil {
				per = *ind.Instrs
			}
		}
		if per > 0 {
			base, slope := all[0].pts[0].y, per*float64(call.PerIter)
			xEnd := xmax
			if base+slope*xEnd > ytop {
				xEnd = (ytop - base) / slope
			}
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#777" stroke-width="1.5" stroke-dasharray="1,3"/>`+"\n", sx(0), sy(base), sx(xEnd), sy(base+slope*xEnd))
		}
	}
	for _, s := range all {
		if s.pmpi != nil {
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ff7f0e" stroke-width="1.5" stroke-dasharray="5,3"/>`+"\n", x0, sy(s.pmpi.y), x0+w, sy(s.pmpi.y))
		}
		var path []string
		for _, p := range s.pts {
			path = append(path, fmt.Sprintf("%.1f,%.1f", sx(p.x), sy(p.y)))
		}
		if len(path) > 1 {
			fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", strings.Join(path, " "), s.col)
		}
		for _, p := range s.pts {
			if p.hi > p.lo {
				fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", sx(p.x), sy(p.lo), sx(p.x), sy(p.hi), s.col)
			}
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%g tools: %s (%s to %s)</title></circle>`+"\n",
				sx(p.x), sy(p.y), s.col, p.x, fmtNum(p.y), fmtNum(p.lo), fmtNum(p.hi))
		}
		if t := s.twin; t != nil {
			if t.hi > t.lo {
				fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", sx(0)+7, sy(t.lo), sx(0)+7, sy(t.hi))
			}
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="8" height="8" fill="none" stroke="black" stroke-width="1.5"><title>QMPI compiled out: %s</title></rect>`+"\n", sx(0)+3, sy(t.y)-4, fmtNum(t.y))
		}
	}
	b.WriteString("</g>\n")
}

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// fmtNum prints a number with three significant digits at most.
func fmtNum(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "n/a"
	case v == math.Trunc(v) && a < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a == 0:
		return "0"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
