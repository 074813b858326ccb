// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a model read back from the disk cache (model_load). A
 * model of a small Kconfig tree (tristates, a choice, selects, a string
 * with defaults, MODULES) is saved once; each input is a recipe of damage
 * to that entry: its first four bytes a length to cut it to (modulo its
 * size + 1; all ones: no cut), then records of five bytes (an offset modulo
 * the size and a byte to xor there; a zero byte writes the record's four
 * offset bytes there instead). model_load must refuse the entry or give a model that answers
 * questions and explanations without a crash, a hang or a read out of
 * bounds.
 */
#include "kconfig.h"
#include "logic.h"
#include "model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char tree[] =
	"config MODULES\n\tbool \"modules\"\n\tmodules\n"
	"config FOO\n\tbool \"foo\"\n"
	"config BAR\n\ttristate \"bar\"\n\tdepends on FOO\n\tselect BAZ\n"
	"config BAZ\n\ttristate\n\timply QUX\n"
	"config QUX\n\tbool \"qux\"\n\tdefault y if FOO\n"
	"choice\n\tprompt \"pick\"\n\tdefault PICK_B\n"
	"config PICK_A\n\tbool \"a\"\n"
	"config PICK_B\n\tbool \"b\"\n\tdepends on !QUX || BAR\n"
	"endchoice\n"
	"config NAME\n\tstring \"name\"\n\tdefault \"x\" if FOO\n\tdefault \"y\"\n"
	"config NUM\n\tint \"num\"\n\trange 1 8\n\tdefault 4\n"
	"if FOO\nconfig INSIDE\n\tdef_tristate BAR\nendif\n";

static struct kconfig *kc;
static struct strbuf entry = STRBUF_INIT;

static int mem_read(void *d, const char *path, struct kconfig_file *out)
{
	(void)d;
	if (strcmp(path, "Kconfig"))
		return 1;
	memset(out, 0, sizeof(*out));
	out->data = tree;
	out->size = sizeof(tree) - 1;
	return 0;
}

static int mem_list_dir(void *d, const char *dir, struct strvec *names)
{
	(void)d;
	if (*dir)
		return 1;
	strvec_push(names, "Kconfig");
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct kconfig_reader r = { 0 };
	struct kconfig_options o = { .quiet = 1 };
	struct model *m;

	(void)argc;
	(void)argv;
	set_program_name("fuzz-model");
	quiet = 1;
	r.read_file = mem_read;
	r.list_dir = mem_list_dir;
	kc = kconfig_parse(&r, NULL, &o);
	if (!kc)
		die("the target's own Kconfig tree does not parse");
	m = model_build(kc);
	model_save(m, &entry);
	model_free(m);
	return 0;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Questions of every kind the analysis asks of a model read back. */
static void ask(struct model *m)
{
	const struct model_reason **reasons;
	int defined;

	for (size_t i = 0; i < kc->nr_symbols; i++) {
		char *name = xstrfmt("CONFIG_%s", kc->symbols[i]->name);
		formula f = model_config(m, name, &defined);

		if (!model_satisfiable(m, f))
			model_explain(m, f, &reasons);
		model_satisfiable(m, logic_not(f));
		free(name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct model *m;
	size_t len = entry.len;

	strbuf_add(&sb, entry.buf, entry.len);
	if (size >= 4 && get32(data) != UINT32_MAX)
		len = get32(data) % (entry.len + 1);
	for (size_t i = 4; i + 5 <= size; i += 5) {
		size_t at = get32(data + i) % entry.len;

		if (data[i + 4])
			sb.buf[at] ^= (char)data[i + 4];
		else if (at + 4 <= entry.len)
			memcpy(sb.buf + at, data + i, 4);
	}
	sb.len = len;
	m = model_load(kc, &sb);
	if (m) {
		ask(m);
		model_free(m);
	}
	strbuf_release(&sb);
	return 0;
}
