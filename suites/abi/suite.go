// Package abi checks the MPI 5.0 standard ABI (libmpi_abi) across
// implementations, and the pre-standard ABIs (seed 003).
package abi

import (
	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Suite is the ABI suite.
var Suite = &harness.Suite{
	Name: "ABI",
	Checks: []rulebook.Check{crossRun, matrix, constants, abiInfo, handles, exports, launch, mpitThroughABI,
		fingerprintCheck, mpichFamily, fortranConv, headerCheck, nativeHeader, abiDecl, nativeDecl},
	Fixtures: []mpi.Fixture{
		{Name: "abi_version", Sources: []string{"abi/abi_version.c"}, ABI: true},
		{Name: "abi_app", Sources: []string{"abi/app.c"}, ABI: true},
		{Name: "abi_constants", Sources: []string{"abi/constants.c"}, Headers: []string{"abi/common.h", "abi/standard_constants.h"}, ABI: true},
		{Name: "abi_info", Sources: []string{"abi/abi_info.c"}, ABI: true, Flags: []string{"-pthread"}},
		{Name: "abi_launch", Sources: []string{"abi/launch.c"}, ABI: true},
		{Name: "abi_mpit", Sources: []string{"abi/mpit.c"}, ABI: true},
		// The pre-standard ABIs: built with each implementation's own wrapper.
		{Name: "native_app", Sources: []string{"abi/app.c"}},
		{Name: "abi_fingerprint", Sources: []string{"abi/fingerprint.c"}, Headers: []string{"abi/common.h"}},
		{Name: "abi_f2c", Sources: []string{"abi/f2c.c"}, Headers: []string{"abi/common.h"}},
	},
	Injectors: []mpi.Fixture{
		{Name: "inject_abi_version_off", Sources: []string{"inject/abi_version_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_status_swap", Sources: []string{"inject/abi_status_swap.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_type_size_off", Sources: []string{"inject/abi_type_size_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_fortran_size_off", Sources: []string{"inject/abi_fortran_size_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_error_class_off", Sources: []string{"inject/abi_error_class_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_info_off", Sources: []string{"inject/abi_info_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_toint_off", Sources: []string{"inject/abi_toint_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_fromint_off", Sources: []string{"inject/abi_fromint_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_handle_reserved", Sources: []string{"inject/abi_handle_reserved.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_toint_unstable", Sources: []string{"inject/abi_toint_unstable.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_export_shadow", Sources: []string{"inject/abi_export_shadow.c"}, ABI: true, Shared: true},
		{Name: "inject_abi_mpit_native", Sources: []string{"inject/abi_mpit_native.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_libversion_off", Sources: []string{"inject/abi_libversion_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_optional_size_off", Sources: []string{"inject/abi_optional_size_off.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_callback_native", Sources: []string{"inject/abi_callback_native.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_fortran_set_lost", Sources: []string{"inject/abi_fortran_set_lost.c"}, ABI: true, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_abi_header_complete", Sources: []string{"inject/abi_header_complete.c"}, ABI: true, Shared: true},
		// A header overlay, with nothing to link: built with the native
		// wrapper, so that NATIVE-PROTO-01 has it on every implementation.
		{Name: "inject_abi_header_proto", Sources: []string{"inject/abi_header_proto.c"}, Shared: true},
		{Name: "inject_native_header_macro", Sources: []string{"inject/native_header_macro.c"}, Shared: true},
		{Name: "inject_abi_header_const_type", Sources: []string{"inject/header_const_type.c"}, ABI: true, Shared: true},
		{Name: "inject_native_header_const_type", Sources: []string{"inject/header_const_type.c"}, Shared: true},
		{Name: "inject_abi_header_type_missing", Sources: []string{"inject/header_type_missing.c"}, ABI: true, Shared: true},
		{Name: "inject_native_header_type_missing", Sources: []string{"inject/header_type_missing.c"}, Shared: true},
		{Name: "conform_native_header_decls", Sources: []string{"inject/conform_native_header_decls.c"}, Shared: true},
		{Name: "inject_native_status_swap", Sources: []string{"inject/abi_status_swap.c"}, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_native_eh_code_off", Sources: []string{"inject/native_eh_code_off.c"}, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_native_c2f_off", Sources: []string{"inject/abi_c2f_off.c"}, Shared: true, Flags: []string{"-ldl"}},
		{Name: "inject_native_f2c_off", Sources: []string{"inject/abi_f2c_off.c"}, Shared: true, Flags: []string{"-ldl"}},
	},
}
