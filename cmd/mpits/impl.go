package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// mpits impl add: the one writer of the implementations file. Provisioning
// (ci/provision) builds and installs an MPI, then hands its facts here, one
// flag per field of the file (mpi.Impl's JSON names; abi.X and slurm.X
// for the nested ones; a list or env flag once per word). The entry is
// validated (mpi.Impl.Validate) and merged into the file
// (mpi.AddImpl). mpits impl list reads the file back as a run does.

const implUsage = `usage: mpits impl add [-file FILE] -id ID [-available=false -reason WHY] [-FIELD VALUE]...
       mpits impl list [-file FILE]
       mpits impl prefix [-file FILE] -id ID`

func cmdImpl(args []string) error {
	if len(args) == 0 {
		return errors.New("impl needs a subcommand: " + strings.ReplaceAll(implUsage, "\n       ", "; "))
	}
	switch args[0] {
	case "add":
		return cmdImplAdd(args[1:], os.Stdout)
	case "list":
		return cmdImplList(args[1:], os.Stdout)
	case "prefix":
		return cmdImplPrefix(args[1:], os.Stdout)
	}
	return fmt.Errorf("impl has no subcommand %q: %s", args[0], strings.ReplaceAll(implUsage, "\n       ", "; "))
}

// words is a flag given once per word of a list (impl add's list fields,
// launches' -under).
type words []string

func (w *words) String() string { return strings.Join(*w, " ") }
func (w *words) Set(v string) error {
	*w = append(*w, v)
	return nil
}

// envFlag is -env NAME=VALUE, once per variable.
type envFlag map[string]string

func (e envFlag) String() string { return "" }
func (e envFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not NAME=VALUE", v)
	}
	if _, dup := e[k]; dup {
		return fmt.Errorf("%s is given twice", k)
	}
	e[k] = val
	return nil
}

// parseImplFlags parses fs's flags, saying a bad one in one line with the
// way to the usage.
func parseImplFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stderr)
		fmt.Fprintln(os.Stderr, implUsage)
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return fmt.Errorf("impl %s: %v: see mpits impl %s -h", fs.Name(), err, fs.Name())
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("impl %s takes flags only, not %q: give a list one word a flag (-cflags -I/x -cflags -DY), see mpits impl %s -h", fs.Name(), fs.Arg(0), fs.Name())
	}
	return nil
}

func cmdImplAdd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("add", flag.ContinueOnError)
	var im mpi.Impl
	var abi mpi.ABI
	var slurm mpi.Slurm
	var layer mpi.Layer
	env := envFlag{}
	file := fs.String("file", mpi.DefaultImplFile(), "the implementations file to write (default: the one a run reads, $MPITS_CACHE/implementations.json)")
	keep := fs.Bool("keep", false, "leave an entry with this id as it is when the file has one (a placeholder for what is not provisioned yet)")
	fs.StringVar(&im.ID, "id", "", "the implementation's id (letters, digits, '.', '_', '-')")
	fs.StringVar(&im.Family, "family", "", "mpich or openmpi")
	fs.StringVar(&im.Version, "version", "", "the MPI library's version")
	fs.BoolVar(&im.Available, "available", true, "false: an entry reported unsupported on every rule, with -reason")
	fs.StringVar(&im.Reason, "reason", "", "why it is not available")
	fs.StringVar(&im.Root, "root", "", "the root it is installed in (its paths are as seen inside)")
	fs.Var((*words)(&im.Prefix), "prefix", "a word of the command prefix (chroot ROOT), once per word")
	fs.StringVar(&im.CC, "cc", "", "the C compiler wrapper")
	fs.StringVar(&im.FC, "fc", "", "the Fortran compiler wrapper")
	fs.Var((*words)(&im.CFlags), "cflags", "a compile flag, once per flag")
	fs.Var((*words)(&im.LDFlags), "ldflags", "a link flag, once per flag")
	fs.StringVar(&im.Launcher, "launcher", "", "the launcher (mpiexec)")
	fs.Var((*words)(&im.LauncherArgs), "launcher_args", "a launcher argument, once per word")
	fs.StringVar(&im.NPFlag, "np_flag", "", "the launcher's flag for the number of ranks (default -n)")
	fs.Var(env, "env", "NAME=VALUE set for its processes, once per variable")
	fs.StringVar(&im.Lib, "lib", "", "the C MPI library the capability probe loads")
	fs.Var((*words)(&im.LibDirs), "lib_dirs", "a folder for LD_LIBRARY_PATH, once per folder")
	fs.StringVar(&abi.CC, "abi.cc", "", "the compiler for the MPI 5 ABI (gcc)")
	fs.Var((*words)(&abi.CFlags), "abi.cflags", "an ABI compile flag, once per flag")
	fs.Var((*words)(&abi.LDFlags), "abi.ldflags", "an ABI link flag, once per flag")
	fs.StringVar(&abi.Lib, "abi.lib", "", "the MPI 5 ABI library")
	fs.StringVar(&abi.LibDir, "abi.lib_dir", "", "the folder holding libmpi_abi.so.1")
	fs.StringVar(&im.ABIReason, "abi_reason", "", "why there is no abi entry")
	fs.StringVar(&im.TwinOf, "twin_of", "", "the build this one is a twin of")
	fs.StringVar(&im.Notes, "notes", "", "what it is, for people")
	fs.StringVar(&im.Launch, "launch", "", "how jobs start: direct (or nothing), srun, salloc")
	fs.StringVar(&slurm.MPI, "slurm.mpi", "", "srun's --mpi plugin")
	fs.IntVar(&slurm.Nodes, "slurm.nodes", 0, "nodes a job of several ranks spreads over")
	fs.Var((*words)(&slurm.Args), "slurm.args", "an srun/salloc option, once per word")
	fs.StringVar(&layer.Name, "layer.name", "", "a translation layer over the runtime (WI4MPI), as its own files name it")
	fs.StringVar(&layer.Version, "layer.version", "", "the layer's version, as its own files say")
	fs.StringVar(&layer.Mode, "layer.mode", "", "interface (built with the layer's mpi.h) or preload (built for -layer.from)")
	fs.StringVar(&layer.From, "layer.from", "", "preload: the family the application is built against")
	if err := parseImplFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if len(env) > 0 {
		im.Env = env
	}
	if abi.CC != "" || abi.Lib != "" || abi.LibDir != "" || len(abi.CFlags) > 0 || len(abi.LDFlags) > 0 {
		im.ABI = &abi
	}
	if slurm.MPI != "" || slurm.Nodes != 0 || len(slurm.Args) > 0 {
		im.Slurm = &slurm
	}
	if layer != (mpi.Layer{}) {
		im.Layer = &layer
	}
	if *file == "" {
		return errors.New("impl add: -file is empty: name the implementations file to write")
	}
	what := "wrote"
	if *keep {
		wrote, err := mpi.AddImplIfAbsent(*file, im)
		if err != nil {
			return err
		}
		if !wrote {
			what = "kept the entry there for"
		}
	} else if err := mpi.AddImpl(*file, im); err != nil {
		return err
	}
	state := "available"
	if !im.Available {
		state = "unavailable"
	}
	fmt.Fprintf(out, "mpits impl add: %s: %s %s (%s)\n", *file, what, im.ID, state)
	return nil
}

// readImplFlags adds -file to fs, parses args with it and reads that
// implementations file as a run does.
func readImplFlags(fs *flag.FlagSet, args []string) (impls []*mpi.Impl, file string, err error) {
	f := fs.String("file", mpi.DefaultImplFile(), "the implementations file to read (default: the one a run reads)")
	if err := parseImplFlags(fs, args); err != nil {
		return nil, "", err
	}
	impls, err = mpi.ReadImplFile(*f)
	return impls, *f, err
}

// cmdImplList reads the file as a run does and says what it holds: a line
// an implementation, then how many are available. No available one is an
// error (nothing to run on).
func cmdImplList(args []string, out io.Writer) error {
	impls, file, err := readImplFlags(flag.NewFlagSet("list", flag.ContinueOnError), args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	n := 0
	for _, im := range impls {
		if im.Available {
			n++
			fmt.Fprintf(out, "%s: available: %s\n", im.ID, im.Names())
		} else {
			fmt.Fprintf(out, "%s: unavailable: %s\n", im.ID, verdict.FirstLine(im.Reason))
		}
	}
	fmt.Fprintf(out, "%d of %d implementations available in %s\n", n, len(impls), file)
	if n == 0 {
		return fmt.Errorf("no implementation in %s is available: each one's reason is above", file)
	}
	return nil
}

// cmdImplPrefix prints the installation prefix of an available
// implementation installed on the host (no root): the folder whose bin/
// holds its mpicc and mpiexec, which is what a vendor's MPITS_MPI names
// (ci/vendor-scenario, ci/prefix-swap).
func cmdImplPrefix(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("prefix", flag.ContinueOnError)
	id := fs.String("id", "", "the implementation's id")
	impls, file, err := readImplFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	for _, im := range impls {
		if im.ID == *id {
			prefix, err := im.InstallPrefix()
			if err != nil {
				return fmt.Errorf("impl prefix: %v", err)
			}
			fmt.Fprintln(out, prefix)
			return nil
		}
	}
	return fmt.Errorf("impl prefix: no implementation %q in %s: see mpits impl list", *id, file)
}
