package mpi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/mpits/mpits/fixtures"
)

// embeddedFixtures writes the fixtures the binary carries into the cache,
// in a folder named after their content (a binary of another commit gets
// its own), and returns it. Written once a process; a complete folder is
// reused.
var embeddedFixtures = sync.OnceValues(func() (string, error) {
	sum, err := embeddedSum()
	if err != nil {
		return "", fmt.Errorf("the fixtures this binary carries cannot be read: %v", err)
	}
	dir := filepath.Join(CacheDir(), "fixtures", sum, "c")
	if _, err := os.Stat(filepath.Join(dir, recordHelper)); err == nil {
		return dir, nil
	}
	base := filepath.Join(CacheDir(), "fixtures")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("cannot make %s for the fixtures this binary carries: %v: set MPITS_CACHE to a folder you can write", base, err)
	}
	tmp, err := os.MkdirTemp(base, "new-")
	if err != nil {
		return "", fmt.Errorf("cannot write the fixtures this binary carries into %s: %v: set MPITS_CACHE to a folder you can write", CacheDir(), err)
	}
	defer os.RemoveAll(tmp)
	if err := os.CopyFS(tmp, fixtures.C); err != nil {
		return "", fmt.Errorf("cannot write the fixtures this binary carries into %s: %v", tmp, err)
	}
	// Another run may have put the same folder in place meanwhile: either
	// copy serves.
	if err := os.Rename(tmp, filepath.Dir(dir)); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, recordHelper)); serr != nil {
			return "", fmt.Errorf("cannot put the fixtures this binary carries in place at %s: %v", dir, err)
		}
	}
	return dir, nil
})

// embeddedSum is a digest of every embedded file's path and content.
func embeddedSum() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(fixtures.C, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fixtures.C, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}
