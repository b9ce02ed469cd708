# shellcheck shell=bash
# What a run may leave behind, for the scripts that check it left nothing
# (ci/repeat, ci/slurm). Sourced, not run.

# mpi_processes SELF: MPI launchers, ranks and fixtures still running (not
# the calling script SELF).
mpi_processes() {
	pgrep -a -f 'mpiexec|mpirun|prterun|prted|hydra_pmi_proxy|orted|/var/cache/mpits.*/fixtures/' | grep -v -e pgrep -e "$1" || true
}

# job_folders: the job folders on the host and in the Debian roots.
job_folders() {
	find /tmp "${MPITS_CACHE:-/var/cache/mpits}"/*-root/tmp -maxdepth 1 -name 'mpits-job-*' 2>/dev/null | sort
}
