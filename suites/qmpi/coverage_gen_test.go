package qmpi

import (
	"strings"
	"testing"
)

// A few declarations in the shapes MPICH's preprocessed mpi.h has them.
const headerSample = `
enum QMPI_Functions_enum {
    MPI_SEND_T,
    MPI_PCONTROL_T,
    MPI_WTIME_T,
    MPI_CART_CREATE_T,
    MPIX_GPU_QUERY_SUPPORT_T,
    MPI_NO_TYPEDEF_T,
    MPI_LAST_FUNC_T
};
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) __attribute__((visibility("default")));
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
typedef int (QMPI_Send_t) (QMPI_Context context, int tool_id, const void *buf, int count,
             MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
typedef int (QMPI_Pcontrol_t) (QMPI_Context context, int tool_id, const int level, ...);
typedef double (QMPI_Wtime_t) (QMPI_Context context, int tool_id);
typedef int (QMPI_Cart_create_t) (QMPI_Context context, int tool_id, MPI_Comm comm_old, int ndims,
             const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart);
typedef int (QMPIX_GPU_query_support_t) (QMPI_Context context, int tool_id, int gpu_type,
             int *is_supported);
typedef int (QMPI_Unnamed_t) (QMPI_Context context, int tool_id, MPI_Comm, void *);
`

func TestParseQMPIHeader(t *testing.T) {
	h, err := parseQMPIHeader(headerSample)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Enum, " "); got != "MPI_SEND_T MPI_PCONTROL_T MPI_WTIME_T MPI_CART_CREATE_T MPIX_GPU_QUERY_SUPPORT_T MPI_NO_TYPEDEF_T" {
		t.Errorf("enum: %s", got)
	}
	if len(h.Funcs) != 5 || strings.Join(h.NoTypes, " ") != "MPI_NO_TYPEDEF_T" {
		t.Errorf("funcs %d, without typedef %v", len(h.Funcs), h.NoTypes)
	}
	send := h.ByName["MPI_Send"]
	if send == nil || strings.Join(send.Args, ",") != "buf,count,datatype,dest,tag,comm" || send.Ret != "int" {
		t.Errorf("MPI_Send: %+v", send)
	}
	if p := h.ByName["MPI_Pcontrol"]; p == nil || !p.Variadic || strings.Join(p.Args, ",") != "level" {
		t.Errorf("MPI_Pcontrol: %+v", p)
	}
	if w := h.ByName["MPI_Wtime"]; w == nil || w.Ret != "double" || len(w.Params) != 0 {
		t.Errorf("MPI_Wtime: %+v", w)
	}
	if c := h.ByName["MPI_Cart_create"]; c == nil || strings.Join(c.Args, ",") != "comm_old,ndims,dims,periods,reorder,comm_cart" {
		t.Errorf("MPI_Cart_create: %+v", c)
	}
	if g := h.ByName["MPIX_GPU_query_support"]; g == nil || g.Enum != "MPIX_GPU_QUERY_SUPPORT_T" {
		t.Errorf("MPIX_GPU_query_support: %+v", g)
	}
	if !h.Declared["MPI_Send"] || !h.Declared["MPI_Status_c2f"] || h.Declared["MPI_Recv"] {
		t.Errorf("declared: %v", h.Declared)
	}
	tool := coverTool(h)
	for _, want := range []string{"va_arg(ap, int)", "((QMPI_Pcontrol_t *)mpits_f)(mpits_context, mpits_next_id, level, mpits_v)", "double mpits_r"} {
		if !strings.Contains(tool, want) {
			t.Errorf("generated tool lacks %q", want)
		}
	}
}

func TestUnnamedParameters(t *testing.T) {
	decl, name := paramName("MPI_Comm", 0)
	if decl != "MPI_Comm mpits_a0" || name != "mpits_a0" {
		t.Errorf("MPI_Comm: %q %q", decl, name)
	}
	decl, name = paramName("void *", 1)
	if decl != "void * mpits_a1" || name != "mpits_a1" {
		t.Errorf("void *: %q %q", decl, name)
	}
	if _, name = paramName("char **array_of_argv[]", 2); name != "array_of_argv" {
		t.Errorf("array: %q", name)
	}
}

func TestCoverAppSkipsUndeclared(t *testing.T) {
	h := &qmpiHeader{Declared: map[string]bool{}}
	app := mustLoadCoverApp(t)
	for _, s := range app.Sections {
		for _, m := range callRe.FindAllStringSubmatch(s.Code, -1) {
			h.Declared[m[1]] = true
		}
	}
	delete(h.Declared, "MPI_Psend_init")
	src, skipped := coverApp(app, h, nil, nil)
	if len(skipped) != 1 || !strings.Contains(skipped[0], "partitioned") || strings.Contains(src, "MPI_Psend_init") {
		t.Errorf("skipped %v", skipped)
	}
}

// The sections of fixtures/c/qmpi/cover_app.c, in the order they run: a
// marker lost in an edit merges two sections.
var coverSectionNames = []string{
	"before MPI_Init", "init", "environment", "errors", "point-to-point",
	"persistent point-to-point", "partitioned", "generalized requests",
	"large-count point-to-point", "collectives", "nonblocking collectives",
	"persistent collectives", "large-count collectives and datatypes", "groups",
	"communicators", "attributes", "datatypes", "info", "topologies", "one-sided",
	"sessions", "status and handle conversion", "tool information interface", "finalize",
}

func mustLoadCoverApp(t *testing.T) *coverAppSource {
	t.Helper()
	app, err := loadCoverApp()
	if err != nil {
		t.Fatal(err)
	}
	return app
}

func TestCoverAppFile(t *testing.T) {
	app := mustLoadCoverApp(t)
	var names []string
	for _, s := range app.Sections {
		names = append(names, s.Name)
		if !strings.HasPrefix(s.Code, "    {\n") || !strings.HasSuffix(s.Code, "\n    }\n") {
			t.Errorf("section %q is not one block in braces", s.Name)
		}
	}
	if got, want := strings.Join(names, "|"), strings.Join(coverSectionNames, "|"); got != want {
		t.Errorf("sections\n got %s\nwant %s", got, want)
	}
	if !strings.HasPrefix(app.Prelude, "#include <mpi.h>") || !strings.Contains(app.Prelude, "#define CALL(") {
		t.Errorf("prelude: %.80q", app.Prelude)
	}
	if !strings.HasPrefix(app.MainStart, "int main(") || !strings.HasSuffix(app.MainEnd, "return 0;\n}\n") {
		t.Errorf("main: %.80q ... %.80q", app.MainStart, app.MainEnd)
	}
}

func TestParseCoverAppMarkers(t *testing.T) {
	const ok = "/* about */\n/* mpits-prelude */\n\nP\n\n/* mpits-main */\nM\n    /* mpits-section: a b */\n    {\n    }\n/* mpits-section: c */\nC\n/* mpits-main-end */\nE\n"
	app, err := parseCoverApp(ok)
	if err != nil {
		t.Fatal(err)
	}
	if app.Prelude != "P\n" || app.MainStart != "M\n" || len(app.Sections) != 2 || app.Sections[0] != (coverSection{"a b", "    {\n    }\n"}) || app.MainEnd != "E\n" {
		t.Errorf("parsed %+v", app)
	}
	for _, bad := range []struct{ text, err string }{
		{"int x;\n", "no mpits- marker"},
		{strings.Replace(ok, "/* mpits-main */\n", "", 1), "out of order"},
		{strings.Replace(ok, "section: c", "section: a b", 1), "a second section"},
		{strings.Replace(ok, "section: c", "section: \"c\"", 1), "section name"},
		{strings.Replace(ok, "section: c", "sektion: c", 1), "unknown marker"},
		{strings.Replace(ok, "\nC\n", "\n\n", 1), "empty"},
		{ok[:strings.Index(ok, "/* mpits-main-end")], "before mpits-main-end"},
	} {
		if _, err := parseCoverApp(bad.text); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("%q: error %v, want %q", bad.text, err, bad.err)
		}
	}
}
