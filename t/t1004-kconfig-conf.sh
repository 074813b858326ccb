#!/bin/sh
test_description='kconfig: symbols and types agree with the kernel'"'"'s own conf'
. ./test-lib.sh

# Every symbol conf writes must be in our dump with a type that can hold the
# value written; with every symbol written, both lists are then the same.
cat >check.awk <<\EOF_AWK
FNR == NR { sub(/^CONFIG_/, "", $1); type[$1] = $2; next }
/^CONFIG_/ {
	split($0, kv, "="); name = substr(kv[1], 8); v = substr($0, length(kv[1]) + 2)
	t = type[name]; ok = 0
	if (v == "y") ok = (t == "bool" || t == "tristate")
	else if (v == "m") ok = (t == "tristate")
	else if (v ~ /^"/) ok = (t == "string")
	else if (t == "hex") ok = (v ~ /^(0x)?[0-9a-fA-F]+$/)
	else if (v ~ /^-?[0-9]+$/) ok = (t == "int")
	if (!ok) { print "conf wrote " $0 ", we have " (t ? t : "nothing"); bad++ }
	print name >"written"
	next
}
/^# CONFIG_.* is not set/ {
	name = substr($2, 8); t = type[name]
	if (t != "bool" && t != "tristate") { print "conf wrote " $0 ", we have " (t ? t : "nothing"); bad++ }
	print name >"written"
}
END { exit bad > 0 }
EOF_AWK

test_expect_success KCONF 'a tree with every construct' '
	mkdir -p tree/arch/foo tree/sub &&
	cat >tree/Kconfig <<\EOT &&
mainmenu "Test $(ARCH)"
greet = $(1)_$(2)
config MODULES
	bool "modules"
	default y
	modules
config BOOL_A
	bool "a"
	default y
menuconfig TRI_B
	tristate "b"
	depends on BOOL_A
if TRI_B
config INT_C
	int "c"
	range 1 10
	default 5
config HEX_D
	hex "d"
	default 0x20
config STR_E
	string "e"
	default "$(SRCARCH)"
endif
menu "menu"
	visible if BOOL_A
config IN_MENU
	tristate "in menu"
	select SELECTED
	imply IMPLIED
endmenu
config SELECTED
	tristate "selected"
config IMPLIED
	tristate "implied"
choice
	prompt "choice"
	default CH_2
config CH_1
	bool "1"
config CH_2
	bool "2"
endchoice
choice
	tristate "tristate choice"
config TC_1
	tristate "t1"
config TC_2
	tristate "t2"
endchoice
config $(greet,MACRO,NAME)
	bool "from a macro"
source "arch/$(SRCARCH)/Kconfig"
source "sub/Kconfig"
EOT
	cat >tree/arch/foo/Kconfig <<\EOT &&
config ARCH_FOO
	def_bool y
config MULTI
	bool "multi"
EOT
	cat >tree/sub/Kconfig <<\EOT
config MULTI
	default y
	help
	  Defined twice.
config SUB_TRI
	def_tristate m
	depends on MODULES
EOT
'

run_conf () {
	(cd tree && srctree=. ARCH=foo SRCARCH=foo KCONFIG_CONFIG=../$1.config "$KCONF" --$1 Kconfig >/dev/null) &&
	test-kconfig --arch=foo tree >ours &&
	rm -f written &&
	awk -f check.awk ours $1.config &&
	sed "s/^CONFIG_\([^ ]*\) .*/\1/" ours | sort >ours.names &&
	sort written >written.sorted
}

# Everything is visible there: conf writes every symbol.
for mode in allyesconfig allmodconfig; do
	test_expect_success KCONF "the symbols of conf --$mode are ours, with their types" "
		run_conf $mode &&
		test_cmp ours.names written.sorted
	"
done

# Some symbols are invisible there and not written: what is written is ours.
for mode in allnoconfig alldefconfig; do
	test_expect_success KCONF "conf --$mode writes no symbol we do not have" "
		run_conf $mode &&
		comm -13 ours.names written.sorted >extra &&
		test_must_be_empty extra &&
		test -s written.sorted
	"
done

test_done
