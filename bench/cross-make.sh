#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make with the CROSS_COMPILE of the configuration's architecture, for
# git vampyr's --kconfig and --build on a tree built with cross compilers
# (Debian's gcc-<arch>-linux-gnu of make deps' DEB_BENCH: arm64, arm, riscv,
# m68k, powerpc, mips, sh4, arc; sandbox and x86 build with the host's gcc,
# microblaze, nios2 and xtensa have no Debian compiler and fail), and
# Debian's python3 for what the build runs in Python (U-Boot's pylibfdt):
#
#   git vampyr --kconfig='bench/cross-make.sh -s alldefconfig' \
#              --build='bench/cross-make.sh -s -j2' ...
#
# The architecture is read from $KCONFIG_CONFIG. Configuring from a fragment
# ($KCONFIG_ALLCONFIG), the .config does not exist yet: kconfig runs once
# with the host's compiler, and again with the cross compiler when the
# result needs one, so that the compiler's own options (CC_VERSION_TEXT,
# cc-option probes) are the build's.
cfg=${KCONFIG_CONFIG:-.config}
test -x /usr/bin/python3 && set -- PYTHON3=/usr/bin/python3 "$@"

cross () {
	if grep -q '^CONFIG_ARM64=y' "$cfg" 2>/dev/null; then echo aarch64-linux-gnu-
	elif grep -q '^CONFIG_ARM=y' "$cfg" 2>/dev/null; then echo arm-linux-gnueabihf-
	elif grep -q '^CONFIG_RISCV=y' "$cfg" 2>/dev/null; then echo riscv64-linux-gnu-
	elif grep -q '^CONFIG_M68K=y' "$cfg" 2>/dev/null; then echo m68k-linux-gnu-
	elif grep -q '^CONFIG_PPC=y' "$cfg" 2>/dev/null; then echo powerpc-linux-gnu-
	elif grep -q '^CONFIG_MIPS=y' "$cfg" 2>/dev/null; then echo mips-linux-gnu-
	elif grep -q '^CONFIG_SH=y' "$cfg" 2>/dev/null; then echo sh4-linux-gnu-
	elif grep -q '^CONFIG_ARC=y' "$cfg" 2>/dev/null; then echo arc-linux-gnu-
	fi
}

if test -n "$KCONFIG_ALLCONFIG" && ! test -e "$cfg"; then
	make "$@" || exit
	cc=$(cross)
	test -z "$cc" && exit 0
	exec make CROSS_COMPILE="$cc" "$@"
fi
cc=$(cross)
if test -z "$VAMPYR_BENCH_CACHE"; then
	exec make ${cc:+CROSS_COMPILE=$cc} "$@"
fi
# bench/vampyr-history.sh: the same .config, arguments and sources built
# before give the same output; it is replayed.
key=$( { echo "$VAMPYR_BENCH_KEY"; cat "$cfg"; echo "$*"; for a in "$@"; do
	case $a in *.o) cat "${a%.o}.c" "${a%.o}.S" 2>/dev/null ;; esac
done; } | sha1sum | cut -c1-40)
hit=$VAMPYR_BENCH_CACHE/$key
if test -f "$hit.rc"; then
	cat "$hit.log"
	exit "$(cat "$hit.rc")"
fi
rc=0
make ${cc:+CROSS_COMPILE=$cc} "$@" >"$hit.log.tmp" 2>&1 || rc=$?
cat "$hit.log.tmp"
mv "$hit.log.tmp" "$hit.log"
echo $rc >"$hit.rc"
exit $rc
