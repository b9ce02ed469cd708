package qmpi

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
)

// The application of the coverage check is C in fixtures/c/qmpi/cover_app.c,
// cut into parts by marker comments (the file's opening comment says what
// each holds); coverApp puts the parts together for a header.

// coverAppFile is the application's C, relative to fixtures/c.
const coverAppFile = "qmpi/cover_app.c"

// coverAppSource is cover_app.c cut at its markers; each part is its text
// without the blank lines around it.
type coverAppSource struct {
	Prelude   string // before main()
	MainStart string // main()'s opening
	Sections  []coverSection
	MainEnd   string // the rest of main()
}

// coverSection is one block of main().
type coverSection struct {
	Name string
	Code string // the block, braces included
}

var (
	markerRe      = regexp.MustCompile(`^/\* mpits-(prelude|main|main-end|section:(.*)) \*/$`)
	sectionNameRe = regexp.MustCompile(`^\w[\w .-]*$`)
)

// coverMarkers is the order of the markers; sections repeat.
var coverMarkers = []string{"prelude", "main", "section", "main-end"}

// loadCoverApp reads cover_app.c. It runs in the judge, which makes a file
// that cannot be read or parsed an Error verdict.
func loadCoverApp() (*coverAppSource, error) {
	dir, err := mpi.FixturesDir()
	if err != nil {
		return nil, fmt.Errorf("the coverage application: %v", err)
	}
	path := filepath.Join(dir, coverAppFile)
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the coverage application: %v", err)
	}
	app, err := parseCoverApp(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return app, nil
}

// parseCoverApp cuts the application's C at its markers, which must come in
// the order of coverMarkers; the text before the first is left out.
func parseCoverApp(text string) (*coverAppSource, error) {
	app := &coverAppSource{}
	kind, name, start := "", "", 0
	var body []string
	seen := map[string]bool{}
	end := func() error {
		part := trimBlankLines(body)
		if part == "" {
			return fmt.Errorf("line %d: the %s part is empty", start, kind)
		}
		switch kind {
		case "prelude":
			app.Prelude = part
		case "main":
			app.MainStart = part
		case "section":
			app.Sections = append(app.Sections, coverSection{name, part})
		case "main-end":
			app.MainEnd = part
		}
		return nil
	}
	for i, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSpace(line)
		m := markerRe.FindStringSubmatch(trimmed)
		if m == nil {
			if strings.HasPrefix(trimmed, "/* mpits-") {
				return nil, fmt.Errorf("line %d: unknown marker %s", i+1, trimmed)
			}
			body = append(body, line)
			continue
		}
		next := m[1]
		if strings.HasPrefix(next, "section:") {
			next = "section"
		}
		if !markerMayFollow(next, kind) {
			return nil, fmt.Errorf("line %d: %s out of order (want mpits-prelude, mpits-main, mpits-section: NAME..., mpits-main-end)", i+1, trimmed)
		}
		if kind != "" {
			if err := end(); err != nil {
				return nil, err
			}
		}
		name = strings.TrimSpace(m[2])
		if next == "section" {
			// The name goes into a C string and a JSON record.
			if !sectionNameRe.MatchString(name) {
				return nil, fmt.Errorf("line %d: section name %q: use letters, digits, spaces, '_', '.' and '-'", i+1, name)
			}
			if seen[name] {
				return nil, fmt.Errorf("line %d: a second section %q", i+1, name)
			}
			seen[name] = true
		}
		kind, start, body = next, i+1, nil
	}
	if kind == "" {
		return nil, fmt.Errorf("no mpits- marker comments")
	}
	if kind != "main-end" {
		return nil, fmt.Errorf("ends in the %s part, before mpits-main-end", kind)
	}
	if err := end(); err != nil {
		return nil, err
	}
	return app, nil
}

// markerMayFollow says whether marker next may come after the part kind.
func markerMayFollow(next, kind string) bool {
	if next == "section" && kind == "section" {
		return true
	}
	for i, k := range coverMarkers {
		if k == next {
			return i == 0 && kind == "" || i > 0 && coverMarkers[i-1] == kind
		}
	}
	return false
}

// trimBlankLines joins lines without the blank ones at either end.
func trimBlankLines(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	s := strings.Join(lines, "")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
