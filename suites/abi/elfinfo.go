package abi

import (
	"debug/elf"
	"fmt"
	"strings"
)

// elfInfo is what the dynamic section and symbol table of one file say.
type elfInfo struct {
	Path    string
	Soname  string
	Needed  []string
	Runpath []string          // DT_RUNPATH and DT_RPATH
	Symbols map[string]export // defined dynamic symbols
}

// export is one defined dynamic symbol.
type export struct {
	Type elf.SymType
	Bind elf.SymBind
}

// isFunction: what a caller of a function can jump to.
func (e export) isFunction() bool {
	return e.Type == elf.STT_FUNC || e.Type == elf.STT_GNU_IFUNC
}

// readELF reads a file's dynamic section and dynamic symbols (host path).
func readELF(path string) (*elfInfo, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info := &elfInfo{Path: path, Symbols: map[string]export{}}
	if s, err := f.DynString(elf.DT_SONAME); err == nil && len(s) > 0 {
		info.Soname = s[0]
	}
	info.Needed, _ = f.DynString(elf.DT_NEEDED)
	for _, tag := range []elf.DynTag{elf.DT_RUNPATH, elf.DT_RPATH} {
		if s, err := f.DynString(tag); err == nil {
			info.Runpath = append(info.Runpath, s...)
		}
	}
	syms, err := f.DynamicSymbols()
	if err != nil && err != elf.ErrNoSymbols {
		return nil, fmt.Errorf("%s: dynamic symbols: %v", path, err)
	}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			continue
		}
		b := elf.ST_BIND(s.Info)
		if b != elf.STB_GLOBAL && b != elf.STB_WEAK {
			continue
		}
		// Versioned names (foo@@VER) are looked up by their bare name.
		name := s.Name
		if i := strings.IndexByte(name, '@'); i >= 0 {
			name = name[:i]
		}
		info.Symbols[name] = export{Type: elf.ST_TYPE(s.Info), Bind: b}
	}
	return info, nil
}

// mpiNeeded are the entries of DT_NEEDED that name an MPI library.
func (e *elfInfo) mpiNeeded() []string {
	var out []string
	for _, n := range e.Needed {
		if strings.Contains(n, "mpi") {
			out = append(out, n)
		}
	}
	return out
}
