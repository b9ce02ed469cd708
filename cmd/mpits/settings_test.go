package main

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/settings"
)

// The table names every setting but the internal ones, which it lists
// apart, and replaces only what is between the markers.
func TestSettingsTable(t *testing.T) {
	table := settingsTable(settings.Settings())
	for _, d := range settings.Settings() {
		row := "| `" + d.Name + "` |"
		if d.Group == settings.GroupInternal {
			if strings.Contains(table, row) || !strings.Contains(table, "`"+d.Name+"` (") {
				t.Errorf("%s is internal: it belongs in the closing line, not in a table", d.Name)
			}
			continue
		}
		if strings.Count(table, row) != 1 {
			t.Errorf("%s has %d rows", d.Name, strings.Count(table, row))
		}
	}
	text := "# x\n\n" + settingsBegin + "\nold table\n" + settingsEnd + "\n\nafter\n"
	got, err := withSettings(text, "new table\n")
	if want := "# x\n\n" + settingsBegin + "\nnew table\n" + settingsEnd + "\n\nafter\n"; err != nil || got != want {
		t.Errorf("withSettings = %q, %v; want %q", got, err, want)
	}
	if _, err := withSettings("# no markers\n", "t"); err == nil {
		t.Error("a file without the markers gave no error")
	}
}
