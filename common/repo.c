// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include "repo.h"
#include "process.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One blob in the cache; `b` is what callers see. */
struct cached_blob {
	struct blob b;
	struct cached_blob *next;		/* same bucket */
	struct cached_blob *lru_prev, *lru_next; /* only while unreferenced */
};

struct thread_handle {
	pthread_t thread;
	git_repository *git;
};

struct repo {
	git_repository *git;	/* the opening thread's handle */
	pthread_t owner;
	pthread_mutex_t lock;	/* guards handles and the blob cache */
	struct thread_handle *handles;
	size_t nr_handles, alloc_handles;

	struct cached_blob **buckets;
	size_t nr_buckets, nr_blobs;
	/* Unreferenced blobs stay cached until the budget is spent, oldest out first. */
	struct cached_blob *lru_head, *lru_tail;
	size_t cached_bytes, cache_limit;
	struct strmap shallow;	/* hex ids of $GIT_DIR/shallow: commits git sees as roots */
	struct strmap replace;	/* hex id -> git_oid *: refs/replace/ (git replace) */
	atomic_size_t read_failures;	/* objects that could not be read (repo_read_failures) */
	char *scratch;		/* repo_scratch_objects: the temporary object directory */
};

#define DEFAULT_CACHE_LIMIT ((size_t)256 << 20)

void die_git(const char *what)
{
	const git_error *e = git_error_last();

	die("%s: %s", what, e && e->message ? e->message : "unknown error");
}

static int error_git(const char *what)
{
	const git_error *e = git_error_last();

	return error("%s: %s", what, e && e->message ? e->message : "unknown error");
}

/*
 * safe.directory=* in the user's or the system's config (never the
 * repository's, as in git): libgit2 1.5 takes exact paths only. An empty
 * value drops the entries before it, as git reads it.
 */
static int safe_directory_star(void)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int star = 0;

	if (git_config_open_default(&cfg) < 0)
		return 0;
	if (!git_config_multivar_iterator_new(&it, cfg, "safe.directory", NULL)) {
		while (!git_config_next(&e, it)) {
			if (!*e->value)
				star = 0;
			else if (!strcmp(e->value, "*"))
				star = 1;
		}
		git_config_iterator_free(it);
	}
	git_config_free(cfg);
	return star;
}

/*
 * A repository another user owns: libgit2 1.5 says GIT_EOWNER, or (no
 * safe.directory in any config) GIT_ENOTFOUND with a message about the
 * config. Opened again without the owner check, it is there: trusted with
 * safe.directory=*, else GIT_EOWNER and *where says which directory.
 */
static int open_untrusted(git_repository **out, char **where)
{
	int err;

	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
	err = git_repository_open_ext(out, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (err || safe_directory_star())
		return err;
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 1);
	*where = xstrdup(git_repository_workdir(*out) ? git_repository_workdir(*out) :
			 git_repository_path(*out));
	git_repository_free(*out);
	*out = NULL;
	return GIT_EOWNER;
}

static int open_from_env(git_repository **out, char **where)
{
	int err = git_repository_open_ext(out, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);

	if (err == GIT_EOWNER || err == GIT_ENOTFOUND) {
		int again = open_untrusted(out, where);
		if (again != GIT_ENOTFOUND)
			err = again;
	}

	/*
	 * libgit2 takes GIT_NAMESPACE for every ref it reads; git only for
	 * the refs it serves (upload-pack, receive-pack): here `main` is
	 * refs/heads/main whatever GIT_NAMESPACE says, as in git log.
	 */
	if (!err && git_repository_get_namespace(*out))
		err = git_repository_set_namespace(*out, NULL);
	return err;
}

/*
 * git replace: refs/replace/<id> makes git read another object for <id>
 * (its content, the id stays). Read once at open, unchanged after: every
 * thread may look. Off with GIT_NO_REPLACE_OBJECTS or core.useReplaceRefs=false;
 * GIT_REPLACE_REF_BASE moves it, as in git.
 */
static const struct strmap *replacements;

struct replace_walk {
	struct repo *r;
	size_t base_len;
};

static int add_replacement(const char *name, void *data)
{
	struct replace_walk *w = data;
	git_oid from, *to = xmalloc(sizeof(*to));
	char hex[GIT_OID_HEXSZ + 1];

	if (git_oid_fromstr(&from, name + w->base_len) < 0 ||
	    git_reference_name_to_id(to, w->r->git, name) < 0) {
		free(to);
		return 0;
	}
	free(strmap_put(&w->r->replace, oid_hex(&from, hex), to));
	return 0;
}

static void load_replace(struct repo *r, git_config *cfg)
{
	const char *base = getenv("GIT_REPLACE_REF_BASE");
	struct replace_walk w = { r, 0 };
	char *glob;
	int v;

	if (getenv("GIT_NO_REPLACE_OBJECTS") ||
	    (cfg && !git_config_get_bool(&v, cfg, "core.usereplacerefs") && !v))
		return;
	if (!base || !*base)
		base = "refs/replace/";
	glob = ends_with(base, "/") ? xstrfmt("%s*", base) : xstrfmt("%s/*", base);
	w.base_len = strlen(glob) - 1;
	git_reference_foreach_glob(r->git, glob, add_replacement, &w);
	free(glob);
	if (r->replace.nr)
		replacements = &r->replace;
}

static const git_oid *replaced(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	/* git follows a chain of replacements, five at most. */
	for (int i = 0; replacements && i < 5; i++) {
		const git_oid *to = strmap_get(replacements, oid_hex(oid, hex));

		if (!to)
			break;
		oid = to;
	}
	return oid;
}

const git_oid *repo_replaced(struct repo *r, const git_oid *oid)
{
	return replaced(oid);
}

int repo_lookup_commit(struct repo *r, git_repository *g, const git_oid *oid, git_commit **out)
{
	return git_commit_lookup(out, g ? g : repo_git_local(r), replaced(oid));
}

/* git's shallow file: the commits of a shallow clone whose parents it lacks. */
static void load_shallow(struct repo *r)
{
	char *path = xstrfmt("%sshallow", git_repository_commondir(r->git));
	FILE *f = fopen(path, "r");
	char line[GIT_OID_HEXSZ + 16], hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) == GIT_OID_HEXSZ && !git_oid_fromstr(&id, line))
			strmap_put(&r->shallow, oid_hex(&id, hex), NULL);
	}
	if (f)
		fclose(f);
	free(path);
}

int repo_is_shallow(struct repo *r)
{
	return r->shallow.nr > 0;
}

unsigned repo_commit_parentcount(struct repo *r, const git_commit *c)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (r->shallow.nr && strmap_contains(&r->shallow, oid_hex(git_commit_id(c), hex)))
		return 0;
	return git_commit_parentcount(c);
}

/*
 * Why the repository cannot be opened (open_from_env's err < 0), in git's
 * words; `where`, the repository another user owns (GIT_EOWNER).
 */
static void open_error(int err, char *where, struct strbuf *why)
{
	if (err == GIT_EOWNER && where) {
		size_t n = strlen(where);

		if (n > 1 && where[n - 1] == '/')
			where[n - 1] = '\0';
		strbuf_addf(why, "detected dubious ownership in repository at '%s'\n"
			    "To add an exception for this directory, call:\n\n"
			    "\tgit config --global --add safe.directory %s", where, where);
	} else if (err != GIT_ENOTFOUND) {
		strbuf_addf(why, "cannot open the repository: %s",
			    git_error_last() ? git_error_last()->message : "unknown error");
	} else {
		strbuf_addstr(why, "not a git repository (or any of the parent directories): .git");
	}
}

/* core.quotepath and refs/replace/, from the repository's config. */
static void load_config(struct repo *r)
{
	git_config *cfg;
	int v;

	/* Paths in our output are quoted as git quotes them. */
	if (!git_repository_config_snapshot(&cfg, r->git)) {
		if (!git_config_get_bool(&v, cfg, "core.quotepath"))
			quote_path_high = v;
		load_replace(r, cfg);
		git_config_free(cfg);
	} else {
		load_replace(r, NULL);
	}
}

struct repo *repo_open(struct strbuf *why)
{
	struct repo *r;
	char *where = NULL;
	int err;

	git_libgit2_init();
	/*
	 * libgit2 keeps trees of up to 4 KB in its object cache; a path lookup
	 * walks from the root through trees like drivers/ (tens of KB), and
	 * reading the ~2,000 Makefiles of Linux by path inflated those again
	 * for each file. Trees are small beside the blobs we read: keep them.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, (int)GIT_OBJECT_TREE, (size_t)1 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, (int)GIT_OBJECT_COMMIT, (size_t)1 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)512 << 20);
	/*
	 * git checks an object's hash in fsck, not on every read; libgit2
	 * hashes each object it inflates again (a tenth of git backport's time
	 * over a driver directory). zlib's own checksum still guards the data.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * We never touch the work tree, and libgit2 before 1.7 refuses
	 * GIT_WORK_TREE: drop it, keep GIT_DIR, GIT_CEILING_DIRECTORIES & co.
	 */
	unsetenv("GIT_WORK_TREE");
	r = xcalloc(1, sizeof(*r));
	err = open_from_env(&r->git, &where);
	if (err < 0) {
		open_error(err, where, why);
		free(where);
		git_repository_free(r->git);
		free(r);
		git_libgit2_shutdown();
		return NULL;
	}
	free(where);
	r->owner = pthread_self();
	pthread_mutex_init(&r->lock, NULL);
	r->cache_limit = DEFAULT_CACHE_LIMIT;
	load_shallow(r);
	load_config(r);
	return r;
}

void repo_close(struct repo *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_buckets; i++) {
		struct cached_blob *c = r->buckets[i], *next;

		for (; c; c = next) {
			next = c->next;
			free((char *)c->b.data);
			free(c);
		}
	}
	free(r->buckets);
	for (size_t i = 0; i < r->nr_handles; i++)
		git_repository_free(r->handles[i].git);
	free(r->handles);
	pthread_mutex_destroy(&r->lock);
	strmap_clear(&r->shallow, NULL);
	if (replacements == &r->replace)
		replacements = NULL;
	strmap_clear(&r->replace, free);
	git_repository_free(r->git);
	process_tmpdir_remove(r->scratch);
	free(r);
	git_libgit2_shutdown();
}

git_repository *repo_git(struct repo *r)
{
	return r->git;
}

/* The scratch objects, readable (never written) through another handle. */
static int add_scratch_alternate(git_repository *g, const char *dir)
{
	git_odb *odb;

	if (git_repository_odb(&odb, g) < 0)
		return error_git("cannot read the temporary objects");
	if (git_odb_add_disk_alternate(odb, dir) < 0) {
		git_odb_free(odb);
		return error_git("cannot read the temporary objects");
	}
	git_odb_free(odb);
	return 0;
}

/*
 * A loose object directory outside the repository, first in line for
 * writes: what a patch applied in memory makes (blobs, trees, the commit)
 * is read like any object and gone at exit. Handles opened later (worker
 * threads) and child git processes see it through
 * GIT_ALTERNATE_OBJECT_DIRECTORIES.
 */
int repo_scratch_objects(struct repo *r)
{
	git_odb_backend *loose;
	git_odb *odb;
	const char *alt;
	char *env;

	if (r->scratch)
		return 0;
	if (!(r->scratch = process_tmpdir("undertaker-objects")))
		return -1;
	if (git_repository_odb(&odb, r->git) < 0)
		return error_git("cannot open the object store");
	if (git_odb_backend_loose(&loose, r->scratch, -1, 0, 0, 0) < 0 ||
	    git_odb_add_backend(odb, loose, 1000) < 0) {
		git_odb_free(odb);
		return error_git("cannot make a temporary object store");
	}
	git_odb_free(odb);
	pthread_mutex_lock(&r->lock);
	for (size_t i = 0; i < r->nr_handles; i++)
		if (add_scratch_alternate(r->handles[i].git, r->scratch) < 0) {
			pthread_mutex_unlock(&r->lock);
			return -1;
		}
	pthread_mutex_unlock(&r->lock);
	alt = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	env = alt && *alt ? xstrfmt("%s:%s", r->scratch, alt) : xstrdup(r->scratch);
	setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", env, 1);
	free(env);
	return 0;
}

git_repository *repo_git_local(struct repo *r)
{
	pthread_t self = pthread_self();
	git_repository *g = NULL;

	if (pthread_equal(self, r->owner))
		return r->git;
	pthread_mutex_lock(&r->lock);
	/*
	 * A thread id may be reused once its thread has exited; the handle
	 * then passes to the new thread, which is fine: the old one is gone.
	 */
	for (size_t i = 0; i < r->nr_handles; i++)
		if (pthread_equal(r->handles[i].thread, self)) {
			g = r->handles[i].git;
			break;
		}
	pthread_mutex_unlock(&r->lock);
	if (g)
		return g;
	/* Same discovery as repo_open, so GIT_DIR, GIT_OBJECT_DIRECTORY & co. agree. */
	char *where = NULL;
	int err = open_from_env(&g, &where);
	free(where);
	if (err < 0)
		die_git("cannot reopen the repository in a worker thread");
	pthread_mutex_lock(&r->lock);
	ALLOC_GROW(r->handles, r->nr_handles + 1, r->alloc_handles);
	r->handles[r->nr_handles].thread = self;
	r->handles[r->nr_handles].git = g;
	r->nr_handles++;
	pthread_mutex_unlock(&r->lock);
	return g;
}

const char *repo_gitdir(struct repo *r)
{
	return git_repository_path(r->git);
}

const char *repo_commondir(struct repo *r)
{
	return git_repository_commondir(r->git);
}

/*
 * One single-quoted word of GIT_CONFIG_PARAMETERS, as git's sq_quote writes
 * it ('it'\''s' is "it's"), appended to sb; returns the text after it, or
 * NULL when p holds none.
 */
static const char *sq_word(const char *p, struct strbuf *sb)
{
	if (*p != '\'')
		return NULL;
	for (;;) {
		const char *end = strchr(p + 1, '\'');

		if (!end)
			return NULL;
		strbuf_add(sb, p + 1, (size_t)(end - p - 1));
		p = end + 1;
		if (p[0] != '\\' || (p[1] != '\'' && p[1] != '!') || p[2] != '\'')
			return p;
		strbuf_addch(sb, p[1]);
		p += 2;
	}
}

/*
 * `git -c key=value <cmd>` hands the command GIT_CONFIG_PARAMETERS, which
 * libgit2 does not read: 'key'='value' (or the older 'key=value') words.
 * The last one for key wins, as over the config files.
 */
static char *command_line_config(const char *key)
{
	const char *p = getenv("GIT_CONFIG_PARAMETERS");
	char *ret = NULL;

	while (p && *p) {
		struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
		const char *eq;
		int has_value = 0;

		p += strspn(p, " ");
		if (!*p || !(p = sq_word(p, &k))) {
			strbuf_release(&k);
			break;
		}
		if (*p == '=') {
			if (!(p = sq_word(p + 1, &v))) {
				strbuf_release(&k);
				strbuf_release(&v);
				break;
			}
			has_value = 1;
		} else if ((eq = strchr(strbuf_str(&k), '='))) {
			strbuf_addstr(&v, eq + 1);
			k.len = (size_t)(eq - k.buf);
			k.buf[k.len] = '\0';
			has_value = 1;
		}
		if (k.len && !strcasecmp(k.buf, key)) {
			free(ret);
			/* A key alone is boolean true, as in git. */
			ret = xstrdup(has_value ? strbuf_str(&v) : "true");
		}
		strbuf_release(&k);
		strbuf_release(&v);
	}
	return ret;
}

char *repo_config_get(struct repo *r, const char *key)
{
	git_config *cfg;
	const char *val;
	char *ret = command_line_config(key);

	if (ret)
		return ret;
	if (git_repository_config_snapshot(&cfg, r->git) < 0)
		return NULL;
	if (!git_config_get_string(&val, cfg, key))
		ret = xstrdup(val);
	git_config_free(cfg);
	return ret;
}

static int push_config_value(const git_config_entry *e, void *data)
{
	strvec_push(data, e->value ? e->value : "");
	return 0;
}

void repo_config_get_all(struct repo *r, const char *key, struct strvec *out)
{
	git_config *cfg;

	if (git_repository_config_snapshot(&cfg, r->git) < 0)
		return;
	git_config_get_multivar_foreach(cfg, key, NULL, push_config_value, out);
	git_config_free(cfg);
}

void commit_list_clear(struct commit_list *l)
{
	free(l->oid);
	l->oid = NULL;
	l->nr = l->alloc = 0;
}

/* ---- trees and paths ---- */

/* The tree of a commit, or the tree itself when `oid` names one. */
static int lookup_tree(git_repository *g, const git_oid *oid, git_tree **out)
{
	git_object *obj, *peeled;
	int err;

	err = git_object_lookup(&obj, g, replaced(oid), GIT_OBJECT_ANY);
	if (err < 0)
		return err;
	err = git_object_peel(&peeled, obj, GIT_OBJECT_TREE);
	git_object_free(obj);
	if (err < 0)
		return err;
	*out = (git_tree *)peeled;
	return 0;
}

static int tree_error(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];
	const git_error *e = git_error_last();

	return error("cannot read the tree of %s: %s", oid_hex(oid, hex),
		     e && e->message ? e->message : "unknown error");
}

/* The tree entry at `path` of commit (or tree) `oid`: 0, GIT_ENOTFOUND (silent) or -1. */
static int path_tree_entry(git_repository *g, const git_oid *commit, const char *path,
			   git_tree_entry **out)
{
	git_tree *tree;
	int err;

	if (lookup_tree(g, commit, &tree) < 0)
		return tree_error(commit);
	err = git_tree_entry_bypath(out, tree, path);
	git_tree_free(tree);
	if (err == GIT_ENOTFOUND)
		return GIT_ENOTFOUND;
	return err < 0 ? error_git(path) : 0;
}

int repo_path_entry(struct repo *r, const git_oid *commit, const char *path, git_oid *out,
		    unsigned *mode)
{
	git_tree_entry *e;
	int err = path_tree_entry(repo_git_local(r), commit, path, &e);

	if (err)
		return err;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		err = GIT_ENOTFOUND;
	} else {
		git_oid_cpy(out, git_tree_entry_id(e));
		if (mode)
			*mode = git_tree_entry_filemode(e);
	}
	git_tree_entry_free(e);
	return err;
}

int repo_path_oid(struct repo *r, const git_oid *commit, const char *path, git_oid *out)
{
	return repo_path_entry(r, commit, path, out, NULL);
}

/* ---- the blob cache ---- */

static size_t oid_bucket(const git_oid *oid, size_t nr_buckets)
{
	uint32_t h;

	/* Object ids are uniformly distributed already. */
	memcpy(&h, oid->id, sizeof(h));
	return h & (nr_buckets - 1);
}

static struct cached_blob *cache_find(struct repo *r, const git_oid *oid)
{
	if (!r->nr_buckets)
		return NULL;
	for (struct cached_blob *c = r->buckets[oid_bucket(oid, r->nr_buckets)]; c; c = c->next)
		if (git_oid_equal(&c->b.oid, oid))
			return c;
	return NULL;
}

static void cache_grow(struct repo *r)
{
	size_t n = r->nr_buckets ? r->nr_buckets * 2 : 256;
	struct cached_blob **b = xcalloc(n, sizeof(*b));

	for (size_t i = 0; i < r->nr_buckets; i++) {
		struct cached_blob *c = r->buckets[i], *next;

		for (; c; c = next) {
			size_t k = oid_bucket(&c->b.oid, n);

			next = c->next;
			c->next = b[k];
			b[k] = c;
		}
	}
	free(r->buckets);
	r->buckets = b;
	r->nr_buckets = n;
}

static void lru_unlink(struct repo *r, struct cached_blob *c)
{
	if (c->lru_prev)
		c->lru_prev->lru_next = c->lru_next;
	else
		r->lru_head = c->lru_next;
	if (c->lru_next)
		c->lru_next->lru_prev = c->lru_prev;
	else
		r->lru_tail = c->lru_prev;
	c->lru_prev = c->lru_next = NULL;
}

static void cache_remove(struct repo *r, struct cached_blob *c)
{
	struct cached_blob **p = &r->buckets[oid_bucket(&c->b.oid, r->nr_buckets)];

	while (*p != c)
		p = &(*p)->next;
	*p = c->next;
	r->nr_blobs--;
	r->cached_bytes -= c->b.size;
	free((char *)c->b.data);
	free(c);
}

/* Drops unreferenced blobs, oldest first, until the cache fits its budget. */
static void cache_trim(struct repo *r)
{
	while (r->cached_bytes > r->cache_limit && r->lru_head) {
		struct cached_blob *c = r->lru_head;

		lru_unlink(r, c);
		cache_remove(r, c);
	}
}

void repo_set_cache_limit(struct repo *r, size_t bytes)
{
	pthread_mutex_lock(&r->lock);
	r->cache_limit = bytes;
	cache_trim(r);
	pthread_mutex_unlock(&r->lock);
}

/* Takes a reference on a cached blob; called with the lock held. */
static struct blob *cache_ref(struct repo *r, struct cached_blob *c)
{
	if (!c->b.refcount++)
		lru_unlink(r, c);
	return &c->b;
}

void repo_hash_blob(const void *data, size_t size, git_oid *out)
{
	/* Fails only for an object type that is not one: a blob is one. */
	if (git_odb_hash(out, data, size, GIT_OBJECT_BLOB) < 0)
		memset(out, 0, sizeof(*out));
}

int repo_write_blob(struct repo *r, const void *data, size_t size, git_oid *out)
{
	if (git_blob_create_from_buffer(out, repo_git(r), data, size) < 0)
		return error_git("cannot write a blob");
	return 0;
}

int repo_has_object(struct repo *r, const git_oid *id)
{
	git_odb *odb;
	int ret;

	if (git_repository_odb(&odb, repo_git_local(r)) < 0)
		return 0;
	ret = git_odb_exists(odb, id);
	git_odb_free(odb);
	return ret;
}

int repo_read_blob(struct repo *r, const git_oid *blob_id, struct blob **out)
{
	struct cached_blob *c, *other;
	git_blob *gb;
	char *data;
	size_t size;

	pthread_mutex_lock(&r->lock);
	c = cache_find(r, blob_id);
	if (c) {
		*out = cache_ref(r, c);
		pthread_mutex_unlock(&r->lock);
		return 0;
	}
	pthread_mutex_unlock(&r->lock);

	/* Read outside the lock, so that threads inflate objects in parallel. */
	if (git_blob_lookup(&gb, repo_git_local(r), blob_id) < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		atomic_fetch_add(&r->read_failures, 1);
		return error_git(oid_hex(blob_id, hex));
	}
	size = (size_t)git_blob_rawsize(gb);
	data = xmalloc(size + 1);
	memcpy(data, git_blob_rawcontent(gb), size);
	data[size] = '\0';
	git_blob_free(gb);

	pthread_mutex_lock(&r->lock);
	other = cache_find(r, blob_id);
	if (other) {
		/* Another thread read it meanwhile: keep one copy. */
		free(data);
		*out = cache_ref(r, other);
		pthread_mutex_unlock(&r->lock);
		return 0;
	}
	if (r->nr_blobs >= r->nr_buckets)
		cache_grow(r);
	c = xcalloc(1, sizeof(*c));
	git_oid_cpy(&c->b.oid, blob_id);
	c->b.data = data;
	c->b.size = size;
	c->b.refcount = 1;
	c->next = r->buckets[oid_bucket(blob_id, r->nr_buckets)];
	r->buckets[oid_bucket(blob_id, r->nr_buckets)] = c;
	r->nr_blobs++;
	r->cached_bytes += size;
	cache_trim(r);
	*out = &c->b;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

size_t repo_read_failures(struct repo *r)
{
	return atomic_load(&r->read_failures);
}

void blob_release(struct repo *r, struct blob *b)
{
	struct cached_blob *c;

	if (!b)
		return;
	c = (struct cached_blob *)((char *)b - offsetof(struct cached_blob, b));
	pthread_mutex_lock(&r->lock);
	if (!--c->b.refcount) {
		c->lru_prev = r->lru_tail;
		c->lru_next = NULL;
		if (r->lru_tail)
			r->lru_tail->lru_next = c;
		else
			r->lru_head = c;
		r->lru_tail = c;
		cache_trim(r);
	}
	pthread_mutex_unlock(&r->lock);
}

int repo_read_path(struct repo *r, const git_oid *commit, const char *path, struct blob **out)
{
	git_oid blob_id;
	int err = repo_path_oid(r, commit, path, &blob_id);

	if (err)
		return err;
	return repo_read_blob(r, &blob_id, out);
}

/* ---- listing trees ---- */

/* The tree at `dir` ("" or NULL for the root) of commit or tree `oid`. */
static int lookup_dir(git_repository *g, const git_oid *oid, const char *dir, git_tree **out)
{
	git_tree *root;
	git_tree_entry *e;
	char *trimmed;
	size_t len;
	int err;

	if (lookup_tree(g, oid, &root) < 0)
		return tree_error(oid);
	len = dir ? strlen(dir) : 0;
	while (len && dir[len - 1] == '/')
		len--;
	if (!len) {
		*out = root;
		return 0;
	}
	trimmed = xstrndup(dir, len);
	err = git_tree_entry_bypath(&e, root, trimmed);
	free(trimmed);
	git_tree_free(root);
	if (err == GIT_ENOTFOUND)
		return GIT_ENOTFOUND;
	if (err < 0)
		return error_git(dir);
	if (git_tree_entry_type(e) != GIT_OBJECT_TREE)
		err = GIT_ENOTFOUND;
	else if (git_tree_lookup(out, g, git_tree_entry_id(e)) < 0)
		err = error_git(dir);
	git_tree_entry_free(e);
	return err;
}

static int walk_tree(git_repository *g, git_tree *tree, struct strbuf *path,
		     int (*fn)(const struct tree_file *f, void *data), void *data)
{
	size_t n = git_tree_entrycount(tree);
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		size_t len = path->len;

		if (len)
			strbuf_addch(path, '/');
		strbuf_addstr(path, git_tree_entry_name(e));
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
			git_tree *sub;

			if (git_tree_lookup(&sub, g, git_tree_entry_id(e)) < 0) {
				ret = error_git(path->buf);
			} else {
				ret = walk_tree(g, sub, path, fn, data);
				git_tree_free(sub);
			}
		} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
			struct tree_file f = {
				path->buf, git_tree_entry_id(e), git_tree_entry_filemode(e),
			};

			ret = fn(&f, data);
		}
		/* Submodules (commits) are not files of this repository. */
		path->len = len;
		path->buf[len] = '\0';
	}
	return ret;
}

int repo_for_each_file(struct repo *r, const git_oid *commit, const char *dir,
		       int (*fn)(const struct tree_file *f, void *data), void *data)
{
	git_repository *g = repo_git_local(r);
	struct strbuf path = STRBUF_INIT;
	git_tree *tree;
	int ret = lookup_dir(g, commit, dir, &tree);

	if (ret)
		return ret;
	strbuf_addstr(&path, dir ? dir : "");
	while (path.len && path.buf[path.len - 1] == '/')
		path.buf[--path.len] = '\0';
	ret = walk_tree(g, tree, &path, fn, data);
	git_tree_free(tree);
	strbuf_release(&path);
	return ret;
}

int repo_list_dir(struct repo *r, const git_oid *commit, const char *dir, struct strvec *names)
{
	git_tree *tree;
	int ret = lookup_dir(repo_git_local(r), commit, dir, &tree);

	if (ret)
		return ret;
	for (size_t i = 0; i < git_tree_entrycount(tree); i++)
		strvec_push(names, git_tree_entry_name(git_tree_entry_byindex(tree, i)));
	git_tree_free(tree);
	strvec_sort(names);
	return 0;
}

/* ---- pathspecs ---- */

struct pathspec_item {
	const char *pattern;
	int exclude, literal, icase;
};

/* Parses git's magic (":!x", ":^x", ":/x", ":(exclude,icase)x"); rooted at the top always. */
static void parse_pathspec_item(const char *spec, struct pathspec_item *it)
{
	memset(it, 0, sizeof(*it));
	if (spec[0] == ':' && spec[1] == '(') {
		const char *p = spec + 2, *end = strchr(p, ')');

		if (end) {
			while (p < end) {
				size_t n = strcspn(p, ",)");

				if (n == 7 && !strncmp(p, "exclude", 7))
					it->exclude = 1;
				else if (n == 7 && !strncmp(p, "literal", 7))
					it->literal = 1;
				else if (n == 5 && !strncmp(p, "icase", 5))
					it->icase = 1;
				p += n + (p[n] == ',');
			}
			spec = end + 1;
		}
	} else if (spec[0] == ':') {
		spec++;
		for (; *spec && *spec != ':'; spec++) {
			if (*spec == '!' || *spec == '^')
				it->exclude = 1;
			else if (*spec != '/')
				break;
		}
		if (*spec == ':')
			spec++;
	}
	while (spec[0] == '.' && spec[1] == '/')
		spec += 2;
	if (!strcmp(spec, "."))
		spec = "";
	it->pattern = spec;
}

static int has_wildcard(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static int item_matches(const struct pathspec_item *it, const char *path)
{
	const char *pat = it->pattern;
	size_t plen = strlen(pat);
	int flags = it->icase ? FNM_CASEFOLD : 0;

	if (!plen)
		return 1;
	/* Exact path, or a leading directory of it. */
	if (it->icase ? !strncasecmp(path, pat, plen) : !strncmp(path, pat, plen)) {
		if (!path[plen] || pat[plen - 1] == '/' || path[plen] == '/')
			return 1;
	}
	if (it->literal || !has_wildcard(pat))
		return 0;
	/*
	 * Git's globs match the whole path, '*' crossing '/' (so "*.c" finds
	 * files in subdirectories), but never a leading directory alone.
	 */
	return !fnmatch(pat, path, flags);
}

/* The current directory's path from the top of the work tree ("" at the top or bare). */
static char *cwd_prefix(struct repo *r)
{
	const char *wd = git_repository_workdir(r->git);
	char *top, *cwd, *ret = NULL;
	size_t n;

	if (!wd || git_repository_is_bare(r->git))
		return xstrdup("");
	top = realpath(wd, NULL);
	cwd = realpath(".", NULL);
	if (top && cwd) {
		n = strlen(top);
		while (n > 1 && top[n - 1] == '/')
			n--;
		if (!strncmp(cwd, top, n) && cwd[n] == '/')
			ret = xstrfmt("%s/", cwd + n + 1);
	}
	free(top);
	free(cwd);
	return ret ? ret : xstrdup("");
}

/* prefix + path with "." and ".." resolved; NULL when it leaves the top. */
static char *join_normalized(const char *prefix, const char *path)
{
	char *all = xstrfmt("%s%s", prefix, path);
	struct strvec parts = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	int trailing = *all && all[strlen(all) - 1] == '/';

	for (char *p = all, *tok; (tok = strsep(&p, "/"));) {
		if (!*tok || !strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (!parts.nr) {
				free(all);
				strvec_clear(&parts);
				return NULL;
			}
			free((char *)parts.v[--parts.nr]);
			parts.v[parts.nr] = NULL;
			continue;
		}
		strvec_push(&parts, tok);
	}
	for (size_t i = 0; i < parts.nr; i++)
		strbuf_addf(&out, "%s%s", i ? "/" : "", parts.v[i]);
	if (trailing && out.len)
		strbuf_addch(&out, '/');
	free(all);
	strvec_clear(&parts);
	return strbuf_detach(&out, NULL);
}

int repo_pathspec_from_cwd(struct repo *r, struct strvec *pathspec)
{
	char *prefix = cwd_prefix(r);
	struct strvec out = STRVEC_INIT;
	int ret = 0;

	for (size_t i = 0; i < pathspec->nr; i++) {
		const char *spec = pathspec->v[i], *pat = spec;
		int top = 0;
		char *joined;

		/* The magic is kept as written; only the pattern is rooted. */
		if (spec[0] == ':' && spec[1] == '(') {
			const char *end = strchr(spec, ')');

			if (end) {
				const char *t = strstr(spec, "top");

				top = t && t < end;
				pat = end + 1;
			}
		} else if (spec[0] == ':') {
			for (pat = spec + 1; *pat == '!' || *pat == '^' || *pat == '/'; pat++)
				if (*pat == '/')
					top = 1;
			if (*pat == ':')
				pat++;
		}
		joined = join_normalized(top ? "" : prefix, pat);
		if (!joined) {
			ret = error("%s: '%s' is outside the repository", spec, spec);
			break;
		}
		strvec_pushf(&out, "%.*s%s", (int)(pat - spec), spec, joined);
		free(joined);
	}
	free(prefix);
	if (ret < 0) {
		strvec_clear(&out);
		return ret;
	}
	strvec_clear(pathspec);
	*pathspec = out;
	return 0;
}

void repo_pathspec_warn_unmatched(struct repo *r, const git_oid *const *commits, size_t nr,
				  const struct strvec *pathspec)
{
	for (size_t i = 0; pathspec && i < pathspec->nr; i++) {
		struct pathspec_item it;
		int found = 0;

		parse_pathspec_item(pathspec->v[i], &it);
		if (it.exclude || !*it.pattern || has_wildcard(it.pattern))
			continue;
		for (size_t k = 0; k < nr && !found; k++) {
			char *path = xstrdup(it.pattern);
			size_t n = strlen(path);
			git_tree_entry *e;

			while (n > 1 && path[n - 1] == '/')
				path[--n] = '\0';
			if (path_tree_entry(repo_git_local(r), commits[k], path, &e) == 0) {
				found = 1;
				git_tree_entry_free(e);
			}
			free(path);
		}
		if (!found)
			warning("pathspec '%s' did not match any file", pathspec->v[i]);
	}
}

int pathspec_match(const struct strvec *pathspec, const char *path)
{
	int positive = 0, matched = 0;

	if (!pathspec || !pathspec->nr)
		return 1;
	for (size_t i = 0; i < pathspec->nr; i++) {
		struct pathspec_item it;

		parse_pathspec_item(pathspec->v[i], &it);
		if (it.exclude) {
			if (item_matches(&it, path))
				return 0;
			continue;
		}
		positive = 1;
		if (!matched && item_matches(&it, path))
			matched = 1;
	}
	/* Only exclusions: as git, they apply to everything. */
	return positive ? matched : 1;
}

/* ---- object names ---- */

char *oid_hex(const git_oid *oid, char *buf)
{
	return git_oid_tostr(buf, GIT_OID_HEXSZ + 1, oid);
}

const char *oid_short(struct repo *r, const git_oid *oid)
{
	/* Several calls may appear in one printf; each thread has its own slots. */
	static _Thread_local char slots[4][GIT_OID_HEXSZ + 1];
	static _Thread_local unsigned next;
	char *buf = slots[next++ % ARRAY_SIZE(slots)];
	git_object *obj;
	git_buf abbrev = { 0 };

	git_oid_tostr(buf, 8, oid);
	if (git_object_lookup(&obj, repo_git_local(r), oid, GIT_OBJECT_ANY) < 0)
		return buf;
	if (!git_object_short_id(&abbrev, obj)) {
		snprintf(buf, GIT_OID_HEXSZ + 1, "%s", abbrev.ptr);
		git_buf_dispose(&abbrev);
	}
	git_object_free(obj);
	return buf;
}

char *commit_title(struct repo *r, const git_oid *commit)
{
	git_commit *c;
	char *ret;

	if (repo_lookup_commit(r, NULL, commit, &c) < 0)
		return xstrdup(oid_short(r, commit));
	ret = xstrfmt("%s %s", oid_short(r, commit), git_commit_summary(c) ? git_commit_summary(c) : "");
	git_commit_free(c);
	return ret;
}
