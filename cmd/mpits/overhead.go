package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mpits/mpits/benchreport"
)

// mpits overhead [-out DIR] FILE...: the overhead report from the output of
// go test -bench ./overhead (one or more files).
func cmdOverhead(args []string) error {
	fs := flag.NewFlagSet("overhead", flag.ExitOnError)
	out := fs.String("out", "reports/overhead", "folder to write overhead.md, tables.txt, overhead.svg and summary.json into")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mpits overhead [-out DIR] BENCH-OUTPUT...\n(the output of go test -run '^$' -bench . -count=10 ./overhead)")
		fs.PrintDefaults()
	}
	fs.Parse(args)
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("overhead: no benchmark output given")
	}
	line, err := benchreport.Write(*out, fs.Args())
	if err != nil {
		return err
	}
	fmt.Println(line)
	return nil
}
