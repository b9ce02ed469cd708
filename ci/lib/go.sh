# shellcheck shell=bash
# ci/lib/go.sh: the Go that go.mod names, for the ci scripts.
#
#   . ci/lib/go.sh && go_ensure || exit 1   (in a ci script, before any go)
#   bash ci/lib/go.sh           bring it; print where it is and `go version`
#   bash ci/lib/go.sh --bin     bring it; print only its bin folder, for
#                               PATH="$(bash ci/lib/go.sh --bin):$PATH"
#   bash ci/lib/go.sh --check   this script's own tests (no network, no apt)
#
# go_ensure makes the `go` first on PATH at least the version go.mod names
# (its toolchain line if there is one, else its go line). In this order:
#   1. the go on PATH, if it is new enough: nothing changes;
#   2. /usr/local/go/bin/go, or the toolchain fetched before into
#      ${MPITS_CACHE:-/var/cache/mpits}/go, if new enough: put first on PATH;
#   3. otherwise fetch the toolchain module
#      golang.org/toolchain@v0.0.1-go<version>.linux-<arch> from the Go module
#      proxy into that cache, as GOTOOLCHAIN does in Go 1.21 and later, with
#      the go on PATH, or Debian's golang-go (Go 1.19 on bookworm), which
#      apt-get installs when there is no go at all (with ca-certificates
#      where the CA bundle is missing); put its bin first on PATH.
# Every failure is one line on stderr naming what failed and what to do.
# Sourced into `set -euo pipefail` scripts: nothing here exits the caller.

# The repository's go.mod, found without a subshell (this runs on every
# script's start: the path taken when all is there stays fork-light).
_GOSH_LIB=${BASH_SOURCE[0]%/*}
[[ $_GOSH_LIB != "${BASH_SOURCE[0]}" ]] || _GOSH_LIB=.
[[ $_GOSH_LIB == /* ]] || _GOSH_LIB=$PWD/$_GOSH_LIB
_GOSH_LIB=${_GOSH_LIB%/.}
_GOSH_MOD=${_GOSH_LIB%/ci/lib}/go.mod
[[ $_GOSH_MOD != "$_GOSH_LIB/go.mod" ]] || _GOSH_MOD=$_GOSH_LIB/../../go.mod
# The system-wide install that go.dev/dl's instructions make (tests change it).
_GOSH_LOCAL_GO=${_GOSH_LOCAL_GO:-/usr/local/go/bin/go}

_gosh_err() { echo "go.sh: $*" >&2; }

# _gosh_num V: set _GOSH_NUM to V (go1.26.8, 1.26.8, 1.26rc1, 1.26) as a
# number that orders as cmd/go orders versions: 1.26 < 1.26beta1 < 1.26rc1 <
# 1.26.0 < 1.26.1. Fails on anything else.
_gosh_num() {
	local v=${1#go} re='^([0-9]{1,4})\.([0-9]{1,4})(\.([0-9]{1,5})|(beta|rc)([0-9]{1,5}))?$'
	[[ $v =~ $re ]] || return 1
	local kind=0 n=0
	if [[ -n ${BASH_REMATCH[4]} ]]; then
		kind=3 n=${BASH_REMATCH[4]}
	elif [[ ${BASH_REMATCH[5]} == rc ]]; then
		kind=2 n=${BASH_REMATCH[6]}
	elif [[ ${BASH_REMATCH[5]} == beta ]]; then
		kind=1 n=${BASH_REMATCH[6]}
	fi
	_GOSH_NUM=$((10#${BASH_REMATCH[1]} * 100000000000 + 10#${BASH_REMATCH[2]} * 10000000 + kind * 1000000 + 10#$n))
}

# go_version_num V: prints _gosh_num's number.
go_version_num() { _gosh_num "$1" && echo "$_GOSH_NUM"; }

# go_version_ge A B: A is B or newer.
go_version_ge() {
	local a
	_gosh_num "$1" && a=$_GOSH_NUM && _gosh_num "$2" && ((a >= _GOSH_NUM))
}

# _gosh_mod_version [GO_MOD]: set WANT_GO to the least Go release the module
# builds with: its toolchain line if newer than its go line; a language
# version (1.26) is its first release (1.26.0), as cmd/go takes it.
_gosh_mod_version() {
	local f=${1:-$_GOSH_MOD} key val rest v='' tc=''
	[[ -r $f ]] || { _gosh_err "cannot read $f: run the ci scripts from a clone of the repository"; return 1; }
	while read -r key val rest; do
		case $key in
		go) v=$val ;;
		toolchain) [[ $val == default ]] || tc=${val#go} ;;
		esac
	done <"$f"
	_gosh_num "$v" ||
		{ _gosh_err "no valid 'go' line in $f (found '${v}'): it needs one like 'go 1.26.8'"; return 1; }
	if [[ -n $tc ]]; then
		_gosh_num "$tc" ||
			{ _gosh_err "invalid 'toolchain' line in $f (found 'go${tc}'): it needs one like 'toolchain go1.26.8'"; return 1; }
		! go_version_ge "$tc" "$v" || v=$tc
	fi
	[[ ! $v =~ ^[0-9]+\.[0-9]+$ ]] || v+=.0
	WANT_GO=$v
}

# go_mod_version [GO_MOD]: prints that version (1.26.8).
go_mod_version() { _gosh_mod_version "$@" && echo "$WANT_GO"; }

# _gosh_have GO: set _GOSH_HAVE to the version GO reports of itself
# (go1.26.8; "devel" for a development build), never switching toolchains
# to answer.
_gosh_have() {
	local out w=()
	out=$(cd / && GOTOOLCHAIN=local "$1" version 2>/dev/null) || return 1
	read -r -a w <<<"$out"
	[[ ${w[0]:-} == go && ${w[1]:-} == version && -n ${w[2]:-} ]] || return 1
	_GOSH_HAVE=${w[2]}
}

# go_binary_version GO: prints that version.
go_binary_version() { _gosh_have "$1" && echo "$_GOSH_HAVE"; }

# go_suitable GO: GO runs and is WANT_GO or newer (a devel build is taken).
go_suitable() {
	_gosh_have "$1" || return 1
	[[ $_GOSH_HAVE == devel ]] || go_version_ge "$_GOSH_HAVE" "$WANT_GO"
}

# go_arch: the toolchain module's name for this machine (linux-amd64...).
go_arch() {
	case $(uname -m) in
	x86_64) echo amd64 ;;
	aarch64 | arm64) echo arm64 ;;
	i?86) echo 386 ;;
	armv6l | armv7l | armv8l) echo armv6l ;;
	ppc64le) echo ppc64le ;;
	ppc64) echo ppc64 ;;
	s390x) echo s390x ;;
	riscv64) echo riscv64 ;;
	loongarch64) echo loong64 ;;
	mips64) echo mips64 ;;
	mips64el) echo mips64le ;;
	*) return 1 ;;
	esac
}

# _gosh_use BIN_DIR: put BIN_DIR first on PATH (its go is the one now).
_gosh_use() {
	PATH=$1:$PATH
	export PATH
	# A GOROOT set for another Go would make this one build with that one's
	# standard library; each Go finds its own.
	unset GOROOT
	hash -r
}

# _gosh_fixup DIR: what cmd/go does to a toolchain module it fetched before
# running it: module zips keep no execute bits and no nested go.mod (the
# toolchain has them as _go.mod). Each go.mod is written whole (a copy
# renamed into place) and src/go.mod, tested first, last; tools first and
# bin/go last: a concurrent run that sees them finds the rest ready.
_gosh_fixup() {
	local dir=$1 f
	[[ -x $dir/bin/go && -e $dir/src/go.mod ]] && return 0
	_gosh_gomod() { cp "$1" "${1%_go.mod}go.mod.$$" && mv -f "${1%_go.mod}go.mod.$$" "${1%_go.mod}go.mod"; }
	while IFS= read -r -d '' f; do
		[[ $f == "$dir/src/_go.mod" ]] || _gosh_gomod "$f" || return 1
	done < <(find "$dir" -name _go.mod -print0)
	if [[ -e $dir/src/_go.mod ]]; then _gosh_gomod "$dir/src/_go.mod" || return 1; fi
	{ [[ ! -d $dir/pkg/tool ]] || find "$dir/pkg/tool" -type f -exec chmod a+x {} +; } &&
		find "$dir/bin" -type f ! -name go -exec chmod a+x {} + && chmod a+x "$dir/bin/go"
}

# _gosh_fetch CACHE MODULE DIR: fetch the toolchain module into CACHE's
# module cache with a go that may be as old as Debian bookworm's 1.19.
_gosh_fetch() {
	local cache=$1 mod=$2 dir=$3 boot have out err t0 log
	boot=$(command -v go || true)
	# What apt-get installs: Debian's golang-go when there is no go at all,
	# and the CA certificates Go needs to reach the proxy over https (a
	# minimal Debian has none, and golang-go only recommends them).
	local pkgs=() hint
	if [[ -z $boot ]]; then
		if ((EUID != 0)); then
			_gosh_err "Go $WANT_GO or newer is needed and there is no go on PATH: install it (https://go.dev/dl/) and put its bin first on PATH, or run this once as root to have it fetched"
			return 1
		fi
		command -v apt-get >/dev/null ||
			{ _gosh_err "Go $WANT_GO or newer is needed, there is no go on PATH and no apt-get to install Debian's golang-go with: install Go (https://go.dev/dl/) and put its bin first on PATH"; return 1; }
		pkgs+=(golang-go)
	fi
	if [[ -z ${SSL_CERT_FILE:-} && ! -s /etc/ssl/certs/ca-certificates.crt ]] && ((EUID == 0)) && command -v apt-get >/dev/null; then
		pkgs+=(ca-certificates)
	fi
	if ((${#pkgs[@]})); then
		log=$cache/apt-get.log
		echo "go.sh: installing ${pkgs[*]} with apt-get, to fetch Go $WANT_GO with (log $log)" >&2
		{ DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 update &&
			DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 install --no-install-recommends "${pkgs[@]}"; } >"$log" 2>&1 ||
			{ _gosh_err "apt-get install ${pkgs[*]} failed (log $log): check the network and the apt sources, or install Go $WANT_GO (https://go.dev/dl/) and put its bin first on PATH"; return 1; }
		hash -r
		boot=$(command -v go) ||
			{ _gosh_err "apt-get installed golang-go but there is still no go on PATH ($PATH): add /usr/bin to PATH"; return 1; }
	fi
	have=$(go_binary_version "$boot") ||
		{ _gosh_err "$boot does not run ('$boot version' fails): remove it from PATH or repair it"; return 1; }
	t0=$SECONDS
	echo "go.sh: $boot is $have, go.mod wants go$WANT_GO: fetching $mod through the Go module proxy into $cache" >&2
	# Outside the module (Go 1.19 cannot read a three-part go line), with the
	# cache writable, so that it can be removed with rm -rf.
	out=$(cd "$cache" && env GOPATH="$cache" GOMODCACHE="$cache/pkg/mod" GOFLAGS=-modcacherw \
		GOTOOLCHAIN=local GO111MODULE=on GOWORK=off "$boot" mod download -json "$mod" 2>&1)
	if (($? != 0)) || [[ ! -f $dir/bin/go ]]; then
		err=$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p' | head -n 1 | sed 's/\\"/"/g')
		[[ -n $err ]] || err=$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1)
		hint="check that the Go module proxy ($("$boot" env GOPROXY 2>/dev/null)) is reachable"
		[[ $err != *x509* ]] || hint="install ca-certificates (or set SSL_CERT_FILE to the CA bundle of your proxy)"
		_gosh_err "cannot fetch $mod with $boot ($have): ${err:-no bin/go in $dir}: $hint, or install Go $WANT_GO (https://go.dev/dl/) and put its bin first on PATH"
		return 1
	fi
	echo "go.sh: fetched go$WANT_GO in $((SECONDS - t0)) s ($(du -sh "$dir" 2>/dev/null | cut -f1) in $dir)" >&2
}

# go_ensure: see the top of this file.
go_ensure() {
	local go cand arch cache mod dir
	_gosh_mod_version || return 1
	go=$(command -v go || true)
	if [[ -n $go ]] && go_suitable "$go"; then return 0; fi
	arch=$(go_arch) || arch=
	cache=$(realpath -m "${MPITS_CACHE:-/var/cache/mpits}")/go
	mod=golang.org/toolchain@v0.0.1-go$WANT_GO.linux-$arch
	dir=$cache/pkg/mod/$mod
	for cand in "$_GOSH_LOCAL_GO" "$dir/bin/go"; do
		[[ -f $cand && $cand != "$go" ]] || continue
		if [[ $cand == "$dir/bin/go" ]]; then _gosh_fixup "$dir" 2>/dev/null || continue; fi
		go_suitable "$cand" && { _gosh_use "${cand%/go}"; return 0; }
	done
	[[ -n $arch ]] ||
		{ _gosh_err "Go $WANT_GO or newer is needed and there is no Go toolchain module for this machine ($(uname -m)): install Go $WANT_GO and put its bin first on PATH"; return 1; }
	mkdir -p "$cache" 2>/dev/null && [[ -w $cache ]] ||
		{ _gosh_err "Go $WANT_GO or newer is needed (${go:-no go} on PATH${go:+ is $(go_binary_version "$go" || echo broken)}) and $cache is not writable to fetch it into: run this once as root, or set MPITS_CACHE to a folder you can write, or install Go $WANT_GO (https://go.dev/dl/) and put its bin first on PATH"; return 1; }
	(
		# One fetch at a time on a cache; a second one finds the first's.
		exec 8>"$cache/.lock"
		flock 8
		[[ -f $dir/bin/go ]] || _gosh_fetch "$cache" "$mod" "$dir" || exit 1
		_gosh_fixup "$dir" ||
			{ _gosh_err "cannot make the toolchain in $dir runnable (chmod, go.mod): remove $dir and run again"; exit 1; }
	) || return 1
	go_suitable "$dir/bin/go" ||
		{ _gosh_err "the toolchain fetched into $dir does not run as go$WANT_GO ('$dir/bin/go version' gives '$(go_binary_version "$dir/bin/go")'): remove $dir and run again"; return 1; }
	_gosh_use "$dir/bin"
}

# --- this script's own tests ----------------------------------------------

_gosh_selftest() {
	local fails=0 tmp a b want got n=0
	_t() { # _t NAME COND...: one check
		n=$((n + 1))
		if ! "${@:2}"; then echo "go.sh --check: FAIL: $1" >&2; fails=$((fails + 1)); fi
	}
	# Ordering, as cmd/go's gover orders versions.
	local order=(1.19 1.19.8 1.21 1.21rc2 1.21.0 1.21.10 1.26beta1 1.26beta2 1.26rc1 1.26rc10 1.26.0 1.26.8 1.26.10 1.27.0 2.0.0)
	local i j
	for ((i = 0; i < ${#order[@]}; i++)); do
		for ((j = 0; j < ${#order[@]}; j++)); do
			a=${order[i]} b=${order[j]}
			if ((i >= j)); then _t "$a >= $b" go_version_ge "$a" "$b"; else _t "not $a >= $b" eval '! go_version_ge "$a" "$b"'; fi
		done
	done
	_t "go prefix taken" go_version_ge go1.26.8 1.26.8
	for a in '' 1 1.x 1.26.8.1 go1.26-abc devel 1.26rc 1.26.08x; do
		_t "'$a' rejected" eval '! go_version_num "$a" >/dev/null'
	done
	tmp=$(mktemp -d /tmp/mpits-gosh.XXXXXX) || return 1
	# go.mod lines.
	_gm() { printf 'module x\n\n%s\n\nrequire (\n\tgo.example/a v1.0.0\n)\n' "$1" >"$tmp/go.mod"; go_mod_version "$tmp/go.mod" 2>/dev/null; }
	_t "go line" test "$(_gm 'go 1.26.8')" = 1.26.8
	_t "language version is its .0" test "$(_gm 'go 1.26')" = 1.26.0
	_t "newer toolchain line wins" test "$(_gm $'go 1.26.0\ntoolchain go1.26.8')" = 1.26.8
	_t "toolchain default" test "$(_gm $'go 1.26.2\ntoolchain default')" = 1.26.2
	_t "rc kept" test "$(_gm 'go 1.27rc1')" = 1.27rc1
	_t "no go line fails" eval '! _gm "// nothing" >/dev/null'
	_t "this repository's go.mod" go_mod_version >/dev/null
	_t "an arch for this machine" go_arch >/dev/null
	# Selection and fetch with stub go commands, no network: an old go on
	# PATH, no /usr/local/go; its "mod download" lays out a toolchain module
	# the way the module cache has it (no execute bits, src/_go.mod).
	want=$(go_mod_version) arch=$(go_arch)
	mkdir -p "$tmp/old" "$tmp/none"
	cat >"$tmp/old/go" <<EOF
#!/bin/bash
case \$1 in
version) echo "go version go1.19.8 linux/$arch" ;;
env) echo https://proxy.golang.org,direct ;;
mod)
	[[ \$2 == download && \$3 == -json && \$GOFLAGS == -modcacherw && \$GOTOOLCHAIN == local ]] || exit 2
	[[ -e $tmp/proxy-down ]] && { printf '{\n\t"Path": "golang.org/toolchain",\n\t"Error": "golang.org/toolchain@v0.0.1-go$want.linux-$arch: Get \\\\"https://proxy.golang.org/...\\\\": dial tcp: connection refused"\n}\n'; exit 1; }
	d=\$GOMODCACHE/\$4
	mkdir -p "\$d/bin" "\$d/pkg/tool/linux_$arch" "\$d/src/cmd"
	printf '#!/bin/bash\necho "go version go$want linux/$arch"\n' >"\$d/bin/go"
	cp "\$d/bin/go" "\$d/bin/gofmt"; cp "\$d/bin/go" "\$d/pkg/tool/linux_$arch/compile"
	echo 'module std' >"\$d/src/_go.mod"; echo 'module cmd' >"\$d/src/cmd/_go.mod"
	chmod 0644 "\$d/bin/go" "\$d/bin/gofmt" "\$d/pkg/tool/linux_$arch/compile"
	echo "{\"Path\": \"golang.org/toolchain\", \"Dir\": \"\$d\"}" ;;
esac
EOF
	chmod +x "$tmp/old/go"
	_stub() { # _stub PATH: go_ensure's PATH after it ran with PATH
		(PATH=$1 MPITS_CACHE=$tmp/cache _GOSH_LOCAL_GO=$tmp/none/go SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
			go_ensure 2>"$tmp/err" || exit 1; echo "$PATH")
	}
	local tc=$tmp/cache/go/pkg/mod/golang.org/toolchain@v0.0.1-go$want.linux-$arch
	_t "old go on PATH: fetched, first on PATH" test "$(_stub "$tmp/old:/usr/bin:/bin")" = "$tc/bin:$tmp/old:/usr/bin:/bin"
	_t "fetched: bin/go executable" test -x "$tc/bin/go"
	_t "fetched: tools executable" test -x "$tc/pkg/tool/linux_$arch/compile"
	_t "fetched: src/go.mod back" test -f "$tc/src/go.mod" -a -f "$tc/src/cmd/go.mod"
	_t "fetched: one line said so" grep -q "fetched go$want" "$tmp/err"
	touch "$tmp/proxy-down"
	_t "second run: from the cache, quietly" test "$(_stub "$tmp/old:/usr/bin:/bin")" = "$tc/bin:$tmp/old:/usr/bin:/bin" -a ! -s "$tmp/err"
	_t "suitable go on PATH: PATH unchanged" test "$(_stub "$tc/bin:/usr/bin:/bin")" = "$tc/bin:/usr/bin:/bin"
	rm -rf "$tmp/cache"
	_t "proxy down: fails" eval '! _stub "$tmp/old:/usr/bin:/bin" >/dev/null'
	_t "proxy down: one line naming the module and the cause" test "$(grep -c 'cannot fetch golang.org/toolchain@.*connection refused.*Go module proxy' "$tmp/err")" = 1 -a "$(wc -l <"$tmp/err")" = 2
	if ((EUID != 0)); then
		_t "no go, not root: one line" eval '! _stub "$tmp/none:/bin" >/dev/null && test "$(wc -l <"$tmp/err")" = 1'
	fi
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
	unset -f _t _gm _stub
	if ((fails)); then
		echo "go.sh --check: $fails of $n checks failed" >&2
		return 1
	fi
	echo "go.sh --check: $n checks passed"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	case ${1:-} in
	--check) _gosh_selftest || exit 1 ;;
	--bin) go_ensure >&2 || exit 1; dirname "$(command -v go)" ;;
	'') go_ensure || exit 1; echo "$(command -v go): $(go version)" ;;
	*) echo "usage: bash ci/lib/go.sh [--bin | --check]" >&2; exit 2 ;;
	esac
fi
