package rulebook

import (
	"debug/elf"
	"strings"
)

// HeaderOverlay is the text of the header overlays of x's preloaded
// injectors ("" when none carries one). A preloaded library cannot change
// a header's constants or declarations, so the injectors of the rules that
// judge a header carry, in their section .mpits_header_overlay, an mpi.h
// searched before the implementation's own (it ends with #include_next).
func (x *X) HeaderOverlay() string {
	var text []string
	for _, p := range x.Preload {
		f, err := elf.Open(x.Impl.HostPath(p))
		if err != nil {
			x.Errorf("", "injector %s: %v", p, err)
		}
		if s := f.Section(".mpits_header_overlay"); s != nil {
			b, err := s.Data()
			if err != nil {
				x.Errorf("", "injector %s: %v", p, err)
			}
			text = append(text, strings.TrimRight(string(b), "\x00"))
		}
		f.Close()
	}
	return strings.Join(text, "\n")
}
