// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl nccl env: its arguments, the halves of every host, and its
 * output; and bench nccl's share of it (ncclenv.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "benchexec.h"
#include "cmdbuild.h"
#include "lib/spawn.h"
#include "lib/err.h"
#include "lib/ifaddr.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/run.h"
#include "ncclenv.h"

/* This host and its peers. */
#define NCCL_ENV_HOSTS 16
/* ssh and the peer's device list: ConnectTimeout is 10 s */
#define PEER_TIMEOUT_MS 30000

static const char nccl_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] nccl env [ peer HOST[,HOST...] ]\n"
	"                  [ peer-file FILE[,FILE...] ] [ format FORMAT ]\n"
	"       sparkperf-ctl nccl help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       HOST := a peer for ssh (BatchMode: a key, no password), where\n"
	"               'sparkperf-ctl -j dev' runs\n"
	"       FILE := a peer's 'sparkperf-ctl -j dev' or '-j check' output\n"
	"       FORMAT := { export | mpirun }: shell export lines (the default), or the\n"
	"                 -x options of mpirun\n"
	"Prints the NCCL environment of this host and of each peer, in one order:\n"
	"NCCL_IB_HCA with both halves of every connected port (ACTIVE, with an IPv4 RoCE v2\n"
	"GID), position i on one subnet on every host; NCCL_SOCKET_IFNAME, the first half's\n"
	"netdev; NCCL_IB_GID_INDEX when one index holds for every half of every host;\n"
	"NCCL_IB_MERGE_NICS=1 where two halves share a port; NCCL_IB_SUBNET_AWARE_ROUTING=1\n"
	"for ring cabling. 'bench nccl env' is the same command.\n";

/* ---- the halves of each host ------------------------------------------------------ */

/* The last line of a failed command's stderr, or how it ended. */
static void why_failed(const char *dir, const struct sp_bench_cmd *c, char *buf, size_t len)
{
	char *err = sp_bench_read_file(dir, c->stderr_name), *end, *line;

	end = err ? err + strlen(err) : NULL;
	while (end && end > err && end[-1] == '\n')
		*--end = '\0';
	line = end ? strrchr(err, '\n') : NULL;
	line = line ? line + 1 : err;
	if (c->x.exec_error)
		snprintf(buf, len, "cannot run %s: %s", c->argv[0], c->x.exec_error);
	else if (line && *line)
		snprintf(buf, len, "%s", line);
	else if (c->x.timed_out)
		snprintf(buf, len, "no answer in %d s", PEER_TIMEOUT_MS / 1000);
	else
		snprintf(buf, len, "exit status %d", c->x.exit_status);
	free(err);
}

/* The ssh steps' answers, parsed into out[]. */
static int ssh_read(const char *dir, struct sp_bench_cmds *cmds, const struct sp_list *hosts,
		    struct sp_halves *out, char *err, size_t len)
{
	char why[256], *line, *text;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < cmds->n; i++) {
		struct sp_bench_cmd *c = &cmds->v[i];

		out[i].source = SP_HALVES_SSH;
		snprintf(out[i].host, sizeof(out[i].host), "%s", hosts->items[i]);
		line = sp_bench_cmdline(c);
		snprintf(out[i].origin, sizeof(out[i].origin), "%s", line ? line : "");
		free(line);
		if (!c->x.ran || c->x.exit_status) {
			why_failed(dir, c, why, sizeof(why));
			snprintf(err, len, "%s: %s: %s", hosts->items[i], out[i].origin, why);
			return -EIO;
		}
		text = sp_bench_read_file(dir, c->stdout_name);
		ret = text ? sp_halves_parse(text, &out[i], why, sizeof(why)) : -errno;
		if (ret)
			snprintf(err, len, "%s: %s: %s", hosts->items[i], out[i].origin,
				 ret == -EINVAL ? why : strerror(-ret));
		free(text);
	}
	return ret;
}

/* The peers' halves: "sparkperf-ctl -j dev" on each over ssh, one after another. */
static int ssh_halves(const struct sp_list *hosts, struct sp_halves *out, char *err, size_t len)
{
	struct sp_bench_cmds cmds = { 0 };
	struct sp_bench_builder b = { .cmds = &cmds };
	struct sp_bench_run_cfg cfg = { .timeout_ms = PEER_TIMEOUT_MS };
	struct sp_bench_verdict v = { 0 };
	struct sp_run_sig sig = { 0 };
	char dir[PATH_MAX], path[PATH_MAX];
	size_t i;
	int ret;

	for (i = 0; i < hosts->n; i++) {
		sp_bench_cmd_new(&b, SP_BENCH_ROLE_STEP, SP_BENCH_NONE, "dev %zu", i + 1);
		sp_bench_ssh(&b, hosts->items[i]);
		sp_bench_arg(&b, "sparkperf-ctl");
		sp_bench_arg(&b, "-j");
		sp_bench_arg(&b, "dev");
	}
	ret = sp_bench_done(&b);
	if (!ret)
		ret = sp_bench_outdir(NULL, dir, sizeof(dir));
	if (ret) {
		snprintf(err, len, "%s", strerror(-ret));
		sp_bench_cmds_free(&cmds);
		return ret;
	}
	cfg.dir = dir;
	sp_run_signals_catch(&sig);
	cfg.sig = &sig;
	ret = sp_bench_run(&cmds, &cfg, &v);
	sp_run_signals_restore(&sig);
	if (ret)
		snprintf(err, len, "%s", strerror(-ret));
	else if (sp_run_signal())
		ret = -EINTR, snprintf(err, len, "stopped by signal %d", sp_run_signal());
	else
		ret = ssh_read(dir, &cmds, hosts, out, err, len);
	for (i = 0; i < cmds.n; i++) {
		sp_bench_join(path, dir, cmds.v[i].stdout_name);
		unlink(path);
		sp_bench_join(path, dir, cmds.v[i].stderr_name);
		unlink(path);
	}
	rmdir(dir);
	sp_bench_verdict_free(&v);
	sp_bench_cmds_free(&cmds);
	return ret;
}

/* ---- output ----------------------------------------------------------------------- */

/* Where a host's halves came from, in words. */
static void fmt_source(const struct sp_halves *h, char *buf, size_t len)
{
	if (h->source == SP_HALVES_LOCAL)
		snprintf(buf, len, "this host, the module's device list");
	else if (h->source == SP_HALVES_SSH)
		snprintf(buf, len, "over ssh: %s", h->origin);
	else
		snprintf(buf, len, "from %s", h->origin);
}

static void text_host_head(const struct sp_nccl_host *h)
{
	char source[600];

	fmt_source(h->halves, source, sizeof(source));
	sp_print_text("# %s: %s\n", h->halves->host, source);
}

/* "NAME=VALUE" as a shell reads it back. */
static void text_var(const char *prefix, const struct sp_nccl_var *v, const char *end)
{
	char *q = sp_shell_quote(v->value);

	sp_print_text("%s%s=%s%s", prefix, v->name, q ? q : "", end);
	free(q);
}

static void text_unset(const struct sp_nccl_host *h)
{
	size_t i;

	for (i = 0; i < h->n_vars; i++)
		if (!h->vars[i].set)
			sp_print_text("# %s: %s\n", h->vars[i].name, h->vars[i].comment);
}

static void text_export(const struct sp_nccl_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct sp_nccl_host *h = &p->hosts[i];

		text_host_head(h);
		for (j = 0; j < h->n_vars; j++) {
			if (h->vars[j].set)
				text_var("export ", &h->vars[j], "\n");
			else
				sp_print_text("# %s: %s\n", h->vars[j].name, h->vars[j].comment);
		}
	}
}

/* One line of -x options. */
static void text_mpirun_line(const struct sp_nccl_host *h)
{
	bool first = true;
	size_t i;

	for (i = 0; i < h->n_vars; i++) {
		if (!h->vars[i].set)
			continue;
		text_var(first ? "-x " : " -x ", &h->vars[i], "");
		first = false;
	}
	sp_print_text("\n");
}

static void text_mpirun(const struct sp_nccl_plan *p)
{
	bool alike = true;
	size_t i;

	for (i = 1; i < p->n; i++)
		alike = alike && sp_nccl_hosts_alike(&p->hosts[0], &p->hosts[i]);
	if (!alike)
		sp_print_text("# the hosts differ, and mpirun -x gives every rank one value: set "
			      "each host's in its environment (format export)\n");
	for (i = 0; i < p->n; i++) {
		text_host_head(&p->hosts[i]);
		if (!alike) {
			text_unset(&p->hosts[i]);
			text_mpirun_line(&p->hosts[i]);
		}
	}
	if (alike) {
		text_unset(&p->hosts[0]);
		text_mpirun_line(&p->hosts[0]);
	}
}

struct json_half {
	const struct sp_nccl_host *h;
	size_t i;
};

static void json_half(json_object *o, const void *item)
{
	const struct json_half *jh = item;
	const struct sp_half *x = &jh->h->halves->v[jh->h->order[jh->i]];
	char ip[INET_ADDRSTRLEN], buf[INET_ADDRSTRLEN + 4];

	sp_json_add(o, "device", json_object_new_string(x->dev));
	sp_json_add(o, "port", json_object_new_int64(x->port));
	sp_json_add(o, "netdev", json_object_new_string(x->netdev));
	inet_ntop(AF_INET, &x->addr, ip, sizeof(ip));
	sp_json_add(o, "address", json_object_new_string(ip));
	inet_ntop(AF_INET, &jh->h->subnet[jh->i], ip, sizeof(ip));
	snprintf(buf, sizeof(buf), "%s/%u", ip, jh->h->prefix[jh->i]);
	sp_json_add(o, "subnet", json_object_new_string(buf));
	sp_json_add(o, "gid_index", json_object_new_int64(x->gid_index));
	sp_json_add(o, "parent", sp_json_str_or_null(x->parent[0] ? x->parent : NULL));
}

static json_object *json_halves(const struct sp_nccl_host *h)
{
	json_object *arr = json_object_new_array(), *o;
	struct json_half jh = { .h = h };

	for (jh.i = 0; arr && jh.i < h->n; jh.i++) {
		o = sp_json_object(json_half, &jh);
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* NCCL_IB_HCA's entries, as the variable lists them */
static json_object *json_hca(const struct sp_nccl_host *h)
{
	const struct sp_nccl_var *v = sp_nccl_var(h, "NCCL_IB_HCA");
	json_object *arr = json_object_new_array();
	struct sp_list l = { 0 };
	size_t i;

	if (arr && v->set && sp_parse_list(v->value, &l)) {
		json_object_put(arr);
		return NULL;
	}
	for (i = 0; arr && i < l.n; i++)
		json_object_array_add(arr, json_object_new_string(l.items[i]));
	sp_list_free(&l);
	return arr;
}

static void json_unset(json_object *o, const void *item)
{
	const struct sp_nccl_var *v = item;

	sp_json_add(o, "name", json_object_new_string(v->name));
	sp_json_add(o, "reason", json_object_new_string(v->comment));
}

static void json_host(json_object *o, const void *item)
{
	const struct sp_nccl_host *h = item;
	const struct sp_nccl_var *gid = sp_nccl_var(h, "NCCL_IB_GID_INDEX");
	const struct sp_nccl_var *ifname = sp_nccl_var(h, "NCCL_SOCKET_IFNAME");
	json_object *env = json_object_new_object(), *unset = json_object_new_array();
	uint32_t index;
	size_t i;

	sp_json_add(o, "host", json_object_new_string(h->halves->host));
	sp_json_add(o, "source", json_object_new_string(sp_halves_source_str(h->halves->source)));
	sp_json_add(o, "origin", sp_json_str_or_null(h->halves->origin[0] ? h->halves->origin :
						     NULL));
	sp_json_add(o, "hca", json_hca(h));
	sp_json_add(o, "halves", json_halves(h));
	sp_json_add(o, "socket_ifname", sp_json_str_or_null(ifname->set ? ifname->value : NULL));
	sp_json_add(o, "gid_index", gid->set && !sp_parse_u32(gid->value, 0, UINT32_MAX, &index) ?
		    json_object_new_int64(index) : NULL);
	sp_json_add(o, "merge_nics", json_object_new_boolean(sp_nccl_var(h, "NCCL_IB_MERGE_NICS") !=
							     NULL));
	for (i = 0; i < h->n_vars; i++) {
		if (h->vars[i].set)
			sp_json_add(env, h->vars[i].name, json_object_new_string(h->vars[i].value));
		else if (unset)
			json_object_array_add(unset, sp_json_object(json_unset, &h->vars[i]));
	}
	sp_json_add(o, "env", env);
	sp_json_add(o, "unset", unset);
}

static json_object *json_note(const void *items, size_t i)
{
	return json_object_new_string(((char *const *)items)[i]);
}

static int print_plan(const struct sp_nccl_plan *p, bool mpirun)
{
	json_object *o;
	size_t i;

	if (sp_print_is_json()) {
		o = json_object_new_object();
		if (!o)
			return -ENOMEM;
		sp_json_add(o, "hosts", sp_json_objects(p->hosts, p->n, sizeof(*p->hosts),
							json_host));
		sp_json_add(o, "gid_index_stable", json_object_new_boolean(p->gid_stable));
		sp_json_add(o, "subnet_aware_routing", json_object_new_boolean(p->ring));
		sp_json_add(o, "notes", sp_json_array(p->notes, p->n_notes, json_note));
		return sp_print_json(o);
	}
	for (i = 0; i < p->n_notes; i++)
		sp_print_text("# %s\n", p->notes[i]);
	if (mpirun)
		text_mpirun(p);
	else
		text_export(p);
	return 0;
}

/* ---- the command ------------------------------------------------------------------ */

static int env_usage_error(const char *fmt, const char *arg)
{
	return sp_usage_error("nccl", fmt, arg);
}

/* The hosts, this one first: 0 or an exit status (the error reported). */
static int gather(const struct sp_list *peers, const struct sp_list *files,
		  struct sp_halves *hosts)
{
	struct sp_nl_err e;
	char err[600];
	size_t i;
	int ret;

	for (i = 0; i < files->n; i++) {
		ret = sp_halves_read_file(files->items[i], &hosts[1 + peers->n + i], err,
					  sizeof(err));
		if (ret) {
			sp_err(stderr, "%s", ret == -ENOMEM ? strerror(ENOMEM) : err);
			return SP_EXIT_ERROR;
		}
	}
	ret = sp_halves_this_host(&hosts[0], &e);
	if (ret)
		return sp_report_open_error("nccl", "env", ret, &e);
	if (peers->n && ssh_halves(peers, &hosts[1], err, sizeof(err))) {
		sp_err(stderr, "%s", err);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

int sp_nccl_env_cmd(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_list peers = { 0 }, files = { 0 };
	const char *format = NULL;
	struct sp_kv kv[] = {
		{ .key = "peer", .what = "peer list", .type = SP_KV_LIST, .dst = &peers },
		{ .key = "peer-file", .what = "peer file list", .type = SP_KV_LIST, .dst = &files },
		{ .key = "format", .type = SP_KV_STRING, .dst = &format },
	};
	struct sp_halves hosts[NCCL_ENV_HOSTS] = { 0 };
	struct sp_nccl_plan plan;
	size_t i, n = 0;
	int rc;

	(void)ctx;
	if (sp_kv_args_end("nccl", nccl_usage, argc, argv, kv, ARRAY_SIZE(kv), &rc))
		goto out;
	for (i = 0; !rc && i < peers.n; i++)
		if (!sp_bench_word_ok(peers.items[i]))
			rc = env_usage_error("Invalid peer: '%s' (a host name or address for ssh)",
					     peers.items[i]);
	n = 1 + peers.n + files.n;
	if (!rc && n > NCCL_ENV_HOSTS)
		rc = sp_usage_error("nccl", "Too many peers: %zu (at most %d, files included)",
				    n - 1, NCCL_ENV_HOSTS - 1);
	if (!rc && format && strcmp(format, "export") && strcmp(format, "mpirun"))
		rc = env_usage_error("Invalid format: '%s' (export or mpirun)", format);
	if (!rc && format && ctx->json)
		rc = sp_usage_error("nccl", "'format' is for text output; -j prints JSON");
	if (!rc)
		rc = gather(&peers, &files, hosts);
	if (!rc && sp_nccl_plan_make(hosts, n, &plan))
		rc = sp_report_open_error("nccl", "env", -ENOMEM, NULL);
	if (!rc) {
		if (print_plan(&plan, format && !strcmp(format, "mpirun")))
			rc = sp_report_open_error("nccl", "env", -ENOMEM, NULL);
		sp_nccl_plan_free(&plan);
	}
out:
	for (i = 0; i < NCCL_ENV_HOSTS; i++)
		sp_halves_free(&hosts[i]);
	sp_list_free(&peers);
	sp_list_free(&files);
	return rc;
}

SP_OBJECT_MAIN(nccl, nccl_usage, { "env", sp_nccl_env_cmd })

/* ---- bench nccl ------------------------------------------------------------------- */

/* Is a host of mpirun -H this one: its name, localhost, or one of its addresses? */
static bool is_this_host(const char *host, const char *self)
{
	struct sp_ifaddr *addrs;
	struct in_addr a;
	size_t n, i;
	bool found = !strcmp(host, self) || !strcmp(host, "localhost");

	if (found || inet_pton(AF_INET, host, &a) != 1)
		return found;
	if ((ntohl(a.s_addr) >> 24) == 127)
		return true;
	if (sp_host_ifaddrs(&addrs, &n))
		return false;
	for (i = 0; i < n && !found; i++)
		found = addrs[i].addr.s_addr == a.s_addr;
	free(addrs);
	return found;
}

/* The hosts but this one, without their slots: the peers to read. */
static int peer_hosts(const char *const *hosts, size_t n, const char *self, struct sp_list *out)
{
	char *joined = NULL, *w;
	size_t len = 0, i, name_len;
	FILE *f = open_memstream(&joined, &len);
	uint32_t slots;
	int ret;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		name_len = sp_nccl_host_slots(hosts[i], &slots) > 0 ?
			   (size_t)(strrchr(hosts[i], ':') - hosts[i]) : strlen(hosts[i]);
		w = strndup(hosts[i], name_len);
		if (w && !is_this_host(w, self))
			fprintf(f, "%s%s", ftell(f) ? "," : "", w);
		free(w);
	}
	if (fclose(f))
		return -ENOMEM;
	ret = len ? sp_parse_list(joined, out) : 0;
	free(joined);
	return ret;
}

/* Where the list came from: "nccl env of spark1 (this host), spark2 (ssh)". */
static void auto_source(const struct sp_halves *hosts, size_t n, const struct sp_list *peers,
			bool dry_run, char *buf, size_t len)
{
	size_t i, off;

	off = (size_t)snprintf(buf, len, "nccl env of %s (this host)", hosts[0].host);
	for (i = 1; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", %s (ssh)", hosts[i].host);
	for (i = 0; dry_run && i < peers->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "; a dry run "
					"reads no peer, the run reads ", peers->items[i]);
	if (dry_run && peers->n && off < len)
		snprintf(buf + off, len - off, " over ssh");
}

static int auto_take(const struct sp_nccl_plan *plan, struct sp_nccl_auto *a, char *err,
		     size_t len)
{
	const struct sp_nccl_host *h = &plan->hosts[0];
	size_t i;

	for (i = 1; i < plan->n; i++) {
		if (sp_nccl_hosts_alike(h, &plan->hosts[i]))
			continue;
		snprintf(err, len, "the NCCL environments of %s and %s differ, and mpirun -x gives "
			 "every rank one value: give hca, or set each host's (sparkperf-ctl nccl "
			 "env peer %s)", h->halves->host, plan->hosts[i].halves->host,
			 plan->hosts[i].halves->host);
		return -EINVAL;
	}
	for (i = 0; i < h->n_vars; i++) {
		const struct sp_nccl_var *v = &h->vars[i];

		if (!v->set || !strcmp(v->name, "NCCL_SOCKET_IFNAME"))
			continue;
		if (!strcmp(v->name, "NCCL_IB_HCA"))
			snprintf(a->hca, sizeof(a->hca), "%s", v->value);
		else
			snprintf(a->env[a->n_env++], sizeof(a->env[0]), "%s=%s", v->name, v->value);
	}
	return 0;
}

int sp_nccl_auto(const char *const *hosts, size_t n_hosts, bool dry_run, struct sp_nccl_auto *a,
		 char *err, size_t len)
{
	struct sp_halves found[NCCL_ENV_HOSTS] = { 0 };
	struct sp_list peers = { 0 };
	struct sp_nccl_plan plan;
	struct sp_nl_err e;
	size_t i, n = 1;
	int ret;

	memset(a, 0, sizeof(*a));
	ret = sp_halves_this_host(&found[0], &e);
	if (ret) {
		snprintf(a->source, sizeof(a->source), "none: this host's devices are not known "
			 "(%s), NCCL picks", ret == -ENOENT ? "the module is not loaded" :
			 strerror(-ret));
		ret = 0;
		goto out;
	}
	ret = peer_hosts(hosts, n_hosts, found[0].host, &peers);
	if (!ret && peers.n >= NCCL_ENV_HOSTS)
		ret = -E2BIG;
	if (!ret && !dry_run && peers.n)
		ret = ssh_halves(&peers, &found[1], err, len);
	else if (ret)
		snprintf(err, len, "%s", strerror(-ret));
	if (ret)
		goto out;
	n += dry_run ? 0 : peers.n;
	ret = sp_nccl_plan_make(found, n, &plan);
	if (ret) {
		snprintf(err, len, "%s", strerror(-ret));
		goto out;
	}
	ret = auto_take(&plan, a, err, len);
	auto_source(found, n, &peers, dry_run, a->source, sizeof(a->source));
	if (!a->hca[0])
		snprintf(a->source + strlen(a->source), sizeof(a->source) - strlen(a->source),
			 ": no connected half, NCCL picks");
	sp_nccl_plan_free(&plan);
out:
	for (i = 0; i < NCCL_ENV_HOSTS; i++)
		sp_halves_free(&found[i]);
	sp_list_free(&peers);
	return ret;
}
