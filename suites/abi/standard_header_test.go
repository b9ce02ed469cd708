package abi

import (
	"os"
	"testing"

	"github.com/mpits/mpits/harness/settings"
)

// TestStandardConstantsHeader: the C list of the ABI constants is the one
// standard.go generates (MPITS_UPDATE_CONSTANTS=1, or go generate, rewrites it).
func TestStandardConstantsHeader(t *testing.T) {
	want := renderStandardConstants()
	if settings.Setting("MPITS_UPDATE_CONSTANTS").String() != "" {
		if err := os.WriteFile(standardConstantsHeader, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(standardConstantsHeader)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s differs from what suites/abi/standard.go generates: run go generate ./suites/abi", standardConstantsHeader)
	}
}
