// Package events checks MPI_T events (MPI-4.1 §16.3.8) and the callback
// requirements of seed 002.
package events

import (
	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Suite is the MPI_T events suite.
var Suite = &harness.Suite{
	Name:   "MPI_T events",
	Checks: []rulebook.Check{eventInfo, metaCheck, stableCheck, callsCheck, deliverCheck, safetyCheck, asyncCheck, insideCheck, handleCheck, infoCheck, threadsCheck, seedCheck, acrossCheck, statesCheck},
	Fixtures: []mpi.Fixture{
		{Name: "events_event_info", Sources: []string{"events/event_info.c"}},
		{Name: "events_event_meta", Sources: []string{"events/event_meta.c"}, Headers: []string{"events/events_common.h", "events/event_meta_again.h", "events/event_meta_args.h"}},
		{Name: "events_deliver", Sources: []string{"events/events_deliver.c"}, Headers: []string{"events/events_actions.h", "events/events_callbacks.h", "events/events_common.h"}},
		{Name: "events_threads", Sources: []string{"events/events_threads.c"}, Headers: []string{"events/events_actions.h", "events/events_callbacks.h", "events/events_common.h"}, Flags: []string{"-pthread"}},
	},
	Injectors: []mpi.Fixture{
		injector("inject_events_index_off", "events_index_off.c"),
		injector("inject_events_cb_wrong_safety", "events_cb_wrong_safety.c", "events_cb_wrap.h"),
		injector("inject_events_cb_wrong_user_data", "events_cb_wrong_user_data.c", "events_cb_wrap.h"),
		injector("inject_events_cb_twice", "events_cb_twice.c", "events_cb_wrap.h"),
		injector("inject_events_cb_wrong_identity", "events_cb_wrong_identity.c", "events_cb_wrap.h"),
		injector("inject_events_cb_other_process", "events_cb_other_process.c", "events_cb_wrap.h"),
		injector("inject_events_cb_never", "events_cb_never.c"),
		injector("inject_events_cb_null_ignored", "events_cb_null_ignored.c"),
		injector("inject_events_read_corrupt", "events_read_corrupt.c"),
		injector("inject_events_timestamp_back", "events_timestamp_back.c"),
		injector("inject_events_meta_broken", "events_meta_broken.c"),
		injector("inject_events_source_info_fails", "events_source_info_fails.c"),
		injector("inject_events_free_keeps_delivering", "events_free_keeps_delivering.c"),
		injector("inject_events_free_bad", "events_free_bad.c"),
		injector("inject_events_info_null", "events_info_null.c"),
		injector("inject_events_info_hint_wrong", "events_info_hint_wrong.c"),
		injector("inject_events_get_info_fail", "events_get_info_fail.c"),
		injector("inject_events_read_crash", "events_read_crash.c"),
		injector("inject_events_read_element_crash", "events_read_element_crash.c"),
		injector("inject_events_query_bad", "events_query_bad.c"),
		injector("inject_events_instance_ts_back", "events_instance_ts_back.c"),
		injector("inject_events_unchecked", "events_unchecked.c"),
		injector("inject_events_out_args", "events_out_args.c"),
		injector("inject_events_meta_drift", "events_meta_drift.c"),
		injector("inject_events_name_clash", "events_name_clash.c"),
		injector("inject_events_clock_fast", "events_clock_fast.c"),
		injector("inject_events_alloc_refused", "events_alloc_refused.c"),
		injector("inject_events_in_cb_refused", "events_in_cb_refused.c", "events_cb_wrap.h"),
		injector("inject_events_dropped_handler_off", "events_dropped_handler_off.c", "events_cb_wrap.h"),
		injector("inject_events_copy_overrun", "events_copy_overrun.c"),
		injector("inject_events_meta_rank_differs", "events_meta_rank_differs.c"),
	},
}

// injector is a fault-injector shim in fixtures/c/inject (with its headers).
func injector(name string, files ...string) mpi.Fixture {
	var src []string
	for _, f := range files {
		src = append(src, "inject/"+f)
	}
	return mpi.Fixture{Name: name, Sources: src, Shared: true, Flags: []string{"-ldl"}}
}
