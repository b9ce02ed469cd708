package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// What PathFrom copies into a root is there for the suite's specs and gone
// when the suite ends; the host needs no copy, it sees into every root.
func TestImportedRemovedAtSuiteEnd(t *testing.T) {
	t.Setenv("MPITS_REPORT_DIR", "")
	root := t.TempDir()
	src := filepath.Join(t.TempDir(), "app-0123", "app")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	x := &rulebook.X{Impl: &mpi.Impl{ID: "in-root", Root: root}}
	host := &mpi.Impl{ID: "host"}
	var inner string
	ginkgo.BeforeSuite(func() {
		Setup(nil, nil)
		inner = x.PathFrom(host, src)
	})
	ginkgo.It("finds the copy inside the root", func() {
		gomega.Expect(filepath.Join(root, inner)).To(gomega.BeARegularFile())
	})
	gomega.RegisterFailHandler(ginkgo.Fail)
	if !ginkgo.RunSpecs(t, "imported") {
		t.Fatal("the suite failed")
	}
	if left, _ := filepath.Glob(filepath.Join(root, "tmp", "*")); len(left) > 0 {
		t.Errorf("left in the root after the suite: %v", left)
	}
	if got := (&rulebook.X{Impl: host}).PathFrom(x.Impl, "/usr/bin/app"); got != filepath.Join(root, "usr/bin/app") {
		t.Errorf("the host's path to a file in the root is %s, want %s", got, filepath.Join(root, "usr/bin/app"))
	}
	if _, err := os.Stat(filepath.Join(root, "usr")); err == nil {
		t.Error("PathFrom copied a file for the host")
	}
}
