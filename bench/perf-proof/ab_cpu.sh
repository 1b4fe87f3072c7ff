#!/usr/bin/env bash
# ab_cpu.sh PATH WARM_ROUNDS ROUNDS [SCRIPT [ARGS...]]: svc.sh's b and c (two builds on one database)
# alternated at 32 connections: WARM_ROUNDS unmeasured 20-s rounds each, then ROUNDS measured 10-s
# rounds each (cpu_get.py: req/s and CPU per request, java / postgres / rest).
here=$(dirname "$0")
path=$1 warm=$2 rounds=$3; shift 3
for i in $(seq "$warm"); do for s in b c; do "$here/cpu_get.py" $s 20 32 "$path" "$@" >/dev/null; done; done
for i in $(seq "$rounds"); do for s in b c; do "$here/cpu_get.py" $s 10 32 "$path" "$@"; done; done
