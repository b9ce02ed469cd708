// Package mpit checks the variables part of the MPI tool information
// interface (MPI-4.1 §16.3: control and performance variables, sessions).
package mpit

import "github.com/mpits/mpits/harness"

// Suite is the MPI_T suite.
var Suite = &harness.Suite{
	Name: "MPI_T",
	Checks: []harness.Check{cvarIndex, initFinalize, stringsCheck, namesCheck, metadataCheck, cvarRW,
		sessionsCheck, pvarOps, threadsCheck, robustCheck, errorsCheck, modelsCheck, acrossCheck, headerCheck, enduranceCheck, bindingCheck},
	Fixtures: []harness.Fixture{
		{Name: "mpit_cvar_index", Sources: []string{"mpit/cvar_index.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_init_finalize", Sources: []string{"mpit/init_finalize.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_walk", Sources: []string{"mpit/walk.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_cvar_rw", Sources: []string{"mpit/cvar_rw.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_pvars", Sources: []string{"mpit/pvars.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_threads", Sources: []string{"mpit/threads.c"}, Headers: []string{"mpit/mpit_util.h"}, Flags: []string{"-pthread"}},
		{Name: "mpit_robust", Sources: []string{"mpit/robust.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_errors", Sources: []string{"mpit/errors.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_endurance", Sources: []string{"mpit/endurance.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_binding", Sources: []string{"mpit/binding.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_symbols", Sources: []string{"mpit/symbols.c"}, Flags: []string{"-ldl"}},
		{Name: "mpit_across", Sources: []string{"mpit/across.c"}, Headers: []string{"mpit/mpit_util.h"}},
		{Name: "mpit_models", Sources: []string{"mpit/models.c"}, Headers: []string{"mpit/mpit_util.h"}, Flags: []string{"-pthread"}},
	},
	Injectors: []harness.Fixture{
		injector("inject_mpit_cvar_index_off", "inject/mpit_cvar_index_off.c"),
		injector("inject_mpit_finalize_extra", "inject/mpit_finalize_extra.c"),
		injector("inject_mpit_string_len", "inject/mpit_string_len.c"),
		injector("inject_mpit_unknown_name", "inject/mpit_unknown_name.c"),
		injector("inject_mpit_bad_datatype", "inject/mpit_bad_datatype.c"),
		injector("inject_mpit_cvar_write_lost", "inject/mpit_cvar_write_lost.c"),
		injector("inject_mpit_pvar_frozen", "inject/mpit_pvar_frozen.c"),
		injector("inject_mpit_pvar_accept_write", "inject/mpit_pvar_accept_write.c"),
		injector("inject_mpit_cvar_read_unsafe", "inject/mpit_cvar_read_unsafe.c"),
		injector("inject_mpit_null_out_crash", "inject/mpit_null_out_crash.c"),
		injector("inject_mpit_string_conv", "inject/mpit_string_conv.c"),
		injector("inject_mpit_names", "inject/mpit_names.c"),
		injector("inject_mpit_meta", "inject/mpit_meta.c"),
		injector("inject_mpit_enum_empty", "inject/mpit_enum_empty.c"),
		injector("inject_mpit_unchecked", "inject/mpit_unchecked.c"),
		injector("inject_mpit_init_broken", "inject/mpit_init_broken.c"),
		injector("conform_mpit_index_check", "inject/conform_mpit_index_check.c"),
		injector("inject_mpit_errhandler_call", "inject/mpit_errhandler_call.c"),
		injector("inject_mpit_code_overlap", "inject/mpit_code_overlap.c"),
		injector("inject_mpit_error_string_same", "inject/mpit_error_string_same.c"),
		injector("inject_mpit_session_breaks", "inject/mpit_session_breaks.c"),
		injector("inject_mpit_meta_drift", "inject/mpit_meta_drift.c"),
		injector("inject_mpit_symbol_hidden", "inject/mpit_symbol_hidden.c"),
		injector("inject_mpit_category_drift", "inject/mpit_category_drift.c"),
		injector("inject_mpit_cycle_breaks", "inject/mpit_cycle_breaks.c"),
		injector("inject_mpit_failure_sticks", "inject/mpit_failure_sticks.c"),
		injector("inject_mpit_bind_refused", "inject/mpit_bind_refused.c"),
		injector("inject_mpit_verbosity_order", "inject/mpit_verbosity_order.c"),
		injector("inject_mpit_nested_level", "inject/mpit_nested_level.c"),
		injector("inject_mpit_pvar_read_fails", "inject/mpit_pvar_read_fails.c"),
		injector("inject_mpit_pvar_session_skew", "inject/mpit_pvar_session_skew.c"),
		injector("inject_mpit_cvar_drift", "inject/mpit_cvar_drift.c"),
		injector("inject_mpit_pvar_startstop", "inject/mpit_pvar_startstop.c"),
		injector("inject_mpit_timer_fast", "inject/mpit_timer_fast.c"),
		injector("inject_mpit_query_thread_follows", "inject/mpit_query_thread_follows.c"),
		injector("inject_mpit_is_thread_main_off", "inject/mpit_is_thread_main_off.c"),
	},
}

func injector(name, source string) harness.Fixture { return harness.Injector(name, source) }
