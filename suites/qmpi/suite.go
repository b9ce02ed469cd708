// Package qmpi checks QMPI, the interception interface for stacked tools
// (seeds 000 and 001), on every implementation.
package qmpi

import "github.com/mpits/mpits/harness"

// Suite is the QMPI suite.
var Suite = &harness.Suite{
	Name:   "QMPI",
	Checks: []harness.Check{twoInstances},
	Fixtures: []harness.Fixture{
		{Name: "qmpi_app_send", Sources: []string{"qmpi/app_send.c"}},
		{Name: "qmpi_tool_send", Sources: []string{"qmpi/tool_send.c"}, Shared: true},
	},
	Injectors: []harness.Fixture{
		{Name: "inject_qmpi_skip_next", Sources: []string{"inject/qmpi_skip_next.c"}, Shared: true, Flags: []string{"-ldl"}},
	},
}
