// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the bytes are a C file (the first byte's low bit: an
 * assembler file) through the block scanner and the #if expression parser;
 * every block's condition is printed and evaluated. The buffer is exactly
 * the input, no NUL after it: the scanner must read nothing past its end.
 */
#include "cpp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct cpp_macros *macros;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	set_program_name("fuzz-cpp");
	quiet = 1;
	macros = cpp_macros_new();
	if (cpp_macros_add(macros, "IS_ENABLED(x)=__is_enabled(x)") < 0 ||
	    cpp_macros_add(macros, "MY_FEATURE=CONFIG_FOO && !CONFIG_BAR") < 0)
		macros = NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpp_options o = { .path = "fuzz.c", .macros = macros };
	struct cpp_assignment a = CPP_ASSIGNMENT_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *buf = malloc(size ? size : 1);
	unsigned char *keep;
	struct cpp_file *f;

	if (size)
		memcpy(buf, data, size);
	o.asm_file = size && (data[0] & 1) && data[0] != '#';
	f = cpp_scan(buf, size, &o);
	cpp_assignment_define(&a, "CONFIG_FOO", "1");
	for (size_t i = 0; i < f->nr_blocks; i++) {
		strbuf_reset(&sb);
		cpp_expr_format(&sb, f->blocks[i].local);
		(void)cpp_eval(f->blocks[i].pc, &a);
		(void)cpp_block_at(f, f->blocks[i].line);
	}
	keep = malloc((size_t)f->nr_lines + 2);
	cpp_keep_lines(f, &a, keep);
	free(keep);
	cpp_assignment_clear(&a);
	strbuf_release(&sb);
	cpp_file_free(f);
	free(buf);
	return 0;
}
