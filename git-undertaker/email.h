/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=email: for each patch or commit with new defects, a reply that a
 * bot (as the kernel's 0-day robot does for build errors) can send as it
 * is; nothing is sent. The replies are written as an mbox.
 */
#ifndef UT_EMAIL_H
#define UT_EMAIL_H

#include "defect.h"

struct email_reply {
	const char *subject;	/* the patch's (or commit's) subject, as mailed */
	const char *to;		/* its author, "Name <email>" */
	const char *in_reply_to;	/* the patch's Message-Id, or NULL */
	const char *references;	/* the patch's References:, or NULL */
	const char *cc;		/* the patch's To: and Cc:, or NULL */
	const char *commit;	/* full hex of the (would-be) commit */
	const char *what;	/* "patch" or "commit" */
	const char *reported_by;	/* undertaker.reportedBy, "Name <email>" */
	const char *closes_url;	/* undertaker.closesUrl, "" for no Closes: line */
};

/*
 * Appends the reply about the new defects of l (with their --explain lines)
 * to out, as one mbox message; nothing when l has no new defect.
 */
void email_format(struct strbuf *out, const struct email_reply *e, const struct defect_list *l);

#endif
