#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The model against the kernel's own conf at scale (bench/kconfig-differential.py):
# the kernel's scripts/kconfig/tests/ cases and N generated Kconfig files
# (bench/kconfig-gen.py), for the conf of Linux 6.1 and of 6.12 each.
#
#   bench/kconfig-differential.sh [-n N] [--versions "6.1 6.12"] [--symbols K] [-j J]
#
# Each version's conf is built from its linux-source tarball into
# bench/work/kdiff/<version>/ (as `make kconfig` does for the tests). 6.10 and
# later refuse a choice member that depends on the member before it, so their
# files are generated without that form (--no-member-deps). Results, with the
# files of any rejected configuration kept under bench/work/kdiff/rejected-*,
# are appended to bench/work/kdiff/results.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

n=10000
versions="6.1 6.12"
symbols=30
jobs=2
while test $# -gt 0; do
	case "$1" in
	-n) n=$2; shift ;;
	--versions) versions=$2; shift ;;
	--symbols) symbols=$2; shift ;;
	-j) jobs=$2; shift ;;
	*) echo "usage: bench/kconfig-differential.sh [-n N] [--versions V] [--symbols K] [-j J]" >&2; exit 129 ;;
	esac
	shift
done

kwork=$work/kdiff
mkdir -p "$kwork"
bench_log=$kwork/results.txt
model=$build_dir/t/helper/test-model
test -x "$model" || { note "no $model: run make first"; exit 1; }
say "== bench/kconfig-differential.sh $(date -u '+%F %T') UTC, $n files of $symbols symbols, versions: $versions"

status=0
for v in $versions; do
	conf=$kwork/$v/kconfig/conf
	if ! test -x "$conf"; then
		tarball=$("$bench_dir/linux-repo.sh" --tarball "$v")
		make -s -C "$top_dir" O="$kwork/$v" LINUX_SOURCE="$tarball" "$kwork/$v/kconfig/conf" >&2
	fi
	gen_opts=
	case "$v" in
	6.1|5.*|4.*) ;;
	*) gen_opts=--no-member-deps ;;
	esac
	say "-- Linux $v: scripts/kconfig/tests/"
	python3 "$bench_dir/kconfig-differential.py" --conf "$conf" --model "$model" -j "$jobs" \
		--kernel-tests "$kwork/$v/kconfig/src/scripts/kconfig/tests" \
		--keep "$kwork/rejected-$v-tests" | tee -a "$bench_log" >&3 || status=1
	say "-- Linux $v: $n generated files $gen_opts"
	python3 "$bench_dir/kconfig-differential.py" --conf "$conf" --model "$model" -j "$jobs" \
		--generated "$n" --symbols "$symbols" $gen_opts \
		--keep "$kwork/rejected-$v-generated" | tee -a "$bench_log" >&3 || status=1
done
exit $status
