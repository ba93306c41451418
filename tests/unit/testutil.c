// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/genl/genl.h>

#include "bench/benchparse.h"
#include "lib/halves.h"
#include "lib/model.h"
#include "lib/print.h"
#include "lib/traceprint.h"
#include "matrix/mxmodel.h"
#define TESTUTIL_CLI
#include "testutil.h"

void cap_start(struct capture *c, bool json, bool pretty)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
	sp_print_init(c->f, json, pretty);
}

char *cap_end(struct capture *c)
{
	ck_assert_int_eq(sp_print_flush(), 0);
	fclose(c->f);
	sp_print_init(NULL, false, false);
	return c->buf;
}

size_t datagram(void *buf, size_t size, struct nl_msg **msgs, size_t n)
{
	size_t len = 0, i;

	for (i = 0; i < n; i++) {
		struct nlmsghdr *nlh = nlmsg_hdr(msgs[i]);
		size_t l = NLMSG_ALIGN(nlh->nlmsg_len);

		ck_assert(len + l <= size);
		memcpy((char *)buf + len, nlh, l);
		len += l;
		nlmsg_free(msgs[i]);
	}
	return len;
}

/* ---- netlink messages of the tests ---------------------------------------- */

struct nl_msg *genl_new(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(genlmsg_put(msg, 0, SEQ, FAMILY, 0, flags, cmd,
					  SPARKPERF_GENL_VERSION));
	return msg;
}

struct nl_msg *error_new(struct nl_msg *req, int error, int flags)
{
	struct nlmsghdr *rq = nlmsg_hdr(req);
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, flags);
	struct nlmsgerr e = { .error = error, .msg = *rq };

	ck_assert_ptr_nonnull(msg);
	nlmsg_hdr(msg)->nlmsg_seq = rq->nlmsg_seq;
	ck_assert_int_eq(nlmsg_append(msg, &e, sizeof(e), NLMSG_ALIGNTO), 0);
	if (!(flags & NLM_F_CAPPED))
		ck_assert_int_eq(nlmsg_append(msg, nlmsg_data(rq), nlmsg_datalen(rq),
					      NLMSG_ALIGNTO), 0);
	return msg;
}

struct nl_msg *done_msg(int error)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);

	ck_assert_ptr_nonnull(msg);
	nlmsg_hdr(msg)->nlmsg_seq = SEQ;
	nlmsg_append(msg, &error, sizeof(error), NLMSG_ALIGNTO);
	return msg;
}

struct genlmsghdr *req_parse(struct nl_msg *msg, struct nlattr **tb, int max, uint8_t cmd,
			     int flags)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *ghdr = nlmsg_data(nlh);

	ck_assert_uint_eq(nlh->nlmsg_type, FAMILY);
	ck_assert_uint_eq(nlh->nlmsg_flags, NLM_F_REQUEST | flags);
	ck_assert_uint_eq(ghdr->cmd, cmd);
	ck_assert_uint_eq(ghdr->version, SPARKPERF_GENL_VERSION);
	ck_assert_uint_eq(ghdr->reserved, 0);
	ck_assert_int_eq(genlmsg_parse(nlh, 0, tb, max, NULL), 0);
	return ghdr;
}

int count_attrs(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem)
		n++;
	return n;
}

void assert_attr(struct nlattr **tb, int type, int len)
{
	ck_assert_msg(tb[type] != NULL, "attribute %d missing", type);
	ck_assert_msg(nla_len(tb[type]) == len, "attribute %d: %d bytes, want %d", type,
		      nla_len(tb[type]), len);
}

/* ---- JSON and text output ------------------------------------------------- */

json_object *get(json_object *obj, const char *key)
{
	json_object *val = NULL;

	ck_assert_msg(json_object_object_get_ex(obj, key, &val), "no key '%s'", key);
	return val;
}

void assert_int(json_object *obj, const char *key, int64_t want)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_int), "%s is not an integer", key);
	ck_assert_int_eq(json_object_get_int64(v), want);
}

void assert_str(json_object *obj, const char *key, const char *want)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_string), "%s is not a string", key);
	ck_assert_str_eq(json_object_get_string(v), want);
}

void assert_bool(json_object *obj, const char *key, bool want)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_boolean), "%s is not a boolean", key);
	ck_assert(json_object_get_boolean(v) == want);
}

void assert_double(json_object *obj, const char *key, double want, double tol)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_double), "%s is not a float", key);
	ck_assert_msg(fabs(json_object_get_double(v) - want) <= tol, "%s: %.6f, want %.6f",
		      key, json_object_get_double(v), want);
}

void assert_null(json_object *obj, const char *key)
{
	ck_assert_msg(json_object_is_type(get(obj, key), json_type_null), "%s is not null", key);
}

void assert_keys(json_object *obj, const char *const *keys, size_t n)
{
	size_t i = 0;

	ck_assert_uint_eq((size_t)json_object_object_length(obj), n);
	json_object_object_foreach(obj, key, val) {
		(void)val;
		ck_assert_str_eq(key, keys[i]);
		i++;
	}
}

const char *bench_codes(const struct sp_bench_verdict *v)
{
	static char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < v->n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
					v->problems[i].code);
	return buf;
}

static void gid_add(struct sp_port *p, uint32_t index, uint8_t type, const char *ipv4)
{
	struct sp_gid *g;

	p->gids = realloc(p->gids, (p->n_gids + 1) * sizeof(*p->gids));
	ck_assert_ptr_nonnull(p->gids);
	g = &p->gids[p->n_gids++];
	memset(g, 0, sizeof(*g));
	g->index = index;
	g->type = type;
	if (ipv4) {
		g->raw[10] = g->raw[11] = 0xff;
		ck_assert_int_eq(inet_pton(AF_INET, ipv4, g->raw + 12), 1);
	} else {
		g->raw[0] = 0xfe;
		g->raw[1] = 0x80;
		g->raw[15] = 1;
	}
}

void dev_add_half(struct sp_dev_list *l, const char *name, const char *parent,
		  const char *netdev, bool active, uint32_t netdev_mtu, uint32_t active_mtu,
		  const char *ipv4, uint32_t v2_index)
{
	struct sp_dev d = { .index = (uint32_t)l->n + 1, .numa_node = 0 };
	struct sp_port *p = calloc(1, sizeof(*p));

	ck_assert_ptr_nonnull(p);
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.has_parent = parent != NULL;
	snprintf(d.parent, sizeof(d.parent), "%s", parent ? parent : "");
	p->num = 1;
	p->state = active ? SPARKPERF_PORT_ACTIVE : SPARKPERF_PORT_DOWN;
	p->link_layer = SPARKPERF_LINK_LAYER_ETHERNET;
	p->active_mtu = active_mtu;
	p->max_mtu = 4096;
	p->has_netdev = true;
	snprintf(p->netdev_name, sizeof(p->netdev_name), "%s", netdev);
	p->netdev_mtu = netdev_mtu;
	gid_add(p, 0, SPARKPERF_GID_TYPE_ROCE_V1, NULL);
	gid_add(p, 1, SPARKPERF_GID_TYPE_ROCE_V2, NULL);
	if (ipv4) {
		gid_add(p, v2_index - 1, SPARKPERF_GID_TYPE_ROCE_V1, ipv4);
		gid_add(p, v2_index, SPARKPERF_GID_TYPE_ROCE_V2, ipv4);
	}
	d.ports = p;
	d.n_ports = 1;
	ck_assert_int_eq(sp_dev_list_add(l, &d), 0);
}

void dev_spark1(struct sp_dev_list *l)
{
	dev_add_half(l, "rocep1s0f0", "0000:01:00.0", "enp1s0f0np0", true, 9000, 4096,
		     "192.168.200.12", 3);
	dev_add_half(l, "rocep1s0f1", "0000:01:00.1", "enp1s0f1np1", false, 1500, 1024, NULL, 0);
	dev_add_half(l, "roceP2p1s0f0", "0002:01:00.0", "enP2p1s0f0np0", true, 9000, 4096,
		     "192.168.201.12", 3);
	dev_add_half(l, "roceP2p1s0f1", "0002:01:00.1", "enP2p1s0f1np1", false, 1500, 1024,
		     NULL, 0);
}

void assert_half(const struct sp_half *h, const char *dev, const char *netdev,
		 const char *parent, bool active, int gid_index)
{
	ck_assert_str_eq(h->dev, dev);
	ck_assert_uint_eq(h->port, 1);
	ck_assert_str_eq(h->netdev, netdev);
	ck_assert_str_eq(h->parent, parent);
	ck_assert_int_eq(h->active, active);
	ck_assert_int_eq(h->has_ipv4, gid_index >= 0);
	if (gid_index >= 0)
		ck_assert_uint_eq(h->gid_index, (uint32_t)gid_index);
}

bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

char *shell_out(const char *cmd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *p = popen(cmd, "r"), *m;
	int c;

	ck_assert_ptr_nonnull(p);
	m = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(m);
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	fclose(m);
	ck_assert_msg(pclose(p) == 0, "%s: %s", cmd, buf);
	return buf;
}

/* ---- trees in temporary directories (tune) -------------------------------- */

char *tree_digest(const char *dir)
{
	char cmd[PATH_MAX + 256];

	snprintf(cmd, sizeof(cmd), "cd '%s' && find . -path ./var -prune -o -print | "
		 "LC_ALL=C sort | while read -r f; do stat -c '%%n %%a' \"$f\"; "
		 "[ ! -f \"$f\" ] || md5sum <\"$f\"; done", dir);
	return shell_out(cmd);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void tree_remove(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the real sparkperf-ctl (cli/ suites) -------------------------------- */

char tmpdir[64];
const char *child_path;

/* environ with PATH=search in place of its own; malloc'ed (the child execs it). */
static char **env_with_path(const char *search)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env || asprintf(&env[k++], "PATH=%s", search) < 0)
		return NULL;
	for (n = 0; environ[n]; n++)
		if (strncmp(environ[n], "PATH=", 5))
			env[k++] = environ[n];
	return env;
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	ck_assert_ptr_nonnull(m);
	if (f) {
		while ((c = fgetc(f)) != EOF)
			fputc(c, m);
		fclose(f);
	}
	fclose(m);
	return buf;
}

void path(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmpdir, name);
}

/* The tool's global options (before the command) ask for JSON: -j[son], -p[retty]. */
static bool json_asked(char *const *argv)
{
	static const char *const words[] = { "json", "pretty" };
	size_t i, n;

	for (; *argv && (*argv)[0] == '-'; argv++) {
		const char *w = (*argv)[1] == '-' ? *argv + 2 : *argv + 1;

		n = strlen(w);
		for (i = 0; n && i < ARRAY_SIZE(words); i++)
			if (!strncmp(w, words[i], n))
				return true;
	}
	return false;
}

/*
 * Every JSON document the tool prints in a test holds to the vocabulary
 * sparkperf-ctl(8) documents (tests/json-vocabulary.jq), so a key that
 * breaks it fails the test that printed it.
 */
static void json_vocabulary_check(const char *out)
{
	char cmd[2 * PATH_MAX + 64], err[PATH_MAX];
	char *why;
	int rc;

	path(err, "vocabulary");
	snprintf(cmd, sizeof(cmd), "jq -n -e -r -f ../json-vocabulary.jq <'%s' >/dev/null 2>'%s'",
		 out, err);
	rc = system(cmd);
	why = slurp(err);
	ck_assert_msg(rc == 0, "the JSON output breaks the vocabulary:\n%s", why);
	free(why);
}

void run(struct result *r, const char *scenario, ...)
{
	char out[PATH_MAX], err[PATH_MAX], log[PATH_MAX], so[PATH_MAX], state[PATH_MAX], *argv[64];
	const char *wrapper = getenv("CLI_WRAPPER");
	char *wrap = wrapper ? strdup(wrapper) : NULL, *tok, *save = NULL;
	struct timespec t0, t1;
	int argc = 0, argc0, status;
	va_list ap;
	pid_t pid;

	path(out, "stdout");
	path(err, "stderr");
	path(log, "requests");
	unlink(log);
	ck_assert_ptr_nonnull(realpath("fakenl.so", so));
	for (tok = wrap ? strtok_r(wrap, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = CLI;
	argc0 = argc;
	va_start(ap, scenario);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		/* check remembers GID indexes: here, never in /var/lib/sparkperf */
		path(state, "state");
		setenv("SPARKPERF_STATE_DIR", state, 1);
		unsetenv("NCCL_IB_GID_INDEX");
		setenv("FAKENL", scenario, 1);
		setenv("FAKENL_LOG", log, 1);
		setenv("LD_PRELOAD", so, 1);
		/* execvpe searches the test's PATH, the tool gets child_path */
		if (child_path)
			execvpe(argv[0], argv, env_with_path(child_path));
		else
			execvp(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(wrap);
	ck_assert_msg(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
	r->rc = WEXITSTATUS(status);
	r->out = slurp(out);
	r->err = slurp(err);
	r->log = slurp(log);
	r->secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg(r->rc != 99, "valgrind: %s", r->err);
	if (json_asked(argv + argc0))
		json_vocabulary_check(out);
}

void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
	free(r->log);
}

void cli_setup(void)
{
	char *d;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_cli.XXXXXX");
	d = mkdtemp(tmpdir);
	ck_assert_ptr_nonnull(d);
}

void cli_teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- matrix documents ------------------------------------------------------- */

void mx_host(struct sp_mx_doc *d, const char *name, ...)
{
	struct sp_mx_host *h = &d->hosts[d->n_hosts++];
	struct sp_mx_half *x;
	char addr[32];
	unsigned int prefix;
	const char *spec;
	va_list ap;

	snprintf(h->name, sizeof(h->name), "%s", name);
	va_start(ap, name);
	while ((spec = va_arg(ap, const char *))) {
		x = &h->halves[h->n_halves++];
		ck_assert_int_eq(sscanf(spec, "%19s %15s %31[0-9.]/%u", x->dev, x->netdev, addr,
					&prefix), 4);
		ck_assert_int_eq(inet_pton(AF_INET, addr, &x->addr), 1);
		x->prefix = (uint8_t)prefix;
		x->port = (int8_t)sp_mx_netdev_port(x->netdev);
	}
	va_end(ap);
}

void mx_pair(struct sp_mx_doc *d, unsigned int client, unsigned int server, double gbit,
	     double p50_us, double p99_us, const char *error)
{
	struct sp_mx_result r = { .t = { client, 0, server, 0, SP_MX_PAIRS, 1 } };

	r.has_bw = gbit >= 0;
	r.gbit_per_s = gbit;
	r.has_lat = p50_us >= 0;
	r.one_way_p50_us = p50_us;
	r.one_way_p99_us = p99_us;
	snprintf(r.error, sizeof(r.error), "%s", error ? error : "");
	ck_assert_int_eq(sp_array_add(&d->results, &d->n_results, &d->results_cap, sizeof(r), &r),
			 0);
}
