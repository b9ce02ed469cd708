# shellcheck shell=bash
# What a run may leave behind, for the scripts that check it left nothing
# (ci/repeat, ci/slurm). Sourced, not run. With a MARK (the run's
# MPITS_RUN_MARK, which every job carries in its environment and writes in
# its folder's owner file), only what that run left counts: another run
# beside it (a vendor's, another user's) is not this run's to report.

# mpi_processes SELF [MARK]: MPI launchers, ranks and fixtures still running
# (not the calling script SELF), of the run marked MARK when given.
mpi_processes() {
	local self=$1 mark=${2:-} pid cmd
	pgrep -a -f 'mpiexec|mpirun|prterun|prted|hydra_pmi_proxy|orted|/var/cache/mpits.*/fixtures/' | grep -v -e pgrep -e "$self" |
		while read -r pid cmd; do
			if [[ -z $mark ]] || tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "MPITS_RUN_MARK=$mark"; then
				printf '%s %s\n' "$pid" "$cmd"
			fi
		done
	return 0
}

# job_folders [MARK]: the job folders on the host and in the Debian roots,
# of the run marked MARK when given.
job_folders() {
	local mark=${1:-} d
	find /tmp "${MPITS_CACHE:-/var/cache/mpits}"/*-root/tmp -maxdepth 1 -name 'mpits-job-*' 2>/dev/null | sort |
		while read -r d; do
			if [[ -z $mark ]] || grep -qF "\"run_mark\":\"$mark\"" "$d/.mpits-owner" 2>/dev/null; then
				printf '%s\n' "$d"
			fi
		done
	return 0
}
