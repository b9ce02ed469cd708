package benchreport

import (
	"html"
	"regexp"
	"strconv"
	"testing"
)

// TestPlotFitsCanvas draws the committed benchmark run and wants every text
// that starts at its x (the legend's, the titles') to end inside the canvas:
// the legend once ran 200 px past the right edge.
func TestPlotFitsCanvas(t *testing.T) {
	d, err := readBench([]string{"../reports/overhead/bench.txt"})
	if err != nil {
		t.Fatal(err)
	}
	svg := plotSVG(d, summarize(d))
	m := regexp.MustCompile(`<svg [^>]*width="(\d+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("overhead.svg has no width")
	}
	width, _ := strconv.Atoi(m[1])
	texts := regexp.MustCompile(`<text x="([\d.]+)" y="[\d.]+"((?: font-[a-z]+="[^"]*")*)>([^<]*)</text>`).FindAllStringSubmatch(svg, -1)
	if len(texts) < 5 {
		t.Fatalf("only %d left-anchored texts in the plot: the pattern no longer matches it", len(texts))
	}
	for _, tx := range texts {
		x, _ := strconv.ParseFloat(tx[1], 64)
		w := textWidth(html.UnescapeString(tx[3]))
		if tx[2] != "" { // bold or larger: wider per character
			w = w * 3 / 2
		}
		if end := int(x) + w; end > width {
			t.Errorf("%q ends at about x = %d, past the canvas's width %d", tx[3], end, width)
		}
	}
}
