// Package mpit checks the variables part of the MPI tool information
// interface (MPI-4.1 §16.3: control and performance variables, sessions).
package mpit

import "github.com/mpits/mpits/harness"

// Suite is the MPI_T suite.
var Suite = &harness.Suite{
	Name:   "MPI_T",
	Checks: []harness.Check{cvarIndex},
	Fixtures: []harness.Fixture{
		{Name: "mpit_cvar_index", Sources: []string{"mpit/cvar_index.c"}},
	},
	Injectors: []harness.Fixture{
		{Name: "inject_mpit_cvar_index_off", Sources: []string{"inject/mpit_cvar_index_off.c"}, Shared: true, Flags: []string{"-ldl"}},
	},
}
