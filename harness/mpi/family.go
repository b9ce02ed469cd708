package mpi

import (
	"debug/elf"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A library's family is read from what it exports, not from which flag its
// compiler wrapper answers (WI4MPI's mpicc answers MPICH's -show whatever
// runs under it): Open MPI's libmpi exports ompi_*/OMPI_* names, MPICH's
// MPIR_* ones, and WI4MPI's interface libmpi its INTERFACE_F_LOCAL_*
// dispatch pointers, the runtime under it being what WI4MPI_TO names.
var familyMarks = []struct{ prefix, family string }{
	{"ompi_", "openmpi"}, {"OMPI_", "openmpi"}, {"MPIR_", "mpich"}, {"INTERFACE_F_LOCAL_", "wi4mpi"},
}

// libraryFamily says which family the shared library at path is by its
// exported symbols: "openmpi", "mpich", "wi4mpi", or "" when it cannot be
// read or shows none of the marks.
func libraryFamily(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return ""
	}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			continue
		}
		for _, m := range familyMarks {
			if strings.HasPrefix(s.Name, m.prefix) {
				return m.family
			}
		}
	}
	return ""
}

// wi4mpiTargets are WI4MPI_TO's values for the runtimes the harness knows.
var wi4mpiTargets = map[string]string{"OMPI": "openmpi", "MPICH": "mpich"}

var wi4mpiVersionLine = regexp.MustCompile(`(?m)^WI4MPI_VERSION="?([^"\s]+)"?`)

// wi4mpiLayer describes WI4MPI's interface mode from the implementation's
// environment: its version from $WI4MPI_ROOT/etc/wi4mpi.cfg (its own file),
// the runtime's family from WI4MPI_TO. Empty family: the environment does
// not say which runtime.
func wi4mpiLayer(env map[string]string) (layer *Layer, family string) {
	layer = &Layer{Name: "WI4MPI", Version: "unknown", Mode: "interface"}
	if data, err := os.ReadFile(filepath.Join(env["WI4MPI_ROOT"], "etc", "wi4mpi.cfg")); err == nil && env["WI4MPI_ROOT"] != "" {
		if m := wi4mpiVersionLine.FindSubmatch(data); m != nil {
			layer.Version = string(m[1])
		}
	}
	return layer, wi4mpiTargets[env["WI4MPI_TO"]]
}
