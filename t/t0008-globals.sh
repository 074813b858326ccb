#!/bin/sh
test_description='every global of libundertaker.a carries the prefix of its module'
. ./test-lib.sh

# Each object's module and the prefix its exported names take. The shared
# vocabulary that every module speaks (git's: xmalloc, die, strbuf, strvec,
# oid_hex...) is named one by one: a new unprefixed name fails here until it
# is prefixed, made static, or added to this list on purpose.
test_expect_success 'setup: prefixes and vocabulary' '
	cat >prefixes <<-\EOF &&
	arena arena_
	blocks blocks_
	buildfiles* buildfiles_
	diskcache diskcache_
	logic-cnf logic_
	logic-extend logic_
	cpp-* cpp_
	defconfig defconfig_
	repo-diff repo_
	repo-commit repo_
	kbuild* kbuild_
	kconfig-* kconfig_
	logic logic_
	mbox mbox_
	model* model_
	notes notes_
	outtree outtree_
	options options_
	parallel parallel_
	pc pc_
	process process_
	project project_
	repo repo_
	report report_
	repo-revision repo_
	sat sat_
	sat-unit sat_
	sat-cadical sat_
	trees* trees_
	u64map u64map_
	version suite_
	EOF
	cat >vocabulary <<-\EOF
	util die die_message error error_count warning note quiet program_name set_program_name starts_with ends_with mkdir_p mkdir_leading write_all pread_all write_file_atomic read_file read_file_max open_regular_max find_program xquote_path quote_path_high parse_int strhash edit_distance remove_tree file_ids_hold
	util strbuf_* strvec_* strmap_* xmalloc xcalloc xrealloc xstrdup xstrndup xstrfmt xvstrfmt xstrconcat
	repo oid_hex oid_short blob_release commit_list_clear commit_title die_git pathspec_match
	repo-diff change_list_clear
	options parse_options parsed_args_* usage_error usage_with_options common_*
	report color color_* json_* progress_* strbuf_add_colored
	EOF
'

test_expect_success 'nm: no global without its module prefix' '
	nm -A -g --defined-only "$UT_BUILD_DIR/libundertaker.a" >nm.out &&
	awk '"'"'$2 ~ /^[TDBRC]$/ && $3 !~ /^__/ { n = split($1, a, ":"); o = a[2]; sub(/\.o$/, "", o); print o, $3 }'"'"' nm.out >globals &&
	test $(wc -l <globals) -gt 200 &&
	while read obj name; do
		ok= &&
		while read mod prefix; do
			case $obj in $mod) case $name in $prefix*) ok=1 ;; esac ;; esac
		done <prefixes &&
		while read mod words; do
			test "$mod" = "$obj" || continue
			for w in $words; do
				case $name in $w) ok=1 ;; esac
			done
		done <vocabulary &&
		if test -z "$ok"; then echo "$obj: $name"; fi
	done <globals >bad &&
	test_must_be_empty bad
'

# The commands link the library: a command that defines a name with a library
# module's prefix (kconfig_start in git-vampyr) or a word of the vocabulary
# reads, at its call sites, as the library's, and the two collide the day the
# library takes the name. Each command's globals carry prefixes of its own.
test_expect_success 'nm: no command object defines a name of the library' '
	for d in git-undertaker git-vampyr git-vampyr/cc git-backport
	do
		ls "$UT_BUILD_DIR/$d"/*.o || return 1
	done >objects &&
	test_line_count -gt 30 objects &&
	nm -A -g --defined-only $(cat objects) >nm-cmd.out &&
	awk '"'"'$2 ~ /^[TDBRC]$/ && $3 !~ /^__/ { n = split($1, a, "/"); o = a[n-1] "/" a[n]; sub(/:.*$/, "", o); print o, $3 }'"'"' nm-cmd.out >cmd-globals &&
	test $(wc -l <cmd-globals) -gt 100 &&
	while read obj name; do
		while read mod prefix; do
			case $name in $prefix*) echo "$obj: $name (prefix of $mod)" ;; esac
		done <prefixes &&
		while read mod words; do
			for w in $words; do
				case $name in $w) echo "$obj: $name (vocabulary of $mod)" ;; esac
			done
		done <vocabulary
	done <cmd-globals >bad-cmd &&
	test_must_be_empty bad-cmd
'

# The commands reach C blocks and a commit's trees through the blocks face
# (common/blocks.h) and trees.h (design.adoc, "The blocks face"): none of
# them includes the headers of the modules behind it.
test_expect_success 'no command includes kconfig.h, kconfig-git.h, kbuild.h, buildfiles.h, project.h or pc.h' '
	(cd "$UT_SRC_DIR" && ls git-undertaker/*.[ch] git-vampyr/*.[ch] git-vampyr/cc/*.c git-backport/*.[ch]) >cmd-sources &&
	test_line_count -gt 40 cmd-sources &&
	while read f
	do
		sed -n "s/^[ 	]*#[ 	]*include[ 	]*[<\"]\([^>\"]*\)[>\"].*/\1/p" "$UT_SRC_DIR/$f" |
		while read h
		do
			case $h in
			kconfig.h|kconfig-git.h|kbuild.h|buildfiles.h|project.h|pc.h) echo "$f: $h" ;;
			esac
		done
	done <cmd-sources >bad-includes &&
	test_must_be_empty bad-includes &&
	# Nor reads what trees.h shows of them: the project of a trees, its
	# kinds, the kinds of a Kbuild file (trees_*, blocks_build_* say it).
	(cd "$UT_SRC_DIR" && xargs grep -nE "project\\.|PROJECT_[A-Z]|KBUILD_(OBJECT|HOST|UNLISTED)" || :) <cmd-sources >bad-uses &&
	test_must_be_empty bad-uses
'

# Nor calls their functions by another road: what a command reads of a model
# built for it is the parsed Kconfig, through these five readers.
test_expect_success 'nm: a command calls no function of kconfig, kbuild, buildfiles, project or pc but the model readers' '
	nm -A -u $(cat objects) >nm-cmd-undef.out &&
	awk '"'"'{ n = split($1, a, "/"); o = a[n-1] "/" a[n]; sub(/:.*$/, "", o); print o, $NF }'"'"' nm-cmd-undef.out >cmd-calls &&
	test $(wc -l <cmd-calls) -gt 100 &&
	while read obj name; do
		case $name in
		kconfig_lookup|kconfig_expr_print|kconfig_file_definitions|kconfig_text_for_each_reference) ;;
		kconfig_definition_each_expr) ;;
		kconfig_*|kbuild_*|buildfiles_*|project_*|pc_*) echo "$obj: $name" ;;
		esac
	done <cmd-calls >bad-calls &&
	test_must_be_empty bad-calls
'

test_done
