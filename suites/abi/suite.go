// Package abi checks the MPI 5.0 standard ABI (libmpi_abi) across
// implementations, and the pre-standard ABIs (seed 003).
package abi

import "github.com/mpits/mpits/harness"

// Suite is the ABI suite.
var Suite = &harness.Suite{
	Name:   "ABI",
	Checks: []harness.Check{crossRun},
	Fixtures: []harness.Fixture{
		{Name: "abi_version", Sources: []string{"abi/abi_version.c"}, ABI: true},
	},
	Injectors: []harness.Fixture{
		{Name: "inject_abi_version_off", Sources: []string{"inject/abi_version_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
	},
}
