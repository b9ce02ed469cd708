package readme

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

var (
	linkRe    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRe = regexp.MustCompile("(?m)^#{1,6} +(.+?) *$")
	fenceRe   = regexp.MustCompile("(?ms)^```.*?^```")
	codeRe    = regexp.MustCompile("`[^`\n]*`")
)

// anchor is GitHub's id for a heading: lower case, without punctuation
// but - and _, spaces as -.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.ReplaceAll(heading, "`", "")) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the ids of a Markdown file's headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range headingRe.FindAllStringSubmatch(fenceRe.ReplaceAllString(text, ""), -1) {
		out[anchor(m[1])] = true
	}
	return out
}

// TestLinksResolve: every relative link of the README and of docs/ names a
// file of the tree, and its #anchor a heading of that file, so that moving a
// section cannot leave a link pointing at nothing.
func TestLinksResolve(t *testing.T) {
	checked := 0
	for _, p := range pages(t) {
		data, err := os.ReadFile("../" + p)
		if err != nil {
			t.Fatal(err)
		}
		text := codeRe.ReplaceAllString(fenceRe.ReplaceAllString(string(data), ""), "")
		links := linkRe.FindAllStringSubmatch(text, -1)
		for _, m := range links {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, frag, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = path.Join(path.Dir(p), file)
			}
			destText, err := os.ReadFile("../" + dest)
			if err != nil {
				t.Errorf("%s: link %s: no file %s", p, target, dest)
				continue
			}
			if frag != "" && (!strings.HasSuffix(dest, ".md") || !anchors(string(destText))[frag]) {
				t.Errorf("%s: link %s: %s has no heading #%s", p, target, dest, frag)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links found in the README and docs/: the pattern no longer matches them?", checked)
	}
}

func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"The project's own CI":                      "the-projects-own-ci",
		"Accepting known failures, in detail":       "accepting-known-failures-in-detail",
		"The `go test` door":                        "the-go-test-door",
		"Ctrl-C":                                    "ctrl-c",
		"mpich-tools against its twin mpich-noqmpi": "mpich-tools-against-its-twin-mpich-noqmpi",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
}
