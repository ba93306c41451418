# sparkperf's JSON vocabulary, as sparkperf-ctl(8) documents it under
# "JSON OUTPUT": every key of a -j document, checked. Prints one line per
# key that breaks a rule ("PATH: why") and fails (jq -e) when any does.
# Fed one or more documents; JSON lines (events, watch) are documents too.
#
#   jq -n -e -r -f tests/json-vocabulary.jq < output

# Objects whose keys are names the tool reports, not words of ours:
# counters (as their drivers name them), environment variables, NCCL
# settings, metrics and columns as a benchmark names them.
def name_maps: ["counters", "env", "metrics", "values"];

# A number carries its unit as its key's last word, spelled one way:
# time in ns, us, ms or s; sizes in bytes; data rates in gbit_per_s; other
# rates as THINGS_per_s; shares in percent; ns2 for a sum of squares; and
# _reported for a value in the unit its sibling unit_reported names.
def unit_suffix: "(^|_)(ns|us|ms|s|bytes|percent|ns2|per_s|reported)$";

# Numbers without a unit: counts of what the key names, identifiers, and
# settings that are counts (qps, depth, signal, iterations).
def unitless: [
	"active", "completed", "count", "cpu", "delta", "denoising_steps",
	"depth", "device", "devices", "epochs", "errno", "error",
	"exit_status", "first", "gpus_per_thread", "hosts", "id", "ifindex",
	"images_per_run", "index", "iterations", "json_version", "last",
	"logged_steps", "missed", "msgs", "nccl_version", "out_of_bounds",
	"parts", "port", "qps", "rank", "rank_exit_status", "ranks",
	"requested", "resets", "result", "retransmits", "root",
	"round_trips_with_yield", "rx_msgs", "samples", "samples_lost",
	"samples_max", "samples_received", "served", "sessions", "signal",
	"socket", "step", "steps", "streams_requested", "table_changes",
	"table_versions", "threads", "train_loss", "tx_msgs",
	"active_width", "stream", "version",
	"validate_errors", "warmup", "warmup_count", "wraps", "wrong",
	"yields", "numa_node", "netdev_ifindex", "seq",
	"seq_next", "seq_oldest", "slots", "changes", "failures",
	"gid_index", "command_index", "failed", "max_conns", "max_threads",
	"rejected", "pcie_width", "pcie_max_width", "previous_gid_index",
	"round", "rounds"
];

# Spellings of a unit or a quantity that the vocabulary has one other
# word for.
def banned: {
	"_per_second$": "a rate is _per_s",
	"(^|_)(usec|msec|sec|secs|seconds|nsec)$": "time is ns, us, ms or s",
	"(^|_)(bits|bytes|gb|mb|mib|gib|kb)_per_s$": "a data rate is gbit_per_s",
	"(^|_)(gbps|mbps|bps|mpps|pps)$": "a rate is _per_s, data in gbit_per_s",
	"(^|_)p(999|9999|99999)(_|$)": "percentiles are p99_9, p99_99, p99_999",
	"(^|_)iters($|_)": "iterations",
	"(^|_)lat(_|$)": "latency is rtt or one_way"
};

def parent_key($p): [$p[:-1][] | select(type == "string")] | last;

def problems:
	paths as $p
	| select(($p | last | type) == "string")
	| select((name_maps | index([parent_key($p)])) == null)
	| ($p | last) as $k
	| getpath($p) as $v
	| ($p | map(tostring) | join(".")) as $where
	| (if ($k | test("^[a-z][a-z0-9_]*$") | not) then
		"\($where): a key is lower-case words joined by _"
	   else empty end),
	  ((banned | to_entries[]) as $b | select($k | test($b.key)) |
		"\($where): \($b.value)"),
	  (if ($v | type) == "number" and ($k | test(unit_suffix) | not) and
	      (unitless | index([$k])) == null then
		"\($where): a number's key ends in its unit (or is a documented count)"
	   else empty end),
	  (if ($v | type) == "string" and
	      ($v | test("^(true|false|yes|no)$")) then
		"\($where): a yes or no is a JSON boolean, not \"\($v)\""
	   else empty end);

[inputs | problems] as $found
| if ($found | length) > 0 then ($found | join("\n") + "\n") | halt_error(1)
  else true end
