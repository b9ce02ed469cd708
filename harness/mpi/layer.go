package mpi

import (
	"fmt"
	"slices"
	"strings"
)

// Layer is a translation layer between the application and the MPI that
// runs it (WI4MPI): the application is built with the layer's own mpi.h or
// against another family's, and every call goes through the layer to the
// runtime. An implementation with a layer has two names: the layer's here,
// read by provisioning from the layer's own files, and the runtime's, which
// are the entry's family and version (what MPI_Get_library_version passes
// through, and what picks the launcher's defaults).
type Layer struct {
	Name    string `json:"name"`           // "WI4MPI"
	Version string `json:"version"`        // as the layer's own files say (etc/wi4mpi.cfg)
	Mode    string `json:"mode"`           // "interface": its own mpi.h; "preload": an application built for From
	From    string `json:"from,omitempty"` // preload: the family the application was built against
}

// LayerModes are the ways a layer stands between application and runtime.
var LayerModes = []string{"interface", "preload"}

// validate says in one line what is missing or unknown.
func (l *Layer) validate(head string) error {
	if l.Name == "" || l.Version == "" {
		return fmt.Errorf(`%slayer needs its name and version (as its own files say): give layer.name and layer.version, or leave the layer out`, head)
	}
	switch l.Mode {
	case "interface":
		if l.From != "" {
			return fmt.Errorf(`%slayer mode interface builds with the layer's own mpi.h: leave layer.from out (it is preload's)`, head)
		}
	case "preload":
		if l.From == "" {
			return fmt.Errorf(`%slayer mode preload needs layer.from, the family the application is built against (%s)`, head, strings.Join(implFamilies, " or "))
		}
	default:
		return fmt.Errorf(`%slayer mode %q is not known: use %s`, head, l.Mode, strings.Join(LayerModes, " or "))
	}
	if l.From != "" && !slices.Contains(implFamilies, l.From) {
		return fmt.Errorf(`%slayer from %q is not known: use %s`, head, l.From, strings.Join(implFamilies, " or "))
	}
	return nil
}

// String names the layer and how it stands: "WI4MPI 4.0.1 (interface)",
// "WI4MPI 4.0.1 (preload from openmpi)".
func (l *Layer) String() string {
	mode := l.Mode
	if l.From != "" {
		mode += " from " + l.From
	}
	return fmt.Sprintf("%s %s (%s)", l.Name, l.Version, mode)
}

// Names says both layers of an implementation in one phrase: "WI4MPI 4.0.1
// (interface) on openmpi 4.1.4", or "mpich 4.0.2" without a layer.
func (im *Impl) Names() string {
	rt := strings.TrimSpace(im.Family + " " + im.Version)
	if im.Layer == nil {
		return rt
	}
	return im.Layer.String() + " on " + rt
}
