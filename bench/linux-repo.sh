#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A Linux repository for the benchmarks, made from Debian's linux-source-6.1 and
# linux-source-6.12 packages: a bare repository with two commits, v6.1 and then
# v6.12 (tagged so), whose second commit is the whole 6.1..6.12 difference.
# Cached under bench/work/; a second run only prints the path.
#
#   bench/linux-repo.sh               make the repository, print its path
#   bench/linux-repo.sh --tree 6.1    extract that version's source tree, print its path
#   bench/linux-repo.sh --tarball 6.1 print the path of that version's source tarball
#
# Environment:
#   BENCH_WORK     cache directory (default: bench/work beside this script)
#   LINUX_SRC_DIR  a directory that already holds extracted trees named linux-6.1 and
#                  linux-6.12 (read-only is fine): used instead of extracting again
#   LINUX_DEBS     a directory where linux-source-*.deb may already be (default: $BENCH_WORK/debs)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${BENCH_WORK:-$here/work}
debs=${LINUX_DEBS:-$work/debs}
versions="6.1 6.12"
mkdir -p "$work"

note () { echo "linux-repo: $*" >&2; }

# The tarball of linux-source-$1: the installed package's, or one taken out of the
# package downloaded with apt-get (the ordinary Debian client, no root needed).
tarball () {
	local v=$1 deb
	if test -r "/usr/src/linux-source-$v.tar.xz"; then
		echo "/usr/src/linux-source-$v.tar.xz"
		return
	fi
	if test -r "$work/debs/linux-source-$v.tar.xz"; then
		echo "$work/debs/linux-source-$v.tar.xz"
		return
	fi
	mkdir -p "$work/debs"
	deb=$(ls "$debs"/linux-source-"${v}"_*.deb 2>/dev/null | tail -n 1 || true)
	if test -z "$deb"; then
		note "downloading linux-source-$v"
		(cd "$work/debs" && apt-get download "linux-source-$v" >&2)
		deb=$(ls "$work/debs"/linux-source-"${v}"_*.deb | tail -n 1)
	fi
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - "./usr/src/linux-source-$v.tar.xz" >"$work/debs/linux-source-$v.tar.xz.tmp"
	mv "$work/debs/linux-source-$v.tar.xz.tmp" "$work/debs/linux-source-$v.tar.xz"
	echo "$work/debs/linux-source-$v.tar.xz"
}

# The release in a tree's top Makefile (Debian's stable updates move the sublevel).
kernel_version () {
	awk '$2 == "=" && $1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL)$/ { v = v (v == "" ? "" : ".") $3 }
		END { print v }' "$1/Makefile"
}

tree () {
	local v=$1 dir
	if test -n "${LINUX_SRC_DIR:-}" && test -f "$LINUX_SRC_DIR/linux-$v/Makefile"; then
		echo "$LINUX_SRC_DIR/linux-$v"
		return
	fi
	dir=$work/src/linux-$v
	if ! test -f "$dir/.complete"; then
		local tb
		tb=$(tarball "$v")
		note "extracting $tb"
		rm -rf "$dir" && mkdir -p "$dir"
		tar -xJf "$tb" -C "$dir" --strip-components=1
		touch "$dir/.complete"
	fi
	echo "$dir"
}

case "${1:-}" in
--tree) tree "$2"; exit 0 ;;
--tarball) tarball "$2"; exit 0 ;;
"") ;;
*) echo "usage: bench/linux-repo.sh [--tree <version> | --tarball <version>]" >&2; exit 129 ;;
esac

repo=$work/linux.git
if test -f "$repo/bench-complete"; then
	echo "$repo"
	exit 0
fi

rm -rf "$repo.tmp"
git init -q --bare "$repo.tmp"
export GIT_DIR=$repo.tmp GIT_INDEX_FILE=$repo.tmp/bench-index
# Loose objects at low compression: the repository is a local cache, speed matters.
git config core.looseCompression 1
git config index.threads true
# Dates of the upstream releases, so that the commit ids are the same on every machine.
declare -A date=([6.1]='2022-12-11T14:15:18-0800' [6.12]='2024-11-17T14:15:08-0800')
for v in $versions; do
	src=$(tree "$v")
	start=$(date +%s)
	# -f: the tarball holds exactly what upstream tracks, some of it matching a .gitignore.
	GIT_WORK_TREE=$src git add -A -f -- . ':!.complete'
	t=$(git write-tree)
	parent=$(git rev-parse -q --verify HEAD 2>/dev/null || true)
	c=$(GIT_AUTHOR_NAME='Debian linux-source' GIT_AUTHOR_EMAIL='bench@localhost' \
		GIT_COMMITTER_NAME='Debian linux-source' GIT_COMMITTER_EMAIL='bench@localhost' \
		GIT_AUTHOR_DATE=${date[$v]} GIT_COMMITTER_DATE=${date[$v]} \
		git commit-tree "$t" ${parent:+-p "$parent"} \
			-m "Linux $(kernel_version "$src") (Debian linux-source-$v)")
	git update-ref refs/heads/main "$c"
	git symbolic-ref HEAD refs/heads/main
	git tag "v$v" "$c"
	note "v$v: $(git ls-tree -r "$t" | wc -l) files, imported in $(($(date +%s) - start)) s"
done
rm -f "$GIT_INDEX_FILE"
touch "$repo.tmp/bench-complete"
rm -rf "$repo"
mv "$repo.tmp" "$repo"
echo "$repo"
