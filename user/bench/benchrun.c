// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchrun.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* How often the runner looks at its children and at server banners. */
#define POLL_MS 50

/* Room for a netdev name as sysfs gives it. */
#define NETDEV_LEN 64

/* ---- processes ----------------------------------------------------------------------- */

/* The child's side of spawn(): never returns. */
static void child(const struct sp_bench_cmd *c, const struct sp_bench_run_cfg *cfg, int in,
		  int out, int err, int report)
{
	size_t i;
	int e;

	/* a group of its own: ssh, mpirun, docker and their children stop together */
	setpgid(0, 0);
	if (cfg->sig && cfg->sig->caught)
		sigprocmask(SIG_SETMASK, &cfg->sig->old_mask, NULL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	for (i = 0; c->env && c->env[i]; i++)
		putenv(c->env[i]);
	execvp(c->argv[0], c->argv);
	e = errno;
	dprintf(2, "sparkperf-ctl: cannot run %s: %s\n", c->argv[0], strerror(e));
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Starts c; its pid, or -1 with c->x.exec_error set (and recorded in v). */
static pid_t spawn(struct sp_bench_cmd *c, const struct sp_bench_run_cfg *cfg,
		   struct sp_bench_verdict *v)
{
	char path[PATH_MAX];
	int fds[2], in, out, err, e = 0;
	pid_t pid = -1;
	ssize_t got;

	sp_bench_join(path, cfg->dir, c->stdout_name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	sp_bench_join(path, cfg->dir, c->stderr_name);
	err = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (out < 0 || err < 0 || in < 0 || pipe2(fds, O_CLOEXEC)) {
		e = errno;
	} else {
		pid = fork();
		if (pid < 0)
			e = errno;
		if (!pid)
			child(c, cfg, in, out, err, fds[1]);
		close(fds[1]);
		if (pid > 0) {
			setpgid(pid, pid);
			/* exec closes the pipe: nothing to read means it started */
			got = read(fds[0], &e, sizeof(e));
			if (got == sizeof(e)) {
				waitpid(pid, NULL, 0);
				pid = -1;
			} else {
				e = 0;
			}
		}
		close(fds[0]);
	}
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	if (in >= 0)
		close(in);
	c->x.ran = pid > 0;
	if (pid > 0)
		return pid;
	c->x.exec_error = strdup(strerror(e));
	sp_bench_problem_add(v, SP_BENCH_FAIL, "exec_error", "%s: cannot run %s: %s", c->name,
			     c->argv[0], strerror(e));
	return -1;
}

struct live {
	pid_t pid;
	struct sp_bench_cmd *c;
	int64_t start_ms;
	bool done;
};

static void record(struct live *l, int status)
{
	struct sp_bench_exec *x = &l->c->x;

	l->done = true;
	x->elapsed_s = (double)(sp_run_now_ms() - l->start_ms) / 1000;
	if (WIFEXITED(status)) {
		x->exit_status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		x->signal = WTERMSIG(status);
		x->exit_status = SP_BENCH_EXIT_UNKNOWN;
	}
}

/* Collects those that ended; true when none is left. */
static bool collect(struct live *l, size_t n)
{
	bool all = true;
	size_t i;
	int status;

	for (i = 0; i < n; i++) {
		if (!l[i].done && waitpid(l[i].pid, &status, WNOHANG) == l[i].pid)
			record(&l[i], status);
		all = all && l[i].done;
	}
	return all;
}

/* A pause that lets SIGINT and SIGTERM in. */
static void pause_ms(const struct sp_bench_run_cfg *cfg, int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	ppoll(NULL, 0, &ts, cfg->sig && cfg->sig->caught ? &cfg->sig->wait_mask : NULL);
	if (cfg->tick)
		cfg->tick(cfg->tick_arg);
}

static bool interrupted(const struct sp_bench_run_cfg *cfg)
{
	return cfg->sig && cfg->sig->caught && sp_run_signal_pending(cfg->sig);
}

enum wait_end { ENDED, DEADLINE, SIGNALLED };

/* Until all of l ended, deadline_ms passed (0: none), or a signal came. */
static enum wait_end wait_all(const struct sp_bench_run_cfg *cfg, struct live *l, size_t n,
			      int64_t deadline_ms)
{
	for (;;) {
		if (collect(l, n))
			return ENDED;
		if (interrupted(cfg))
			return SIGNALLED;
		if (deadline_ms && sp_run_now_ms() >= deadline_ms)
			return DEADLINE;
		pause_ms(cfg, POLL_MS);
	}
}

/* SIGTERM to the groups still running, SIGKILL to those that outlive it. */
static void stop(const struct sp_bench_run_cfg *cfg, struct live *l, size_t n, bool timed_out)
{
	int64_t end = sp_run_now_ms() + SP_BENCH_KILL_GRACE_MS;
	size_t i;
	int status;

	for (i = 0; i < n; i++) {
		if (!l[i].done) {
			l[i].c->x.timed_out = timed_out;
			kill(-l[i].pid, SIGTERM);
		}
	}
	while (!collect(l, n) && sp_run_now_ms() < end)
		pause_ms(cfg, POLL_MS);
	for (i = 0; i < n; i++) {
		if (l[i].done)
			continue;
		kill(-l[i].pid, SIGKILL);
		if (waitpid(l[i].pid, &status, 0) == l[i].pid)
			record(&l[i], status);
	}
}

/* What a deadline or a signal did to a group of commands. */
static int report_stop(enum wait_end why, struct live *l, size_t n, int64_t timeout_ms,
		       struct sp_bench_verdict *v)
{
	size_t i;
	int ret = 0;

	if (why == SIGNALLED)
		return sp_bench_problem_add(v, SP_BENCH_FAIL, "interrupted",
					    "stopped by signal %d", sp_run_signal());
	for (i = 0; !ret && i < n; i++)
		if (l[i].c->x.timed_out)
			ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "timeout",
						   "%s did not end within %lld s: stopped",
						   l[i].c->name, (long long)(timeout_ms / 1000));
	return ret;
}

/* Does the server's stdout hold its banner yet? */
static bool banner(const struct sp_bench_run_cfg *cfg, const struct sp_bench_cmd *c)
{
	char *text = sp_bench_read_file(cfg->dir, c->stdout_name);
	bool seen = text && strstr(text, c->ready);

	free(text);
	return seen;
}

/* Waits for the banner; false (and the problem in v) if it never came. */
static bool ready(const struct sp_bench_run_cfg *cfg, struct live *l, struct sp_bench_verdict *v)
{
	int64_t end = sp_run_now_ms() + SP_BENCH_READY_MS;

	for (;;) {
		if (banner(cfg, l->c))
			return true;
		if (collect(l, 1)) {
			sp_bench_problem_add(v, SP_BENCH_FAIL, "server_not_ready",
					     "%s ended (status %d) before it was ready; see %s/%s",
					     l->c->name, l->c->x.exit_status, cfg->dir,
					     l->c->stderr_name);
			return false;
		}
		if (interrupted(cfg) || sp_run_now_ms() >= end) {
			if (!interrupted(cfg))
				sp_bench_problem_add(v, SP_BENCH_FAIL, "server_not_ready",
						     "%s did not print '%s' within %d s",
						     l->c->name, l->c->ready,
						     SP_BENCH_READY_MS / 1000);
			return false;
		}
		pause_ms(cfg, POLL_MS);
	}
}

/* Starts c as l; false if it could not be started. */
static bool start(struct sp_bench_cmd *c, const struct sp_bench_run_cfg *cfg, struct live *l,
		  struct sp_bench_verdict *v)
{
	pid_t pid = spawn(c, cfg, v);

	if (pid < 0)
		return false;
	*l = (struct live){ .pid = pid, .c = c, .start_ms = sp_run_now_ms() };
	return true;
}

/* Starts the commands of role into l (from *n on); false if one could not be started. */
static bool start_role(struct sp_bench_cmds *cmds, enum sp_bench_role role,
		       const struct sp_bench_run_cfg *cfg, struct live *l, size_t *n,
		       struct sp_bench_verdict *v)
{
	size_t i;

	for (i = 0; i < cmds->n; i++) {
		struct sp_bench_cmd *c = &cmds->v[i];

		if (c->role != role)
			continue;
		if (!start(c, cfg, &l[*n], v))
			return false;
		(*n)++;
	}
	return true;
}

/* Servers, then the clients together, then the servers' ends. */
static int run_pairs(struct sp_bench_cmds *cmds, const struct sp_bench_run_cfg *cfg,
		     struct live *l, struct sp_bench_verdict *v)
{
	size_t n_srv = 0, n_cli = 0, i;
	enum wait_end why = ENDED;
	bool ok;
	int ret = 0;

	ok = start_role(cmds, SP_BENCH_ROLE_SERVER, cfg, l, &n_srv, v);
	for (i = 0; ok && i < n_srv; i++)
		ok = ready(cfg, &l[i], v);
	if (ok && !interrupted(cfg)) {
		struct live *cl = l + n_srv;

		/* one that could not start: the others' results would not be the run's */
		if (!start_role(cmds, SP_BENCH_ROLE_CLIENT, cfg, cl, &n_cli, v)) {
			stop(cfg, cl, n_cli, false);
		} else {
			why = wait_all(cfg, cl, n_cli, sp_run_now_ms() + cfg->timeout_ms);
			if (why != ENDED)
				stop(cfg, cl, n_cli, why == DEADLINE);
			ret = report_stop(why, cl, n_cli, cfg->timeout_ms, v);
		}
	}
	if (interrupted(cfg) && why == ENDED)
		ret = report_stop(SIGNALLED, l, 0, 0, v);
	/* a server serves one test and ends; one whose client failed may not */
	if (wait_all(cfg, l, n_srv, sp_run_now_ms() + SP_BENCH_SERVER_GRACE_MS) != ENDED)
		stop(cfg, l, n_srv, false);
	return ret;
}

/* One step after another, up to the first that does not end with status 0. */
static int run_steps(struct sp_bench_cmds *cmds, const struct sp_bench_run_cfg *cfg,
		     struct live *l, struct sp_bench_verdict *v)
{
	enum wait_end why;
	size_t i;
	int ret;

	for (i = 0; i < cmds->n; i++) {
		struct sp_bench_cmd *c = &cmds->v[i];

		if (c->role != SP_BENCH_ROLE_STEP)
			continue;
		if (interrupted(cfg))
			return report_stop(SIGNALLED, l, 0, 0, v);
		if (!start(c, cfg, l, v))
			return 0;
		why = wait_all(cfg, l, 1, sp_run_now_ms() + cfg->timeout_ms);
		if (why != ENDED)
			stop(cfg, l, 1, why == DEADLINE);
		ret = report_stop(why, l, 1, cfg->timeout_ms, v);
		if (ret || why != ENDED || c->x.exit_status)
			return ret;
	}
	return 0;
}

int sp_bench_run(struct sp_bench_cmds *cmds, const struct sp_bench_run_cfg *cfg,
		 struct sp_bench_verdict *v)
{
	struct live *l = calloc(cmds->n ? cmds->n : 1, sizeof(*l));
	bool steps = false;
	size_t i;
	int ret;

	if (!l)
		return -ENOMEM;
	for (i = 0; i < cmds->n; i++)
		steps = steps || cmds->v[i].role == SP_BENCH_ROLE_STEP;
	ret = steps ? run_steps(cmds, cfg, l, v) : run_pairs(cmds, cfg, l, v);
	free(l);
	return ret;
}

/* ---- counters -------------------------------------------------------------------------- */

static bool read_u64(const char *path, uint64_t *v)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	bool ok = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ok = !sp_parse_u64(buf, 0, UINT64_MAX, v);
	}
	fclose(f);
	return ok;
}

/* Where a set's counter lives. */
static void counter_path(char *buf, const char *root, const struct sp_bench_counter_set *s,
			 const char *name)
{
	if (!strcmp(s->kind, "netdev"))
		snprintf(buf, PATH_MAX, "%s/class/net/%s/statistics/%s", root, s->dev, name);
	else
		snprintf(buf, PATH_MAX, "%s/class/infiniband/%s/ports/%u/%s", root, s->dev, s->port,
			 name);
}

static int counter_add(struct sp_bench_counter_set *s, const char *root, const char *name)
{
	char path[PATH_MAX], *copy = strdup(name);
	struct sp_bench_counter *c;

	if (!copy || !GROW(s->c, s->n)) {
		free(copy);
		return -ENOMEM;
	}
	c = &s->c[s->n++];
	c->name = copy;
	counter_path(path, root, s, name);
	c->valid = read_u64(path, &c->before);
	return 0;
}

static struct sp_bench_counter_set *set_add(struct sp_bench_counters *c, const char *kind,
					    const char *dev, unsigned int port)
{
	struct sp_bench_counter_set *s;
	char *copy = strdup(dev);

	if (!copy || !GROW(c->sets, c->n)) {
		free(copy);
		return NULL;
	}
	s = &c->sets[c->n++];
	s->kind = kind;
	s->dev = copy;
	s->port = port;
	return s;
}

static int netdev_set(struct sp_bench_counters *c, const char *root, const char *dev)
{
	static const char *const names[] = { "tx_bytes", "rx_bytes", "tx_packets", "rx_packets" };
	struct sp_bench_counter_set *s;
	char path[PATH_MAX];
	size_t i;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/class/net/%s/statistics", root, dev);
	if (access(path, F_OK))
		return 0;
	s = set_add(c, "netdev", dev, 0);
	for (i = 0; s && !ret && i < ARRAY_SIZE(names); i++)
		ret = counter_add(s, root, names[i]);
	return s ? ret : -ENOMEM;
}

/* Every counter file of dir (counters/ or hw_counters/ of a port), in name order. */
static int port_dir(struct sp_bench_counter_set *s, const char *root, const char *sub)
{
	struct dirent **ents = NULL;
	char path[PATH_MAX], name[NAME_MAX + 32];
	int n, i, ret = 0;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/%s", root, s->dev, s->port,
		 sub);
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		/* lifespan is how long the kernel caches the others, not a counter */
		if (!ret && ents[i]->d_name[0] != '.' && strcmp(ents[i]->d_name, "lifespan")) {
			snprintf(name, sizeof(name), "%s/%s", sub, ents[i]->d_name);
			ret = counter_add(s, root, name);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

static int rdma_sets(struct sp_bench_counters *c, const char *root, const char *dev)
{
	struct dirent **ents = NULL;
	char path[PATH_MAX], nd[NETDEV_LEN];
	int n, i, ret = 0;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports", root, dev);
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		uint32_t port;

		if (!ret && !sp_parse_u32(ents[i]->d_name, 1, 255, &port)) {
			struct sp_bench_counter_set *s = set_add(c, "rdma", dev, port);

			ret = s ? 0 : -ENOMEM;
			if (!ret && port == 1 && !sp_bench_rdma_netdev(root, dev, nd, sizeof(nd)))
				ret = (s->netdev = strdup(nd)) ? 0 : -ENOMEM;
			if (!ret)
				ret = port_dir(s, root, "counters");
			if (!ret)
				ret = port_dir(s, root, "hw_counters");
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int sp_bench_counters_begin(struct sp_bench_counters *c, const char *root,
			    const char *const *netdevs, size_t n_netdevs,
			    const char *const *rdma_devs, size_t n_rdma)
{
	size_t i;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->source = "sysfs snapshot";
	c->start_ns = sp_run_now_ns();
	for (i = 0; !ret && i < n_netdevs; i++)
		ret = netdev_set(c, root, netdevs[i]);
	for (i = 0; !ret && i < n_rdma; i++)
		ret = rdma_sets(c, root, rdma_devs[i]);
	return ret;
}

void sp_bench_counters_end(struct sp_bench_counters *c, const char *root)
{
	char path[PATH_MAX];
	size_t i, k;

	c->end_ns = sp_run_now_ns();
	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->sets[i].n; k++) {
			struct sp_bench_counter *x = &c->sets[i].c[k];

			counter_path(path, root, &c->sets[i], x->name);
			x->valid = x->valid && read_u64(path, &x->after);
		}
	}
}

void sp_bench_counters_free(struct sp_bench_counters *c)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->sets[i].n; k++)
			free(c->sets[i].c[k].name);
		free(c->sets[i].c);
		free(c->sets[i].dev);
		free(c->sets[i].netdev);
	}
	free(c->sets);
	memset(c, 0, sizeof(*c));
}

bool sp_bench_counter_delta(const struct sp_bench_counter *k, uint64_t *delta)
{
	if (!k->valid || k->after < k->before)
		return false;
	*delta = k->after - k->before;
	return true;
}

uint64_t sp_bench_counter_scale(const char *name)
{
	return !strcmp(name, "counters/port_xmit_data") || !strcmp(name, "counters/port_rcv_data") ?
	       4 : 1;
}

bool sp_bench_counter_is_bytes(const char *name)
{
	return strstr(name, "bytes") || sp_bench_counter_scale(name) != 1;
}

double sp_bench_counters_interval_s(const struct sp_bench_counters *c)
{
	return c->end_ns > c->start_ns ? (double)(c->end_ns - c->start_ns) / 1e9 : 0;
}

double sp_bench_gbit_per_s(uint64_t bytes, double secs)
{
	return (double)bytes * 8 / secs / 1e9;
}

/* ---- which devices ------------------------------------------------------------------------- */

int sp_bench_route_netdev(const char *addr, char *ifname, size_t len)
{
	struct sockaddr_storage ss = { 0 }, local = { 0 };
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl = sizeof(local);
	struct ifaddrs *ifa, *i;
	int fd, ret = -ENOENT;

	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(9);
	} else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(9);
	} else {
		return -EINVAL;
	}
	/* connecting a UDP socket sends nothing: the kernel only picks a route */
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&ss, sizeof(ss)) ||
	    getsockname(fd, (struct sockaddr *)&local, &sl)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	close(fd);
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i && ret; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != local.ss_family)
			continue;
		if ((local.ss_family == AF_INET &&
		     ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
		     ((struct sockaddr_in *)&local)->sin_addr.s_addr) ||
		    (local.ss_family == AF_INET6 &&
		     !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			     &((struct sockaddr_in6 *)&local)->sin6_addr, sizeof(struct in6_addr)))) {
			snprintf(ifname, len, "%s", i->ifa_name);
			ret = 0;
		}
	}
	freeifaddrs(ifa);
	return ret;
}

int sp_bench_rdma_netdev(const char *root, const char *dev, char *ifname, size_t len)
{
	char path[PATH_MAX], buf[64];
	FILE *f;
	bool ok;

	/* the netdev of GID 0 of port 1: rxe's eth0, mlx5's enp1s0f0np0 */
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/1/gid_attrs/ndevs/0", root, dev);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!ok || !buf[0])
		return -ENOENT;
	snprintf(ifname, len, "%s", buf);
	return 0;
}

/* The RDMA devices under root, in name order. */
static int rdma_devs(const char *root, struct dirent ***ents)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	return scandir(path, ents, NULL, alphasort);
}

static void dirents_free(struct dirent **ents, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

int sp_bench_netdev_rdma(const char *root, const char *netdev, struct sp_bench_lines *out)
{
	struct dirent **ents = NULL;
	char nd[NETDEV_LEN];
	int n = rdma_devs(root, &ents), i, ret = 0;

	for (i = 0; !ret && i < n; i++) {
		const char *d = ents[i]->d_name;

		if (d[0] != '.' && !sp_bench_rdma_netdev(root, d, nd, sizeof(nd)) &&
		    !strcmp(nd, netdev))
			ret = sp_bench_lines_add(out, d);
	}
	dirents_free(ents, n);
	return ret;
}

/* Does one item of NCCL_IB_HCA name dev? */
static bool hca_item(const char *item, const char *dev, bool exact)
{
	size_t len = strcspn(item, ":");

	return exact ? strlen(dev) == len && !strncmp(dev, item, len) : !strncmp(dev, item, len);
}

int sp_bench_hca_devs(const char *root, const char *hca, struct sp_bench_lines *out)
{
	bool exclude = false, exact = false, named;
	struct dirent **ents = NULL;
	struct sp_list items = { 0 };
	int n, i, ret = 0;
	size_t k;

	if (hca && *hca == '^') {
		exclude = true;
		hca++;
	}
	if (hca && *hca == '=') {
		exact = true;
		hca++;
	}
	if (hca && *hca && sp_parse_list(hca, &items))
		return -EINVAL;
	n = rdma_devs(root, &ents);
	for (i = 0; !ret && i < n; i++) {
		const char *d = ents[i]->d_name;

		if (d[0] == '.')
			continue;
		named = !items.n;
		for (k = 0; k < items.n && !named; k++)
			named = hca_item(items.items[k], d, exact);
		if (items.n && exclude)
			named = !named;
		if (named)
			ret = sp_bench_lines_add(out, d);
	}
	dirents_free(ents, n);
	sp_list_free(&items);
	return ret;
}
