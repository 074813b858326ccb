// SPDX-License-Identifier: GPL-2.0
/*
 * Notes, written the way git writes them: one commit per batch whose tree
 * holds every note, fanned out into 2-hex-digit directories as git decides.
 */
#include "notes.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *notes_read_blob(struct repo *r, const char *ref, const git_oid *commit, git_oid *blob)
{
	git_note *note;
	char *text;

	if (git_note_read(&note, repo_git_local(r), ref, commit) < 0)
		return NULL;
	text = xstrdup(git_note_message(note) ? git_note_message(note) : "");
	if (blob)
		git_oid_cpy(blob, git_note_id(note));
	git_note_free(note);
	return text;
}

char *notes_read(struct repo *r, const char *ref, const git_oid *commit)
{
	return notes_read_blob(r, ref, commit, NULL);
}

void notes_text_id(const char *text, git_oid *out)
{
	size_t len = strlen(text);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, text);
	if (!len || text[len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	if (git_odb_hash(out, sb.buf, sb.len, GIT_OBJECT_BLOB) < 0)
		memset(out, 0, sizeof(*out));
	strbuf_release(&sb);
}

struct notes_batch {
	struct repo *repo;
	char *ref;
	git_oid old;		/* the notes commit the batch starts from */
	int has_old;
	struct strmap queued;	/* hex commit id -> note text */
	size_t count;
};

/*
 * The ref a write to `name` updates: a symbolic ref's target (followed as
 * git update-ref follows it, a few levels deep), else `name` itself.
 */
static char *write_target(git_repository *g, const char *name)
{
	char *cur = xstrdup(name);

	for (int depth = 0; depth < 5; depth++) {
		git_reference *ref = NULL;

		if (git_reference_lookup(&ref, g, cur) < 0)
			break;
		if (git_reference_type(ref) != GIT_REFERENCE_SYMBOLIC) {
			git_reference_free(ref);
			break;
		}
		free(cur);
		cur = xstrdup(git_reference_symbolic_target(ref));
		git_reference_free(ref);
	}
	return cur;
}

struct notes_batch *notes_batch_begin(struct repo *r, const char *ref)
{
	struct notes_batch *b = xcalloc(1, sizeof(*b));
	int err;

	b->repo = r;
	b->ref = write_target(repo_git(r), ref);
	err = git_reference_name_to_id(&b->old, repo_git(r), b->ref);
	if (!err)
		b->has_old = 1;
	else if (err != GIT_ENOTFOUND)
		warning("%s: %s", ref, git_error_last() ? git_error_last()->message : "unreadable");
	return b;
}

void notes_batch_add(struct notes_batch *b, const git_oid *commit, const char *text)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *old = strmap_put(&b->queued, oid_hex(commit, hex), xstrdup(text));

	if (old)
		free(old);
	else
		b->count++;
}

size_t notes_batch_count(const struct notes_batch *b)
{
	return b->count;
}

void notes_batch_abort(struct notes_batch *b)
{
	if (!b)
		return;
	strmap_clear(&b->queued, free);
	free(b->ref);
	free(b);
}

/* One entry of the tree to write: a note at its fanned-out path, or a non-note kept as is. */
struct tree_item {
	char *path;
	git_oid oid;
	git_filemode_t mode;
	int is_note;
};

struct tree_items {
	struct tree_item *v;
	size_t nr, alloc;
};

static void items_add(struct tree_items *t, char *path, const git_oid *oid, git_filemode_t mode)
{
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr].path = path;
	git_oid_cpy(&t->v[t->nr].oid, oid);
	t->v[t->nr].mode = mode;
	t->v[t->nr].is_note = 0;
	t->nr++;
}

static int is_hex(const char *s)
{
	for (; *s; s++)
		if (!strchr("0123456789abcdefABCDEF", *s))
			return 0;
	return 1;
}

/* What a batch knows while it builds the new tree. */
struct build {
	git_repository *g;
	struct strmap notes;	/* hex -> git_oid * of the note blob (NULL: removed) */
	struct tree_items items;
	struct strmap old_dirs;	/* "ab/" or "ab/cd/" -> git_oid * of the old fan-out tree */
	struct strmap dirty;	/* hex prefixes of the fan-out dirs that the batch changes */
	unsigned old_depth;	/* deepest fan-out level of the old tree */
};

/*
 * Reads an existing notes tree: 2-hex-digit directories are fan-out, a blob
 * completing 40 hex digits is a note, anything else is kept where it is.
 */
static int load_notes(struct build *bd, git_tree *tree, struct strbuf *hex, struct strbuf *path)
{
	git_repository *g = bd->g;
	struct strmap *notes = &bd->notes;
	struct tree_items *other = &bd->items;

	for (size_t i = 0; i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		size_t nlen = strlen(name), hlen = hex->len, plen = path->len;
		int ret = 0;

		strbuf_addstr(path, name);
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE && nlen == 2 && is_hex(name) &&
		    hlen + 2 < GIT_OID_HEXSZ) {
			git_tree *sub;

			git_oid *id = xmalloc(sizeof(*id));

			strbuf_addstr(hex, name);
			strbuf_addch(path, '/');
			git_oid_cpy(id, git_tree_entry_id(e));
			free(strmap_put(&bd->old_dirs, path->buf, id));
			if (hex->len / 2 > bd->old_depth)
				bd->old_depth = (unsigned)(hex->len / 2);
			if (git_tree_lookup(&sub, g, git_tree_entry_id(e)) < 0)
				return -1;
			ret = load_notes(bd, sub, hex, path);
			git_tree_free(sub);
		} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && is_hex(name) &&
			   hlen + nlen == GIT_OID_HEXSZ) {
			git_oid *blob = xmalloc(sizeof(*blob));

			strbuf_addstr(hex, name);
			for (char *p = hex->buf; *p; p++)
				if (*p >= 'A' && *p <= 'F')
					*p += 'a' - 'A';
			git_oid_cpy(blob, git_tree_entry_id(e));
			free(strmap_put(notes, hex->buf, blob));
		} else {
			items_add(other, xstrdup(path->buf), git_tree_entry_id(e),
				  git_tree_entry_filemode(e));
		}
		hex->len = hlen;
		hex->buf[hlen] = '\0';
		path->len = plen;
		path->buf[plen] = '\0';
		if (ret < 0)
			return ret;
	}
	return 0;
}

struct note {
	char hex[GIT_OID_HEXSZ + 1];
	git_oid *blob;
};

static int cmp_note(const void *a, const void *b)
{
	return strcmp(((const struct note *)a)->hex, ((const struct note *)b)->hex);
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/*
 * Git's rule (notes.c, determine_fanout): in its 16-ary trie of notes, a node
 * at an even depth d fans out one more level when all 16 of its children hold
 * two notes or more. `notes` share their first d hex digits; d == 2 * fanout.
 */
static void place_notes(const struct note *notes, size_t nr, unsigned d, struct tree_items *out)
{
	size_t count[16] = { 0 };
	int fan = nr >= 32 && d + 2 < GIT_OID_HEXSZ;

	for (size_t i = 0; fan && i < nr; i++)
		count[hexval(notes[i].hex[d])]++;
	for (int k = 0; fan && k < 16; k++)
		if (count[k] < 2)
			fan = 0;
	if (!fan) {
		for (size_t i = 0; i < nr; i++) {
			struct strbuf path = STRBUF_INIT;

			for (unsigned j = 0; j < d; j += 2)
				strbuf_addf(&path, "%.2s/", notes[i].hex + j);
			strbuf_addstr(&path, notes[i].hex + d);
			items_add(out, strbuf_detach(&path, NULL), notes[i].blob, GIT_FILEMODE_BLOB);
			out->v[out->nr - 1].is_note = 1;
		}
		return;
	}
	for (size_t i = 0; i < nr;) {
		size_t j = i + 1;

		while (j < nr && !strncmp(notes[i].hex + d, notes[j].hex + d, 2))
			j++;
		place_notes(notes + i, j - i, d + 2, out);
		i = j;
	}
}

static int cmp_item(const void *a, const void *b)
{
	return strcmp(((const struct tree_item *)a)->path, ((const struct tree_item *)b)->path);
}

/* An old fan-out tree at `dir` ("ab/cd/") that the batch leaves alone, or NULL. */
static const git_oid *reusable_dir(struct build *bd, const char *dir, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1];
	const git_oid *old = strmap_getn(&bd->old_dirs, dir, len);
	size_t n = 0;

	if (!old)
		return NULL;
	for (size_t i = 0; i < len && n < GIT_OID_HEXSZ; i++)
		if (dir[i] != '/')
			hex[n++] = dir[i];
	hex[n] = '\0';
	return strmap_contains(&bd->dirty, hex) ? NULL : old;
}

/*
 * Writes items [lo, hi), whose paths share `plen` leading bytes, as one tree.
 * A fan-out directory holding the same notes as before is not written again:
 * its old tree is reused (with many notes most are untouched).
 */
static int write_tree(struct build *bd, size_t lo, size_t hi, size_t plen, git_oid *out)
{
	const struct tree_items *t = &bd->items;
	git_treebuilder *tb;
	int ret = 0;

	if (git_treebuilder_new(&tb, bd->g, NULL) < 0)
		return -1;
	for (size_t i = lo; i < hi && !ret;) {
		const char *rest = t->v[i].path + plen;
		const char *slash = strchr(rest, '/');
		char *name;

		if (!slash) {
			ret = git_treebuilder_insert(NULL, tb, rest, &t->v[i].oid, t->v[i].mode);
			i++;
		} else {
			size_t n = (size_t)(slash - rest) + 1, j = i + 1;
			const git_oid *old = reusable_dir(bd, t->v[i].path, plen + n);
			git_oid sub;

			int notes_here = 0;

			while (j < hi && !strncmp(t->v[j].path + plen, rest, n))
				notes_here |= t->v[j++].is_note;
			notes_here |= t->v[i].is_note;
			name = xstrndup(rest, n - 1);
			/* Only where notes still fan out: a stray file alone must not bring them back. */
			if (old && notes_here)
				git_oid_cpy(&sub, old);
			else
				ret = write_tree(bd, i, j, plen + n, &sub);
			if (!ret)
				ret = git_treebuilder_insert(NULL, tb, name, &sub, GIT_FILEMODE_TREE);
			free(name);
			i = j;
		}
	}
	if (!ret)
		ret = git_treebuilder_write(out, tb);
	git_treebuilder_free(tb);
	return ret < 0 ? -1 : 0;
}

/* The committer, honouring GIT_COMMITTER_* as git does (libgit2 1.5 does not). */
static int committer(git_repository *g, git_signature **out)
{
	const char *name = getenv("GIT_COMMITTER_NAME");
	const char *email = getenv("GIT_COMMITTER_EMAIL");
	const char *date = getenv("GIT_COMMITTER_DATE");
	git_signature *def = NULL;
	int ret;

	if (git_signature_default(&def, g) < 0)
		def = NULL;
	if (!name || !*name)
		name = def ? def->name : program_name();
	if (!email)
		email = def ? def->email : "undertaker@localhost";
	if (date && *date) {
		char *end;
		long long when = strtoll(date + (*date == '@'), &end, 10);
		long tz = 0;

		if (*end == ' ') {
			tz = strtol(end + 1, &end, 10);
			tz = (tz / 100) * 60 + tz % 100;
		}
		if (!*end) {
			ret = git_signature_new(out, name, email, (git_time_t)when, (int)tz);
			git_signature_free(def);
			return ret;
		}
	}
	ret = git_signature_now(out, name, email);
	git_signature_free(def);
	return ret;
}

/* 0, -1 on a libgit2 error, -2 when the ref names no notes commit (said here). */
static int build_notes_tree(struct notes_batch *b, git_repository *g, git_oid *tree_out)
{
	struct build bd = { .g = g };
	struct note *sorted = NULL;
	struct strmap_entry *e;
	size_t nr = 0;
	int ret = -1;

	if (b->has_old) {
		struct strbuf hex = STRBUF_INIT, path = STRBUF_INIT;
		git_commit *c;
		git_tree *tree;

		/* A non-note sorting before every note (".gitattributes") meets empty buffers. */
		strbuf_grow(&hex, GIT_OID_HEXSZ + 1);
		strbuf_grow(&path, GIT_OID_HEXSZ + 32);
		/* The ref may name no commit (a blob): nothing to read, nothing to leak. */
		ret = git_commit_lookup(&c, g, &b->old);
		if (ret < 0) {
			char id[GIT_OID_HEXSZ + 1];

			error("%s points at %s, which is not a notes commit; nothing written "
				    "(see it with 'git cat-file -t %s', remove it with 'git update-ref -d %s')",
				    b->ref, git_oid_tostr(id, sizeof(id), &b->old), id, b->ref);
			ret = -2;
		}
		if (!ret) {
			ret = git_commit_tree(&tree, c);
			git_commit_free(c);
		}
		if (!ret) {
			ret = load_notes(&bd, tree, &hex, &path);
			git_tree_free(tree);
		}
		strbuf_release(&hex);
		strbuf_release(&path);
		if (ret < 0)
			goto out;
		ret = -1;
	}
	strmap_for_each(&b->queued, e) {
		const char *text = e->value;
		size_t len = strlen(text);
		git_oid *blob = NULL;

		/* An empty note removes the note, as `git notes add -m ""` does. */
		if (len) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add(&sb, text, len);
			if (text[len - 1] != '\n')
				strbuf_addch(&sb, '\n');
			blob = xmalloc(sizeof(*blob));
			if (git_blob_create_from_buffer(blob, g, sb.buf, sb.len) < 0) {
				free(blob);
				strbuf_release(&sb);
				goto out;
			}
			strbuf_release(&sb);
		}
		free(strmap_put(&bd.notes, e->key, blob));
		for (unsigned d = 1; d <= bd.old_depth; d++) {
			char prefix[GIT_OID_HEXSZ + 1];

			memcpy(prefix, e->key, 2 * d);
			prefix[2 * d] = '\0';
			strmap_put(&bd.dirty, prefix, NULL);
		}
	}
	sorted = xcalloc(bd.notes.nr ? bd.notes.nr : 1, sizeof(*sorted));
	strmap_for_each(&bd.notes, e) {
		if (!e->value)
			continue;
		memcpy(sorted[nr].hex, e->key, GIT_OID_HEXSZ + 1);
		sorted[nr++].blob = e->value;
	}
	qsort(sorted, nr, sizeof(*sorted), cmp_note);
	place_notes(sorted, nr, 0, &bd.items);
	qsort(bd.items.v, bd.items.nr, sizeof(*bd.items.v), cmp_item);
	ret = write_tree(&bd, 0, bd.items.nr, 0, tree_out);
out:
	for (size_t i = 0; i < bd.items.nr; i++)
		free(bd.items.v[i].path);
	free(bd.items.v);
	free(sorted);
	strmap_clear(&bd.notes, free);
	strmap_clear(&bd.old_dirs, free);
	strmap_clear(&bd.dirty, NULL);
	return ret;
}

/*
 * Reads back what was just written: libgit2 may report success for an object
 * it did not keep (the disk filled up as it wrote; a corrupt file already at
 * the object's path, which it takes for the object). 0, or -1 said.
 */
static int check_kept(struct notes_batch *b, git_repository *g, const git_oid *commit_id,
		      const git_oid *tree_id)
{
	const git_oid *ids[] = { tree_id, commit_id };
	git_odb *odb = NULL;
	int ret = 0;

	if (git_repository_odb(&odb, g) < 0)
		return 0;	/* the ref update says what is wrong */
	for (size_t i = 0; i < ARRAY_SIZE(ids) && !ret; i++) {
		git_odb_object *obj = NULL;
		char hex[GIT_OID_HEXSZ + 1];

		if (!git_odb_read(&obj, odb, ids[i])) {
			git_odb_object_free(obj);
			continue;
		}
		error("%s: cannot write notes: object %s cannot be read back after it was written "
		      "(%s); is the disk full? Nothing written", b->ref,
		      git_oid_tostr(hex, sizeof(hex), ids[i]),
		      git_error_last() ? git_error_last()->message : "unknown error");
		ret = -1;
	}
	git_odb_free(odb);
	return ret;
}

/* Re-reads the tip of the ref after another writer moved it. */
static int reread_tip(struct notes_batch *b, git_repository *g)
{
	int err = git_reference_name_to_id(&b->old, g, b->ref);

	b->has_old = !err;
	if (err && err != GIT_ENOTFOUND) {
		error("%s: %s", b->ref, git_error_last() ? git_error_last()->message : "unreadable");
		return -1;
	}
	return 0;
}

/*
 * One attempt: the batch's notes over the notes at b->old, as a commit whose
 * parent is b->old, then a compare-and-swap of the ref. Returns 0, -1 on an
 * error (printed), 1 when another writer moved the ref meanwhile, 2 when the
 * ref's lock file was there.
 */
static int commit_once(struct notes_batch *b, git_repository *g, const git_signature *sig,
		       const char *msg, const char *reflog)
{
	git_commit *parent = NULL;
	git_reference *ref = NULL;
	git_tree *tree = NULL;
	git_oid tree_id, commit_id;
	int ret = -1, built = build_notes_tree(b, g, &tree_id);

	if (built == -2)	/* said already */
		goto out;
	if (built < 0 ||
	    git_tree_lookup(&tree, g, &tree_id) < 0 ||
	    (b->has_old && git_commit_lookup(&parent, g, &b->old) < 0) ||
	    git_commit_create(&commit_id, g, NULL, sig, sig, NULL, msg, tree,
			      parent ? 1 : 0, (const git_commit **)&parent) < 0) {
		error("%s: cannot write notes: %s", b->ref,
		      git_error_last() ? git_error_last()->message : "unknown error");
		goto out;
	}
	if (check_kept(b, g, &commit_id, &tree_id) < 0)
		goto out;
	/*
	 * A zero id means "must not exist yet", checked under the ref's lock:
	 * git_reference_create without force checks before it locks, and two
	 * first runs at once both created the ref, the second one's notes alone.
	 */
	if (!b->has_old)
		memset(&b->old, 0, sizeof(b->old));
	ret = git_reference_create_matching(&ref, g, b->ref, &commit_id, 1, &b->old, reflog);
	if (ret == GIT_ELOCKED) {
		ret = 2;
	} else if (ret == GIT_EMODIFIED || ret == GIT_EEXISTS) {
		ret = 1;
	} else if (ret < 0) {
		error("%s: cannot update: %s", b->ref,
		      git_error_last() ? git_error_last()->message : "unknown error");
		ret = -1;
	}
out:
	git_reference_free(ref);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

/*
 * Runs at once over the same notes ref take turns: a run whose compare-and-swap
 * fails re-reads the ref and puts its notes over the other run's, so notes on
 * different commits never conflict and on the same commit the last run wins.
 * Objects go in loose through the object database, as git notes writes them:
 * a run killed half-way leaves unreachable objects that git gc prunes, never
 * a half-built pack that nothing removes.
 */
#define NOTES_COMMIT_ATTEMPTS 200
#define NOTES_LOCKED_ATTEMPTS 50

int notes_batch_commit(struct notes_batch *b, const char *message)
{
	git_repository *g;
	git_signature *sig = NULL;
	struct strbuf msg = STRBUF_INIT;
	char *reflog = NULL;
	unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	int ret = -1;

	if (!b->count) {
		notes_batch_abort(b);
		return 0;
	}
	g = repo_git(b->repo);
	if (committer(g, &sig) < 0) {
		error("%s: cannot write notes: %s", b->ref,
		      git_error_last() ? git_error_last()->message : "unknown error");
		goto out;
	}
	strbuf_addstr(&msg, message);
	if (!msg.len || msg.buf[msg.len - 1] != '\n')
		strbuf_addch(&msg, '\n');
	reflog = xstrfmt("notes: %s", message);
	for (int attempt = 0, locked = 0; ret; attempt++) {
		/* A writer holds the lock for milliseconds: a lock there for a second is stale. */
		if (locked >= NOTES_LOCKED_ATTEMPTS) {
			error("%s: cannot lock it: '%s%s.lock' exists; nothing written.\n"
			      "Another git process seems to be writing these notes; if none is\n"
			      "running (a killed run leaves the file), remove the file and run again",
			      b->ref, git_repository_commondir(g), b->ref);
			ret = -1;
			break;
		}
		if (attempt == NOTES_COMMIT_ATTEMPTS) {
			error("%s: other writers kept changing it; nothing written", b->ref);
			ret = -1;
			break;
		}
		if (attempt) {
			/* Random waits, growing to 50 ms: the runs that met must not meet again. */
			long max_us = 1000L * (attempt < 50 ? attempt : 50);
			struct timespec ts = { 0, 1000L * (1 + rand_r(&seed) % max_us) };

			nanosleep(&ts, NULL);
			if (reread_tip(b, g) < 0)
				break;
		}
		ret = commit_once(b, g, sig, msg.buf, reflog);
		if (ret < 0)
			break;
		locked = ret == 2 ? locked + 1 : 0;
	}
out:
	free(reflog);
	git_signature_free(sig);
	strbuf_release(&msg);
	notes_batch_abort(b);
	return ret;
}
