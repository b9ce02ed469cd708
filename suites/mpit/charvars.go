package mpit

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// META-7 and META-8: MPI_CHAR control variables, from the reads run of
// fixtures/c/mpit/cvar_rw.c (the job CVAR-10 to CVAR-12 judge): each one
// read into a buffer of its handle's count, canaries after it; "charvar"
// gives the index of the first NUL (within the count, in the 32 bytes after
// it, or -1: none there).

type charVarRec struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Count int    `json:"count"`
	NUL   int    `json:"nul"`
	Value string `json:"value"`
}

func charVars(x *rulebook.X) []charVarRec {
	job, _ := cvarReadsJob(x)
	res, recs, err := x.LaunchOnce(job)
	if err != nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	if !res.OK() {
		x.Errorf(res.Evidence(), "the reads run died: %s", res.Problem())
	}
	cv := mpi.Decode[charVarRec](recs, "charvar")
	if len(cv) == 0 {
		x.Unsupported("not measurable here: no control variable of type MPI_CHAR read successfully (%d control variables)", len(walk(x).cvars))
	}
	return cv
}

// meta7Exposure: an empty value (its NUL first) fits any count of one or
// more: only a value with characters could have outgrown the count.
var meta7Exposure = rulebook.Exposure[charVarRec]{Items: "MPI_CHAR control variables",
	When:  "when the value read is not empty (an empty one fits any count of one or more)",
	Could: func(c charVarRec) bool { return c.NUL != 0 }}

// §15.3.5: "If a variable has type MPI_CHAR, the value of the count
// parameter returned by MPI_T_CVAR_HANDLE_ALLOC and MPI_T_PVAR_HANDLE_ALLOC
// must be large enough to include any valid value, including its
// terminating null character." The values the variables hold are valid
// ones: each, with its NUL, fits in the count.
func judgeMeta7(x *rulebook.X) verdict.Verdict {
	var bad []string
	longest, count := -1, 0
	cv := charVars(x)
	for _, c := range cv {
		switch {
		case c.NUL < 0:
			bad = append(bad, fmt.Sprintf("%s (%d): count %d, and the value read has no NUL within %d bytes: value and NUL do not fit the count", c.Name, c.Index, c.Count, c.Count+32))
		case c.NUL >= c.Count:
			bad = append(bad, fmt.Sprintf("%s (%d): count %d, the value read is %d characters long: with its NUL it does not fit the count", c.Name, c.Index, c.Count, c.NUL))
		case c.NUL > longest:
			longest, count = c.NUL, c.Count
		}
	}
	x.FailOn(bad, "")
	nonEmpty := 0
	for _, c := range cv {
		if meta7Exposure.Could(c) {
			nonEmpty++
		}
	}
	return meta7Exposure.Pass(cv, "%d MPI_CHAR control variables, %d of them not empty: each value read fits its count with its NUL (longest %d characters, count %d)", len(cv), nonEmpty, longest, count)
}

// meta8Exposure: the buffer is filled with 0xA5 first, so a NUL the
// library did not write shows.
var meta8Exposure = rulebook.Exposure[charVarRec]{Items: "MPI_CHAR control variables",
	When: "every one read (the buffer is filled with 0xA5 first: a NUL the library did not write shows)"}

// §15.3.5: "The use of the datatype MPI_CHAR in the MPI tool information
// interface implies a null-terminated character array, i.e., a string in
// the C language." ... "The contents of returned MPI_CHAR arrays are only
// defined from index 0 through the location of the first null character."
// A read into count bytes returns a NUL among them.
func judgeMeta8(x *rulebook.X) verdict.Verdict {
	var bad []string
	cv := charVars(x)
	for _, c := range cv {
		if c.NUL < 0 || c.NUL >= c.Count {
			where := "none in the 32 bytes after them either"
			if c.NUL >= 0 {
				where = fmt.Sprintf("the first at index %d, past the count", c.NUL)
			}
			bad = append(bad, fmt.Sprintf("%s (%d): MPI_T_cvar_read wrote no NUL in the %d bytes of its count (%s)", c.Name, c.Index, c.Count, where))
		}
	}
	x.FailOn(bad, "")
	return meta8Exposure.Pass(cv, "%d MPI_CHAR control variables read: each array NUL-terminated within its count", len(cv))
}
