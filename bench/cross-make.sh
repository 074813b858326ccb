#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make with the CROSS_COMPILE of the configuration's architecture, for
# git vampyr's --kconfig and --build on a tree built with cross compilers
# (Debian's gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf,
# gcc-riscv64-linux-gnu; anything else builds with the host's gcc):
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

cross () {
	if grep -q '^CONFIG_ARM64=y' "$cfg" 2>/dev/null; then echo aarch64-linux-gnu-
	elif grep -q '^CONFIG_ARM=y' "$cfg" 2>/dev/null; then echo arm-linux-gnueabihf-
	elif grep -q '^CONFIG_RISCV=y' "$cfg" 2>/dev/null; then echo riscv64-linux-gnu-
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
