// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's items of each half and of memory (host/checkhalf.c), on a
 * Spark's halves as the module reports them and a fake sysfs and procfs
 * (tests/fixtures/doctor/spark-x2, a test double of the hardware: four
 * ConnectX-7 functions, one half at PCIe x2, CmaTotal 0), with ethtool -i
 * and the probes' figures from tables and the state directory in a
 * temporary one.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "host/doctor.h"
#include "host/tuneprint.h"
#include "lib/halves.h"
#define TESTUTIL_CLI	/* slurp() */
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SPARK_X2 "../fixtures/doctor/spark-x2"

static char state_dir[64];

/* ethtool -i as the test double answers it: roceP2p1s0f0's netdev runs older firmware. */
static int fake_drvinfo(const char *netdev, struct sp_drvinfo *out)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(netdev, "enp1s0f1np1"))
		return -ENODEV;
	snprintf(out->driver, sizeof(out->driver), "mlx5_core");
	snprintf(out->version, sizeof(out->version), "7.0.0-1007-nvidia");
	snprintf(out->fw_version, sizeof(out->fw_version), "%s",
		 strcmp(netdev, "enP2p1s0f0np0") ? "28.45.4028 (NVD0000000087)" :
		 "28.44.1036 (NVD0000000087)");
	snprintf(out->bus_info, sizeof(out->bus_info), "%s",
		 netdev[2] == 'P' ? "0002:01:00.0" : "0000:01:00.0");
	return 0;
}

static void setup(void)
{
	snprintf(state_dir, sizeof(state_dir), "/tmp/check_doctor.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(state_dir));
}

static void teardown(void)
{
	tree_remove(state_dir);
}

/* A doctor of spark1's halves (its module loaded) on a tree. */
static void doctor_init(struct sp_doctor *d, const char *root)
{
	memset(d, 0, sizeof(*d));
	sp_knob_io_files(&d->io, root);
	sp_knob_io_files(&d->state_io, "");
	d->state_dir = state_dir;
	d->drvinfo = fake_drvinfo;
	d->module = true;
	dev_spark1(&d->devs);
	ck_assert_int_eq(sp_halves_local(&d->devs, NULL, 0, &d->halves), 0);
}

static void doctor_free(struct sp_doctor *d)
{
	ck_assert_int_eq(d->ret, 0);
	sp_checklist_free(&d->list);
	sp_dev_list_free(&d->devs);
	sp_halves_free(&d->halves);
}

static const struct sp_check_item *item(const struct sp_doctor *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->list.n; i++)
		if (!strcmp(d->list.items[i].name, name))
			return &d->list.items[i];
	ck_abort_msg("no item %s", name);
	return NULL;
}

static void assert_item(const struct sp_doctor *d, const char *name, enum sp_check_status st,
			const char *detail)
{
	const struct sp_check_item *it = item(d, name);

	ck_assert_msg(it->status == st, "%s: %s: %s", name, sp_check_status_str(it->status),
		      it->detail);
	ck_assert_str_eq(it->detail, detail);
}

static const struct sp_check_fact *fact(const struct sp_check_item *it, const char *key)
{
	size_t i;

	for (i = 0; i < it->n_facts; i++)
		if (!strcmp(it->facts[i].key, key))
			return &it->facts[i];
	ck_abort_msg("%s has no fact %s", it->name, key);
	return NULL;
}

/* The checklist as text, to compare whole. */
static char *text(const struct sp_doctor *d)
{
	struct capture c;

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_checklist(&d->list), 0);
	return cap_end(&c);
}

/* ---- PCIe ---------------------------------------------------------------------- */

START_TEST(test_pcie)
{
	const struct sp_check_item *it;
	struct sp_doctor d;
	char *out;

	doctor_init(&d, SPARK_X2);
	/* software RDMA has no PCI function */
	dev_add_half(&d.devs, "rxe0", NULL, "eth0", true, 1500, 1024, "10.0.2.15", 3);
	sp_check_pcie(&d);
	out = text(&d);
	ck_assert_str_eq(out,
		"pass  pcie rocep1s0f0 (enp1s0f0np0)      PCIe x4 at 32.0 GT/s, its maximum "
		"(0000:01:00.0)\n"
		"pass  pcie rocep1s0f1 (enp1s0f1np1)      PCIe x4 at 32.0 GT/s, its maximum "
		"(0000:01:00.1)\n"
		"fail  pcie roceP2p1s0f0 (enP2p1s0f0np0)  PCIe x2 of x4 at 32.0 GT/s (0002:01:00.0): "
		"the link trained below its maximum, with fewer lanes\n"
		"                                         fix: a Spark half at x2 is the second "
		"controller before the 2026-04 BIOS: update it (fwupdmgr refresh && fwupdmgr "
		"update); else reseat the card or cable and check power (dmesg | grep -i -e pcie "
		"-e mlx5)\n"
		"pass  pcie roceP2p1s0f1 (enP2p1s0f1np1)  PCIe x4 at 32.0 GT/s, its maximum "
		"(0002:01:00.1)\n"
		"skip  pcie rxe0 (eth0)                   rxe0 has no PCI function (software RDMA)\n"
		"3 passed, 0 warnings, 1 failed, 1 skipped\n");
	it = item(&d, "pcie roceP2p1s0f0 (enP2p1s0f0np0)");
	ck_assert_str_eq(fact(it, "device")->str, "roceP2p1s0f0");
	ck_assert_str_eq(fact(it, "netdev")->str, "enP2p1s0f0np0");
	ck_assert_uint_eq(fact(it, "pcie_width")->u64, 2);
	ck_assert_uint_eq(fact(it, "pcie_max_width")->u64, 4);
	ck_assert(fact(it, "pcie_speed_gt_per_s")->num == 32.0);
	free(out);
	doctor_free(&d);

	/* a tree without the link files: said, not failed */
	doctor_init(&d, state_dir);
	sp_check_pcie(&d);
	assert_item(&d, "pcie rocep1s0f0 (enp1s0f0np0)", SP_CHECK_SKIP,
		    "0000:01:00.0 reports no PCIe link (current_link_width)");
	doctor_free(&d);
}
END_TEST

/* ---- GID index ------------------------------------------------------------------ */

static const struct {
	const char *env;		/* NCCL_IB_GID_INDEX; NULL: unset */
	int arg;			/* gid-index; -1: not given */
	enum sp_check_status want;
	const char *detail;		/* of rocep1s0f0's item */
} gid_pins[] = {
	{ NULL, -1, SP_CHECK_PASS, "RoCE v2 IPv4 GID index 3 (192.168.200.12)" },
	{ "3", 3, SP_CHECK_PASS, "RoCE v2 IPv4 GID index 3 (192.168.200.12), as pinned" },
	/* NCCL's default: it finds the GID itself */
	{ "-1", -1, SP_CHECK_PASS, "RoCE v2 IPv4 GID index 3 (192.168.200.12), as pinned" },
	/* the link-local trap: an empty value in a compose file, or 0 */
	{ "", -1, SP_CHECK_FAIL, "RoCE v2 IPv4 GID index 3 (192.168.200.12), but "
	  "NCCL_IB_GID_INDEX is empty, which parses as 0, the link-local trap: index 0 is "
	  "fe80::1 (RoCE v1, link-local)" },
	{ NULL, 0, SP_CHECK_FAIL, "RoCE v2 IPv4 GID index 3 (192.168.200.12), but gid-index 0 "
	  "is the link-local trap: fe80::1 (RoCE v1, link-local)" },
	{ "1", 4, SP_CHECK_FAIL, "RoCE v2 IPv4 GID index 3 (192.168.200.12), but "
	  "NCCL_IB_GID_INDEX 1 is fe80::1 (RoCE v2, link-local); gid-index 4 is not in its GID "
	  "table" },
	{ "x3", -1, SP_CHECK_FAIL, "RoCE v2 IPv4 GID index 3 (192.168.200.12), but "
	  "NCCL_IB_GID_INDEX 'x3' is no GID index" },
	{ "2", -1, SP_CHECK_FAIL, "RoCE v2 IPv4 GID index 3 (192.168.200.12), but "
	  "NCCL_IB_GID_INDEX 2 is ::ffff:192.168.200.12 (RoCE v1)" },
};

START_TEST(test_gid_index)
{
	struct sp_doctor_opts o = {
		.nccl_gid_index = gid_pins[_i].env,
		.has_gid_index = gid_pins[_i].arg >= 0,
		.gid_index = gid_pins[_i].arg >= 0 ? (uint32_t)gid_pins[_i].arg : 0,
	};
	const struct sp_check_item *it;
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	sp_check_gid_index(&d, &o);
	ck_assert_uint_eq(d.list.n, 4);
	assert_item(&d, "gid-index rocep1s0f0/1 (enp1s0f0np0)", gid_pins[_i].want,
		    gid_pins[_i].detail);
	it = item(&d, "gid-index rocep1s0f0/1 (enp1s0f0np0)");
	ck_assert_uint_eq(fact(it, "gid_index")->u64, 3);
	ck_assert_str_eq(fact(it, "address")->str, "192.168.200.12");
	ck_assert_str_eq(fact(it, "state")->str, "ACTIVE");
	ck_assert_str_eq(fact(it, "parent")->str, "0000:01:00.0");
	if (gid_pins[_i].want == SP_CHECK_FAIL)
		ck_assert_str_eq(it->fix, "leave NCCL_IB_GID_INDEX unset (NCCL finds each HCA's "
				 "RoCE v2 IPv4 GID itself), or give this half 3 (perftest: -x "
				 "3): the indexes differ per half and host, and move when "
				 "addresses do");
	/* a half without an IPv4 address has no GID to pin */
	assert_item(&d, "gid-index rocep1s0f1/1 (enp1s0f1np1)", SP_CHECK_SKIP,
		    "no RoCE v2 GID of an IPv4 address (the NCCL and perftest GID)");
	doctor_free(&d);
}
END_TEST

/* Each half is judged by its own index: one pin can be right for one and wrong for another. */
START_TEST(test_gid_index_per_half)
{
	struct sp_doctor_opts o = { .nccl_gid_index = "3" };
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	sp_dev_list_free(&d.devs);
	sp_halves_free(&d.halves);
	dev_add_half(&d.devs, "rocep1s0f0", "0000:01:00.0", "enp1s0f0np0", true, 9000, 4096,
		     "192.168.200.12", 3);
	dev_add_half(&d.devs, "roceP2p1s0f0", "0002:01:00.0", "enP2p1s0f0np0", true, 9000, 4096,
		     "192.168.201.12", 5);
	ck_assert_int_eq(sp_halves_local(&d.devs, NULL, 0, &d.halves), 0);
	sp_check_gid_index(&d, &o);
	ck_assert_int_eq(item(&d, "gid-index rocep1s0f0/1 (enp1s0f0np0)")->status, SP_CHECK_PASS);
	assert_item(&d, "gid-index roceP2p1s0f0/1 (enP2p1s0f0np0)", SP_CHECK_FAIL,
		    "RoCE v2 IPv4 GID index 5 (192.168.201.12), but NCCL_IB_GID_INDEX 3 is not in "
		    "its GID table");
	doctor_free(&d);
}
END_TEST

/* ---- GID index drift ------------------------------------------------------------- */

static char *state_file(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/gid-index", state_dir);
	return slurp(path);
}

START_TEST(test_gid_drift)
{
	char cmd[PATH_MAX + 8], *s;
	struct sp_doctor d;
	struct stat st;

	/* the first check remembers */
	doctor_init(&d, SPARK_X2);
	sp_check_gid_drift(&d);
	assert_item(&d, "gid-drift", SP_CHECK_PASS, "remembered for the next check: "
		    "rocep1s0f0/1 3, roceP2p1s0f0/1 3");
	doctor_free(&d);
	s = state_file();
	ck_assert_str_eq(s, "rocep1s0f0 1 3\nroceP2p1s0f0 1 3\n");
	free(s);

	/* the same indexes again */
	doctor_init(&d, SPARK_X2);
	sp_check_gid_drift(&d);
	assert_item(&d, "gid-drift", SP_CHECK_PASS, "as at the previous check: rocep1s0f0/1 3, "
		    "roceP2p1s0f0/1 3");
	doctor_free(&d);

	/* an address added before the IPv4 one moves roceP2p1s0f0's from 3 to 5 */
	doctor_init(&d, SPARK_X2);
	d.halves.v[2].gid_index = 5;
	sp_check_gid_drift(&d);
	ck_assert_uint_eq(d.list.n, 1);
	assert_item(&d, "gid-drift roceP2p1s0f0/1 (enP2p1s0f0np0)", SP_CHECK_WARN,
		    "RoCE v2 IPv4 GID index 5, 3 at the previous check: a pinned "
		    "NCCL_IB_GID_INDEX or perftest -x now picks another GID on this half");
	ck_assert_uint_eq(fact(&d.list.items[0], "previous_gid_index")->u64, 3);
	ck_assert_uint_eq(fact(&d.list.items[0], "gid_index")->u64, 5);
	doctor_free(&d);
	/* replaced whole (a new file renamed over the old one), nothing left beside it */
	s = state_file();
	ck_assert_str_eq(s, "rocep1s0f0 1 3\nroceP2p1s0f0 1 5\n");
	free(s);
	snprintf(cmd, sizeof(cmd), "ls -A %s", state_dir);
	s = shell_out(cmd);
	ck_assert_str_eq(s, "gid-index\n");
	free(s);
	ck_assert_int_eq(stat(state_dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);	/* mkdtemp's: the directory was there */
}
END_TEST

START_TEST(test_gid_drift_no_state)
{
	char dir[PATH_MAX], want[PATH_MAX + 128];
	struct sp_doctor d;

	/* a directory that cannot be made (not root: /var/lib): the item says why */
	snprintf(dir, sizeof(dir), "%s/no/such", state_dir);
	snprintf(want, sizeof(want), "cannot remember the GID indexes in %s: No such file or "
		 "directory (run check as root, or set SPARKPERF_STATE_DIR)", dir);
	doctor_init(&d, SPARK_X2);
	d.state_dir = dir;
	sp_check_gid_drift(&d);
	ck_assert_uint_eq(d.list.n, 1);
	assert_item(&d, "gid-drift", SP_CHECK_SKIP, want);
	doctor_free(&d);
}
END_TEST

/* ---- driver and firmware ---------------------------------------------------------- */

START_TEST(test_firmware)
{
	struct sp_halves peers[2] = {
		{ .host = "spark2", .source = SP_HALVES_FILE, .origin = "spark2.json" },
		{ .host = "spark3.json", .source = SP_HALVES_FILE, .origin = "spark3.json" },
	};
	struct sp_doctor_opts o = { .peer_files = peers, .n_peer_files = 2 };
	struct sp_half h = { .dev = "rocep1s0f0", .port = 1, .driver = "mlx5_core",
			     .driver_version = "7.0.0-1007-nvidia",
			     .firmware_version = "28.39.1002 (NVD0000000087)" };
	struct sp_doctor d;
	char *out;

	ck_assert_int_eq(sp_array_add(&peers[0].v, &peers[0].n, &peers[0].cap, sizeof(h), &h), 0);
	memset(h.driver, 0, sizeof(h.driver));
	ck_assert_int_eq(sp_array_add(&peers[1].v, &peers[1].n, &peers[1].cap, sizeof(h), &h), 0);
	doctor_init(&d, SPARK_X2);
	sp_check_firmware(&d, &o);
	out = text(&d);
	ck_assert_str_eq(out,
		"pass  firmware rocep1s0f0/1 (enp1s0f0np0)      mlx5_core 7.0.0-1007-nvidia, "
		"firmware 28.45.4028 (NVD0000000087) (0000:01:00.0)\n"
		"skip  firmware rocep1s0f1/1 (enp1s0f1np1)      ethtool -i of enp1s0f1np1: No such "
		"device\n"
		"warn  firmware roceP2p1s0f0/1 (enP2p1s0f0np0)  mlx5_core 7.0.0-1007-nvidia, "
		"firmware 28.44.1036 (NVD0000000087) (0002:01:00.0), but rocep1s0f0 has mlx5_core "
		"7.0.0-1007-nvidia, firmware 28.45.4028 (NVD0000000087): the halves differ\n"
		"                                               fix: update every ConnectX-7 "
		"function alike (fwupdmgr update), then power the host off and on (AC off: a warm "
		"reboot keeps the old firmware running)\n"
		"pass  firmware roceP2p1s0f1/1 (enP2p1s0f1np1)  mlx5_core 7.0.0-1007-nvidia, "
		"firmware 28.45.4028 (NVD0000000087) (0002:01:00.0)\n"
		"warn  firmware spark2                          rocep1s0f0 mlx5_core "
		"7.0.0-1007-nvidia, 28.39.1002 (NVD0000000087); here mlx5_core 7.0.0-1007-nvidia, "
		"firmware 28.45.4028 (NVD0000000087): the hosts differ\n"
		"                                               fix: the same driver and firmware on "
		"every host (fwupdmgr update, then AC off and on)\n"
		"skip  firmware spark3.json                     spark3.json has no firmware items "
		"(the output of -j dev? give the host's -j check)\n"
		"2 passed, 2 warnings, 0 failed, 2 skipped\n");
	ck_assert_str_eq(fact(item(&d, "firmware rocep1s0f0/1 (enp1s0f0np0)"),
			      "firmware_version")->str, "28.45.4028 (NVD0000000087)");
	free(out);
	doctor_free(&d);
	sp_halves_free(&peers[0]);
	sp_halves_free(&peers[1]);
}
END_TEST

/* ---- memory ---------------------------------------------------------------------- */

static const struct {
	uint64_t nccl_bytes;
	enum sp_check_status want;
	const char *detail;
} nccl_sizes[] = {
	{ 0, SP_CHECK_PASS, "MemAvailable 112.0GiB" },
	{ 16ULL << 30, SP_CHECK_PASS, "MemAvailable 112.0GiB: room for nccl-tests with 16GiB "
	  "messages (about 2 x 16GiB)" },
	/* the playbook's test sized for discrete GPUs */
	{ 64ULL << 30, SP_CHECK_FAIL, "nccl-tests with 64GiB messages allocate about 128GiB "
	  "(2 x the size), more than MemAvailable 112.0GiB: on a Spark the GPU's memory is this "
	  "unified memory, and a host out of it freezes" },
};

START_TEST(test_memory)
{
	struct sp_doctor_opts o = { .nccl_bytes = nccl_sizes[_i].nccl_bytes };
	const struct sp_check_item *it;
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	sp_check_memory(&d, &o);
	assert_item(&d, "memory", nccl_sizes[_i].want, nccl_sizes[_i].detail);
	it = item(&d, "memory");
	ck_assert_uint_eq(fact(it, "mem_available_bytes")->u64, 117440512ULL * 1024);
	if (o.nccl_bytes)
		ck_assert_uint_eq(fact(it, "nccl_needed_bytes")->u64, 2 * o.nccl_bytes);
	/* the kernel of the ENOMEM report */
	assert_item(&d, "cma", SP_CHECK_WARN, "CmaTotal 0: registering large buffers "
		    "(ibv_reg_mr) can fail with ENOMEM, as on a DGX OS 7.0 kernel");
	ck_assert_uint_eq(fact(item(&d, "cma"), "cma_total_bytes")->u64, 0);
	doctor_free(&d);
}
END_TEST

/* A tree of its own: /proc/meminfo with text. */
static void meminfo_tree(const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc", state_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/meminfo", state_dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_cma)
{
	struct sp_doctor_opts o = { 0 };
	struct sp_doctor d;

	meminfo_tree("MemAvailable:   1048576 kB\nCmaTotal:          65536 kB\n");
	doctor_init(&d, state_dir);
	sp_check_memory(&d, &o);
	assert_item(&d, "cma", SP_CHECK_PASS, "CmaTotal 64MiB");
	doctor_free(&d);

	/* a kernel built without CMA has no line at all */
	meminfo_tree("MemAvailable:   1048576 kB\n");
	doctor_init(&d, state_dir);
	sp_check_memory(&d, &o);
	assert_item(&d, "cma", SP_CHECK_WARN, "no CmaTotal in /proc/meminfo (a kernel without "
		    "CMA): registering large buffers (ibv_reg_mr) can fail with ENOMEM, as on a DGX "
		    "OS 7.0 kernel");
	ck_assert_uint_eq(item(&d, "cma")->n_facts, 0);
	doctor_free(&d);

	/* no meminfo: the memory item says so, nothing else is guessed */
	doctor_init(&d, SPARK_X2 "/sys");
	sp_check_memory(&d, &o);
	ck_assert_uint_eq(d.list.n, 1);
	assert_item(&d, "memory", SP_CHECK_SKIP, "no MemAvailable in /proc/meminfo: No such file "
		    "or directory");
	doctor_free(&d);
}
END_TEST

/* ---- RoCE MTU ---------------------------------------------------------------------- */

START_TEST(test_roce_mtu)
{
	const struct sp_check_item *it;
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	/* a netdev that went jumbo while the RDMA device stayed at 1024 */
	d.devs.devs[2].ports[0].active_mtu = 1024;
	/* rocep1s0f0's jumbo probe came back in fragments */
	snprintf(d.short_paths[0].netdev, sizeof(d.short_paths[0].netdev), "enp1s0f0np0");
	snprintf(d.short_paths[0].peer, sizeof(d.short_paths[0].peer), "192.168.200.13");
	d.n_short_paths = 1;
	sp_check_roce_mtu(&d);
	ck_assert_uint_eq(d.list.n, 4);
	assert_item(&d, "roce-mtu rocep1s0f0/1", SP_CHECK_WARN, "4096 bytes here (MTU 9000 of "
		    "enp1s0f0np0), but full frames do not reach 192.168.200.13: the peer or the "
		    "switch has a smaller MTU, and a connection runs at the smaller RoCE MTU of its "
		    "two ends");
	ck_assert_str_eq(fact(item(&d, "roce-mtu rocep1s0f0/1"), "cause")->str, "peer_or_switch");
	assert_item(&d, "roce-mtu rocep1s0f1/1", SP_CHECK_WARN, "1024 bytes: MTU 1500 of "
		    "enp1s0f1np1 on this end gives 1024; 4096 needs an MTU of at least 4192 (4096 "
		    "and 96 bytes of RoCE headers), 9000 gives it");
	it = item(&d, "roce-mtu rocep1s0f1/1");
	ck_assert_str_eq(fact(it, "cause")->str, "netdev");
	ck_assert_uint_eq(fact(it, "active_mtu_bytes")->u64, 1024);
	ck_assert_uint_eq(fact(it, "netdev_mtu_bytes")->u64, 1500);
	assert_item(&d, "roce-mtu roceP2p1s0f0/1", SP_CHECK_WARN, "1024 bytes, MTU 9000 of "
		    "enP2p1s0f0np0 gives 4096");
	ck_assert_str_eq(fact(item(&d, "roce-mtu roceP2p1s0f0/1"), "cause")->str, "device");
	doctor_free(&d);
}
END_TEST

/* ---- probe bw --------------------------------------------------------------------------- */

/* What the probes of each half measured, as the test double answers them. */
static const struct {
	const char *dev;
	double gbit_per_s;		/* < 0: no figure */
	const char *error;
} probe_figures[] = {
	{ "rocep1s0f0", 112.4, NULL },		/* healthy, 4 QPs */
	{ "rocep1s0f1", 13.2, NULL },		/* the degraded ConnectX-7 state */
	{ "roceP2p1s0f0", 55.0, NULL },		/* the half at x2 */
	{ "roceP2p1s0f1", 95.0, NULL },		/* below 90 % of its PCIe */
	{ "rxe0", 0.31, NULL },
	{ "rxe1", 0.02, NULL },			/* shaped */
	{ "rxe2", -1, "connection rejected by 10.9.0.2: invalid service ID" },
	{ "rxe3", -1, "connection rejected by 10.9.0.3: server busy: 64 connections" },
	{ "rxe4", -1, "sparkperf-ctl: bw run: Operation not permitted" },
};

static int fake_probe(const struct sp_probe_target *t, struct sp_probe_result *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < ARRAY_SIZE(probe_figures); i++) {
		if (strcmp(probe_figures[i].dev, t->dev))
			continue;
		if (probe_figures[i].error) {
			snprintf(r->bw_error, sizeof(r->bw_error), "%s", probe_figures[i].error);
			snprintf(r->lat_error, sizeof(r->lat_error), "%s", probe_figures[i].error);
			r->no_server = strstr(probe_figures[i].error, "invalid service ID") != NULL;
			r->not_permitted = strstr(probe_figures[i].error, "not permitted") != NULL;
			return 0;
		}
		r->has_bw = true;
		r->gbit_per_s = probe_figures[i].gbit_per_s;
		r->has_lat = true;
		r->rtt_p50_ns = 4210;
		r->rtt_p99_ns = 5020;
		return 0;
	}
	return -ENOENT;
}

static void target_add(struct sp_doctor *d, const char *dev, const char *netdev, const char *peer)
{
	struct sp_probe_target *t = &d->probe_targets[d->n_probe_targets++];

	snprintf(t->dev, sizeof(t->dev), "%s", dev);
	snprintf(t->netdev, sizeof(t->netdev), "%s", netdev);
	snprintf(t->peer, sizeof(t->peer), "%s", peer);
}

START_TEST(test_probe_connectx7)
{
	const struct sp_check_item *it;
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	d.probe = fake_probe;
	d.devs.devs[0].ports[0].rate_mbps = 200000;
	sp_check_pcie(&d);
	target_add(&d, "rocep1s0f0", "enp1s0f0np0", "192.168.200.13");
	target_add(&d, "rocep1s0f1", "enp1s0f1np1", "192.168.202.13");
	target_add(&d, "roceP2p1s0f0", "enP2p1s0f0np0", "192.168.201.13");
	target_add(&d, "roceP2p1s0f1", "enP2p1s0f1np1", "192.168.203.13");
	sp_check_probe(&d);
	/* PCIe Gen5 x4 carries less than the 200G link: it is the limit */
	assert_item(&d, "probe-bw rocep1s0f0 192.168.200.13", SP_CHECK_PASS, "112.4 Gbit/s to "
		    "192.168.200.13 (4 QPs, 1 MiB writes, 2 s); its PCIe x4 at 32.0 GT/s allows "
		    "115 Gbit/s");
	it = item(&d, "probe-bw rocep1s0f0 192.168.200.13");
	ck_assert(fact(it, "gbit_per_s")->num == 112.4);
	ck_assert_int_eq((int)fact(it, "expected_gbit_per_s")->num, 115);
	ck_assert_str_eq(fact(it, "netdev")->str, "enp1s0f0np0");
	/* a clean x4 link at 13 Gbit/s: only the probe sees it */
	assert_item(&d, "probe-bw rocep1s0f1 192.168.202.13", SP_CHECK_FAIL, "13.2 Gbit/s to "
		    "192.168.202.13 (4 QPs, 1 MiB writes, 2 s), below the 80 Gbit/s a ConnectX-7 "
		    "half must move; its PCIe x4 at 32.0 GT/s allows 115 Gbit/s");
	ck_assert(strstr(item(&d, "probe-bw rocep1s0f1 192.168.202.13")->fix,
			 "the degraded ConnectX-7 state") != NULL);
	/* at x2 the half cannot reach 80 */
	assert_item(&d, "probe-bw roceP2p1s0f0 192.168.201.13", SP_CHECK_FAIL, "55.0 Gbit/s to "
		    "192.168.201.13 (4 QPs, 1 MiB writes, 2 s), below the 80 Gbit/s a ConnectX-7 "
		    "half must move; its PCIe x2 at 32.0 GT/s allows 58 Gbit/s");
	assert_item(&d, "probe-bw roceP2p1s0f1 192.168.203.13", SP_CHECK_WARN, "95.0 Gbit/s to "
		    "192.168.203.13 (4 QPs, 1 MiB writes, 2 s), below 90 % of what it should "
		    "move; its PCIe x4 at 32.0 GT/s allows 115 Gbit/s");
	assert_item(&d, "probe-lat rocep1s0f0 192.168.200.13", SP_CHECK_PASS, "64-byte write "
		    "round trips to 192.168.200.13: p50 4.21 us, p99 5.02 us");
	ck_assert_uint_eq(fact(item(&d, "probe-lat rocep1s0f0 192.168.200.13"),
			       "rtt_p99_ns")->u64, 5020);
	doctor_free(&d);
}
END_TEST

START_TEST(test_probe_siblings)
{
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	d.probe = fake_probe;
	/* soft-RoCE: no PCI function, no figure known; the halves are each other's reference */
	dev_add_half(&d.devs, "rxe0", NULL, "eth0", true, 1500, 1024, "10.0.0.1", 1);
	dev_add_half(&d.devs, "rxe1", NULL, "eth1", true, 1500, 1024, "10.0.1.1", 1);
	dev_add_half(&d.devs, "rxe2", NULL, "eth2", true, 1500, 1024, "10.0.2.1", 1);
	dev_add_half(&d.devs, "rxe3", NULL, "eth3", true, 1500, 1024, "10.0.3.1", 1);
	dev_add_half(&d.devs, "rxe4", NULL, "eth4", true, 1500, 1024, "10.0.4.1", 1);
	d.devs.devs[4].ports[0].rate_mbps = 10000;
	target_add(&d, "rxe0", "eth0", "10.0.0.2");
	target_add(&d, "rxe1", "eth1", "10.0.1.2");
	target_add(&d, "rxe2", "eth2", "10.9.0.2");
	target_add(&d, "rxe3", "eth3", "10.9.0.3");
	target_add(&d, "rxe4", "eth4", "10.0.4.2");
	sp_check_probe(&d);
	assert_item(&d, "probe-bw rxe0 10.0.0.2", SP_CHECK_PASS, "0.31 Gbit/s to 10.0.0.2 (4 QPs, "
		    "1 MiB writes, 2 s), the most of the halves; next rxe1 (0.02); its port says 10 Gbit/s");
	assert_item(&d, "probe-bw rxe1 10.0.1.2", SP_CHECK_FAIL, "0.02 Gbit/s to 10.0.1.2 (4 QPs, "
		    "1 MiB writes, 2 s), 6 % of what rxe0 moves (0.31)");
	/* no server there: said, not failed, and nothing measured */
	assert_item(&d, "probe-bw rxe2 10.9.0.2", SP_CHECK_WARN, "no sparkperf server answers at "
		    "10.9.0.2: not measured");
	assert_item(&d, "probe-lat rxe2 10.9.0.2", SP_CHECK_SKIP, "no sparkperf server answers at "
		    "10.9.0.2");
	/* any other failure fails */
	assert_item(&d, "probe-bw rxe3 10.9.0.3", SP_CHECK_FAIL, "the bandwidth probe to 10.9.0.3 "
		    "failed: connection rejected by 10.9.0.3: server busy: 64 connections");
	/* not root: nothing measured, nothing failed */
	assert_item(&d, "probe-bw rxe4 10.0.4.2", SP_CHECK_SKIP, "the module's sessions need "
		    "CAP_NET_ADMIN: run check as root to measure 10.0.4.2");
	assert_item(&d, "probe-lat rxe4 10.0.4.2", SP_CHECK_SKIP, "the module's sessions need "
		    "CAP_NET_ADMIN: run check as root to measure 10.0.4.2");
	doctor_free(&d);

	/* one half only: nothing to compare with */
	doctor_init(&d, SPARK_X2);
	d.probe = fake_probe;
	dev_add_half(&d.devs, "rxe0", NULL, "eth0", true, 1500, 1024, "10.0.0.1", 1);
	target_add(&d, "rxe0", "eth0", "10.0.0.2");
	sp_check_probe(&d);
	assert_item(&d, "probe-bw rxe0 10.0.0.2", SP_CHECK_PASS, "0.31 Gbit/s to 10.0.0.2 (4 QPs, "
		    "1 MiB writes, 2 s); no other half to compare with, and no figure known for "
		    "this NIC");
	doctor_free(&d);
}
END_TEST

/* ---- registration ------------------------------------------------------------------------ */

/* ibv_reg_mr as the test double answers it: one half pinned, one limited, one unseen. */
static int fake_reg(const char *dev, uint64_t bytes, uint64_t *ns)
{
	ck_assert_uint_eq(bytes, 256ULL << 20);
	*ns = 61250000;
	if (!strcmp(dev, "rocep1s0f1"))
		return -ENOMEM;
	if (!strcmp(dev, "roceP2p1s0f0"))
		return -ENODEV;
	if (!strcmp(dev, "roceP2p1s0f1"))
		return -EFAULT;
	return 0;
}

START_TEST(test_register)
{
	struct sp_doctor d;

	doctor_init(&d, SPARK_X2);
	d.reg = fake_reg;
	sp_check_register(&d);
	assert_item(&d, "register rocep1s0f0", SP_CHECK_PASS, "256MiB registered with ibv_reg_mr "
		    "in 61.2 ms");
	ck_assert_uint_eq(fact(item(&d, "register rocep1s0f0"), "bytes")->u64, 256 << 20);
	assert_item(&d, "register rocep1s0f1", SP_CHECK_FAIL, "ibv_reg_mr of 256MiB failed: Cannot "
		    "allocate memory, as NCCL's registration of its buffers would");
	ck_assert(strstr(item(&d, "register rocep1s0f1")->fix, "locked-memory limit") != NULL);
	assert_item(&d, "register roceP2p1s0f0", SP_CHECK_SKIP, "libibverbs does not see "
		    "roceP2p1s0f0 (its provider, ibverbs-providers, missing?)");
	ck_assert(strstr(item(&d, "register roceP2p1s0f1")->fix, "dmesg") != NULL);
	doctor_free(&d);

	/* without the module's device list: nothing to register on */
	doctor_init(&d, SPARK_X2);
	d.module = false;
	d.reg = fake_reg;
	sp_check_register(&d);
	assert_item(&d, "register", SP_CHECK_SKIP, "no RDMA device listed");
	doctor_free(&d);
}
END_TEST

/* ---- -j check, read back by another host -------------------------------------------- */

START_TEST(test_check_json_halves)
{
	struct sp_doctor_opts o = { 0 };
	struct sp_halves h = { 0 };
	struct sp_doctor d;
	struct capture c;
	char err[200], *out;

	doctor_init(&d, SPARK_X2);
	sp_doctor_add(&d, SP_CHECK_PASS, "module", NULL, "sparkperf 0.1.0 loaded");
	sp_check_fact_str(&d.list, "host", "spark1");
	sp_check_gid_index(&d, &o);
	sp_check_firmware(&d, &o);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_checklist(&d.list), 0);
	out = cap_end(&c);
	ck_assert_int_eq(sp_halves_parse(out, &h, err, sizeof(err)), 0);
	ck_assert_str_eq(h.host, "spark1");
	ck_assert_uint_eq(h.n, 4);
	assert_half(&h.v[2], "roceP2p1s0f0", "enP2p1s0f0np0", "0002:01:00.0", true, 3);
	ck_assert_str_eq(h.v[2].driver, "mlx5_core");
	ck_assert_str_eq(h.v[2].firmware_version, "28.44.1036 (NVD0000000087)");
	/* no ethtool -i: no driver */
	assert_half(&h.v[1], "rocep1s0f1", "enp1s0f1np1", "0000:01:00.1", false, -1);
	ck_assert_str_eq(h.v[1].driver, "");
	free(out);
	sp_halves_free(&h);
	doctor_free(&d);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("doctor");
	TCase *tc = tcase_create("doctor");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pcie);
	tcase_add_loop_test(tc, test_gid_index, 0, ARRAY_SIZE(gid_pins));
	tcase_add_test(tc, test_gid_index_per_half);
	tcase_add_test(tc, test_gid_drift);
	tcase_add_test(tc, test_gid_drift_no_state);
	tcase_add_test(tc, test_firmware);
	tcase_add_loop_test(tc, test_memory, 0, ARRAY_SIZE(nccl_sizes));
	tcase_add_test(tc, test_cma);
	tcase_add_test(tc, test_roce_mtu);
	tcase_add_test(tc, test_check_json_halves);
	tcase_add_test(tc, test_probe_connectx7);
	tcase_add_test(tc, test_probe_siblings);
	tcase_add_test(tc, test_register);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
