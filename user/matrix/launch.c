// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "mxargs.h"
#include "lib/file.h"
#include "lib/spawn.h"

#define HOSTFILE_MAX (1 << 20)

/* A hostfile line's options: slots=N, max_slots=N (mpirun's); anything else is refused. */
static bool host_option_ok(const char *w)
{
	uint32_t n;

	if (!strncmp(w, "slots=", 6))
		return !sp_parse_u32(w + 6, 1, UINT32_MAX, &n);
	if (!strncmp(w, "max_slots=", 10) || !strncmp(w, "max-slots=", 10))
		return !sp_parse_u32(w + 10, 1, UINT32_MAX, &n);
	return false;
}

int sp_mx_hostfile_parse(const char *text, const char *path, struct sp_list *hosts, char *err,
			 size_t len)
{
	char *copy = strdup(text), *line, *next, *w, *save, *hash, *joined = NULL;
	size_t jlen = 0, lineno = 0;
	FILE *f = open_memstream(&joined, &jlen);
	int ret = 0;

	memset(hosts, 0, sizeof(*hosts));
	if (!copy || !f) {
		free(copy);
		if (f)
			fclose(f);
		free(joined);
		return -ENOMEM;
	}
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		w = strtok_r(line, " \t\r", &save);
		if (!w)
			continue;
		if (strchr(w, ',') || strchr(w, '='))
			ret = sp_invalid(err, len, "%s:%zu: '%s' is no host name", path, lineno, w);
		else
			fprintf(f, "%s%s", ftell(f) ? "," : "", w);
		while (!ret && (w = strtok_r(NULL, " \t\r", &save)))
			if (!host_option_ok(w))
				ret = sp_invalid(err, len, "%s:%zu: unknown '%s' "
						 "(slots=N, max_slots=N)", path, lineno, w);
	}
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret && !jlen)
		ret = sp_invalid(err, len, "%s: no host in it", path);
	if (!ret)
		ret = sp_parse_list(joined, hosts);
	free(joined);
	free(copy);
	return ret;
}

int sp_mx_hostfile_read(const char *path, struct sp_list *hosts, char *err, size_t len)
{
	char *text;
	int ret = sp_file_read(path, HOSTFILE_MAX, &text);

	memset(hosts, 0, sizeof(*hosts));
	if (ret) {
		snprintf(err, len, "cannot read hostfile %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = sp_mx_hostfile_parse(text, path, hosts, err, len);
	free(text);
	return ret;
}

struct words {
	char **v;
	size_t n, cap;
	bool nomem;
};

static void word(struct words *w, const char *s)
{
	char *copy = s ? strdup(s) : NULL;

	if (!copy || sp_array_add(&w->v, &w->n, &w->cap, sizeof(copy), &copy)) {
		free(copy);
		w->nomem = true;
	}
}

char **sp_mx_mpirun_argv(const struct sp_mx_launch *l)
{
	char cfg[SP_MX_CONFIG_WORDS][SP_MX_CONFIG_WORD_MAX], np[16], *hosts = NULL;
	struct words w = { 0 };
	size_t hlen = 0, i;
	FILE *f = open_memstream(&hosts, &hlen);

	if (!f)
		return NULL;
	for (i = 0; i < l->hosts->n; i++)
		fprintf(f, "%s%s", i ? "," : "", l->hosts->items[i]);
	w.nomem = fclose(f);
	snprintf(np, sizeof(np), "%zu", l->hosts->n);
	word(&w, "mpirun");
	word(&w, "-H");
	word(&w, hosts);
	word(&w, "-np");
	word(&w, np);
	/* one worker a host, whatever slots the hosts have */
	word(&w, "--map-by");
	word(&w, "ppr:1:node");
	/* no password prompt to hang on: a host ssh cannot reach fails at once */
	word(&w, "--mca");
	word(&w, "plm_rsh_agent");
	word(&w, "ssh -o BatchMode=yes -o ConnectTimeout=10");
	for (i = 0; i < l->n_extra; i++)
		word(&w, l->extra[i]);
	word(&w, l->worker);
	sp_mx_config_words(l->cfg, cfg);
	for (i = 0; i < SP_MX_CONFIG_WORDS; i++)
		word(&w, cfg[i]);
	free(hosts);
	if (!w.nomem && sp_array_add(&w.v, &w.n, &w.cap, sizeof(char *), &(char *){ NULL }))
		w.nomem = true;
	if (w.nomem) {
		for (i = 0; i < w.n; i++)
			free(w.v[i]);
		free(w.v);
		return NULL;
	}
	return w.v;
}

void sp_mx_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char *sp_mx_argv_line(char *const *argv)
{
	char *buf = NULL, *q;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	bool nomem = !f;

	for (i = 0; f && argv[i]; i++) {
		q = sp_shell_quote(argv[i]);
		nomem = nomem || !q;
		fprintf(f, "%s%s", i ? " " : "", q ? q : "");
		free(q);
	}
	if ((f && fclose(f)) || nomem) {
		free(buf);
		return NULL;
	}
	return buf;
}
