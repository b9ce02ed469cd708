package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 000 defines the inputs: a tool_name that "needs to match the one
// provided in the environment variable", tool ids handed out by the init
// callbacks, and function_enum values of QMPI_Functions_enum (up to
// MPI_LAST_FUNC). Every QMPI function returns an int error code (MPI-4.1
// §2.8: "all MPI routines return an error value"), so an input outside
// those sets gets an error code, not a crash, not a silent success, and
// leaves QMPI's tables intact. For list shapes that can be read sensibly
// (a trailing ':', a listed tool never loaded), working as if the entry were
// absent is accepted too; the empty list has no name to match.
var badInput = harness.Define(harness.Check{
	ID:        "QMPI-BADINPUT-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "bad input (unlisted name, enum < 0 or ≥ MPI_LAST_FUNC_T, tool ids 0/12345/-1, a listed tool never loaded, empty list, trailing ':', 300-character name, QMPI calls after MPI_Finalize) gives error codes, no crash, no corrupted tables",
	Injectors: []string{"inject_qmpi_drop_error"},
	Run:       runBadInput,
})

type badCase struct {
	name    string
	list    string
	toolAs  string // the name the tool registers (default "bad")
	explain string
}

func badCases() []badCase {
	long := strings.Repeat("n", 300)
	return []badCase{
		{name: "unlisted", list: "bad", explain: "registering a name not in the tool list"},
		{name: "enum_below", list: "bad", explain: "QMPI_Register_function / QMPI_Get_function with enum value -1"},
		{name: "enum_last", list: "bad", explain: "QMPI_Register_function / QMPI_Get_function with MPI_LAST_FUNC_T"},
		{name: "id_zero", list: "bad", explain: "tool id 0 (never handed out)"},
		{name: "id_unknown", list: "bad", explain: "tool id 12345 (never handed out)"},
		{name: "id_negative", list: "bad", explain: "tool id -1"},
		{name: "listed_not_loaded", list: "bad:ghost", explain: "a tool listed (ghost) but never loaded"},
		{name: "empty_list", list: "", explain: "an empty tool list"},
		{name: "trailing_colon", list: "bad:", explain: "a tool list with a trailing ':'"},
		{name: "long_name", list: long, toolAs: long, explain: "a 300-character tool name (listed and registered)"},
		{name: "after_finalize", list: "bad", explain: "QMPI calls after MPI_Finalize"},
	}
}

type badCall struct {
	Call string `json:"call"`
	RC   int    `json:"rc"`
}

type badCheck struct {
	What   string `json:"what"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func runBadInput(x *harness.X) harness.Verdict {
	requireQMPI(x)
	var problems, evidence, fine []string
	cases := badCases()
	for _, c := range cases {
		env := map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": c.list, "MPITS_QMPI_BAD_CASE": c.name}
		if c.toolAs != "" {
			env["MPITS_QMPI_BAD_NAME"] = c.toolAs
		}
		res, recs, recErr := x.Launch(harness.Job{
			Name: "qmpi_app_layer bad input " + c.name, Ranks: 1, Program: x.Fixture("qmpi_app_layer"), Args: []string{"init", "1"},
			RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_bad")}, Env: env,
		})
		var mine []string
		add := func(format string, args ...any) {
			mine = append(mine, fmt.Sprintf("%s (%s): ", c.explain, c.name)+fmt.Sprintf(format, args...))
		}
		text := ""
		if recs != nil {
			text = recordsText(recs)
		}
		if !res.OK() {
			at := ""
			if recs != nil {
				at = crashPoint(recs)
			}
			add("%s%s", res.Problem(), at)
			evidence = append(evidence, fmt.Sprintf("== %s\n%s\n%s", c.name, text, res.Evidence()))
		} else if recErr != nil {
			panic(harness.Verdict{Status: harness.Error, Reason: recErr.Error(), Evidence: res.Evidence()})
		}
		if recs != nil {
			for _, b := range decodeAll[badCall](x, recs, "bad_call") {
				if b.RC == 0 {
					add("%s returned MPI_SUCCESS", b.Call)
				}
			}
			for _, b := range decodeAll[badCheck](x, recs, "bad_check") {
				if !b.OK {
					add("%s: no (%s)", b.What, b.Detail)
				}
			}
			if len(recs.Kind("marker_called", -1)) > 0 {
				add("a function registered under a bad id or enum value was called")
			}
			if len(recs.Kind("unlisted_init", -1)) > 0 || len(recs.Kind("late_init", -1)) > 0 {
				add("an init callback ran for a name that was not listed")
			}
			if res.OK() {
				judgeListShape(x, c, recs, add)
			}
		}
		if len(mine) > 0 && res.OK() {
			evidence = append(evidence, fmt.Sprintf("== %s\n%s", c.name, text))
		}
		if len(mine) == 0 {
			fine = append(fine, c.name)
		}
		problems = append(problems, mine...)
	}
	if len(problems) > 0 {
		x.Failf(strings.Join(problems, "\n")+"\n\n"+strings.Join(evidence, "\n"), "%d of %d bad inputs mishandled; first: %s", countCases(problems, cases), len(cases), problems[0])
	}
	return harness.Verdict{Reason: fmt.Sprintf("all %d bad inputs gave error codes (or, for list shapes, a working stack) without crashing or corrupting QMPI's tables", len(cases))}
}

// judgeListShape checks the cases made by the tool list itself.
func judgeListShape(x *harness.X, c badCase, recs *harness.Records, add func(string, ...any)) {
	type reg struct {
		RC int `json:"rc"`
	}
	regs := decodeAll[reg](x, recs, "bad_register")
	inits := len(recs.Kind("bad_init", -1))
	hooks := len(recs.Kind("bad_hook", -1))
	apps := decodeAll[appInit](x, recs, "app_init_returned")
	regRC, initRC := -1, -1
	if len(regs) > 0 {
		regRC = regs[0].RC
	}
	if len(apps) > 0 {
		initRC = apps[0].RC
	}
	works := inits == 1 && hooks == 1
	switch c.name {
	case "empty_list":
		if inits > 0 {
			add("the tool was initialized though no tool is listed")
		} else if regRC == 0 {
			add("QMPI_Register_tool_name returned MPI_SUCCESS, yet the tool was never initialized")
		}
	case "long_name":
		if regRC == 0 && !works {
			add("QMPI_Register_tool_name returned MPI_SUCCESS, yet the tool got %d init callbacks and saw %d of 1 MPI_Barrier", inits, hooks)
		}
	case "trailing_colon", "listed_not_loaded":
		if regRC == 0 && initRC == 0 && !works {
			add("MPI_Init returned MPI_SUCCESS, yet the loaded tool got %d init callbacks and saw %d of 1 MPI_Barrier", inits, hooks)
		}
	}
}

// crashPoint names where a job died: in the bad call under way (recorded
// before it was made and not after), or in MPI_Init.
func crashPoint(recs *harness.Records) string {
	pending := ""
	for _, r := range recs.All {
		var b badCall
		switch r.Kind {
		case "bad_calling":
			if r.Decode(&b) == nil {
				pending = b.Call
			}
		case "bad_call":
			pending = ""
		}
	}
	switch {
	case pending != "":
		return " inside " + pending
	case len(recs.Kind("app_init_returned", -1)) == 0:
		return " inside MPI_Init"
	}
	return ""
}

func countCases(problems []string, cases []badCase) int {
	n := 0
	for _, c := range cases {
		for _, p := range problems {
			if strings.Contains(p, "("+c.name+")") {
				n++
				break
			}
		}
	}
	return n
}
