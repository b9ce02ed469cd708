# shellcheck shell=bash disable=SC2034,SC2016
# Helpers for ci/provision (sourced, not run). Bash only.
#
# Each implementation step runs in a subshell whose stdout/stderr go to its
# log; `say` writes to the terminal through fd 3, which ci/provision opens.

say() { printf '%s\n' "$*" >&3; }

# ms since the epoch, for the per-step timings.
now_ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }
fmt_secs() { printf '%d.%d s' $(($1 / 1000)) $((($1 % 1000) / 100)); }

# fail WHY: the step's reason line, then leave the step's subshell.
fail() {
	trap - ERR
	printf '%s\n' "$*" | head -n 1 >"$RUN_DIR/$STEP_ID.reason"
	echo "FAILED: $*"
	exit 1
}

# --- apt ---------------------------------------------------------------

apt_q() {
	DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 "$@"
}

# One `apt-get update` per run at most, and only when something is missing.
apt_update_once() {
	[[ -e $RUN_DIR/apt-updated ]] && return 0
	apt_q update
	: >"$RUN_DIR/apt-updated"
}

pkg_installed() {
	[[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == ii* ]]
}

# apt_ensure PKG...: install the missing ones (no recommends).
apt_ensure() {
	local p missing=()
	for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
	((${#missing[@]} == 0)) && return 0
	echo "installing: ${missing[*]}"
	FRESH=1
	apt_update_once
	apt_q install --no-install-recommends "${missing[@]}" ||
		fail "apt-get install ${missing[*]} failed"
}

# Debian version "1:4.0.2-3" -> upstream "4.0.2"; "~rc2" -> "rc2", as the
# library itself reports it (Open MPI "v6.0.0rc2").
upstream_version() {
	local v=$1
	v=${v#*:}
	v=${v%-*}
	# Debian's "4.3.0+really4.2.1": the upstream release is what it really is.
	[[ $v == *+really* ]] && v=${v##*+really}
	printf '%s' "${v//\~/}"
}

# --- the implementations file ------------------------------------------

# The implementations file has one writer, `mpits impl add` (cmd/mpits,
# harness/mpi/impl_write.go), which validates an entry and merges it into the
# file; ci/provision builds cmd/mpits into $CMD_MPITS. Here only facts are
# handed on.

# Reset the description variables that describe_<id> fills in.
impl_reset() {
	I_FAMILY='' I_VERSION='' I_ROOT='' I_CC='' I_FC='' I_LAUNCHER=''
	I_NP_FLAG='-n' I_LIB='' I_NOTES='' I_REASON='' I_TWIN_OF=''
	I_PREFIX=() I_CFLAGS=() I_LDFLAGS=() I_LAUNCHER_ARGS=() I_ENV=() I_LIB_DIRS=()
	I_ABI_CC='' I_ABI_CFLAGS=() I_ABI_LDFLAGS=() I_ABI_LIB='' I_ABI_LIB_DIR='' I_ABI_REASON=''
	I_LAYER_NAME='' I_LAYER_VERSION='' I_LAYER_MODE='' I_LAYER_FROM=''
}

# impl_add ID AVAILABLE(true|false): the I_* description as ID's entry of
# $IMPL_FILE, one flag per field (a list or env flag once per word). Prints
# what mpits says; fails with its one-line reason when the entry is refused.
impl_add() {
	local x args=(-file="$IMPL_FILE" -id="$1" -available="$2")
	args+=(-family="$I_FAMILY" -version="$I_VERSION" -reason="$I_REASON" -root="$I_ROOT")
	for x in "${I_PREFIX[@]}"; do args+=(-prefix="$x"); done
	args+=(-cc="$I_CC" -fc="$I_FC")
	for x in "${I_CFLAGS[@]}"; do args+=(-cflags="$x"); done
	for x in "${I_LDFLAGS[@]}"; do args+=(-ldflags="$x"); done
	args+=(-launcher="$I_LAUNCHER")
	for x in "${I_LAUNCHER_ARGS[@]}"; do args+=(-launcher_args="$x"); done
	args+=(-np_flag="$I_NP_FLAG")
	for x in "${I_ENV[@]}"; do args+=(-env="$x"); done
	args+=(-lib="$I_LIB")
	for x in "${I_LIB_DIRS[@]}"; do args+=(-lib_dirs="$x"); done
	[[ -z $I_ABI_CC ]] || args+=(-abi.cc="$I_ABI_CC")
	for x in "${I_ABI_CFLAGS[@]}"; do args+=(-abi.cflags="$x"); done
	for x in "${I_ABI_LDFLAGS[@]}"; do args+=(-abi.ldflags="$x"); done
	[[ -z $I_ABI_LIB ]] || args+=(-abi.lib="$I_ABI_LIB")
	[[ -z $I_ABI_LIB_DIR ]] || args+=(-abi.lib_dir="$I_ABI_LIB_DIR")
	args+=(-abi_reason="$I_ABI_REASON" -twin_of="$I_TWIN_OF" -notes="$I_NOTES")
	[[ -z $I_LAYER_VERSION ]] || args+=(-layer.name="$I_LAYER_NAME" -layer.version="$I_LAYER_VERSION" -layer.mode="$I_LAYER_MODE" -layer.from="$I_LAYER_FROM")
	"$CMD_MPITS" impl add "${args[@]}" 2>&1
}

# --- running and checking MPI programs ----------------------------------

# in_impl CMD...: run CMD the way the suites will: prefix, env, lib_dirs.
in_impl() {
	local ld=''
	((${#I_LIB_DIRS[@]})) && ld=$(IFS=:; echo "${I_LIB_DIRS[*]}")
	env ${ld:+LD_LIBRARY_PATH=$ld} "${I_ENV[@]}" "${I_PREFIX[@]}" "$@"
}

# smoke_c SRC_TEXT WANT: compile a C program with the impl's wrapper in a
# scratch folder under the root's /tmp, run it on 2 ranks, grep WANT.
# Extra compile/run settings via SMOKE_CC / SMOKE_CFLAGS / SMOKE_LDFLAGS /
# SMOKE_LDPATH (for the ABI checks).
smoke_c() {
	local src=$1 want=$2 tmp rel out rc=0
	tmp=$(mktemp -d "${I_ROOT:-}/tmp/mpits-smoke.XXXXXX")
	rel=${tmp#"$I_ROOT"}
	printf '%s\n' "$src" >"$tmp/t.c"
	in_impl "${SMOKE_CC:-$I_CC}" "${SMOKE_CFLAGS[@]}" "${I_CFLAGS[@]}" "$rel/t.c" -o "$rel/t" \
		"${SMOKE_LDFLAGS[@]}" "${I_LDFLAGS[@]}" || rc=$?
	if ((rc == 0)); then
		out=$(in_impl env ${SMOKE_LDPATH:+LD_LIBRARY_PATH=$SMOKE_LDPATH} \
			timeout 60 "$I_LAUNCHER" "${I_LAUNCHER_ARGS[@]}" "$I_NP_FLAG" 2 "$rel/t" 2>&1) || rc=$?
		printf '%s\n' "$out"
		[[ $rc == 0 && $out == *"$want"* ]] || rc=1
	fi
	rm -rf "$tmp"
	return $rc
}

SMOKE_HELLO='#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int r, n, one = 1, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("mpits-hello size=%d sum=%d\n", n, sum);
  MPI_Finalize();
  return 0;
}'

SMOKE_ABI='#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int r, n, ma = -1, mi = -1, one = 1, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Abi_get_version(&ma, &mi);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("mpits-abi %d.%d size=%d sum=%d\n", ma, mi, n, sum);
  MPI_Finalize();
  return 0;
}'

smoke_hello() {
	SMOKE_CC='' SMOKE_CFLAGS=() SMOKE_LDFLAGS=() SMOKE_LDPATH=''
	smoke_c "$SMOKE_HELLO" 'mpits-hello size=2 sum=2' || fail "2-rank hello world failed"
}

smoke_abi() {
	SMOKE_CC=$I_ABI_CC SMOKE_CFLAGS=("${I_ABI_CFLAGS[@]}") SMOKE_LDFLAGS=("${I_ABI_LDFLAGS[@]}")
	SMOKE_LDPATH=$I_ABI_LIB_DIR
	# The wrapper flags (I_CFLAGS...) are for the native ABI: not here.
	local -a keep_cf=("${I_CFLAGS[@]}") keep_lf=("${I_LDFLAGS[@]}")
	I_CFLAGS=() I_LDFLAGS=()
	smoke_c "$SMOKE_ABI" 'mpits-abi 1.0 size=2 sum=2' || fail "2-rank MPI ABI program failed"
	I_CFLAGS=("${keep_cf[@]}") I_LDFLAGS=("${keep_lf[@]}")
}

# --- chroot mounts -------------------------------------------------------

CHROOT_MOUNTS=(proc sys dev dev/pts dev/shm)

# Bind the host's /proc, /sys, /dev (+ pts, shm) into ROOT if not yet there.
# Mounts vanish at reboot, so this runs on every provision.
chroot_mount() {
	local root=$1 m
	for m in "${CHROOT_MOUNTS[@]}"; do
		mkdir -p "$root/$m"
		mountpoint -q "$root/$m" || mount --bind "/$m" "$root/$m" ||
			fail "cannot bind-mount /$m into $root"
	done
}

# Unmount everything below ROOT, deepest first.
chroot_umount_all() {
	local root=$1 mp
	root=$(realpath -m "$root")
	awk -v r="$root/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | while read -r mp; do
		umount "$mp" 2>/dev/null || umount -l "$mp"
	done
}

# Remove a (partial) root safely: never with the host's /dev or /proc bound in.
chroot_remove() {
	local root=$1
	[[ -e $root ]] || return 0
	chroot_umount_all "$root"
	if awk -v r="$(realpath -m "$root")/" 'index($5, r) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
		fail "cannot remove $root: something is still mounted below it"
	fi
	rm -rf --one-file-system "$root"
}
