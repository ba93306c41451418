// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines of sparkperf-ctl bench (user/bench/cmd_*.c), as golden
 * strings: the DGX Spark performance guide's perftest, iperf3 and LLM
 * recipes, the two-Spark blog's mpirun nccl-tests line.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchcmd.h"
#include "lib/spawn.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Command i of c: its role, name and command line. */
static void cmd_is(const struct sp_bench_cmds *c, size_t i, enum sp_bench_role role,
		   const char *name, const char *line)
{
	char *got;

	ck_assert_uint_lt(i, c->n);
	ck_assert_int_eq(c->v[i].role, role);
	ck_assert_str_eq(c->v[i].name, name);
	got = sp_bench_cmdline(&c->v[i]);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, line);
	free(got);
}

static const char *const guide_peers[] = { "192.168.200.12", "192.168.201.12" };
static const char *const guide_devs[] = { "rocep1s0f0", "roceP2p1s0f0" };

/* The guide's two pairs, one per PCIe half, minus --run_infinitely. */
START_TEST(test_perftest_guide_bw)
{
	struct sp_bench_perftest_opts o = {
		.peers = guide_peers, .n_peers = 2, .devs = guide_devs, .n_devs = 2,
		.test = SP_PERFTEST_WRITE_BW, .gid_index = -1,
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 4);
	cmd_is(&c, 0, SP_BENCH_ROLE_MANUAL, "server 1",
	       "ib_write_bw -d rocep1s0f0 -i 1 -p 12000 -F --report_gbits");
	ck_assert_str_eq(c.v[0].host, "192.168.200.12");
	cmd_is(&c, 1, SP_BENCH_ROLE_MANUAL, "server 2",
	       "ib_write_bw -d roceP2p1s0f0 -i 1 -p 12001 -F --report_gbits");
	cmd_is(&c, 2, SP_BENCH_ROLE_CLIENT, "client 1",
	       "ib_write_bw -d rocep1s0f0 -i 1 -p 12000 -F --report_gbits 192.168.200.12");
	cmd_is(&c, 3, SP_BENCH_ROLE_CLIENT, "client 2",
	       "ib_write_bw -d roceP2p1s0f0 -i 1 -p 12001 -F --report_gbits 192.168.201.12");
	ck_assert_int_eq(c.v[2].tool, SP_BENCH_PERFTEST);
	ck_assert_int_eq(c.v[0].tool, SP_BENCH_NONE);
	ck_assert_str_eq(c.v[3].label, "roceP2p1s0f0 -> 192.168.201.12");
	ck_assert_str_eq(c.v[3].stdout_name, "client-2.stdout");
	ck_assert_str_eq(c.v[3].stderr_name, "client-2.stderr");
	ck_assert_ptr_null(c.v[3].json_name);
	sp_bench_cmds_free(&c);
}
END_TEST

START_TEST(test_perftest_guide_lat)
{
	struct sp_bench_perftest_opts o = {
		.peers = guide_peers, .n_peers = 1, .devs = guide_devs, .n_devs = 1,
		.test = SP_PERFTEST_WRITE_LAT, .gid_index = -1,
	};
	static const char *const second[] = { "192.168.201.12" };
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_MANUAL, "server 1", "ib_write_lat -d rocep1s0f0 -i 1 -p 13000 -F");
	cmd_is(&c, 1, SP_BENCH_ROLE_CLIENT, "client 1",
	       "ib_write_lat -d rocep1s0f0 -i 1 -p 13000 -F 192.168.200.12");
	sp_bench_cmds_free(&c);

	/* the guide's read latency: port 13001, the second link's address */
	o.test = SP_PERFTEST_READ_LAT;
	o.port = 13001;
	o.peers = second;
	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	cmd_is(&c, 1, SP_BENCH_ROLE_CLIENT, "client 1",
	       "ib_read_lat -d rocep1s0f0 -i 1 -p 13001 -F 192.168.201.12");
	sp_bench_cmds_free(&c);
}
END_TEST

/* Servers this tool starts: line-buffered (their banner is awaited), or over ssh. */
START_TEST(test_perftest_servers)
{
	static const char *const peer[] = { "192.168.200.13" };
	static const char *const dev[] = { "rxe0" };
	static const char *const peer_dev[] = { "rxe1" };
	struct sp_bench_perftest_opts o = {
		.peers = peer, .n_peers = 1, .devs = dev, .n_devs = 1, .test = SP_PERFTEST_SEND_BW,
		.size = 65536, .qps = 4, .iters = 500, .gid_index = 1, .port = 18600,
		.server = SP_BENCH_SERVER_LOCAL,
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_SERVER, "server 1",
	       "stdbuf -oL ib_send_bw -d rxe0 -i 1 -p 18600 -F --report_gbits -s 65536 -q 4 "
	       "-n 500 -x 1");
	ck_assert_str_eq(c.v[0].ready, "Waiting for client to connect");
	ck_assert_ptr_null(c.v[0].host);
	cmd_is(&c, 1, SP_BENCH_ROLE_CLIENT, "client 1",
	       "ib_send_bw -d rxe0 -i 1 -p 18600 -F --report_gbits -s 65536 -q 4 -n 500 -x 1 "
	       "192.168.200.13");
	sp_bench_cmds_free(&c);

	o.server = SP_BENCH_SERVER_SSH;
	o.iters = 0;
	o.duration_s = 10;
	o.gid_index = -1;
	o.peer_devs = peer_dev;
	o.n_peer_devs = 1;
	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_SERVER, "server 1",
	       "ssh -o BatchMode=yes -o ConnectTimeout=10 192.168.200.13 stdbuf -oL ib_send_bw "
	       "-d rxe1 -i 1 -p 18600 -F --report_gbits -s 65536 -q 4 -D 10");
	ck_assert_str_eq(c.v[0].host, "192.168.200.13");
	sp_bench_cmds_free(&c);

	o.ssh_host = "nvidia@spark-2";
	o.n_devs = o.n_peer_devs = 0;
	ck_assert_int_eq(sp_bench_perftest_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_SERVER, "server 1",
	       "ssh -o BatchMode=yes -o ConnectTimeout=10 nvidia@spark-2 stdbuf -oL ib_send_bw "
	       "-i 1 -p 18600 -F --report_gbits -s 65536 -q 4 -D 10");
	ck_assert_str_eq(c.v[1].label, "-> 192.168.200.13");
	sp_bench_cmds_free(&c);
}
END_TEST

static const char *const perftest_names[] = {
	"write_bw", "write_lat", "read_bw", "read_lat", "send_bw", "send_lat",
};

START_TEST(test_perftest_tests)
{
	const char *name = perftest_names[_i];
	enum sp_perftest_test t;

	ck_assert_int_eq(sp_perftest_test_parse(name, &t), 0);
	ck_assert_str_eq(sp_perftest_test_str(t), name);
	ck_assert_str_eq(sp_perftest_test_binary(t) + 3, name);
	ck_assert_int_eq(sp_perftest_test_is_bw(t), strstr(name, "_bw") != NULL);
}
END_TEST

START_TEST(test_perftest_test_unknown)
{
	enum sp_perftest_test t;

	ck_assert_int_eq(sp_perftest_test_parse("atomic_bw", &t), -EINVAL);
}
END_TEST

/* The blog: "iperf3 -c <peer> -P 16 -t 20", and four clients on disjoint CPUs. */
START_TEST(test_iperf3)
{
	static const char *const peer[] = { "192.168.200.13" };
	static const char *const four[] = {
		"192.168.200.13", "192.168.201.13", "192.168.202.13", "192.168.203.13",
	};
	char sets[4][SP_BENCH_CPUSET_LEN];
	struct sp_bench_iperf3_opts o = {
		.peers = peer, .n_peers = 1, .streams = 16, .duration_s = 20,
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_iperf3_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 2);
	cmd_is(&c, 0, SP_BENCH_ROLE_MANUAL, "server 1", "iperf3 -s -B 192.168.200.13 -p 5201");
	cmd_is(&c, 1, SP_BENCH_ROLE_CLIENT, "client 1",
	       "iperf3 -c 192.168.200.13 -p 5201 -P 16 -t 20 -J");
	ck_assert_int_eq(c.v[1].tool, SP_BENCH_IPERF3);
	sp_bench_cmds_free(&c);

	ck_assert_int_eq(sp_bench_cpus_parse("auto", 20, 4, sets), 0);
	o = (struct sp_bench_iperf3_opts){
		.peers = four, .n_peers = 4, .duration_s = 20, .cpus = sets,
		.server = SP_BENCH_SERVER_SSH, .ssh_host = "spark2",
	};
	ck_assert_int_eq(sp_bench_iperf3_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 8);
	cmd_is(&c, 3, SP_BENCH_ROLE_SERVER, "server 4",
	       "ssh -o BatchMode=yes -o ConnectTimeout=10 spark2 stdbuf -oL iperf3 -s -1 "
	       "-B 192.168.203.13 -p 5204");
	ck_assert_str_eq(c.v[3].ready, "Server listening on");
	cmd_is(&c, 4, SP_BENCH_ROLE_CLIENT, "client 1",
	       "taskset -c 0-4 iperf3 -c 192.168.200.13 -p 5201 -t 20 -J");
	cmd_is(&c, 7, SP_BENCH_ROLE_CLIENT, "client 4",
	       "taskset -c 15-19 iperf3 -c 192.168.203.13 -p 5204 -t 20 -J");
	ck_assert_str_eq(c.v[7].label, "-> 192.168.203.13 cpus 15-19");
	sp_bench_cmds_free(&c);
}
END_TEST

START_TEST(test_cpus)
{
	char sets[4][SP_BENCH_CPUSET_LEN];

	ck_assert_int_eq(sp_bench_cpus_parse("0-9/10-19", 20, 2, sets), 0);
	ck_assert_str_eq(sets[0], "0-9");
	ck_assert_str_eq(sets[1], "10-19");
	ck_assert_int_eq(sp_bench_cpus_parse("0,2,4", 20, 1, sets), 0);
	ck_assert_str_eq(sets[0], "0,2,4");
	ck_assert_int_eq(sp_bench_cpus_parse("auto", 2, 2, sets), 0);
	ck_assert_str_eq(sets[0], "0");
	ck_assert_str_eq(sets[1], "1");
	ck_assert_int_eq(sp_bench_cpus_parse("auto", 3, 4, sets), -ERANGE);
	ck_assert_int_eq(sp_bench_cpus_parse("0-9", 20, 2, sets), -EINVAL);
	ck_assert_int_eq(sp_bench_cpus_parse("0-9/10-19/20", 20, 2, sets), -EINVAL);
	ck_assert_int_eq(sp_bench_cpus_parse("0-9//", 20, 2, sets), -EINVAL);
	ck_assert_int_eq(sp_bench_cpus_parse("$(reboot)", 20, 1, sets), -EINVAL);
}
END_TEST

/* The blog's two-Spark sendrecv, with all four RoCE devices. */
START_TEST(test_nccl_blog)
{
	static const char *const hosts[] = { "192.168.88.248", "192.168.88.252" };
	struct sp_bench_nccl_opts o = {
		.hosts = hosts, .n_hosts = 2, .test = SP_NCCL_SENDRECV,
		.hca = "rocep1s0f0,rocep1s0f1,roceP2p1s0f0,roceP2p1s0f1",
		.min_bytes = 256ULL << 20, .max_bytes = 4ULL << 30,
		.bin_dir = "/home/nvidia/nccl-tests/build", .out_dir = "/tmp/b",
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_nccl_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "sendrecv_perf",
	       "mpirun -np 2 -H 192.168.88.248:1,192.168.88.252:1 --mca plm_rsh_agent "
	       "'ssh -o BatchMode=yes -o ConnectTimeout=10' -x LD_LIBRARY_PATH "
	       "-x NCCL_IB_HCA=rocep1s0f0,rocep1s0f1,roceP2p1s0f0,roceP2p1s0f1 "
	       "-x NCCL_DEBUG=INFO -x NCCL_DEBUG_SUBSYS=INIT,NET "
	       "/home/nvidia/nccl-tests/build/sendrecv_perf -b 256M -e 4G -f 2 -g 1 -n 30 -w 5 "
	       "-J /tmp/b/sendrecv_perf.json");
	ck_assert_str_eq(c.v[0].argv[7], "ssh -o BatchMode=yes -o ConnectTimeout=10");
	ck_assert_ptr_null(c.v[0].env[0]);
	ck_assert_str_eq(c.v[0].json_name, "sendrecv_perf.json");
	ck_assert_int_eq(c.v[0].tool, SP_BENCH_NCCL);
	sp_bench_cmds_free(&c);

	/* the playbook's interface pinning; sizes not a power of 1024 */
	o.oob_if = "enp1s0f1np1";
	o.hca = NULL;
	o.min_bytes = 1000;
	o.max_bytes = 1ULL << 30;
	ck_assert_int_eq(sp_bench_nccl_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "sendrecv_perf",
	       "mpirun -np 2 -H 192.168.88.248:1,192.168.88.252:1 --mca plm_rsh_agent "
	       "'ssh -o BatchMode=yes -o ConnectTimeout=10' --mca btl_tcp_if_include enp1s0f1np1 "
	       "--mca oob_tcp_if_include enp1s0f1np1 -x LD_LIBRARY_PATH "
	       "-x NCCL_SOCKET_IFNAME=enp1s0f1np1 -x NCCL_DEBUG=INFO -x NCCL_DEBUG_SUBSYS=INIT,NET "
	       "/home/nvidia/nccl-tests/build/sendrecv_perf -b 1000 -e 1G -f 2 -g 1 -n 30 -w 5 "
	       "-J /tmp/b/sendrecv_perf.json");
	sp_bench_cmds_free(&c);
}
END_TEST

/* One host, two GPUs, no mpirun: NCCL's variables in the environment. */
START_TEST(test_nccl_single_host_sweep)
{
	struct sp_bench_nccl_opts o = {
		.test = SP_NCCL_ALL_REDUCE, .min_bytes = 256ULL << 20, .max_bytes = 4ULL << 30,
		.channels = SP_NCCL_CHANNEL_SWEEP, .n_channels = 5, .gpus = 2, .iters = 20,
		.warmup = 1, .bin_dir = "./build", .out_dir = "/o",
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_nccl_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 5);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "all_reduce_perf-cpp1",
	       "NCCL_NCHANNELS_PER_NET_PEER=1 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET "
	       "./build/all_reduce_perf -b 256M -e 4G -f 2 -g 2 -n 20 -w 1 "
	       "-J /o/all_reduce_perf-cpp1.json");
	cmd_is(&c, 4, SP_BENCH_ROLE_STEP, "all_reduce_perf-cpp16",
	       "NCCL_NCHANNELS_PER_NET_PEER=16 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET "
	       "./build/all_reduce_perf -b 256M -e 4G -f 2 -g 2 -n 20 -w 1 "
	       "-J /o/all_reduce_perf-cpp16.json");
	ck_assert_str_eq(c.v[4].label, "channels-per-peer 16");
	ck_assert_str_eq(c.v[4].stdout_name, "all_reduce_perf-cpp16.stdout");
	ck_assert_str_eq(c.v[0].argv[0], "./build/all_reduce_perf");
	sp_bench_cmds_free(&c);

	/* ranks on this host: mpirun without -H */
	o.n_channels = 0;
	o.np = 2;
	o.gpus = 0;
	o.test = SP_NCCL_ALL_GATHER;
	ck_assert_int_eq(sp_bench_nccl_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "all_gather_perf",
	       "mpirun -np 2 -x LD_LIBRARY_PATH -x NCCL_DEBUG=INFO -x NCCL_DEBUG_SUBSYS=INIT,NET "
	       "./build/all_gather_perf -b 256M -e 4G -f 2 -g 1 -n 20 -w 1 -J /o/all_gather_perf.json");
	sp_bench_cmds_free(&c);
}
END_TEST

static const struct sp_bench_llm_opts guide = {
	.model = "openai/gpt-oss-20b", .home = "/home/nvidia", .out_dir = "/tmp/o",
};

#define DOCKER(ulimits, image) \
	"docker run --rm --gpus all --ipc host --network host " ulimits "-e HF_TOKEN " \
	"-v /home/nvidia/.cache/huggingface:/root/.cache/huggingface -v /tmp/o:/sparkperf-out " \
	image " "
#define ULIMITS "--ulimit memlock=-1 --ulimit stack=67108864 "

START_TEST(test_vllm)
{
	struct sp_bench_llm_opts o = guide;
	struct sp_bench_cmds c;

	o.tool = SP_LLM_VLLM;
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "vllm-bench-serve",
	       DOCKER("", "nvcr.io/nvidia/vllm:25.12-py3")
	       "vllm bench serve --base-url http://127.0.0.1:8000 --endpoint /v1/completions "
	       "--model openai/gpt-oss-20b --dataset-name random --num-prompts 1 "
	       "--random-input-len 128 --random-output-len 128 --percentile-metrics "
	       "ttft,tpot,itl,e2el --max-concurrency 1 --request-rate inf --save-result "
	       "--result-dir /sparkperf-out --result-filename vllm-serve.json");
	ck_assert_str_eq(c.v[0].json_name, "vllm-serve.json");
	ck_assert_str_eq(c.v[0].label, "vllm serve");
	ck_assert_int_eq(c.v[0].tool, SP_BENCH_VLLM);
	sp_bench_cmds_free(&c);

	/* the guide installs datasets first: one shell in the container */
	o.mode = "throughput";
	o.isl = 1024;
	o.osl = 64;
	o.prompts = 8;
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "vllm-bench-throughput",
	       DOCKER(ULIMITS, "nvcr.io/nvidia/vllm:25.12-py3")
	       "bash -lc 'pip install -q datasets && vllm bench throughput --model "
	       "openai/gpt-oss-20b --dataset-name random --num-prompts 8 --input-len 1024 "
	       "--output-len 64 --max-model-len 1088 --gpu-memory-utilization 0.8 --output-json "
	       "/sparkperf-out/vllm-throughput.json'");
	sp_bench_cmds_free(&c);

	o.mode = "offline";
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), -EINVAL);
	ck_assert(!sp_bench_llm_mode_valid(SP_LLM_VLLM, "offline"));
	ck_assert_str_eq(sp_bench_llm_default_mode(SP_LLM_SGLANG), "serve");
}
END_TEST

START_TEST(test_sglang)
{
	struct sp_bench_llm_opts o = guide;
	struct sp_bench_cmds c;

	o.tool = SP_LLM_SGLANG;
	o.concurrency = 4;
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "sglang-bench-serving",
	       DOCKER("", "nvcr.io/nvidia/sglang:25.12-py3")
	       "python3 -m sglang.bench_serving --backend sglang --host 127.0.0.1 --port 30000 "
	       "--model openai/gpt-oss-20b --dataset-name random --num-prompts 1 "
	       "--random-input-len 128 --random-output-len 128 --max-concurrency 4 "
	       "--output-file /sparkperf-out/sglang-serve.jsonl");
	sp_bench_cmds_free(&c);

	/* on this host, against another server */
	o.image = "none";
	o.url = "http://10.0.0.2:30000";
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "sglang-bench-serving",
	       "python3 -m sglang.bench_serving --backend sglang --base-url http://10.0.0.2:30000 "
	       "--model openai/gpt-oss-20b --dataset-name random --num-prompts 1 "
	       "--random-input-len 128 --random-output-len 128 --max-concurrency 4 "
	       "--output-file /tmp/o/sglang-serve.jsonl");
	sp_bench_cmds_free(&c);

	/* the guide's offline run gives no lengths */
	o = guide;
	o.tool = SP_LLM_SGLANG;
	o.mode = "offline";
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "sglang-bench-offline-throughput",
	       DOCKER(ULIMITS, "nvcr.io/nvidia/sglang:25.12-py3")
	       "python3 -m sglang.bench_offline_throughput --model-path openai/gpt-oss-20b "
	       "--dataset-name random --num-prompts 1 "
	       "--result-filename /sparkperf-out/sglang-offline.jsonl");
	ck_assert_str_eq(c.v[0].json_name, "sglang-offline.jsonl");
	sp_bench_cmds_free(&c);
}
END_TEST

/* The guide's "set -e" script as three steps, its config file written apart. */
START_TEST(test_trtllm)
{
	struct sp_bench_llm_opts o = guide;
	struct sp_bench_cmds c;

	o.tool = SP_LLM_TRTLLM;
	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 3);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "hf-download",
	       DOCKER(ULIMITS, "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6")
	       "hf download openai/gpt-oss-20b");
	cmd_is(&c, 1, SP_BENCH_ROLE_STEP, "prepare-dataset",
	       DOCKER(ULIMITS, "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6")
	       "python benchmarks/cpp/prepare_dataset.py --tokenizer openai/gpt-oss-20b --stdout "
	       "token-norm-dist --num-requests 1 --input-mean 128 --input-stdev 0 --output-mean 128 "
	       "--output-stdev 0");
	ck_assert_str_eq(c.v[1].stdout_name, "dataset.txt");
	ck_assert_int_eq(c.v[1].tool, SP_BENCH_NONE);
	cmd_is(&c, 2, SP_BENCH_ROLE_STEP, "trtllm-bench",
	       DOCKER(ULIMITS, "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6")
	       "trtllm-bench -m openai/gpt-oss-20b throughput --dataset /sparkperf-out/dataset.txt "
	       "--backend pytorch --tp 1 --max_num_tokens 256 --concurrency 1 --max_batch_size 1 "
	       "--kv_cache_free_gpu_mem_fraction 0.95 --extra_llm_api_options "
	       "/sparkperf-out/extra-llm-api-config.yml --report_json "
	       "/sparkperf-out/trtllm-report.json");
	ck_assert_str_eq(c.v[2].json_name, "trtllm-report.json");
	ck_assert_str_eq(sp_bench_trtllm_config, "kv_cache_config:\n  dtype: \"auto\"\n"
			 "cuda_graph_config:\n  enable_padding: true\n");
	sp_bench_cmds_free(&c);
}
END_TEST

START_TEST(test_llama)
{
	struct sp_bench_llm_opts o = {
		.tool = SP_LLM_LLAMA, .model = "models/gpt-oss-20b-mxfp4.gguf", .threads = 20,
		.llama_bench = "./build/bin/llama-bench", .out_dir = "/tmp/o",
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_llm_cmds(&o, &c), 0);
	cmd_is(&c, 0, SP_BENCH_ROLE_STEP, "llama-bench",
	       "./build/bin/llama-bench -m models/gpt-oss-20b-mxfp4.gguf -t 20 -p 128 -n 128 "
	       "-ngl 99 -dio 1 -fa 1 -o jsonl");
	ck_assert_str_eq(c.v[0].stdout_name, "llama-bench.jsonl");
	ck_assert_str_eq(c.v[0].json_name, "llama-bench.jsonl");
	ck_assert_str_eq(c.v[0].label, "llama bench");
	sp_bench_cmds_free(&c);
}
END_TEST

START_TEST(test_quote)
{
	struct sp_bench_cmd c = { 0 };
	char *argv[] = { "echo", "it's", "", "a b", "x=$HOME", "192.168.0.1:5201", NULL };
	char *env[] = { "A=b c", NULL };
	char *s;

	s = sp_shell_quote("it's");
	ck_assert_str_eq(s, "'it'\\''s'");
	free(s);
	c.argv = argv;
	c.env = env;
	s = sp_bench_cmdline(&c);
	ck_assert_str_eq(s, "'A=b c' echo 'it'\\''s' '' 'a b' 'x=$HOME' 192.168.0.1:5201");
	free(s);
}
END_TEST

START_TEST(test_words)
{
	enum sp_bench_server srv;
	enum sp_nccl_test t;
	double v;

	ck_assert_int_eq(sp_bench_server_parse("ssh", &srv), 0);
	ck_assert_int_eq(srv, SP_BENCH_SERVER_SSH);
	ck_assert_str_eq(sp_bench_server_str(SP_BENCH_SERVER_LOCAL), "local");
	ck_assert_int_eq(sp_bench_server_parse("remote", &srv), -EINVAL);
	ck_assert_int_eq(sp_nccl_test_parse("all_gather", &t), 0);
	ck_assert_str_eq(sp_nccl_test_str(t), "all_gather");
	ck_assert_int_eq(sp_nccl_test_parse("alltoall", &t), -EINVAL);
	ck_assert_str_eq(sp_bench_role_str(SP_BENCH_ROLE_MANUAL), "manual");
	ck_assert_int_eq(sp_bench_parse_number("21.875", &v), 0);
	ck_assert_double_eq_tol(v, 21.875, 1e-12);
	ck_assert_int_eq(sp_bench_parse_number("-1", &v), -EINVAL);
	ck_assert_int_eq(sp_bench_parse_number("1e3", &v), -EINVAL);
	ck_assert_int_eq(sp_bench_parse_number("", &v), -EINVAL);
}
END_TEST

static Suite *benchcmd_suite(void)
{
	Suite *s = suite_create("benchcmd");
	TCase *tc = tcase_create("network");

	tcase_add_test(tc, test_perftest_guide_bw);
	tcase_add_test(tc, test_perftest_guide_lat);
	tcase_add_test(tc, test_perftest_servers);
	tcase_add_loop_test(tc, test_perftest_tests, 0, ARRAY_SIZE(perftest_names));
	tcase_add_test(tc, test_perftest_test_unknown);
	tcase_add_test(tc, test_iperf3);
	tcase_add_test(tc, test_cpus);
	tcase_add_test(tc, test_nccl_blog);
	tcase_add_test(tc, test_nccl_single_host_sweep);
	suite_add_tcase(s, tc);

	tc = tcase_create("llm");
	tcase_add_test(tc, test_vllm);
	tcase_add_test(tc, test_sglang);
	tcase_add_test(tc, test_trtllm);
	tcase_add_test(tc, test_llama);
	suite_add_tcase(s, tc);

	tc = tcase_create("pieces");
	tcase_add_test(tc, test_quote);
	tcase_add_test(tc, test_words);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(benchcmd_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
