// Package events checks MPI_T events (MPI-4.1 §16.3.8) and the callback
// requirements of seed 002.
package events

import "github.com/mpits/mpits/harness"

// Suite is the MPI_T events suite.
var Suite = &harness.Suite{
	Name:   "MPI_T events",
	Checks: []harness.Check{eventInfo},
	Fixtures: []harness.Fixture{
		{Name: "events_event_info", Sources: []string{"events/event_info.c"}},
	},
	Injectors: []harness.Fixture{
		{Name: "inject_events_index_off", Sources: []string{"inject/events_index_off.c"}, Shared: true, Flags: []string{"-ldl"}},
	},
}
