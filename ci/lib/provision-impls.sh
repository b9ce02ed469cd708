# shellcheck shell=bash disable=SC2034,SC2016
# The implementations ci/provision knows (sourced, not run).
#
# For each ID: describe_ID fills the I_* variables with what is known without
# doing anything (also used for the entry of a failed step), provision_ID
# does the work, checks it, and may refine I_VERSION / I_NOTES.
# Both run in the step's subshell with `set -eE` and an ERR trap.

IMPL_IDS=(mpich-deb openmpi-deb mpich-tools mpich-noqmpi mpich-sid openmpi-sid mpich-trixie openmpi-trixie
	mpich-ch3-nofortran mpich-ofi-debug mpich-fast-single wi4mpi-ompi wi4mpi-mpich wi4mpi-preload)

MULTIARCH=x86_64-linux-gnu
LIBDIR=/usr/lib/$MULTIARCH
OMPI_ROOT_ENV=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
# Compilers the wrappers call; dpkg-dev is for `apt-get source`.
HOST_TOOL_PKGS=(build-essential gfortran valgrind) # valgrind: QMPI memcheck, callgrind counts

# Host files that must exist for an implementation to count as there.
check_files() {
	local f
	for f in "$@"; do
		[[ -e $f ]] || fail "missing $f"
	done
}

deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

# --- 1. mpich-deb -------------------------------------------------------

describe_mpich-deb() {
	I_FAMILY=mpich I_VERSION=4.0.2
	I_CC=/usr/bin/mpicc.mpich I_FC=/usr/bin/mpifort.mpich I_LAUNCHER=/usr/bin/mpiexec.mpich
	I_LIB=$LIBDIR/libmpich.so.12
}

provision_mpich-deb() {
	apt_ensure mpich libmpich-dev "${HOST_TOOL_PKGS[@]}"
	check_files "$I_CC" "$I_FC" "$I_LAUNCHER" "$I_LIB"
	local v
	v=$(deb_version libmpich-dev)
	I_VERSION=$(upstream_version "$v")
	I_NOTES="Debian bookworm packages mpich/libmpich-dev $v (ch4:ucx, QMPI stubs only)"
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

# --- 2. openmpi-deb -----------------------------------------------------

describe_openmpi-deb() {
	I_FAMILY=openmpi I_VERSION=4.1.4
	I_CC=/usr/bin/mpicc.openmpi I_FC=/usr/bin/mpifort.openmpi I_LAUNCHER=/usr/bin/mpiexec.openmpi
	I_LAUNCHER_ARGS=(--oversubscribe)
	I_ENV=("${OMPI_ROOT_ENV[@]}")
	I_LIB=$LIBDIR/libmpi.so.40
}

provision_openmpi-deb() {
	apt_ensure openmpi-bin libopenmpi-dev "${HOST_TOOL_PKGS[@]}"
	check_files "$I_CC" "$I_FC" "$I_LAUNCHER" "$I_LIB"
	local v
	v=$(deb_version libopenmpi-dev)
	I_VERSION=$(upstream_version "$v")
	I_NOTES="Debian bookworm packages openmpi-bin/libopenmpi-dev $v"
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

# --- 3. mpich-tools: MPICH built from Debian bookworm's source package ------

MPICH_SRC_VERSION=4.0.2
# The tool-interface build. A "twin" without --enable-qmpi can reuse
# build_mpich with its own flag list (mpich_flags_without --enable-qmpi).
MPICH_TOOLS_CONFIGURE=(
	--with-device=ch4:ucx --with-ucx=/usr
	--with-ch4-shmmods=posix          # MPI_T events need ch4's shm path
	--with-datatype-engine=dataloop   # yaksa would take >15 min to build
	--disable-static
	--enable-qmpi --enable-mpit-pvars=all --enable-mpit-events=yes
	--enable-fortran=all
	FFLAGS=-fallow-argument-mismatch FCFLAGS=-fallow-argument-mismatch # gfortran >= 10
	--disable-cxx --disable-romio --disable-doc --with-pm=hydra
)
MPICH_BUILD_PKGS=(build-essential gfortran dpkg-dev libucx-dev libhwloc-dev pkg-config)

# mpich_flags_without FLAG...: MPICH_TOOLS_CONFIGURE minus those flags, one a line.
mpich_flags_without() {
	local f x skip
	for f in "${MPICH_TOOLS_CONFIGURE[@]}"; do
		skip=
		for x in "$@"; do [[ $f == "$x" ]] && skip=1; done
		[[ -z $skip ]] && printf '%s\n' "$f"
	done
}

# mpich_prefix FLAG...: the install folder, named by version + flags.
mpich_prefix() {
	local h
	h=$(printf '%s\n' "$@" | sha256sum | cut -c1-12)
	printf '%s/mpich-%s-%s' "$MPITS_CACHE" "$MPICH_SRC_VERSION" "$h"
}

# A deb-src entry for bookworm main, derived from the deb entry (no mirror
# name written by us).
ensure_deb_src() {
	local want dst=/etc/apt/sources.list.d/mpits-src.sources
	want=$(awk 'BEGIN { RS = ""; ORS = "\n" }
		{
			t = s = c = 0; n = split($0, L, "\n")
			for (i = 1; i <= n; i++) {
				if (L[i] ~ /^Types:/ && (" " L[i] " ") ~ / deb /) t = 1
				if (L[i] ~ /^Suites:/ && (" " L[i] " ") ~ / bookworm /) s = 1
				if (L[i] ~ /^Components:/ && (" " L[i] " ") ~ / main /) c = 1
			}
			if (!(t && s && c)) next
			for (i = 1; i <= n; i++) {
				if (L[i] ~ /^Types:/) L[i] = "Types: deb-src"
				else if (L[i] ~ /^Suites:/) L[i] = "Suites: bookworm"
				else if (L[i] ~ /^Components:/) L[i] = "Components: main"
				print L[i]
			}
			exit
		}' /etc/apt/sources.list.d/debian.sources)
	if [[ -z $want && -f /etc/apt/sources.list ]]; then
		# One-line format: the first "deb URI bookworm main" line, as deb-src.
		dst=/etc/apt/sources.list.d/mpits-src.list
		want=$(awk '$1 == "deb" && $3 == "bookworm" && / main/ { $1 = "deb-src"; print $1, $2, $3, "main"; exit }' /etc/apt/sources.list)
	fi
	[[ -n $want ]] || fail "no bookworm main entry in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
	if [[ ! -f $dst || $(<"$dst") != "$want" ]]; then
		printf '%s\n' "$want" >"$dst"
		rm -f "$RUN_DIR/apt-updated"
	fi
	apt_update_once
}

# build_mpich FLAG...: configure/make/install into mpich_prefix unless done.
# Sets MPICH_PREFIX.
build_mpich() {
	MPICH_PREFIX=$(mpich_prefix "$@")
	[[ -f $MPICH_PREFIX/.complete ]] && return 0
	say "provision: $STEP_ID: building MPICH $MPICH_SRC_VERSION into $MPICH_PREFIX (about 4 min, log $STEP_LOG)"
	FRESH=1
	apt_ensure "${MPICH_BUILD_PKGS[@]}"
	ensure_deb_src
	local work=$MPITS_CACHE/work/${MPICH_PREFIX##*/}
	rm -rf "$work" "$MPICH_PREFIX"
	mkdir -p "$work"
	cd "$work" || fail "cannot enter $work"
	# apt-get source applies Debian's patch series: for 4.0.2-3 that is only
	# missing-conf.patch (adds m4 files for autoreconf), so the shipped
	# configure and code are upstream's.
	apt-get -q -o APT::Sandbox::User=root source mpich || fail "apt-get source mpich failed"
	[[ -d mpich-$MPICH_SRC_VERSION ]] || fail "apt-get source mpich did not unpack mpich-$MPICH_SRC_VERSION"
	cd "mpich-$MPICH_SRC_VERSION" || fail "cannot enter the MPICH source"
	./configure --prefix="$MPICH_PREFIX" "$@" || fail "MPICH configure failed"
	make -j"$(nproc)" || fail "MPICH make failed"
	make install || fail "MPICH make install failed"
	cp "$STEP_LOG" "$MPICH_PREFIX/.build.log"
	cd /
	rm -rf "$work"
	rmdir "$MPITS_CACHE/work" 2>/dev/null || true
	printf '%s\n' "$@" >"$MPICH_PREFIX/.complete"
}

describe_mpich-tools() {
	local p
	p=$(mpich_prefix "${MPICH_TOOLS_CONFIGURE[@]}")
	I_FAMILY=mpich I_VERSION=$MPICH_SRC_VERSION
	I_CC=$p/bin/mpicc I_FC=$p/bin/mpifort I_LAUNCHER=$p/bin/mpiexec
	I_LIB=$p/lib/libmpi.so.12 I_LIB_DIRS=("$p/lib")
	I_NOTES="MPICH $MPICH_SRC_VERSION from Debian bookworm's source package; configure ${MPICH_TOOLS_CONFIGURE[*]}; prefix $p"
}

provision_mpich-tools() {
	build_mpich "${MPICH_TOOLS_CONFIGURE[@]}"
	# Runtime libraries (libucx0, libhwloc15) come with the -dev packages.
	apt_ensure "${MPICH_BUILD_PKGS[@]}"
	check_files "$I_CC" "$I_FC" "$I_LAUNCHER" "$I_LIB"
	# Not `nm | grep -q`: under pipefail grep's early exit makes nm die of SIGPIPE.
	local syms
	syms=$(nm -D --defined-only "$I_LIB") || fail "nm -D $I_LIB failed"
	[[ $syms == *" T QMPI_Register_tool_name"* ]] ||
		fail "QMPI_Register_tool_name not exported by $I_LIB"
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

# --- 4. mpich-noqmpi: mpich-tools' twin with QMPI compiled out -------------
# The same source and flags less --enable-qmpi: what QMPI costs when compiled
# in but unused (the overhead benchmarks), and what a QMPI-less build answers.

describe_mpich-noqmpi() {
	local p
	mapfile -t MPICH_NOQMPI_CONFIGURE < <(mpich_flags_without --enable-qmpi)
	p=$(mpich_prefix "${MPICH_NOQMPI_CONFIGURE[@]}")
	I_FAMILY=mpich I_VERSION=$MPICH_SRC_VERSION I_TWIN_OF=mpich-tools
	I_CC=$p/bin/mpicc I_FC=$p/bin/mpifort I_LAUNCHER=$p/bin/mpiexec
	I_LIB=$p/lib/libmpi.so.12 I_LIB_DIRS=("$p/lib")
	I_NOTES="twin of mpich-tools without --enable-qmpi: MPICH $MPICH_SRC_VERSION; configure ${MPICH_NOQMPI_CONFIGURE[*]}; prefix $p"
}

provision_mpich-noqmpi() {
	build_mpich "${MPICH_NOQMPI_CONFIGURE[@]}"
	apt_ensure "${MPICH_BUILD_PKGS[@]}"
	check_files "$I_CC" "$I_FC" "$I_LAUNCHER" "$I_LIB"
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

# --- 5.-7. Builds no one tuned for this suite --------------------------------
# The same Debian source as mpich-tools, each configured the way vendors'
# builds differ from it, so that the suites meet builds their authors never
# saw: the device (ch3; ch4 with ofi), the thread support, the language
# bindings, the build type and the tool features. Each is named by what
# differs; MPICH_VARIANT_DIFFERS says it in words (the implementation's notes).

declare -A MPICH_VARIANT_DIFFERS=(
	[mpich-ch3-nofortran]="device ch3:nemesis; no Fortran bindings; threads funneled"
	[mpich-ofi-debug]="device ch4:ofi (Debian's libfabric); debug build with full error checking; threads multiple; no tool features (no QMPI, no pvars, no events)"
	[mpich-fast-single]="optimized (-O3, ndebug) without error checking; threads single"
)
MPICH_CH3_NOFORTRAN_CONFIGURE=(
	--with-device=ch3:nemesis --disable-static
	--enable-qmpi --enable-mpit-pvars=all --enable-mpit-events=yes
	--disable-fortran --enable-threads=funneled
	--disable-cxx --disable-romio --disable-doc --with-pm=hydra
)
MPICH_OFI_DEBUG_CONFIGURE=(
	--with-device=ch4:ofi --with-libfabric=/usr
	--with-datatype-engine=dataloop --disable-static
	--enable-mpit-pvars=none --enable-mpit-events=no
	--enable-fortran=all FFLAGS=-fallow-argument-mismatch FCFLAGS=-fallow-argument-mismatch
	--enable-g=dbg --enable-error-checking=all --enable-threads=multiple
	--disable-cxx --disable-romio --disable-doc --with-pm=hydra
)
MPICH_FAST_SINGLE_CONFIGURE=(
	--with-device=ch4:ucx --with-ucx=/usr --with-ch4-shmmods=posix
	--with-datatype-engine=dataloop --disable-static
	--enable-qmpi --enable-mpit-pvars=all --enable-mpit-events=yes
	--enable-fortran=all FFLAGS=-fallow-argument-mismatch FCFLAGS=-fallow-argument-mismatch
	--enable-fast=O3,ndebug --disable-error-checking --enable-threads=single
	--disable-cxx --disable-romio --disable-doc --with-pm=hydra
)

# variant_flags ID: the variant's configure flags, one a line.
variant_flags() {
	local -n flags=MPICH_$(tr 'a-z-' 'A-Z_' <<<"${1#mpich-}")_CONFIGURE
	printf '%s\n' "${flags[@]}"
}

describe_variant() {
	local id=$1 p
	mapfile -t VARIANT_CONFIGURE < <(variant_flags "$id")
	p=$(mpich_prefix "${VARIANT_CONFIGURE[@]}")
	I_FAMILY=mpich I_VERSION=$MPICH_SRC_VERSION
	I_CC=$p/bin/mpicc I_LAUNCHER=$p/bin/mpiexec
	[[ " ${VARIANT_CONFIGURE[*]} " == *" --disable-fortran "* ]] || I_FC=$p/bin/mpifort
	I_LIB=$p/lib/libmpi.so.12 I_LIB_DIRS=("$p/lib")
	I_NOTES="mpich-tools' source built as vendors differ: ${MPICH_VARIANT_DIFFERS[$id]}; MPICH $MPICH_SRC_VERSION; configure ${VARIANT_CONFIGURE[*]}; prefix $p"
}

provision_variant() {
	local id=$1
	# ch4:ofi links Debian's libfabric (its runtime comes with the -dev
	# package), whose pkg-config file names its providers' libraries as
	# private ones, which MPICH's link asks for.
	[[ " ${VARIANT_CONFIGURE[*]} " == *" --with-device=ch4:ofi "* ]] &&
		apt_ensure libfabric-dev libpsm2-dev librdmacm-dev libpsm-infinipath1-dev
	build_mpich "${VARIANT_CONFIGURE[@]}"
	apt_ensure "${MPICH_BUILD_PKGS[@]}"
	check_files "$I_CC" "$I_LAUNCHER" "$I_LIB" ${I_FC:+"$I_FC"}
	[[ -n $FRESH || -n $CHECK ]] && smoke_hello
	return 0
}

describe_mpich-ch3-nofortran() { describe_variant mpich-ch3-nofortran; }
provision_mpich-ch3-nofortran() { provision_variant mpich-ch3-nofortran; }
describe_mpich-ofi-debug() { describe_variant mpich-ofi-debug; }
provision_mpich-ofi-debug() { provision_variant mpich-ofi-debug; }
describe_mpich-fast-single() { describe_variant mpich-fast-single; }
provision_mpich-fast-single() { provision_variant mpich-fast-single; }

# --- 8.-11. Debian's MPICH and Open MPI in Debian roots ---------------------
# One root a Debian release (debootstrap --variant=minbase), holding that
# release's MPICH and Open MPI: the implementations mpich-REL and openmpi-REL.
# A release is described once, by ROOT_RELEASES and the two one-line
# describe/provision pairs at the end; everything else is shared.

ROOT_RELEASES=(sid trixie)
ROOT_PKGS=(libmpich-dev mpich libopenmpi-dev openmpi-bin gcc gfortran libc6-dev)
# Wanted but not required: valgrind gives the overhead benchmarks their
# instruction counts. A root made before it was listed gets it on the next run.
ROOT_OPTIONAL_PKGS=(valgrind)
root_dir() { printf '%s/%s-root' "$MPITS_CACHE" "$1"; }

# root_ensure REL: make (once) and mount (every run) the root of REL. Both of
# its steps call it; a failure is remembered for the rest of the run so the
# second fails fast.
root_ensure() {
	local rel=$1 root
	root=$(root_dir "$rel")
	[[ -f $RUN_DIR/$rel-root.failed ]] && fail "$(<"$RUN_DIR/$rel-root.failed")"
	if [[ ! -f $root/.complete ]]; then
		FRESH=1
		say "provision: $STEP_ID: creating Debian $rel root $root (about 1 min, log $STEP_LOG)"
		apt_ensure debootstrap
		chroot_remove "$root"
		# No mirror argument: debootstrap's default.
		debootstrap --variant=minbase "$rel" "$root" || root_fail "$rel" "debootstrap $rel failed"
		chroot_mount "$root"
		chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 \
			install --no-install-recommends "${ROOT_PKGS[@]}" ||
			root_fail "$rel" "apt-get install in the $rel root failed"
		chroot "$root" apt-get clean
		date -u +%FT%TZ >"$root/.complete"
		: >"$RUN_DIR/$rel-root.fresh"
	fi
	# Made in this run (maybe by the other step of the root): smoke-test both.
	[[ -f $RUN_DIR/$rel-root.fresh ]] && FRESH=1
	chroot_mount "$root"
	# debootstrap leaves the root without /etc/hosts: a launcher's look-up
	# of this host's name then went to DNS, and MPICH 4.2.1's mpiexec
	# waited 5 s on it in most launches that ran side by side.
	cp /etc/hosts "$root/etc/hosts"
	root_optional "$rel" "$root"
}

# Install the optional packages the root lacks, from its own package lists
# (no update: that would move the MPIs under test); a failure is only noted.
root_optional() {
	local rel=$1 root=$2 p missing=()
	for p in "${ROOT_OPTIONAL_PKGS[@]}"; do
		[[ $(chroot "$root" dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) == ii* ]] || missing+=("$p")
	done
	((${#missing[@]} == 0)) && return 0
	if chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 \
		install --no-install-recommends "${missing[@]}"; then
		chroot "$root" apt-get clean
	else
		echo "optional packages not installed in the $rel root: ${missing[*]}"
	fi
}

root_fail() {
	local rel=$1
	shift
	echo "$* (log $STEP_LOG)" >"$RUN_DIR/$rel-root.failed"
	fail "$*"
}

# root_abi REL FAM: /opt/mpits-abi/FAM/libmpi_abi.so.1 -> that family's real
# MPI 5 ABI library, so LD_LIBRARY_PATH picks the implementation; sets the
# I_ABI_* settings. Where the packages carry none, the implementation has no
# abi entry and I_ABI_REASON says what was looked for.
root_abi() {
	local rel=$1 fam=$2 root real
	root=$(root_dir "$rel")
	real=$(find "$root$LIBDIR" -maxdepth 1 -type f -name "libmpi_abi_$fam.so.1.*.*" -printf '%f\n' 2>/dev/null | sort -V | tail -n 1) || true
	if [[ -z $real ]]; then
		I_ABI_REASON="Debian $rel's packages carry no MPI 5 ABI library: no $LIBDIR/libmpi_abi_$fam.so.1.x.y in the $rel root"
		I_ABI_CC='' I_ABI_CFLAGS=() I_ABI_LDFLAGS=() I_ABI_LIB='' I_ABI_LIB_DIR=''
		return 0
	fi
	mkdir -p "$root/opt/mpits-abi/$fam"
	ln -sfn "$LIBDIR/$real" "$root/opt/mpits-abi/$fam/libmpi_abi.so.1"
	I_ABI_LIB=$LIBDIR/$real
	I_ABI_CC=gcc I_ABI_LIB_DIR=/opt/mpits-abi/$fam
	I_ABI_LDFLAGS=(-L"$I_ABI_LIB_DIR" -l:libmpi_abi.so.1)
	case $fam in
	mpich) I_ABI_CFLAGS=("-I$LIBDIR/mpi_abi_mpich/include") ;;
	openmpi) I_ABI_CFLAGS=("-I$LIBDIR/openmpi/include/standard_abi") ;;
	esac
	check_in_root "${I_ABI_CFLAGS[0]#-I}/mpi.h"
}

# check_in_root PATH...: paths as seen inside the root.
check_in_root() {
	local f
	for f in "$@"; do
		[[ -e $I_ROOT$f ]] || fail "missing $f in $I_ROOT"
	done
}

# ucx_grace: UCX 1.23 (sid) spins 50 ms for each memory hook it patches
# in when it loads, a grace period for threads running the patched code;
# it loads with the MPI library, before main, when there is one thread.
# That is 0.4 s of CPU in every process of the MPI (a rank, a process it
# starts), 30 s of a full run. The spin is set to 0; UCX has no MPI_T
# variable, so the suites see the same objects.
ucx_grace() {
	grep -q BISTRO_GRACE_DURATION "$I_ROOT$LIBDIR/libucs.so.0" 2>/dev/null || return 0
	I_ENV+=(UCX_MEM_BISTRO_GRACE_DURATION=0)
	I_NOTES+="; UCX_MEM_BISTRO_GRACE_DURATION=0 (UCX $(chroot "$I_ROOT" dpkg-query -W -f='${Version}' libucx0) spins 50 ms per memory hook it installs at load, before main)"
}

# describe_in_root REL FAM: Debian's FAM (mpich or openmpi) in the root of REL.
describe_in_root() {
	local rel=$1
	I_FAMILY=$2
	I_ROOT=$(root_dir "$rel")
	I_PREFIX=(chroot "$I_ROOT")
	case $I_FAMILY in
	mpich)
		I_CC=/usr/bin/mpicc.mpich I_FC=/usr/bin/mpifort.mpich I_LAUNCHER=/usr/bin/mpiexec.mpich
		I_LIB=$LIBDIR/libmpich.so.12 ;;
	openmpi)
		I_CC=/usr/bin/mpicc.openmpi I_FC=/usr/bin/mpifort.openmpi I_LAUNCHER=/usr/bin/mpiexec.openmpi
		I_LAUNCHER_ARGS=(--oversubscribe)
		I_ENV=("${OMPI_ROOT_ENV[@]}")
		I_LIB=$LIBDIR/libmpi.so.40 ;;
	esac
}

# provision_in_root REL: the root made and mounted, the files checked, the
# version read from the package, the smoke tests run on a fresh root.
provision_in_root() {
	local rel=$1 pkg v abi
	pkg=lib$I_FAMILY-dev
	[[ $I_FAMILY == mpich ]] && pkg=libmpich-dev
	root_ensure "$rel"
	root_abi "$rel" "$I_FAMILY"
	check_in_root "$I_CC" "$I_FC" "$I_LAUNCHER" "$I_LIB"
	v=$(chroot "$I_ROOT" dpkg-query -W -f='${Version}' "$pkg")
	I_VERSION=$(upstream_version "$v")
	abi="MPI 5 ABI: gcc + ${I_ABI_CFLAGS[*]} + ${I_ABI_LDFLAGS[*]}, LD_LIBRARY_PATH=$I_ABI_LIB_DIR"
	[[ -n $I_ABI_LIB ]] || abi=$I_ABI_REASON
	I_NOTES="Debian $rel package $pkg $v in the chroot $I_ROOT (made $(<"$I_ROOT/.complete")); $abi; launched by this implementation's own launcher"
	ucx_grace
	if [[ -n $FRESH || -n $CHECK ]]; then
		smoke_hello
		[[ -z $I_ABI_LIB ]] || smoke_abi
	fi
	return 0
}

describe_mpich-sid() { describe_in_root sid mpich; }
provision_mpich-sid() { provision_in_root sid; }
describe_openmpi-sid() { describe_in_root sid openmpi; }
provision_openmpi-sid() { provision_in_root sid; }
describe_mpich-trixie() { describe_in_root trixie mpich; }
provision_mpich-trixie() { provision_in_root trixie; }
describe_openmpi-trixie() { describe_in_root trixie openmpi; }
provision_openmpi-trixie() { provision_in_root trixie; }

# --- 12.-14. WI4MPI over Debian bookworm's Open MPI and MPICH -----------------
# shellcheck source=ci/lib/provision-wi4mpi.sh
. "${BASH_SOURCE[0]%/*}/provision-wi4mpi.sh"
