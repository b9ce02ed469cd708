// Package qmpi checks QMPI, the interception interface for stacked tools
// (seeds 000 and 001), on every implementation.
package qmpi

import (
	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Suite is the QMPI suite.
var Suite = &harness.Suite{
	Name: "QMPI",
	Checks: []rulebook.Check{
		twoInstances,
		registrationInit,
		instanceIDs,
		stackOrder,
		instanceStorage,
		passThrough,
		threadedStack,
		argsAndResults,
		callingAddress,
		pmpiWithQMPI,
		badInput,
		noTools,
		fortranBindings,
		coverage,
		memcheck,
	},
	Fixtures: []mpi.Fixture{
		{Name: "qmpi_app_send", Sources: []string{"qmpi/app_send.c"}},
		{Name: "qmpi_tool_send", Sources: []string{"qmpi/tool_send.c"}, Shared: true},
		{Name: "qmpi_app_layer", Sources: []string{"qmpi/app_layer.c"}, Flags: []string{"-pthread"}},
		{Name: "qmpi_tool_layer", Sources: []string{"qmpi/tool_layer.c"}, Shared: true, Flags: []string{"-ldl"}},
		{Name: "qmpi_app_args", Sources: []string{"qmpi/app_args.c"}},
		{Name: "qmpi_tool_args", Sources: []string{"qmpi/tool_args.c"}, Shared: true},
		{Name: "qmpi_app_addr", Sources: []string{"qmpi/app_addr.c"}, Flags: []string{"-rdynamic"}},
		{Name: "qmpi_tool_addr", Sources: []string{"qmpi/tool_addr.c"}, Shared: true, Flags: []string{"-ldl"}},
		{Name: "qmpi_pmpi_tool", Sources: []string{"qmpi/pmpi_tool.c"}, Shared: true},
		{Name: "qmpi_tool_bad", Sources: []string{"qmpi/tool_bad.c"}, Shared: true},
		{Name: "qmpi_app_stub_calls", Sources: []string{"qmpi/app_stub_calls.c"}},
		{Name: "qmpi_fortran_mpifh", Sources: []string{"qmpi/fortran_mpifh.f90"}, Fortran: true},
		{Name: "qmpi_fortran_use_mpi", Sources: []string{"qmpi/fortran_use_mpi.f90"}, Fortran: true},
		{Name: "qmpi_fortran_use_mpi_f08", Sources: []string{"qmpi/fortran_use_mpi_f08.f90"}, Fortran: true},
		{Name: "qmpi_fortran_addr", Sources: []string{"qmpi/fortran_addr.f90"}, Fortran: true, Flags: []string{"-rdynamic"}},
	},
	Injectors: []mpi.Fixture{
		injector("skip_next"),
		injector("drop_register"),
		injector("same_id"),
		injector("reverse"),
		injector("swap_storage"),
		injector("call_twice"),
		injector("drop_error"),
		injector("wrong_address"),
		injector("heap_overrun"),
		injector("not_idle"),
		injector("name_refused"),
		injector("drop_instance"),
		injector("register_refused"),
		injector("alter_args"),
		injector("address_overrun"),
		injector("address_crash"),
		// no rule's: MPITS_INJECT shows the address rules judging what was
		// recorded before a death at MPI_Finalize
		injector("finalize_abort"),
		injector("drop_mpit"),
		injector("entry_alters"),
		injector("idle_twice"),
		rulebook.Injector("conform_qmpi_calling_address", "inject/conform_qmpi_calling_address.c"),
		rulebook.Injector("conform_qmpi_after_finalize", "inject/conform_qmpi_after_finalize.c"),
		rulebook.Injector("conform_qmpi_fortran_address", "inject/conform_qmpi_fortran_address.c"),
	},
}

// injector is the fault injector fixtures/c/inject/qmpi_<name>.c, with the
// headers the injectors share (the init-callback trampolines, qmpi_fn_t).
func injector(name string) mpi.Fixture {
	f := rulebook.Injector("inject_qmpi_"+name, "inject/qmpi_"+name+".c")
	f.Headers = []string{"inject/qmpi_init_wrap.h", "inject/qmpi_fn_t.h"}
	return f
}
