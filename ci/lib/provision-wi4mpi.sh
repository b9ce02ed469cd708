# shellcheck shell=bash disable=SC2034,SC2016
# WI4MPI (CEA's MPI translation layer) over Debian bookworm's MPIs (sourced by
# provision-impls.sh). No registry here carries it: its source is the tarball
# in ../shared/third-party beside the clone (MPITS_THIRD_PARTY elsewhere),
# built once with its own CMake into a folder named by the tarball's sha256
# and the flags. Each implementation's env is what WI4MPI's own `wi4mpi --env`
# prints for it (its run-time variables), with the runtime's libraries named.

WI4MPI_BUILD_PKGS=(cmake python3-jinja2 python3-jsonschema python3-docopt python3-colorlog build-essential gfortran)
# The git tree has no generated sources, so its Python generator runs; gcc
# and gfortran are what the wrappers call (WI4MPI_CC/WI4MPI_FC at run time).
WI4MPI_CMAKE_FLAGS=(-DWI4MPI_GENERATOR=ON -DCMAKE_BUILD_TYPE=Release
	-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_Fortran_COMPILER=gfortran
	-DOPENMPI_ROOT="$LIBDIR/openmpi" -DMPICH_ROOT=/usr)

# wi4mpi_tarball: the tarball's path, or nothing (the caller says why).
wi4mpi_tarball() {
	local f
	f=$(find "$WI4MPI_THIRD_PARTY" -maxdepth 1 -name 'wi4mpi-*.tar.gz' 2>/dev/null | sort | tail -n 1) || true # no folder: no tarball
	[[ -z $f ]] || realpath "$f"
}
WI4MPI_THIRD_PARTY=${MPITS_THIRD_PARTY:-$(realpath -m "${BASH_SOURCE[0]%/*}/../../../shared/third-party")}

# wi4mpi_prefix TARBALL: the install folder, named by its sha256 and the flags.
wi4mpi_prefix() {
	local sum h
	sum=$(sha256sum "$1" | cut -c1-64)
	h=$( { echo "$sum"; printf '%s\n' "${WI4MPI_CMAKE_FLAGS[@]}"; } | sha256sum | cut -c1-12)
	printf '%s/wi4mpi-%s' "$MPITS_CACHE" "$h"
}

# build_wi4mpi: unpack, cmake, make, install unless done; sets WI4MPI_PREFIX.
build_wi4mpi() {
	local tar t0 work
	tar=$(wi4mpi_tarball)
	[[ -n $tar ]] || fail "no wi4mpi-*.tar.gz in $WI4MPI_THIRD_PARTY: put the shared folder beside the clone, or set MPITS_THIRD_PARTY to the folder holding it"
	WI4MPI_TARBALL=$tar WI4MPI_PREFIX=$(wi4mpi_prefix "$tar")
	[[ -f $WI4MPI_PREFIX/.complete ]] && return 0
	say "provision: $STEP_ID: building WI4MPI from ${tar##*/} into $WI4MPI_PREFIX (about 2-6 min, log $STEP_LOG)"
	FRESH=1 t0=$(now_ms)
	apt_ensure "${WI4MPI_BUILD_PKGS[@]}"
	work=$MPITS_CACHE/work/${WI4MPI_PREFIX##*/}
	rm -rf "$work" "$WI4MPI_PREFIX"
	mkdir -p "$work/src" "$work/build"
	tar -xzf "$tar" -C "$work/src" --strip-components=1 || fail "cannot unpack $tar"
	cd "$work/build" || fail "cannot enter $work/build"
	# Debian's python3 has the generator's modules; another python3 first on
	# PATH (pyenv) has not.
	PATH=/usr/bin:/bin:$PATH cmake "$work/src" -DCMAKE_INSTALL_PREFIX="$WI4MPI_PREFIX" "${WI4MPI_CMAKE_FLAGS[@]}" ||
		fail "WI4MPI cmake failed"
	PATH=/usr/bin:/bin:$PATH make -j"$(nproc)" || fail "WI4MPI make failed"
	make install || fail "WI4MPI make install failed"
	cp "$STEP_LOG" "$WI4MPI_PREFIX/.build.log"
	cd /
	rm -rf "$work"
	rmdir "$MPITS_CACHE/work" 2>/dev/null || true
	say "provision: $STEP_ID: WI4MPI built in $(fmt_secs $(($(now_ms) - t0)))"
	{ sha256sum "$tar"; printf '%s\n' "${WI4MPI_CMAKE_FLAGS[@]}"; } >"$WI4MPI_PREFIX/.complete"
}

# wi4mpi_version: the version WI4MPI's installed configuration states.
wi4mpi_version() {
	local v
	v=$(sed -n 's/^WI4MPI_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$WI4MPI_PREFIX/etc/wi4mpi.cfg")
	[[ -n $v ]] || fail "no WI4MPI_VERSION in $WI4MPI_PREFIX/etc/wi4mpi.cfg"
	printf '%s' "$v"
}

# The runtimes under the layer: Debian bookworm's Open MPI and MPICH.
wi4mpi_runtime() {
	case $1 in
	openmpi) W_TO=OMPI W_C=$LIBDIR/openmpi/lib/libmpi.so W_F=$LIBDIR/openmpi/lib/libmpi_mpifh.so
		W_DEB=libopenmpi-dev W_LAUNCHER=/usr/bin/mpiexec.openmpi ;;
	mpich) W_TO=MPICH W_C=$LIBDIR/libmpich.so.12 W_F=$LIBDIR/libmpichfort.so.12
		W_DEB=libmpich-dev W_LAUNCHER=/usr/bin/mpiexec.mpich ;;
	esac
}

# describe_wi4mpi MODE RUNTIME [FROM]: the entry, from the paths alone.
describe_wi4mpi() {
	local mode=$1 rt=$2 from=${3:-} p
	p=$MPITS_CACHE/wi4mpi-unbuilt # no tarball: the step fails, saying so
	local tar
	tar=$(wi4mpi_tarball)
	[[ -z $tar ]] || p=$(wi4mpi_prefix "$tar")
	wi4mpi_runtime "$rt"
	I_FAMILY=$rt I_LAUNCHER=$W_LAUNCHER
	[[ $rt == openmpi ]] && { I_LAUNCHER_ARGS=(--oversubscribe); I_ENV=("${OMPI_ROOT_ENV[@]}"); }
	I_LAYER_NAME=WI4MPI I_LAYER_MODE=$mode I_LAYER_FROM=$from
	I_ENV+=(WI4MPI_ROOT="$p" WI4MPI_TO="$W_TO"
		WI4MPI_RUN_MPI_C_LIB="$W_C" WI4MPI_RUN_MPI_F_LIB="$W_F"
		WI4MPI_RUN_MPIIO_C_LIB="$W_C" WI4MPI_RUN_MPIIO_F_LIB="$W_F")
	if [[ $mode == interface ]]; then
		# Its own wrappers, mpi.h and libmpi.so, dispatching to the runtime.
		I_CC=$p/bin/mpicc I_FC=$p/bin/mpifort I_LIB=$p/lib/libmpi.so I_LIB_DIRS=("$p/lib")
		# Its libmpi.so has no version in its name and its wrapper no rpath:
		# without the path the loader takes the system's libmpi.so (Debian's
		# alternative, Open MPI's) and WI4MPI is never in the process.
		I_ENV+=(LD_LIBRARY_PATH="$p/lib" WI4MPI_FROM=INTERFACE WI4MPI_WRAPPER_LIB="$p/lib_$W_TO/libwi4mpi_$W_TO.so"
			WI4MPI_CC=gcc WI4MPI_FC=gfortran WI4MPI_CXX=g++)
	else
		# Built by the other family's wrappers; its libraries replaced at load
		# by WI4MPI's stand-ins (lib_dirs), the translation preloaded.
		local f=OMPI
		# The probe loads the translation itself: the stand-in libmpi.so.40
		# on the path defines nothing, the preloaded wrapper every MPI_ name.
		I_CC=/usr/bin/mpicc.openmpi I_FC=/usr/bin/mpifort.openmpi I_LIB=$p/libexec/wi4mpi/libwi4mpi_${f}_$W_TO.so
		I_LIB_DIRS=("$p/libexec/wi4mpi/fakelib$f" "$p/libexec/wi4mpi/fakelibCXX")
		I_ENV+=(LD_LIBRARY_PATH="$p/libexec/wi4mpi/fakelib$f:$p/libexec/wi4mpi/fakelibCXX" WI4MPI_FROM=$f LD_PRELOAD="$p/libexec/wi4mpi/libwi4mpi_${f}_$W_TO.so $W_C $W_F")
	fi
}

provision_wi4mpi() {
	local mode=$1 rt=$2 v
	apt_ensure "${WI4MPI_BUILD_PKGS[@]}" mpich libmpich-dev openmpi-bin libopenmpi-dev
	build_wi4mpi # describe_wi4mpi has run: the prefix is named by the tarball, built or not
	I_LAYER_VERSION=$(wi4mpi_version)
	I_ENV+=(WI4MPI_VERSION="$I_LAYER_VERSION")
	check_files "$I_CC" "$I_FC" "$I_LAUNCHER" "$W_C" "$W_F" "${I_LIB_DIRS[@]}"
	check_files "$I_LIB"
	[[ $mode == interface ]] && check_files "$WI4MPI_PREFIX/lib_$W_TO/libwi4mpi_$W_TO.so"
	v=$(deb_version "$W_DEB")
	I_VERSION=$(upstream_version "$v")
	I_NOTES="WI4MPI $I_LAYER_VERSION ($mode${3:+ from $3}) built from ${WI4MPI_TARBALL##*/} (sha256 $(sha256sum "$WI4MPI_TARBALL" | cut -c1-12)) with cmake ${WI4MPI_CMAKE_FLAGS[*]}; prefix $WI4MPI_PREFIX; runtime Debian bookworm $W_DEB $v"
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

describe_wi4mpi-ompi() { describe_wi4mpi interface openmpi; }
provision_wi4mpi-ompi() { provision_wi4mpi interface openmpi; }
describe_wi4mpi-mpich() { describe_wi4mpi interface mpich; }
provision_wi4mpi-mpich() { provision_wi4mpi interface mpich; }
describe_wi4mpi-preload() { describe_wi4mpi preload mpich openmpi; }
provision_wi4mpi-preload() { provision_wi4mpi preload mpich openmpi; }
