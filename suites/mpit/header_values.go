package mpit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
)

// A header's constants cannot be changed by a preloaded library, so the
// fault injectors of the rules that judge them (ERR-2, META-1) are header
// overlays, as the ABI suite's are: the injector's shared object holds, in
// its section .mpits_header_overlay, an mpi.h that is searched before the
// implementation's own (it ends with #include_next <mpi.h>). The fixture
// was compiled before the injector was preloaded; where one carries an
// overlay, the judge reads the constants through a probe compiled against
// the implementation's headers behind the overlay.

// overlaidValues are the values names have in the implementation's mpi.h
// read through x's header overlays, or nil where no injector carries one.
// The probe is the host's gcc with the include folders of the
// implementation's compiler wrapper: constants need no library.
func overlaidValues(x *rulebook.X, names []string) map[string]int {
	overlay := x.HeaderOverlay()
	if overlay == "" {
		return nil
	}
	dirs := x.Impl.IncludeDirs()
	if len(dirs) == 0 {
		x.Errorf("", "the C compiler wrapper %s names no include folder (-I) where its mpi.h is, and an injector carries a header overlay", x.Impl.CC)
	}
	tmp, err := os.MkdirTemp("", "mpits-constants-")
	if err != nil {
		x.Errorf("", "%v", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Join(tmp, "overlay"), 0o755); err != nil {
		x.Errorf("", "%v", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "overlay", "mpi.h"), []byte(overlay), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	var src strings.Builder
	src.WriteString("#include <mpi.h>\n#include <stdio.h>\nint main(void) {\n")
	for _, n := range names {
		fmt.Fprintf(&src, "    printf(\"%s %%d\\n\", (int)(%s));\n", n, n)
	}
	src.WriteString("    return 0;\n}\n")
	if err := os.WriteFile(filepath.Join(tmp, "probe.c"), []byte(src.String()), 0o644); err != nil {
		x.Errorf("", "%v", err)
	}
	args := []string{"-std=gnu11", "-I" + filepath.Join(tmp, "overlay")}
	for _, d := range dirs {
		args = append(args, "-I"+d)
	}
	args = append(args, filepath.Join(tmp, "probe.c"), "-o", filepath.Join(tmp, "probe"))
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		x.Errorf(string(out), "the constants probe through the header overlay does not compile: %v", err)
	}
	out, err := exec.Command(filepath.Join(tmp, "probe")).Output()
	if err != nil {
		x.Errorf(string(out), "the constants probe through the header overlay: %v", err)
	}
	values := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, v, _ := strings.Cut(line, " ")
		n, err := strconv.Atoi(v)
		if err != nil {
			x.Errorf(string(out), "the constants probe printed %q", line)
		}
		values[name] = n
	}
	return values
}
