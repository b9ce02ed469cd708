// Package harness runs real MPI jobs of real MPI implementations for the
// mpits suites: it loads implementations, probes their capabilities, builds
// fixtures, launches jobs with deadlines and decodes the records they write.
package mpi

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Impl is one MPI implementation as the implementations file describes it.
// Paths are as seen inside Root when Root is set (jobs then run through Prefix).
type Impl struct {
	ID           string            `json:"id"`
	Family       string            `json:"family"`
	Version      string            `json:"version"`
	Available    bool              `json:"available"`
	Reason       string            `json:"reason,omitempty"`
	Root         string            `json:"root,omitempty"`
	Prefix       []string          `json:"prefix,omitempty"`
	CC           string            `json:"cc"`
	FC           string            `json:"fc,omitempty"`
	CFlags       []string          `json:"cflags,omitempty"`
	LDFlags      []string          `json:"ldflags,omitempty"`
	Launcher     string            `json:"launcher"`
	LauncherArgs []string          `json:"launcher_args,omitempty"`
	NPFlag       string            `json:"np_flag,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	Lib          string            `json:"lib,omitempty"`
	LibDirs      []string          `json:"lib_dirs,omitempty"`
	ABI          *ABI              `json:"abi,omitempty"`
	ABIReason    string            `json:"abi_reason,omitempty"` // why there is no abi entry, as provisioning measured it
	TwinOf       string            `json:"twin_of,omitempty"`    // the same build but for one configure flag (mpich-noqmpi: QMPI compiled out)
	Notes        string            `json:"notes,omitempty"`
	Launch       string            `json:"launch,omitempty"` // how jobs start: "" (its own launcher), "srun", "salloc" (launch.go)
	Slurm        *Slurm            `json:"slurm,omitempty"`  // the srun and salloc modes' options
	Layer        *Layer            `json:"layer,omitempty"`  // a translation layer over the runtime that Family and Version name (layer.go)
}

// ABI describes how to build against and run on an implementation's MPI 5
// standard ABI library (libmpi_abi).
type ABI struct {
	CC      string   `json:"cc"`
	CFlags  []string `json:"cflags,omitempty"`
	LDFlags []string `json:"ldflags,omitempty"`
	Lib     string   `json:"lib"`
	LibDir  string   `json:"lib_dir"`
}

// HostPath maps a path inside the implementation's root to the host's view.
func (im *Impl) HostPath(p string) string {
	if im.Root == "" {
		return p
	}
	if im.Root == CorpusRoot {
		ReadFiles.Store(true) // a replayed judge looks at the implementation's files
	}
	return filepath.Join(im.Root, p)
}

// InnerPath maps a host path below Root to the path the implementation sees.
// A path outside Root is returned unchanged.
func (im *Impl) InnerPath(p string) string {
	if im.Root == "" {
		return p
	}
	rel, err := filepath.Rel(im.Root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return "/" + rel
}

// Command returns argv for running name with args for this implementation,
// with its command prefix (such as chroot) in front.
func (im *Impl) Command(name string, args ...string) []string {
	argv := append([]string{}, im.Prefix...)
	argv = append(argv, name)
	return append(argv, args...)
}

// ownLaunch is the implementation's own launcher starting n ranks of program.
func (im *Impl) ownLaunch(n int, program string, args []string) []string {
	np := im.NPFlag
	if np == "" {
		np = "-n"
	}
	argv := append([]string{im.Launcher}, im.LauncherArgs...)
	return append(append(argv, np, strconv.Itoa(n), program), args...)
}
