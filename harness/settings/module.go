package settings

import (
	"os"
	"path/filepath"
)

// ModuleRoot is the folder of the go.mod above the working folder (go test
// runs a package's tests in its folder), or "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && st.Mode().IsRegular() {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
