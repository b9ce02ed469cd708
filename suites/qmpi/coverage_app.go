package qmpi

// The application of the coverage check, as C sections that the generator
// puts into main() in this order. Every MPI call is written CALL(MPI_Name,
// args...), which counts it; a section is left out when one of the
// functions it calls is not declared by the implementation's header. The
// job has 2 ranks; rank, size, peer (the other rank) and comm
// (MPI_COMM_WORLD, errors returned) are set by the "init" section. Calls are
// made only where they are safe: no file I/O, no process management.

// coverPrelude comes before main(): the call counter and the callbacks the
// sections hand to MPI.
const coverPrelude = `
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpits_record.h"

#define MAX_CALLED 1024
static const char *called_names[MAX_CALLED];
static long called_n[MAX_CALLED], called_in_callbacks[MAX_CALLED];
static int ncalled;
static int in_callback; /* calls made from a callback MPI is running */

static void mpits_note(const char *fn) {
    int i = 0;
    while (i < ncalled && strcmp(called_names[i], fn) != 0)
        i++;
    if (i == MAX_CALLED)
        return;
    if (i == ncalled)
        called_names[ncalled++] = fn;
    if (in_callback)
        called_in_callbacks[i]++;
    else
        called_n[i]++;
}

#define CALL(fn, ...) (mpits_note(#fn), fn(__VA_ARGS__))

static int handler_calls;
static void on_comm_error(MPI_Comm *c, int *code, ...) { (void)c, (void)code; handler_calls++; }
static void on_win_error(MPI_Win *w, int *code, ...) { (void)w, (void)code; handler_calls++; }
static void on_file_error(MPI_File *f, int *code, ...) { (void)f, (void)code; handler_calls++; }
static void on_session_error(MPI_Session *s, int *code, ...) { (void)s, (void)code; handler_calls++; }

static void int_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void int_sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt) {
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static int greq_query(void *extra, MPI_Status *st) {
    (void)extra;
    in_callback++;
    CALL(MPI_Status_set_elements, st, MPI_BYTE, 0);
    CALL(MPI_Status_set_cancelled, st, 0);
    in_callback--;
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int greq_free(void *extra) { (void)extra; return MPI_SUCCESS; }
static int greq_cancel(void *extra, int complete) { (void)extra, (void)complete; return MPI_SUCCESS; }
`

// coverSection is one block of main().
type coverSection struct {
	Name string
	Code string
}

var coverSections = []coverSection{
	{"before MPI_Init", `
    int v, sv, len, flag;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    CALL(MPI_Get_version, &v, &sv);
    CALL(MPI_Get_library_version, lib, &len);
    CALL(MPI_Initialized, &flag);
    CALL(MPI_Finalized, &flag);
`},
	{"init", `
    CALL(MPI_Init_thread, &argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CALL(MPI_Comm_set_errhandler, MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CALL(MPI_Comm_set_errhandler, MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CALL(MPI_Comm_rank, comm, &rank);
    CALL(MPI_Comm_size, comm, &size);
    peer = size > 1 ? 1 - rank : 0;
`},
	{"environment", `
    int flag, len, v, sv;
    char name[MPI_MAX_PROCESSOR_NAME];
    CALL(MPI_Query_thread, &flag);
    CALL(MPI_Is_thread_main, &flag);
    CALL(MPI_Initialized, &flag);
    CALL(MPI_Get_version, &v, &sv);
    CALL(MPI_Get_processor_name, name, &len);
    double t = CALL(MPI_Wtime) + CALL(MPI_Wtick);
    (void)t;
    CALL(MPI_Pcontrol, 1, COVER_PCONTROL_ARG);
    void *mem = NULL;
    CALL(MPI_Alloc_mem, 64, MPI_INFO_NULL, &mem);
    MPI_Aint a0, a1;
    CALL(MPI_Get_address, &flag, &a0);
    a1 = CALL(MPI_Aint_add, a0, 8);
    a1 = CALL(MPI_Aint_diff, a1, a0);
    CALL(MPI_Free_mem, mem);
`},
	{"errors", `
    MPI_Errhandler eh, got;
    int cls, errclass, errcode, len;
    char s[MPI_MAX_ERROR_STRING];
    CALL(MPI_Comm_create_errhandler, on_comm_error, &eh);
    CALL(MPI_Comm_get_errhandler, comm, &got);
    CALL(MPI_Comm_set_errhandler, comm, eh);
    CALL(MPI_Comm_call_errhandler, comm, MPI_ERR_OTHER);
    CALL(MPI_Comm_set_errhandler, comm, got);
    CALL(MPI_Errhandler_free, &eh);
    CALL(MPI_Errhandler_free, &got);
    CALL(MPI_Error_class, MPI_ERR_TAG, &cls);
    CALL(MPI_Error_string, MPI_ERR_TAG, s, &len);
    CALL(MPI_Add_error_class, &errclass);
    CALL(MPI_Add_error_code, errclass, &errcode);
    CALL(MPI_Add_error_string, errcode, "mpits coverage error");
    CALL(MPI_File_create_errhandler, on_file_error, &eh);
    CALL(MPI_Errhandler_free, &eh);
`},
	{"point-to-point", `
    int x = rank, y = -1, count, flag, idx, outcount, indices[2];
    MPI_Status st, sts[2];
    MPI_Request rq, rqs[2];
    MPI_Message msg;
    MPI_Count cnt;
    CALL(MPI_Sendrecv, &x, 1, MPI_INT, peer, 1, &y, 1, MPI_INT, peer, 1, comm, &st);
    CALL(MPI_Get_count, &st, MPI_INT, &count);
    CALL(MPI_Get_elements, &st, MPI_INT, &count);
    CALL(MPI_Get_elements_x, &st, MPI_INT, &cnt);
    CALL(MPI_Sendrecv_replace, &x, 1, MPI_INT, peer, 2, peer, 2, comm, &st);
    if (rank == 0) {
        CALL(MPI_Send, &x, 1, MPI_INT, peer, 3, comm);
        CALL(MPI_Ssend, &x, 1, MPI_INT, peer, 4, comm);
        CALL(MPI_Isend, &x, 1, MPI_INT, peer, 5, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
        CALL(MPI_Issend, &x, 1, MPI_INT, peer, 6, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
        CALL(MPI_Send, &x, 1, MPI_INT, peer, 7, comm);
        CALL(MPI_Send, &x, 1, MPI_INT, peer, 8, comm);
        CALL(MPI_Send, &x, 1, MPI_INT, peer, 9, comm);
        CALL(MPI_Send, &x, 1, MPI_INT, peer, 10, comm);
    } else {
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 3, comm, &st);
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 4, comm, &st);
        CALL(MPI_Irecv, &y, 1, MPI_INT, peer, 5, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
        CALL(MPI_Probe, peer, 6, comm, &st);
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 6, comm, &st);
        flag = 0;
        while (!flag)
            CALL(MPI_Iprobe, peer, 7, comm, &flag, &st);
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 7, comm, &st);
        CALL(MPI_Mprobe, peer, 8, comm, &msg, &st);
        CALL(MPI_Mrecv, &y, 1, MPI_INT, &msg, &st);
        flag = 0;
        while (!flag)
            CALL(MPI_Improbe, peer, 9, comm, &flag, &msg, &st);
        CALL(MPI_Imrecv, &y, 1, MPI_INT, &msg, &rq);
        CALL(MPI_Wait, &rq, &st);
        CALL(MPI_Irecv, &y, 1, MPI_INT, peer, 10, comm, &rq);
        flag = 0;
        while (!flag)
            CALL(MPI_Test, &rq, &flag, &st);
    }
    /* Ready sends need the receive posted: receive first, then a barrier. */
    if (rank == 1)
        CALL(MPI_Irecv, &y, 1, MPI_INT, peer, 11, comm, &rq);
    CALL(MPI_Barrier, comm);
    if (rank == 0)
        CALL(MPI_Rsend, &x, 1, MPI_INT, peer, 11, comm);
    else
        CALL(MPI_Wait, &rq, &st);
    if (rank == 1)
        CALL(MPI_Irecv, &y, 1, MPI_INT, peer, 12, comm, &rq);
    CALL(MPI_Barrier, comm);
    if (rank == 0)
        CALL(MPI_Irsend, &x, 1, MPI_INT, peer, 12, comm, &rq);
    CALL(MPI_Wait, &rq, &st);
    /* Buffered sends. */
    int bufsize = 4 * (MPI_BSEND_OVERHEAD + 64);
    void *bbuf = malloc(bufsize), *old;
    CALL(MPI_Buffer_attach, bbuf, bufsize);
    if (rank == 0) {
        CALL(MPI_Bsend, &x, 1, MPI_INT, peer, 13, comm);
        CALL(MPI_Ibsend, &x, 1, MPI_INT, peer, 14, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
    } else {
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 13, comm, &st);
        CALL(MPI_Recv, &y, 1, MPI_INT, peer, 14, comm, &st);
    }
    CALL(MPI_Buffer_detach, &old, &bufsize);
    free(bbuf);
    /* Completion functions on two requests each. */
    int a[2] = {rank, rank}, b[2];
    CALL(MPI_Isend, &a[0], 1, MPI_INT, peer, 15, comm, &rqs[0]);
    CALL(MPI_Irecv, &b[0], 1, MPI_INT, peer, 15, comm, &rqs[1]);
    CALL(MPI_Waitall, 2, rqs, sts);
    CALL(MPI_Isend, &a[0], 1, MPI_INT, peer, 16, comm, &rqs[0]);
    CALL(MPI_Irecv, &b[0], 1, MPI_INT, peer, 16, comm, &rqs[1]);
    CALL(MPI_Waitany, 2, rqs, &idx, &st);
    CALL(MPI_Waitsome, 2, rqs, &outcount, indices, sts);
    if (outcount != MPI_UNDEFINED && rqs[0] != MPI_REQUEST_NULL && rqs[1] != MPI_REQUEST_NULL)
        CALL(MPI_Waitall, 2, rqs, sts);
    CALL(MPI_Waitall, 2, rqs, sts);
    CALL(MPI_Isend, &a[0], 1, MPI_INT, peer, 17, comm, &rqs[0]);
    CALL(MPI_Irecv, &b[0], 1, MPI_INT, peer, 17, comm, &rqs[1]);
    flag = 0;
    while (!flag)
        CALL(MPI_Testall, 2, rqs, &flag, sts);
    CALL(MPI_Isend, &a[0], 1, MPI_INT, peer, 18, comm, &rqs[0]);
    CALL(MPI_Irecv, &b[0], 1, MPI_INT, peer, 18, comm, &rqs[1]);
    CALL(MPI_Testany, 2, rqs, &idx, &flag, &st);
    CALL(MPI_Testsome, 2, rqs, &outcount, indices, sts);
    CALL(MPI_Request_get_status, rqs[0], &flag, &st);
    CALL(MPI_Waitall, 2, rqs, sts);
    /* A receive nobody matches, cancelled. */
    CALL(MPI_Irecv, &y, 1, MPI_INT, peer, 19, comm, &rq);
    CALL(MPI_Cancel, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Test_cancelled, &st, &flag);
    CALL(MPI_Isend, &a[0], 1, MPI_INT, peer, 20, comm, &rq);
    CALL(MPI_Request_free, &rq);
    CALL(MPI_Recv, &y, 1, MPI_INT, peer, 20, comm, &st);
    CALL(MPI_Status_set_elements_x, &st, MPI_INT, 1);
    CALL(MPI_Isendrecv, &a[0], 1, MPI_INT, peer, 21, &b[0], 1, MPI_INT, peer, 21, comm, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Isendrecv_replace, &a[0], 1, MPI_INT, peer, 22, peer, 22, comm, &rq);
    CALL(MPI_Wait, &rq, &st);
`},
	{"persistent point-to-point", `
    int x = rank, y[5];
    MPI_Request rq[2];
    MPI_Status sts[2];
    int bufsize = 4 * (MPI_BSEND_OVERHEAD + 64);
    void *bbuf = malloc(bufsize), *old;
    CALL(MPI_Buffer_attach, bbuf, bufsize);
    CALL(MPI_Recv_init, &y[0], 1, MPI_INT, peer, 30, comm, &rq[1]);
    CALL(MPI_Send_init, &x, 1, MPI_INT, peer, 30, comm, &rq[0]);
    CALL(MPI_Startall, 2, rq);
    CALL(MPI_Waitall, 2, rq, sts);
    CALL(MPI_Request_free, &rq[0]);
    CALL(MPI_Ssend_init, &x, 1, MPI_INT, peer, 30, comm, &rq[0]);
    CALL(MPI_Start, &rq[1]);
    CALL(MPI_Start, &rq[0]);
    CALL(MPI_Waitall, 2, rq, sts);
    CALL(MPI_Request_free, &rq[0]);
    CALL(MPI_Bsend_init, &x, 1, MPI_INT, peer, 30, comm, &rq[0]);
    CALL(MPI_Start, &rq[1]);
    CALL(MPI_Start, &rq[0]);
    CALL(MPI_Waitall, 2, rq, sts);
    CALL(MPI_Request_free, &rq[0]);
    CALL(MPI_Rsend_init, &x, 1, MPI_INT, peer, 30, comm, &rq[0]);
    CALL(MPI_Start, &rq[1]);
    CALL(MPI_Barrier, comm);
    CALL(MPI_Start, &rq[0]);
    CALL(MPI_Waitall, 2, rq, sts);
    CALL(MPI_Request_free, &rq[0]);
    CALL(MPI_Request_free, &rq[1]);
    CALL(MPI_Buffer_detach, &old, &bufsize);
    free(bbuf);
`},
	{"partitioned", `
    int x[4] = {rank, rank, rank, rank}, y[4], flag = 0;
    int parts[2] = {2, 3};
    MPI_Request rq;
    MPI_Status st;
    if (rank == 0) {
        CALL(MPI_Psend_init, x, 4, 1, MPI_INT, peer, 40, comm, MPI_INFO_NULL, &rq);
        CALL(MPI_Start, &rq);
        CALL(MPI_Pready, 0, rq);
        CALL(MPI_Pready_range, 1, 1, rq);
        CALL(MPI_Pready_list, 2, parts, rq);
    } else {
        CALL(MPI_Precv_init, y, 4, 1, MPI_INT, peer, 40, comm, MPI_INFO_NULL, &rq);
        CALL(MPI_Start, &rq);
        while (!flag)
            CALL(MPI_Parrived, rq, 0, &flag);
    }
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Request_free, &rq);
`},
	{"generalized requests", `
    MPI_Request rq;
    MPI_Status st;
    CALL(MPI_Grequest_start, greq_query, greq_free, greq_cancel, NULL, &rq);
    CALL(MPI_Grequest_complete, rq);
    CALL(MPI_Wait, &rq, &st);
`},
	{"large-count point-to-point", `
    int x = rank, y = -1;
    MPI_Status st;
    MPI_Request rq;
    MPI_Count c;
    CALL(MPI_Sendrecv_c, &x, 1, MPI_INT, peer, 50, &y, 1, MPI_INT, peer, 50, comm, &st);
    CALL(MPI_Get_count_c, &st, MPI_INT, &c);
    CALL(MPI_Get_elements_c, &st, MPI_INT, &c);
    if (rank == 0) {
        CALL(MPI_Send_c, &x, 1, MPI_INT, peer, 51, comm);
        CALL(MPI_Isend_c, &x, 1, MPI_INT, peer, 52, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
    } else {
        CALL(MPI_Recv_c, &y, 1, MPI_INT, peer, 51, comm, &st);
        CALL(MPI_Irecv_c, &y, 1, MPI_INT, peer, 52, comm, &rq);
        CALL(MPI_Wait, &rq, &st);
    }
`},
	{"collectives", `
    int x = rank + 1, y = 0, all[2], counts[2] = {1, 1}, displs[2] = {0, 1}, flag;
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    int wdispls[2] = {0, (int)sizeof(int)};
    MPI_Op op;
    CALL(MPI_Barrier, comm);
    CALL(MPI_Bcast, &x, 1, MPI_INT, 0, comm);
    CALL(MPI_Gather, &x, 1, MPI_INT, all, 1, MPI_INT, 0, comm);
    CALL(MPI_Gatherv, &x, 1, MPI_INT, all, counts, displs, MPI_INT, 0, comm);
    CALL(MPI_Scatter, all, 1, MPI_INT, &y, 1, MPI_INT, 0, comm);
    CALL(MPI_Scatterv, all, counts, displs, MPI_INT, &y, 1, MPI_INT, 0, comm);
    CALL(MPI_Allgather, &x, 1, MPI_INT, all, 1, MPI_INT, comm);
    CALL(MPI_Allgatherv, &x, 1, MPI_INT, all, counts, displs, MPI_INT, comm);
    int src[2] = {x, x};
    CALL(MPI_Alltoall, src, 1, MPI_INT, all, 1, MPI_INT, comm);
    CALL(MPI_Alltoallv, src, counts, displs, MPI_INT, all, counts, displs, MPI_INT, comm);
    CALL(MPI_Alltoallw, src, counts, wdispls, types, all, counts, wdispls, types, comm);
    CALL(MPI_Reduce, &x, &y, 1, MPI_INT, MPI_SUM, 0, comm);
    CALL(MPI_Allreduce, &x, &y, 1, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Reduce_scatter, src, &y, counts, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Reduce_scatter_block, src, &y, 1, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Scan, &x, &y, 1, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Exscan, &x, &y, 1, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Op_create, int_sum, 1, &op);
    CALL(MPI_Op_commutative, op, &flag);
    CALL(MPI_Reduce_local, &x, &y, 1, MPI_INT, op);
    CALL(MPI_Allreduce, &x, &y, 1, MPI_INT, op, comm);
    CALL(MPI_Op_free, &op);
`},
	{"nonblocking collectives", `
    int x = rank + 1, y = 0, all[2], counts[2] = {1, 1}, displs[2] = {0, 1};
    int src[2] = {x, x};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    int wdispls[2] = {0, (int)sizeof(int)};
    MPI_Request rq;
    MPI_Status st;
    CALL(MPI_Ibarrier, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ibcast, &x, 1, MPI_INT, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Igather, &x, 1, MPI_INT, all, 1, MPI_INT, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Igatherv, &x, 1, MPI_INT, all, counts, displs, MPI_INT, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iscatter, all, 1, MPI_INT, &y, 1, MPI_INT, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iscatterv, all, counts, displs, MPI_INT, &y, 1, MPI_INT, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iallgather, &x, 1, MPI_INT, all, 1, MPI_INT, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iallgatherv, &x, 1, MPI_INT, all, counts, displs, MPI_INT, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ialltoall, src, 1, MPI_INT, all, 1, MPI_INT, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ialltoallv, src, counts, displs, MPI_INT, all, counts, displs, MPI_INT, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ialltoallw, src, counts, wdispls, types, all, counts, wdispls, types, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ireduce, &x, &y, 1, MPI_INT, MPI_SUM, 0, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iallreduce, &x, &y, 1, MPI_INT, MPI_SUM, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ireduce_scatter, src, &y, counts, MPI_INT, MPI_SUM, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Ireduce_scatter_block, src, &y, 1, MPI_INT, MPI_SUM, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iscan, &x, &y, 1, MPI_INT, MPI_SUM, comm, &rq); CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Iexscan, &x, &y, 1, MPI_INT, MPI_SUM, comm, &rq); CALL(MPI_Wait, &rq, &st);
`},
	{"persistent collectives", `
    int x = rank + 1, y = 0, all[2], counts[2] = {1, 1}, displs[2] = {0, 1};
    int src[2] = {x, x};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    int wdispls[2] = {0, (int)sizeof(int)};
    MPI_Request rq;
    MPI_Status st;
#define PERSIST(init) do { init; CALL(MPI_Start, &rq); CALL(MPI_Wait, &rq, &st); CALL(MPI_Request_free, &rq); } while (0)
    PERSIST(CALL(MPI_Barrier_init, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Bcast_init, &x, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Gather_init, &x, 1, MPI_INT, all, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Gatherv_init, &x, 1, MPI_INT, all, counts, displs, MPI_INT, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Scatter_init, all, 1, MPI_INT, &y, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Scatterv_init, all, counts, displs, MPI_INT, &y, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Allgather_init, &x, 1, MPI_INT, all, 1, MPI_INT, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Allgatherv_init, &x, 1, MPI_INT, all, counts, displs, MPI_INT, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Alltoall_init, src, 1, MPI_INT, all, 1, MPI_INT, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Alltoallv_init, src, counts, displs, MPI_INT, all, counts, displs, MPI_INT, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Alltoallw_init, src, counts, wdispls, types, all, counts, wdispls, types, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Reduce_init, &x, &y, 1, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Allreduce_init, &x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Reduce_scatter_init, src, &y, counts, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Reduce_scatter_block_init, src, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Scan_init, &x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
    PERSIST(CALL(MPI_Exscan_init, &x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
#undef PERSIST
`},
	{"large-count collectives and datatypes", `
    int x = rank + 1, y = 0, all[2], src[2] = {x, x};
    MPI_Count size, lb, extent;
    MPI_Datatype t;
    MPI_Op op;
    MPI_Request rq;
    MPI_Status st;
    CALL(MPI_Bcast_c, &x, 1, MPI_INT, 0, comm);
    CALL(MPI_Allreduce_c, &x, &y, 1, MPI_INT, MPI_SUM, comm);
    CALL(MPI_Reduce_c, &x, &y, 1, MPI_INT, MPI_SUM, 0, comm);
    CALL(MPI_Allgather_c, &x, 1, MPI_INT, all, 1, MPI_INT, comm);
    CALL(MPI_Alltoall_c, src, 1, MPI_INT, all, 1, MPI_INT, comm);
    CALL(MPI_Iallreduce_c, &x, &y, 1, MPI_INT, MPI_SUM, comm, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Op_create_c, int_sum_c, 1, &op);
    CALL(MPI_Reduce_local_c, &x, &y, 1, MPI_INT, op);
    CALL(MPI_Op_free, &op);
    CALL(MPI_Type_contiguous_c, 2, MPI_INT, &t);
    CALL(MPI_Type_commit, &t);
    CALL(MPI_Type_size_c, t, &size);
    CALL(MPI_Type_get_extent_c, t, &lb, &extent);
    CALL(MPI_Type_get_true_extent_c, t, &lb, &extent);
    CALL(MPI_Type_free, &t);
    char pbuf[64];
    MPI_Count pos = 0, psize;
    CALL(MPI_Pack_size_c, 1, MPI_INT, comm, &psize);
    CALL(MPI_Pack_c, &x, 1, MPI_INT, pbuf, sizeof pbuf, &pos, comm);
    pos = 0;
    CALL(MPI_Unpack_c, pbuf, sizeof pbuf, &pos, &y, 1, MPI_INT, comm);
`},
	{"groups", `
    MPI_Group g, g1, g2, g3;
    int n, r, res, ranks[1] = {0}, out[1], range[1][3] = {{0, 0, 1}};
    CALL(MPI_Comm_group, comm, &g);
    CALL(MPI_Group_size, g, &n);
    CALL(MPI_Group_rank, g, &r);
    CALL(MPI_Group_incl, g, 1, ranks, &g1);
    CALL(MPI_Group_excl, g, 1, ranks, &g2);
    CALL(MPI_Group_union, g1, g2, &g3);
    CALL(MPI_Group_compare, g, g3, &res);
    CALL(MPI_Group_free, &g3);
    CALL(MPI_Group_intersection, g, g1, &g3);
    CALL(MPI_Group_free, &g3);
    CALL(MPI_Group_difference, g, g1, &g3);
    CALL(MPI_Group_free, &g3);
    CALL(MPI_Group_translate_ranks, g1, 1, ranks, g, out);
    CALL(MPI_Group_free, &g1);
    CALL(MPI_Group_free, &g2);
    CALL(MPI_Group_range_incl, g, 1, range, &g1);
    CALL(MPI_Group_range_excl, g, 1, range, &g2);
    CALL(MPI_Group_free, &g1);
    CALL(MPI_Group_free, &g2);
    CALL(MPI_Group_free, &g);
`},
	{"communicators", `
    MPI_Comm d, s, c, inter, merged;
    MPI_Group g;
    MPI_Info info, got;
    MPI_Request rq;
    MPI_Status st;
    int res, flag, n, len;
    char name[MPI_MAX_OBJECT_NAME];
    CALL(MPI_Comm_dup, comm, &d);
    CALL(MPI_Comm_compare, comm, d, &res);
    CALL(MPI_Comm_set_name, d, "mpits-dup");
    CALL(MPI_Comm_get_name, d, name, &len);
    CALL(MPI_Comm_test_inter, d, &flag);
    CALL(MPI_Info_create, &info);
    CALL(MPI_Comm_set_info, d, info);
    CALL(MPI_Comm_get_info, d, &got);
    CALL(MPI_Info_free, &got);
    CALL(MPI_Comm_free, &d);
    CALL(MPI_Comm_dup_with_info, comm, info, &d);
    CALL(MPI_Comm_free, &d);
    CALL(MPI_Comm_idup, comm, &d, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Comm_free, &d);
    CALL(MPI_Comm_idup_with_info, comm, info, &d, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Comm_disconnect, &d);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Comm_split, comm, 0, rank, &s);
    CALL(MPI_Comm_free, &s);
    CALL(MPI_Comm_split_type, comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &s);
    CALL(MPI_Comm_free, &s);
    CALL(MPI_Comm_group, comm, &g);
    CALL(MPI_Comm_create, comm, g, &c);
    CALL(MPI_Comm_free, &c);
    CALL(MPI_Comm_create_group, comm, g, 5, &c);
    CALL(MPI_Comm_free, &c);
    CALL(MPI_Group_free, &g);
    /* An intercommunicator between the two ranks. */
    CALL(MPI_Comm_split, comm, rank, 0, &s);
    CALL(MPI_Intercomm_create, s, 0, comm, peer, 60, &inter);
    CALL(MPI_Comm_test_inter, inter, &flag);
    CALL(MPI_Comm_remote_size, inter, &n);
    CALL(MPI_Comm_remote_group, inter, &g);
    CALL(MPI_Group_free, &g);
    CALL(MPI_Intercomm_merge, inter, rank, &merged);
    CALL(MPI_Comm_free, &merged);
    CALL(MPI_Comm_free, &inter);
    CALL(MPI_Comm_free, &s);
`},
	{"attributes", `
    int key, tkey, okey, flag, val = 7, *got;
    MPI_Datatype t;
    CALL(MPI_Comm_create_keyval, MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    CALL(MPI_Comm_set_attr, comm, key, &val);
    CALL(MPI_Comm_get_attr, comm, key, &got, &flag);
    CALL(MPI_Comm_get_attr, comm, MPI_TAG_UB, &got, &flag);
    CALL(MPI_Comm_delete_attr, comm, key);
    CALL(MPI_Comm_free_keyval, &key);
    CALL(MPI_Type_dup, MPI_INT, &t);
    CALL(MPI_Type_create_keyval, MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL);
    CALL(MPI_Type_set_attr, t, tkey, &val);
    CALL(MPI_Type_get_attr, t, tkey, &got, &flag);
    CALL(MPI_Type_delete_attr, t, tkey);
    CALL(MPI_Type_free_keyval, &tkey);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Keyval_create, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &okey, NULL);
    CALL(MPI_Attr_put, comm, okey, &val);
    CALL(MPI_Attr_get, comm, okey, &got, &flag);
    CALL(MPI_Attr_delete, comm, okey);
    CALL(MPI_Keyval_free, &okey);
`},
	{"datatypes", `
    MPI_Datatype t, u, w;
    MPI_Aint lb, extent, disp[2] = {0, 8};
    MPI_Count c, clb, cext;
    int size, blens[2] = {1, 1}, idx[2] = {0, 2}, ni, na, nd, comb, len;
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    char name[MPI_MAX_OBJECT_NAME];
    CALL(MPI_Type_contiguous, 2, MPI_INT, &t);
    CALL(MPI_Type_commit, &t);
    CALL(MPI_Type_size, t, &size);
    CALL(MPI_Type_size_x, t, &c);
    CALL(MPI_Type_get_extent, t, &lb, &extent);
    CALL(MPI_Type_get_extent_x, t, &clb, &cext);
    CALL(MPI_Type_get_true_extent, t, &lb, &extent);
    CALL(MPI_Type_get_true_extent_x, t, &clb, &cext);
    CALL(MPI_Type_set_name, t, "mpits-pair");
    CALL(MPI_Type_get_name, t, name, &len);
    CALL(MPI_Type_create_resized, t, 0, 16, &u);
    CALL(MPI_Type_free, &u);
    CALL(MPI_Type_dup, t, &u);
    CALL(MPI_Type_free, &u);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_vector, 2, 1, 2, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_create_hvector, 2, 1, 8, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_indexed, 2, blens, idx, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_create_hindexed, 2, blens, disp, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_create_indexed_block, 2, 1, idx, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_create_hindexed_block, 2, 1, disp, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_create_struct, 2, blens, disp, types, &t);
    CALL(MPI_Type_get_envelope, t, &ni, &na, &nd, &comb);
    {
        int ints[8];
        MPI_Aint addrs[8];
        MPI_Datatype dts[8];
        CALL(MPI_Type_get_contents, t, 8, 8, 8, ints, addrs, dts);
        for (int i = 0; i < nd && i < 8; i++) {
            int e1, e2, e3, e4;
            CALL(MPI_Type_get_envelope, dts[i], &e1, &e2, &e3, &e4);
            if (e4 != MPI_COMBINER_NAMED)
                CALL(MPI_Type_free, &dts[i]);
        }
    }
    CALL(MPI_Type_free, &t);
    int sizes[2] = {4, 4}, subs[2] = {2, 2}, starts[2] = {1, 1};
    CALL(MPI_Type_create_subarray, 2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    int gs[1] = {4}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {2};
    CALL(MPI_Type_create_darray, 2, rank, 1, gs, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &t);
    CALL(MPI_Type_free, &t);
    CALL(MPI_Type_match_size, MPI_TYPECLASS_INTEGER, 4, &w);
    CALL(MPI_Type_create_f90_integer, 9, &w);
    CALL(MPI_Type_create_f90_real, 6, 30, &w);
    CALL(MPI_Type_create_f90_complex, 6, 30, &w);
    int x = 5, y;
    char pbuf[64];
    int pos = 0, psize;
    MPI_Aint apos = 0, asize;
    CALL(MPI_Pack_size, 1, MPI_INT, comm, &psize);
    CALL(MPI_Pack, &x, 1, MPI_INT, pbuf, sizeof pbuf, &pos, comm);
    pos = 0;
    CALL(MPI_Unpack, pbuf, sizeof pbuf, &pos, &y, 1, MPI_INT, comm);
    CALL(MPI_Pack_external_size, "external32", 1, MPI_INT, &asize);
    CALL(MPI_Pack_external, "external32", &x, 1, MPI_INT, pbuf, sizeof pbuf, &apos);
    apos = 0;
    CALL(MPI_Unpack_external, "external32", pbuf, sizeof pbuf, &apos, &y, 1, MPI_INT);
`},
	{"info", `
    MPI_Info info, dup, env;
    int n, flag, len;
    char key[MPI_MAX_INFO_KEY], val[64];
    CALL(MPI_Info_create, &info);
    CALL(MPI_Info_set, info, "mpits_key", "value");
    CALL(MPI_Info_get_nkeys, info, &n);
    CALL(MPI_Info_get_nthkey, info, 0, key);
    CALL(MPI_Info_get_valuelen, info, "mpits_key", &len, &flag);
    CALL(MPI_Info_get, info, "mpits_key", sizeof val - 1, val, &flag);
    len = sizeof val;
    CALL(MPI_Info_get_string, info, "mpits_key", &len, val, &flag);
    CALL(MPI_Info_dup, info, &dup);
    CALL(MPI_Info_delete, dup, "mpits_key");
    CALL(MPI_Info_free, &dup);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Info_create_env, 0, NULL, &env);
    CALL(MPI_Info_free, &env);
`},
	{"topologies", `
    MPI_Comm cart, sub, graph, dist;
    int dims[1] = {0}, periods[1] = {1}, coords[1], r, src, dst, nd, remain[1] = {1}, st;
    int nn, ne, indx[2] = {1, 2}, edges[2] = {1, 0}, nbrs[2], cnt, indeg, outdeg, weighted;
    CALL(MPI_Dims_create, size, 1, dims);
    CALL(MPI_Cart_create, comm, 1, dims, periods, 0, &cart);
    CALL(MPI_Cartdim_get, cart, &nd);
    CALL(MPI_Cart_get, cart, 1, dims, periods, coords);
    CALL(MPI_Cart_rank, cart, coords, &r);
    CALL(MPI_Cart_coords, cart, rank, 1, coords);
    CALL(MPI_Cart_shift, cart, 0, 1, &src, &dst);
    CALL(MPI_Cart_sub, cart, remain, &sub);
    CALL(MPI_Comm_free, &sub);
    CALL(MPI_Cart_map, comm, 1, dims, periods, &r);
    CALL(MPI_Topo_test, cart, &st);
    CALL(MPI_Graph_create, comm, 2, indx, edges, 0, &graph);
    CALL(MPI_Graphdims_get, graph, &nn, &ne);
    CALL(MPI_Graph_get, graph, 2, 2, indx, edges);
    CALL(MPI_Graph_neighbors_count, graph, rank, &cnt);
    CALL(MPI_Graph_neighbors, graph, rank, 2, nbrs);
    CALL(MPI_Graph_map, comm, 2, indx, edges, &r);
    CALL(MPI_Comm_free, &graph);
    int one[1] = {peer};
    CALL(MPI_Dist_graph_create_adjacent, comm, 1, one, MPI_UNWEIGHTED, 1, one, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist);
    CALL(MPI_Dist_graph_neighbors_count, dist, &indeg, &outdeg, &weighted);
    CALL(MPI_Dist_graph_neighbors, dist, 1, nbrs, MPI_UNWEIGHTED, 1, nbrs, MPI_UNWEIGHTED);
    CALL(MPI_Comm_free, &dist);
    int srcs[1] = {rank}, degs[1] = {1}, dsts[1] = {peer};
    CALL(MPI_Dist_graph_create, comm, 1, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist);
    CALL(MPI_Comm_free, &dist);
    /* Neighborhood collectives on the periodic ring. */
    int x[2] = {rank, rank}, y[2], counts[2] = {1, 1}, displs[2] = {0, 1};
    MPI_Aint wd[2] = {0, sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Request rq;
    MPI_Status stt;
    CALL(MPI_Neighbor_allgather, x, 1, MPI_INT, y, 1, MPI_INT, cart);
    CALL(MPI_Neighbor_allgatherv, x, 1, MPI_INT, y, counts, displs, MPI_INT, cart);
    CALL(MPI_Neighbor_alltoall, x, 1, MPI_INT, y, 1, MPI_INT, cart);
    CALL(MPI_Neighbor_alltoallv, x, counts, displs, MPI_INT, y, counts, displs, MPI_INT, cart);
    CALL(MPI_Neighbor_alltoallw, x, counts, wd, types, y, counts, wd, types, cart);
    CALL(MPI_Ineighbor_allgather, x, 1, MPI_INT, y, 1, MPI_INT, cart, &rq); CALL(MPI_Wait, &rq, &stt);
    CALL(MPI_Ineighbor_allgatherv, x, 1, MPI_INT, y, counts, displs, MPI_INT, cart, &rq); CALL(MPI_Wait, &rq, &stt);
    CALL(MPI_Ineighbor_alltoall, x, 1, MPI_INT, y, 1, MPI_INT, cart, &rq); CALL(MPI_Wait, &rq, &stt);
    CALL(MPI_Ineighbor_alltoallv, x, counts, displs, MPI_INT, y, counts, displs, MPI_INT, cart, &rq); CALL(MPI_Wait, &rq, &stt);
    CALL(MPI_Ineighbor_alltoallw, x, counts, wd, types, y, counts, wd, types, cart, &rq); CALL(MPI_Wait, &rq, &stt);
    CALL(MPI_Neighbor_allgather_init, x, 1, MPI_INT, y, 1, MPI_INT, cart, MPI_INFO_NULL, &rq);
    CALL(MPI_Start, &rq); CALL(MPI_Wait, &rq, &stt); CALL(MPI_Request_free, &rq);
    CALL(MPI_Neighbor_alltoall_init, x, 1, MPI_INT, y, 1, MPI_INT, cart, MPI_INFO_NULL, &rq);
    CALL(MPI_Start, &rq); CALL(MPI_Wait, &rq, &stt); CALL(MPI_Request_free, &rq);
    CALL(MPI_Comm_free, &cart);
`},
	{"one-sided", `
    MPI_Win win, shwin, dwin;
    MPI_Group g, wg;
    MPI_Info info;
    MPI_Request rq;
    MPI_Status st;
    MPI_Errhandler eh, old;
    int buf[4] = {0, 0, 0, 0}, x = 1, y, res, cmp = 0, flag, len, key, val = 3, *got;
    int *mem, *shmem;
    MPI_Aint shsize;
    int disp;
    char name[MPI_MAX_OBJECT_NAME];
    CALL(MPI_Win_create, buf, sizeof buf, sizeof(int), MPI_INFO_NULL, comm, &win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Put, &x, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Get, &y, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Accumulate, &x, 1, MPI_INT, peer, 1, 1, MPI_INT, MPI_SUM, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Get_accumulate, &x, 1, MPI_INT, &y, 1, MPI_INT, peer, 1, 1, MPI_INT, MPI_SUM, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Fetch_and_op, &x, &y, MPI_INT, peer, 2, MPI_SUM, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Compare_and_swap, &x, &cmp, &res, MPI_INT, peer, 3, win);
    CALL(MPI_Win_fence, 0, win);
    CALL(MPI_Win_lock, MPI_LOCK_SHARED, peer, 0, win);
    CALL(MPI_Rput, &x, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Rget, &y, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Raccumulate, &x, 1, MPI_INT, peer, 1, 1, MPI_INT, MPI_SUM, win, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Rget_accumulate, &x, 1, MPI_INT, &y, 1, MPI_INT, peer, 1, 1, MPI_INT, MPI_SUM, win, &rq);
    CALL(MPI_Wait, &rq, &st);
    CALL(MPI_Win_flush, peer, win);
    CALL(MPI_Win_flush_local, peer, win);
    CALL(MPI_Win_unlock, peer, win);
    CALL(MPI_Win_lock_all, 0, win);
    CALL(MPI_Win_flush_all, win);
    CALL(MPI_Win_flush_local_all, win);
    CALL(MPI_Win_sync, win);
    CALL(MPI_Win_unlock_all, win);
    CALL(MPI_Barrier, comm);
    CALL(MPI_Win_get_group, win, &wg);
    CALL(MPI_Group_excl, wg, 1, &rank, &g);
    CALL(MPI_Win_post, g, 0, win);
    CALL(MPI_Win_start, g, 0, win);
    CALL(MPI_Put, &x, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
    CALL(MPI_Win_complete, win);
    flag = 0;
    CALL(MPI_Win_test, win, &flag);
    if (!flag)
        CALL(MPI_Win_wait, win);
    CALL(MPI_Group_free, &g);
    CALL(MPI_Group_free, &wg);
    CALL(MPI_Win_set_name, win, "mpits-win");
    CALL(MPI_Win_get_name, win, name, &len);
    CALL(MPI_Info_create, &info);
    CALL(MPI_Win_set_info, win, info);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Win_get_info, win, &info);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Win_create_keyval, MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key, NULL);
    CALL(MPI_Win_set_attr, win, key, &val);
    CALL(MPI_Win_get_attr, win, key, &got, &flag);
    CALL(MPI_Win_delete_attr, win, key);
    CALL(MPI_Win_free_keyval, &key);
    CALL(MPI_Win_create_errhandler, on_win_error, &eh);
    CALL(MPI_Win_get_errhandler, win, &old);
    CALL(MPI_Win_set_errhandler, win, eh);
    CALL(MPI_Win_call_errhandler, win, MPI_ERR_OTHER);
    CALL(MPI_Win_set_errhandler, win, old);
    CALL(MPI_Errhandler_free, &eh);
    CALL(MPI_Errhandler_free, &old);
    CALL(MPI_Win_free, &win);
    CALL(MPI_Win_allocate, sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win);
    CALL(MPI_Win_free, &win);
    CALL(MPI_Win_allocate_shared, sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &shmem, &shwin);
    CALL(MPI_Win_shared_query, shwin, 0, &shsize, &disp, &mem);
    CALL(MPI_Win_free, &shwin);
    CALL(MPI_Win_create_dynamic, MPI_INFO_NULL, comm, &dwin);
    CALL(MPI_Win_attach, dwin, buf, sizeof buf);
    CALL(MPI_Win_detach, dwin, buf);
    CALL(MPI_Win_free, &dwin);
`},
	{"sessions", `
    MPI_Session session;
    MPI_Errhandler eh, old;
    MPI_Info info;
    MPI_Group g;
    MPI_Comm c;
    int n, len = 0;
    char pset[256];
    CALL(MPI_Session_create_errhandler, on_session_error, &eh);
    CALL(MPI_Session_init, MPI_INFO_NULL, eh, &session);
    CALL(MPI_Session_get_errhandler, session, &old);
    CALL(MPI_Session_set_errhandler, session, MPI_ERRORS_RETURN);
    CALL(MPI_Session_call_errhandler, session, MPI_ERR_OTHER);
    CALL(MPI_Session_get_num_psets, session, MPI_INFO_NULL, &n);
    len = sizeof pset;
    CALL(MPI_Session_get_nth_pset, session, MPI_INFO_NULL, 0, &len, pset);
    CALL(MPI_Session_get_pset_info, session, "mpi://WORLD", &info);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Session_get_info, session, &info);
    CALL(MPI_Info_free, &info);
    CALL(MPI_Group_from_session_pset, session, "mpi://WORLD", &g);
    CALL(MPI_Comm_create_from_group, g, "mpits.coverage", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    CALL(MPI_Comm_free, &c);
    CALL(MPI_Group_free, &g);
    CALL(MPI_Errhandler_free, &old);
    CALL(MPI_Session_finalize, &session);
    CALL(MPI_Errhandler_free, &eh);
`},
	{"status and handle conversion", `
    MPI_Status st;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    memset(&st, 0, sizeof st);
    CALL(MPI_Status_set_elements, &st, MPI_INT, 1);
    CALL(MPI_Status_set_cancelled, &st, 0);
    CALL(MPI_Status_c2f, &st, f);
    CALL(MPI_Status_f2c, f, &st);
`},
	{"tool information interface", `
    int provided_t, n, r;
    CALL(MPI_T_init_thread, MPI_THREAD_SINGLE, &provided_t);
    CALL(MPI_T_cvar_get_num, &n);
    if (n > 0) {
        char name[256], desc[256];
        int nl = sizeof name, dl = sizeof desc, verb, bind, scope, idx;
        MPI_Datatype dt;
        MPI_T_enum en;
        CALL(MPI_T_cvar_get_info, 0, name, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope);
        CALL(MPI_T_cvar_get_index, name, &idx);
    }
    CALL(MPI_T_pvar_get_num, &n);
    CALL(MPI_T_category_get_num, &n);
    if (n > 0) {
        char name[256], desc[256];
        int nl = sizeof name, dl = sizeof desc, nc, np, ncat;
        CALL(MPI_T_category_get_info, 0, name, &nl, desc, &dl, &nc, &np, &ncat);
        CALL(MPI_T_category_changed, &r);
    }
    MPI_T_pvar_session ps;
    CALL(MPI_T_pvar_session_create, &ps);
    CALL(MPI_T_pvar_session_free, &ps);
    CALL(MPI_T_finalize);
`},
	{"finalize", `
    int flag;
    CALL(MPI_Barrier, comm);
    CALL(MPI_Finalize);
    CALL(MPI_Finalized, &flag);
`},
}
