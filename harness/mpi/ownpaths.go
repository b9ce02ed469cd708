package mpi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/mpits/mpits/harness/settings"
)

// A path with a predictable name in a shared folder (/tmp) may be anything
// another local user put there first: a link to a file of ours, a FIFO
// that blocks whoever opens it, a folder of theirs. What mpits keeps there
// it uses only when it is its own.

// ownedBy says whether info (from Lstat, so a link is not a folder) is of
// this user.
func ownedBy(info fs.FileInfo) bool {
	sys, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}

// ownDir says whether info (from Lstat) is a folder of this user that no
// one else can write.
func ownDir(info fs.FileInfo) bool {
	return info.IsDir() && ownedBy(info) && info.Mode().Perm()&0o022 == 0
}

// PrivateDir makes dir (0700) if need be and accepts it only when it is a
// folder, not a link, of this user's that no one else can write; one of
// ours left open (an older mpits made it 0755 or a umask opened it) is
// closed. Its error is one line that names what dir is instead.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return fmt.Errorf("cannot make %s (%v)", dir, settings.Cause(err))
	}
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("cannot read %s (%v)", dir, settings.Cause(err))
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder (%s)", dir, info.Mode().Type())
	case !ownedBy(info):
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d)", dir, info.Sys().(*syscall.Stat_t).Uid, os.Getuid())
	case info.Mode().Perm()&0o022 != 0:
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("%s can be written by others and cannot be closed (%v)", dir, settings.Cause(err))
		}
	}
	return nil
}

// errNotOwnFile refuses what OpenOwnFile opened.
var errNotOwnFile = errors.New("not a regular file of yours")

// OpenOwnFile opens path (flag as os.OpenFile's) only if it is a regular
// file of this user: a link as its last element is not followed, a FIFO
// does not block (O_NONBLOCK), and anything else is closed unread and
// unwritten. O_TRUNC is refused: the file is checked before it is
// changed, so truncate with File.Truncate.
func OpenOwnFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	if flag&os.O_TRUNC != 0 {
		return nil, fmt.Errorf("OpenOwnFile %s: O_TRUNC comes before the check; use File.Truncate", path)
	}
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && (!info.Mode().IsRegular() || !ownedBy(info)) {
		err = &fs.PathError{Op: "open", Path: path, Err: errNotOwnFile}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
