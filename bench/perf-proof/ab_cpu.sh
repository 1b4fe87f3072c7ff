#!/usr/bin/env bash
# Alternates svc.sh's b and c (same database): 20-s warm-up rounds, then 10-s measured rounds (cpu_get.sh).
# ab_cpu.sh PATH WARM_ROUNDS ROUNDS [script args]: alternate svc b and c, 20-s warm-ups, then 10-s runs
path=$1 warm=$2 rounds=$3; shift 3
for i in $(seq $warm); do for s in b c; do SVC=$s ./cpu_get.sh 32 20 "$path" "$@" >/dev/null; done; done
for i in $(seq $rounds); do for s in b c; do SVC=$s ./cpu_get.sh 32 10 "$path" "$@"; done; done
