// Package reports carries the committed verdicts of the reference builds,
// their finding pages and overhead plots in the mpits binary, so that a copy
// of it shows a vendor's run beside them on a machine without the clone.
// The files are the committed ones (ci/conformance writes them): nothing
// here is generated from them, so nothing can go stale.
package reports

import "embed"

// Committed holds verdicts.json, implementations.json, findings/*.md and
// overhead/*.svg.
//
//go:embed verdicts.json implementations.json findings/*.md overhead/*.svg
var Committed embed.FS
