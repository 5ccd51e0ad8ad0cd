#!/bin/sh
# Runs a program with OPTIQ_HOST set to PREFIX and the rank's number in MPI_COMM_WORLD: a host
# name per rank, as a machine whose endpoints are named would give.
#
#   as_host.sh PREFIX PROGRAM ARGS...
prefix=$1
shift
OPTIQ_HOST="$prefix${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" exec "$@"
