package settings

import (
	"errors"
	"os"
)

// Cause is an error without the path its *PathError repeats.
func Cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
