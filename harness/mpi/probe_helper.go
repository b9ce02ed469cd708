package mpi

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/mpits/mpits/harness/settings"
)

func init() {
	if lib := settings.Setting(settings.ProbeLibEnv).String(); lib != "" {
		a, err := askLibrary(lib, settings.Setting(settings.ProbeModeEnv).String())
		if err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(3)
		}
		out, _ := json.Marshal(a)
		fmt.Println(string(out))
		os.Exit(0)
	}
}

// MPI_T thread level asked for; MPI_THREAD_SINGLE is 0 in every ABI.
const mpiThreadSingle = 0

func askLibrary(lib, mode string) (*libAnswers, error) {
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("dlopen %s: %v", lib, err)
	}
	call := func(name string, args ...uintptr) (int, bool) {
		sym, err := purego.Dlsym(h, name)
		if err != nil {
			return 0, false
		}
		r, _, _ := purego.SyscallN(sym, args...)
		return int(int32(r)), true
	}
	a := &libAnswers{}
	if mode == "abi" {
		if rc, ok := call("MPI_Abi_get_version", slot(0), slot(1)); !ok {
			a.ABI.Reason = "no MPI_Abi_get_version symbol in " + lib
		} else if rc != 0 {
			a.ABI.Reason = fmt.Sprintf("MPI_Abi_get_version returned %d", rc)
		} else {
			a.ABI.Lib, a.ABI.Version = lib, fmt.Sprintf("%d.%d", slots[0], slots[1])
		}
		return a, nil
	}
	if rc, ok := call("MPI_Get_version", slot(0), slot(1)); ok && rc == 0 {
		a.MPIVersion = fmt.Sprintf("%d.%d", slots[0], slots[1])
	}
	if rc, ok := call("MPI_Get_library_version", uintptr(unsafe.Pointer(&textBuf[0])), slot(0)); ok && rc == 0 {
		// First line, white space folded: MPICH pads it with a tab.
		a.LibraryVersion = strings.Join(strings.Fields(strings.SplitN(cString(textBuf[:]), "\n", 2)[0]), " ")
	}
	a.QMPI = askQMPI(call)
	a.MPIT = askMPIT(call)
	return a, nil
}

func askQMPI(call func(string, ...uintptr) (int, bool)) QMPICap {
	initFn := purego.NewCallback(func(id int32) {})
	rc, ok := call("QMPI_Register_tool_name", uintptr(unsafe.Pointer(&nameBuf[0])), initFn)
	switch {
	case !ok:
		return QMPICap{RC: -1, Reason: "no QMPI_Register_tool_name symbol in the library"}
	case rc != 0:
		return QMPICap{RC: rc, Reason: fmt.Sprintf("QMPI_Register_tool_name returned %d", rc)}
	}
	return QMPICap{Works: true}
}

func askMPIT(call func(string, ...uintptr) (int, bool)) MPITCount {
	c := MPITCount{Cvars: -1, Pvars: -1, Categories: -1, Events: -1, Sources: -1}
	rc, ok := call("MPI_T_init_thread", mpiThreadSingle, slot(0))
	if !ok || rc != 0 {
		c.Note = fmt.Sprintf("MPI_T_init_thread: present %v, returned %d", ok, rc)
		return c
	}
	var missing []string
	for _, q := range []struct {
		fn  string
		dst *int
	}{
		{"MPI_T_cvar_get_num", &c.Cvars}, {"MPI_T_pvar_get_num", &c.Pvars},
		{"MPI_T_category_get_num", &c.Categories}, {"MPI_T_event_get_num", &c.Events},
		{"MPI_T_source_get_num", &c.Sources},
	} {
		slots[2] = 0
		rc, ok := call(q.fn, slot(2))
		switch {
		case !ok:
			missing = append(missing, q.fn)
		case rc != 0:
			missing = append(missing, fmt.Sprintf("%s returned %d", q.fn, rc))
		default:
			*q.dst = int(slots[2])
		}
	}
	call("MPI_T_finalize")
	if len(missing) > 0 {
		c.Note = "missing: " + strings.Join(missing, ", ")
	}
	return c
}

// Out-arguments live in globals: Go never moves them, so the addresses
// handed to C as uintptr stay valid (a stack variable could move).
var (
	slots   [16]int32
	textBuf [16384]byte
	nameBuf = [...]byte{'m', 'p', 'i', 't', 's', '_', 'p', 'r', 'o', 'b', 'e', 0}
)

func slot(i int) uintptr { return uintptr(unsafe.Pointer(&slots[i])) }

func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
