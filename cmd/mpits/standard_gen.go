package main

import (
	"flag"

	"github.com/mpits/mpits/harness/mpi"
)

// fromStandard is a command that generates a Go file from the standard's
// text (../shared/reference/standard) with gen, or with -check only says
// whether the file is up to date: sections, bindings and constants.
func fromStandard(name, defaultOut string, gen func(dir string) (string, error)) func(args []string) error {
	return generator(name, "standard", "../shared/reference/standard", "folder with the standard's text", defaultOut, gen)
}

// generator is a command that generates a Go file from a source of
// ../shared (given by the flag src) with gen, or with -check only says
// whether the file is up to date.
func generator(name, src, srcDefault, srcUsage, defaultOut string, gen func(src string) (string, error)) func(args []string) error {
	return func(args []string) error {
		fs := flag.NewFlagSet(name, flag.ExitOnError)
		from := fs.String(src, srcDefault, srcUsage)
		out := fs.String("out", defaultOut, "Go file to write")
		check := fs.Bool("check", false, "only check that the file is up to date")
		fs.Parse(args)
		text, err := gen(*from)
		if err != nil {
			return err
		}
		if *check {
			return checkFresh(*out, text, "go run ./cmd/mpits "+name)
		}
		return mpi.WriteAtomic(*out, []byte(text), 0o644)
	}
}
