package mpi

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
)

// sharedLib builds a shared library exporting the one symbol name, as the
// families' libraries export their marks.
func sharedLib(t *testing.T, path, symbol string) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc to build a shared library")
	}
	src := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "s.c"), "int "+symbol+" = 1;\n", 0o644)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", path, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc -shared: %v: %s", err, out)
	}
}

// A wrapper answering MPICH's -show (as WI4MPI's does) over a library that
// is another family's: the library decides.
func TestFamilyFromLibrary(t *testing.T) {
	for _, c := range []struct{ symbol, want string }{
		{"ompi_mpi_comm_world", "openmpi"}, {"OMPI_Affinity_str", "openmpi"}, {"MPIR_Dup_fn", "mpich"},
		{"some_other_name", "mpich"}, // no mark: the wrapper's flag
	} {
		dir := t.TempDir()
		lib := filepath.Join(dir, "lib", "libmpi.so")
		sharedLib(t, lib, c.symbol)
		cc := mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpicc"), "#!/bin/sh\n[ \"$1\" = -show ] || exit 1\necho gcc -L"+filepath.Dir(lib)+" -lmpi\n", 0o755)
		im, err := ImplFromWrapper("fake", cc, "/bin/true", nil)
		if err != nil {
			t.Fatal(err)
		}
		if im.Family != c.want || im.Layer != nil {
			t.Errorf("library exporting %s: family %q layer %v, want %q and no layer", c.symbol, im.Family, im.Layer, c.want)
		}
	}
}

// WI4MPI's interface library: the layer from its own configuration file,
// the runtime's family from WI4MPI_TO; without it, one line saying what to give.
func TestFamilyOfWI4MPI(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib", "libmpi.so")
	sharedLib(t, lib, "INTERFACE_F_LOCAL_MPI_Init")
	mpitest.WriteFile(t, filepath.Join(root, "etc", "wi4mpi.cfg"), "#This part is handled by cmake\nWI4MPI_VERSION=\"4.0.1\"\n", 0o644)
	cc := mpitest.WriteFile(t, filepath.Join(root, "bin", "mpicc"), "#!/bin/sh\n[ \"$1\" = -show ] || exit 1\necho gcc -I"+root+"/include -L"+root+"/lib -lmpi\n", 0o755)
	im, err := ImplFromWrapper("w", cc, "/bin/true", map[string]string{"WI4MPI_ROOT": root, "WI4MPI_TO": "OMPI"})
	if err != nil {
		t.Fatal(err)
	}
	if im.Family != "openmpi" || im.Layer == nil || im.Layer.String() != "WI4MPI 4.0.1 (interface)" {
		t.Fatalf("family %q layer %v, want openmpi under WI4MPI 4.0.1 (interface)", im.Family, im.Layer)
	}
	if len(im.LauncherArgs) == 0 {
		t.Errorf("the runtime is Open MPI: its launcher defaults, got none")
	}
	im.Version = "4.1.4"
	if got := im.Names(); got != "WI4MPI 4.0.1 (interface) on openmpi 4.1.4" {
		t.Errorf("Names() = %q", got)
	}
	_, err = ImplFromWrapper("w", cc, "/bin/true", map[string]string{"WI4MPI_ROOT": root})
	mpitest.WantOneLineErr(t, err, "links WI4MPI's interface library", "WI4MPI_TO", "MPITS_ENV")
}

func TestLayerValidate(t *testing.T) {
	base := Impl{ID: "w", Available: false, Reason: "not built"}
	for _, c := range []struct {
		layer Layer
		want  string
	}{
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "interface"}, ""},
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "preload", From: "openmpi"}, ""},
		{Layer{Name: "WI4MPI", Mode: "interface"}, "needs its name and version"},
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "preload"}, "needs layer.from"},
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "interface", From: "mpich"}, "leave layer.from out"},
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "both"}, `mode "both" is not known`},
		{Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "preload", From: "intel"}, `from "intel" is not known`},
	} {
		im := base
		l := c.layer
		im.Layer = &l
		err := im.Validate()
		if c.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", l, err)
			}
			continue
		}
		mpitest.WantOneLineErr(t, err, c.want)
	}
}
