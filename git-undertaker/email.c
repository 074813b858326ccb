// SPDX-License-Identifier: GPL-2.0
/* --format=email: replies for a bot to send; see email.h. */
#include "email.h"

#include <string.h>
#include <strings.h>

#include "options.h"

/* "Name <email>": the email's domain, for the reply's Message-Id. */
static void add_domain(struct strbuf *sb, const char *who)
{
	const char *at = strrchr(who, '@');
	size_t len = at ? strcspn(at + 1, "> \t") : 0;

	if (len)
		strbuf_add(sb, at + 1, len);
	else
		strbuf_addstr(sb, "localhost");
}

/* A display name alone: "Jane Doe" of "Jane Doe <jane@example.org>". */
static void add_name(struct strbuf *sb, const char *who)
{
	const char *lt = strchr(who, '<');
	size_t len = lt ? (size_t)(lt - who) : strlen(who);

	while (len && who[len - 1] == ' ')
		len--;
	if (len)
		strbuf_add(sb, who, len);
	else
		strbuf_addstr(sb, "there");
}

static void add_headers(struct strbuf *out, const struct email_reply *e, const char *msgid)
{
	/* The mbox separator git format-patch writes, with the commit checked. */
	strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", e->commit);
	strbuf_addf(out, "From: %s\n", e->reported_by);
	if (e->to && *e->to)
		strbuf_addf(out, "To: %s\n", e->to);
	if (e->cc && *e->cc)
		strbuf_addf(out, "Cc: %s\n", e->cc);
	/* One "Re: " however many the subject has. */
	strbuf_addf(out, "Subject: Re: %s\n",
		    strncasecmp(e->subject, "Re: ", 4) ? e->subject : e->subject + 4);
	strbuf_addf(out, "Message-Id: %s\n", msgid);
	if (e->in_reply_to) {
		strbuf_addf(out, "In-Reply-To: %s\n", e->in_reply_to);
		strbuf_addstr(out, "References: ");
		if (e->references)
			strbuf_addf(out, "%s ", e->references);
		strbuf_addf(out, "%s\n", e->in_reply_to);
	}
	strbuf_addstr(out, "MIME-Version: 1.0\n"
			   "Content-Type: text/plain; charset=UTF-8\n"
			   "Content-Transfer-Encoding: 8bit\n\n");
}

void email_format(struct strbuf *out, const struct email_reply *e, const struct defect_list *l)
{
	struct strbuf msgid = STRBUF_INIT, line = STRBUF_INIT;
	size_t nr = 0;

	for (size_t i = 0; i < l->nr; i++)
		nr += l->v[i].status == STATUS_NEW;
	if (!nr)
		return;
	strbuf_addf(&msgid, "<undertaker-%.12s@", e->commit);
	add_domain(&msgid, e->reported_by);
	strbuf_addch(&msgid, '>');
	add_headers(out, e, msgid.buf);
	strbuf_addstr(out, "Hi ");
	add_name(out, e->to ? e->to : "");
	strbuf_addf(out, ",\n\ngit undertaker found %zu new defect%s in this %s: #if blocks that\n"
			 "no valid configuration compiles (dead), that every one compiles (undead),\n"
			 "or CONFIG symbols that no Kconfig file defines (marked >>).\n\n",
		    nr, nr == 1 ? "" : "s", e->what);
	for (size_t i = 0; i < l->nr; i++) {
		const struct defect *d = &l->v[i];

		if (d->status != STATUS_NEW)
			continue;
		strbuf_reset(&line);
		defect_format_text(&line, d, 0);
		strbuf_addf(out, ">> %s\n", line.buf);
		for (size_t j = 0; j < d->explanation.nr; j++)
			strbuf_addf(out, "     %s\n", d->explanation.v[j]);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "If you fix them in a separate %s (not only in a new version of this\n"
			 "one), kindly add these tags:\n", e->what);
	strbuf_addf(out, "| Reported-by: %s\n", e->reported_by);
	if (e->closes_url && *e->closes_url)
		strbuf_addf(out, "| Closes: %s%.*s\n", e->closes_url, (int)msgid.len - 2,
			    msgid.buf + 1);
	strbuf_addstr(out, "\nA defect that is meant can be accepted with an Undertaker-Accept:\n"
			   "trailer naming it (see git-undertaker(1)).\n");
	strbuf_addf(out, "\n-- \ngit undertaker %s\n\n", suite_version);
	strbuf_release(&msgid);
	strbuf_release(&line);
}
