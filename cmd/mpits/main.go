// Command mpits judges an MPI, turns suite runs into reports and compares
// them with the committed baseline:
//
//	mpits run       [--mpi PREFIX | ...] [flags]  every conformance suite on your MPI, in one process (run.go)
//	mpits version                            the suite's commit and how many rules it judges
//	mpits first-verdict REPORT.json          how long after its start a run's first rule spec ended (ci/speed)
//	mpits benchsum  BENCH.txt                each benchmark's min, median and max (ci/speed)
//	mpits report    -raw DIR -out DIR        Ginkgo JSON + capabilities -> verdicts, matrix, implementations
//	mpits catalogue [-check] -out DIR        every rule of every suite: DIR/catalogue.md and DIR/rules.json
//	mpits injectors [-check] [-out FILE]     every shim in fixtures/c/inject with its class and the defect it mimics (reports/injectors.md)
//	mpits baseline  -baseline FILE -verdicts FILE [-update]
//	mpits suites                             the conformance suites' packages, for ci/run-suites
//	mpits sections  [-check] -standard DIR -out FILE   the standard's printed section numbers (harness/rulebook/sections_gen.go)
//	mpits bindings  [-check] -standard DIR -out FILE   the standard's C bindings, Annex A.3 (suites/abi/standard_bindings_gen.go)
//	mpits constants [-check] -standard DIR -out FILE   the standard's constants and types, Annex A.1.1/A.1.2 (suites/abi/standard_constants_gen.go)
//	mpits findings  [-check]                 each finding page's history by version, from the verdicts
//	mpits overhead  [-out DIR] FILE...          benchmark output -> benchstat tables, plot, the floor
//	mpits launches  -direct DIR -under MODE=DIR... -out FILE   verdicts through Slurm beside the direct run's
//	mpits corpus    [-check] -run OUT -out DIR   a run's records and verdicts as the judges' corpus (judges/)
//	mpits settings  [-check] [-readme FILE]      docs/settings.md's table of settings, from harness/settings/settings.go
//	mpits impl add  [-file FILE] -id ID -FIELD VALUE...   validate one implementation and write it into the implementations file
//	mpits impl list [-file FILE]                 the implementations file as a run reads it
//	mpits impl prefix [-file FILE] -id ID        the installation prefix of a host-installed implementation
//	mpits compare   [-impl-a ID [-impl-b ID]] [-no-errors] A B   two runs' verdicts, status by status
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = cmdRun(os.Args[2:])
	case "version":
		err = cmdVersion(os.Args[2:])
	case "first-verdict":
		err = cmdFirstVerdict(os.Args[2:])
	case "benchsum":
		err = cmdBenchSum(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	case "catalogue":
		err = cmdCatalogue(os.Args[2:])
	case "injectors":
		err = cmdInjectors(os.Args[2:])
	case "baseline":
		err = cmdBaseline(os.Args[2:])
	case "suites":
		err = cmdSuites(os.Args[2:])
	case "sections":
		err = fromStandard("sections", "harness/rulebook/sections_gen.go", sectionsGo)(os.Args[2:])
	case "bindings":
		err = fromStandard("bindings", "suites/abi/standard_bindings_gen.go", bindingsGo)(os.Args[2:])
	case "constants":
		err = fromStandard("constants", "suites/abi/standard_constants_gen.go", constantsGo)(os.Args[2:])
	case "checklist":
		err = cmdChecklist(os.Args[2:])
	case "findings":
		err = cmdFindings(os.Args[2:])
	case "overhead":
		err = cmdOverhead(os.Args[2:])
	case "launches":
		err = cmdLaunches(os.Args[2:])
	case "corpus":
		err = cmdCorpus(os.Args[2:])
	case "settings":
		err = cmdSettings(os.Args[2:])
	case "impl":
		err = cmdImpl(os.Args[2:])
	case "compare":
		err = cmdCompare(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mpits:", err)
		os.Exit(exitCode(err))
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: mpits run|version|first-verdict|benchsum|report|catalogue|injectors|baseline|suites|sections|bindings|constants|checklist|findings|overhead|launches|corpus|settings|impl|compare [flags] (see cmd/mpits/main.go)")
	os.Exit(2)
}
