#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our `dropped` defconfig lines on Linux against the kernel's own conf
# (bench/defconfig-conf.py): every arch/*/configs defconfig of the version,
# `conf --defconfig` of its extracted tree beside `git undertaker --all`.
#
#   bench/defconfig-conf.sh [--version 6.1] [-j 2]
#
# Results are appended to bench/work/defconfig-conf/results.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

v=6.1
jobs=2
while test $# -gt 0; do
	case "$1" in
	--version) v=$2; shift ;;
	-j) jobs=$2; shift ;;
	*) echo "usage: bench/defconfig-conf.sh [--version V] [-j N]" >&2; exit 129 ;;
	esac
	shift
done

dwork=$work/defconfig-conf
mkdir -p "$dwork"
bench_log=$dwork/results.txt
repo=$("$bench_dir/linux-repo.sh")
tree=$("$bench_dir/linux-repo.sh" --tree "$v")
conf=$work/kdiff/$v/kconfig/conf
if ! test -x "$conf"; then
	tarball=$("$bench_dir/linux-repo.sh" --tarball "$v")
	make -s -C "$top_dir" O="$work/kdiff/$v" LINUX_SOURCE="$tarball" "$conf" >&2
fi
say "== bench/defconfig-conf.sh $(date -u '+%F %T') UTC, Linux $v"
report=$dwork/undertaker-$v.txt
git --git-dir="$repo" undertaker --no-notes --all -j"$jobs" "v$v" -- 'arch/*/configs/*' \
	>"$report" 2>"$dwork/undertaker-$v.err" || test $? = 1
python3 "$bench_dir/defconfig-conf.py" --src "$tree" --conf "$conf" --version "$v" \
	--report "$report" --work "$dwork/configs-$v" -j "$jobs" >"$dwork/compare-$v.txt"
say "$(head -1 "$dwork/compare-$v.txt")"
say "details: $dwork/compare-$v.txt"
