package abi

import "strings"

// The results fixtures/c/abi/app.c must give on two ranks, whatever header
// it was built with and whatever library it runs on: the values MPI
// defines for these calls (each key is explained in app.c).
func expectedApp() [2]map[string]int64 {
	var e [2]map[string]int64
	e[0], e[1] = map[string]int64{}, map[string]int64{}
	both := func(k string, v int64) { e[0][k], e[1][k] = v, v }
	per := func(k string, v0, v1 int64) { e[0][k], e[1][k] = v0, v1 }
	only := func(rank int, k string, v int64) { e[rank][k] = v }

	both("size", 2)
	// point-to-point
	only(1, "p2p.recv.source", 0)
	only(1, "p2p.recv.tag", 7)
	only(1, "p2p.recv.count", 5)
	only(1, "p2p.recv.bytes", 20)
	only(1, "p2p.recv.elements", 5)
	only(1, "p2p.recv.sum", 15)
	only(1, "p2p.probe.tag", 11)
	only(1, "p2p.probe.count", 3)
	only(1, "p2p.probe.sum_x2", 9)
	per("p2p.sendrecv.value", 10, 0)
	per("p2p.sendrecv.source", 1, 0)
	both("p2p.sendrecv.tag", 3)
	both("p2p.procnull.source_is_proc_null", 1)
	both("p2p.procnull.tag_is_any_tag", 1)
	both("p2p.procnull.count", 0)
	only(1, "p2p.waitall.rc_is_err_in_status", 1)
	only(1, "p2p.waitall.error0_is_truncate", 1)
	only(1, "p2p.waitall.error1_is_success_or_pending", 1)
	only(1, "p2p.waitall.source1", 0)
	only(1, "p2p.waitall.tag1", 22)
	// collectives, predefined and user-defined operations
	both("coll.allreduce.sum", 3)
	both("coll.allreduce.max", 2)
	both("coll.allreduce.prod", 2)
	both("coll.allreduce.bor", 3)
	both("coll.minloc.value", 9)
	both("coll.minloc.index", 1)
	both("coll.maxloc.value", 10)
	both("coll.maxloc.index", 0)
	both("coll.allreduce.double_sum_x4", 3)
	only(0, "coll.user_op.reduce", 12)
	both("coll.user_op.allreduce", 12)
	both("coll.user_op.freed_is_null", 1)
	both("coll.user_op.called", 1)
	both("coll.user_op.datatype_arg_is_int", 1)
	both("coll.bcast", 42)
	both("coll.allgather.0", 100)
	both("coll.allgather.1", 101)
	per("coll.alltoall.0", 0, 1)
	per("coll.alltoall.1", 10, 11)
	per("coll.scan", 1, 3)
	only(1, "coll.exscan", 1)
	both("coll.iallreduce.sum", 3)
	// derived datatypes
	both("type.vector.size", 12)
	both("type.vector.extent", 20)
	both("type.vector.combiner_is_vector", 1)
	both("type.vector.envelope", 301)
	both("type.vector.contents", 312)
	both("type.vector.old_is_int", 1)
	only(1, "type.vector.received", 24)
	only(1, "type.vector.elements", 3)
	both("type.struct.size", 12)
	both("type.struct.extent", 16)
	only(1, "type.struct.count", 2)
	only(1, "type.struct.values", 7820)
	both("type.external32.size", 12)
	both("type.external32.position", 12)
	both("type.external32.first_byte_big_endian", 5)
	both("type.external32.roundtrip", 567)
	both("type.attr.copied_value", 201)
	both("type.attr.copy_calls", 1)
	both("type.attr.copy_datatype_arg_ok", 1)
	both("type.dup.combiner_is_dup", 1)
	both("type.attr.delete_calls", 2)
	both("type.free_is_null", 1)
	// attributes with copy and delete callbacks
	both("attr.copied_value", 101)
	both("attr.copy_calls", 1)
	both("attr.copy_comm_arg_ok", 1)
	both("attr.copy_extra_state_ok", 1)
	both("attr.delete_calls_after_free", 1)
	both("attr.delete_calls_after_delete", 2)
	both("attr.deleted_flag", 0)
	both("attr.keyval_freed_is_invalid", 1)
	both("attr.tag_ub_at_least_32767", 1)
	both("attr.world_name", 1)
	both("attr.set_name", 1)
	// error handlers with user callbacks
	both("eh.get_is_set", 1)
	both("eh.invalid_rank.calls", 1)
	both("eh.invalid_rank.comm_arg_ok", 1)
	both("eh.invalid_rank.class_is_err_rank", 1)
	both("eh.invalid_rank.rc_is_err_rank", 1)
	both("eh.invalid_rank.code_is_rc", 1)
	both("eh.call.calls", 2)
	both("eh.call.code_passed", 1)
	both("eh.custom.string", 1)
	both("eh.custom.class", 1)
	both("eh.lastusedcode_covers_class", 1)
	both("eh.errors_return.class_is_err_rank", 1)
	both("eh.errors_return.no_callback", 1)
	both("eh.freed_is_null", 1)
	// requests
	only(0, "req.wait.null_after", 1)
	only(1, "req.test.value", 77)
	only(1, "req.test.tag", 31)
	only(1, "req.test.null_after", 1)
	only(1, "req.cancel.cancelled", 1)
	only(1, "req.persistent.sum", 11)
	both("req.get_status.inactive_flag", 1)
	per("req.testall.values", 111, 10)
	// info
	both("info.nkeys", 2)
	both("info.nthkey", 1)
	both("info.get.value", 1)
	both("info.nkeys_after_delete", 1)
	both("info.dup.nkeys", 2)
	both("info.get.deleted_flag", 0)
	both("info.freed_is_null", 1)
	both("info.env.nkeys_ok", 1)
	// communicators and groups
	both("comm.compare.world_world_ident", 1)
	both("comm.compare.world_dup_congruent", 1)
	per("comm.split.reversed_rank", 1, 0)
	both("comm.compare.world_reversed_similar", 1)
	both("group.world.size", 2)
	both("group.incl_excl_ident", 1)
	both("group.translate", 1)
	per("group.incl.rank", -100, 0)
	both("group.intersection.size", 1)
	both("group.empty.size", 0)
	per("comm.create.is_null", 1, 0)
	only(1, "comm.create.size", 1)
	both("group.freed_is_null", 1)
	both("comm.cart.topo_is_cart", 1)
	per("comm.cart.shift", 11, 0)
	both("comm.inter.test_inter", 1)
	both("comm.inter.remote_size", 1)
	both("comm.inter.merged_size", 2)
	per("comm.inter.merged_rank", 0, 1)
	both("comm.freed_is_null", 1)
	both("finalized", 1)
	return e
}

// noInvalidRank is the application's argument that leaves out its two
// sends to a rank past the last (app.c): NATIVE-PRINT-02 passes it where an
// implementation's own build does not run to its end.
const noInvalidRank = "--no-invalid-rank"

// expectedAppNoInvalidRank is expectedApp for a run with noInvalidRank:
// without the results of the two sends, and with the one
// MPI_Comm_call_errhandler call as the only call of the error handler.
func expectedAppNoInvalidRank() [2]map[string]int64 {
	e := expectedApp()
	for rank := range e {
		for k := range e[rank] {
			if strings.HasPrefix(k, "eh.invalid_rank.") || strings.HasPrefix(k, "eh.errors_return.") {
				delete(e[rank], k)
			}
		}
		e[rank]["eh.call.calls"] = 1
	}
	return e
}
