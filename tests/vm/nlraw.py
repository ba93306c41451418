#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Sends one hand-made request to the sparkperf generic netlink family and
prints the kernel's answer as JSON, so that tests can check what the
module's policies accept and reject, including input sparkperf-ctl itself
would never send, and drive servers and latency sessions before the CLI
knows them.

usage: nlraw.py CMD [--flags N] [--reserved N] [--version N] [OPTION ...]
                [ATTR ...] [-- CMD ...]
  CMD: a number or a name (info, dev, server-start, server-stop,
       server-get, lat-run, lat-stop, lat-get, lat-samples, bw-run,
       bw-stop, bw-get, counters-get, trace-start, trace-stop, trace-get,
       trace-samples, trace-table, trace-end)
  ATTR: TYPE:KIND:VALUE, TYPE a number or an attribute name of the
        command's set (peer, size, ...); KIND one of
        u8 u16 u32 u64 s32 (numbers), str (NUL added), raw (text, no NUL),
        flag (no payload; the value is ignored),
        hex (bytes as hex digits), ip (an IPv4 or IPv6 address, 4/16 bytes)
  --dump          NLM_F_DUMP
  --decode        print every reply's attributes as "msgs"
  --wait          after LAT_RUN (BW_RUN), poll LAT_GET (BW_GET) on the
                  same socket (which
                  owns the session) until the session is no longer
                  connecting or running; its attributes as "result"
  --timeout S     give up waiting after S seconds (default 120)
  --stop-after S  while waiting, send LAT_STOP after S seconds
  --samples       after waiting, dump LAT_SAMPLES: "samples" has the count,
                  the first sample index and the first few pairs
  --progress      join the "progress" group first; "progress" counts its
                  messages by state and interval
  --hold S        after the request, keep the socket open S seconds
  --ready FILE    after the request, write FILE (for scripts that wait)
  --running FILE  while waiting, write FILE once the session has measured
  --target SPEC   counters-get: the TARGET; trace-start: one more TARGET in
                  TARGETS. SPEC: comma-separated netdev=NAME, rdma=NAME,
                  port=N (any combination, even none)
  --glob GLOB     one more GLOB in GLOBS
  --watch         join the "trace" group first; "watch" sums up the batches
                  (samples, contiguous sequence numbers, overruns: the
                  socket's ENOBUFS), the name tables and the TRACE_END of
                  the started trace
  --wait-trace    after TRACE_START, poll TRACE_GET until the trace is no
                  longer running (with --stop-after S: TRACE_STOP after S
                  seconds, "result" then has stop_sent_ns and stop_done_ns,
                  CLOCK_MONOTONIC before the request and after its answer);
                  its attributes as "result"
  --trace-samples after that, dump TRACE_SAMPLES (from --cursor N if
                  given): "samples" sums them up per stream (last_ts_ns: the
                  timestamp of its last sample)

Several requests separated by "--" are sent one after the other on the same
socket (so sessions stay alive between them), one JSON line each.

prints {"errno": E, "msg": ..., "offset": ..., "miss_type": ...} for an
error, {"errno": 0, "replies": N} otherwise. The offset is the kernel's:
that of the bad attribute from the start of the request (netlink header 16
bytes, generic netlink header 4, so the first attribute is at 20).
"""
import errno
import ipaddress
import json
import os
import select
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_EXT_ACK = 11
SOL_NETLINK = 270
SO_RCVBUFFORCE = 33  # asm-generic/socket.h; Python does not name it
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_ACK_TLVS = 0x200
NLM_F_CAPPED = 0x100
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_MISS_TYPE = 5

CMDS = {
    "info": 1, "dev": 2, "server-start": 6, "server-stop": 7,
    "server-get": 8, "lat-run": 9, "lat-stop": 10, "lat-get": 11,
    "lat-samples": 12, "lat-progress": 13, "bw-run": 14, "bw-stop": 15,
    "bw-get": 16, "bw-progress": 17, "counters-get": 18, "trace-start": 19,
    "trace-stop": 20, "trace-get": 21, "trace-samples": 22,
    "trace-table": 23, "trace-end": 24,
}
CMD_COUNTERS_GET, CMD_TRACE_START, CMD_TRACE_STOP = 18, 19, 20
CMD_TRACE_GET = 21
CMD_TRACE_SAMPLES, CMD_TRACE_TABLE, CMD_TRACE_END = 22, 23, 24
CMD_LAT_RUN, CMD_LAT_STOP, CMD_LAT_GET, CMD_LAT_SAMPLES = 9, 10, 11, 12
CMD_BW_RUN, CMD_BW_STOP, CMD_BW_GET = 14, 15, 16
LAT_STATES = ["connecting", "running", "done", "stopped", "failed"]

# Attribute sets, by enum value: (name, kind). Kinds: u8 u16 u32 u64 s32
# str ip bin, or a nested set.
INTERVAL_ATTRS = {
    2: ("end_ns", "u64"), 3: ("count", "u64"), 4: ("p50_ns", "u64"),
    5: ("p99_ns", "u64"), 6: ("max_ns", "u64"), 7: ("bytes", "u64"),
}
SERVER_ATTRS = {
    2: ("id", "u32"), 3: ("addr", "ip"), 4: ("port", "u16"),
    5: ("active", "u32"), 6: ("served", "u64"),
}
LAT_ATTRS = {
    2: ("id", "u32"), 3: ("peer", "ip"), 4: ("port", "u16"),
    5: ("dev", "str"), 6: ("op", "u8"), 7: ("size", "u32"),
    8: ("iters", "u64"), 9: ("duration_ms", "u32"), 10: ("warmup", "u32"),
    11: ("cpu", "u32"), 12: ("samples_max", "u32"),
    13: ("interval_ms", "u32"), 14: ("state", "u8"), 15: ("error", "s32"),
    16: ("error_msg", "str"), 17: ("warmup_done", "u64"),
    18: ("count", "u64"), 19: ("elapsed_ns", "u64"), 20: ("yields", "u64"),
    21: ("clock_res_ns", "u32"), 22: ("min_ns", "u64"),
    23: ("max_ns", "u64"), 24: ("sum_ns", "u64"), 25: ("sumsq_hi", "u64"),
    26: ("sumsq_lo", "u64"), 27: ("p50_ns", "u64"), 28: ("p90_ns", "u64"),
    29: ("p99_ns", "u64"), 30: ("p999_ns", "u64"), 31: ("p9999_ns", "u64"),
    32: ("p99999_ns", "u64"), 33: ("intervals", ("list", INTERVAL_ATTRS)),
    34: ("interval", INTERVAL_ATTRS), 35: ("samples_first", "u64"),
    36: ("samples_data", "bin"), 37: ("rt_yields", "u64"),
    38: ("completion", "u8"),
}
BW_ATTRS = {
    2: ("id", "u32"), 3: ("peer", "ip"), 4: ("port", "u16"),
    5: ("dev", "str"), 6: ("op", "u8"), 7: ("size", "u32"),
    8: ("qps", "u32"), 9: ("threads", "u32"), 10: ("depth", "u32"),
    11: ("signal", "u32"), 12: ("iters", "u64"), 13: ("duration_ms", "u32"),
    14: ("bidir", "flag"), 15: ("validate", "flag"),
    16: ("interval_ms", "u32"), 17: ("start_at_ns", "u64"),
    18: ("state", "u8"), 19: ("error", "s32"), 20: ("error_msg", "str"),
    21: ("start_ns", "u64"), 22: ("elapsed_ns", "u64"),
    23: ("tx_bytes", "u64"), 24: ("tx_msgs", "u64"), 25: ("rx_bytes", "u64"),
    26: ("rx_msgs", "u64"), 27: ("validate_errors", "u64"),
    28: ("cpu_ns", "u64"), 29: ("intervals", ("list", INTERVAL_ATTRS)),
    30: ("interval", INTERVAL_ATTRS),
}
# Per family of commands: run, stop, get and the attribute set.
SESSION_CMDS = {
    CMD_LAT_RUN: (CMD_LAT_STOP, CMD_LAT_GET, LAT_ATTRS),
    CMD_BW_RUN: (CMD_BW_STOP, CMD_BW_GET, BW_ATTRS),
}
STREAM_ATTRS = {
    2: ("index", "u32"), 3: ("source", "u8"), 4: ("target", "str"),
    5: ("ifindex", "u32"), 6: ("port", "u32"), 7: ("period_us", "u32"),
    8: ("version", "u32"), 9: ("slot_values", "u32"),
    10: ("truncated", "flag"), 11: ("names", ("strs",)),
    13: ("samples", "u64"), 14: ("missed", "u64"),
    15: ("read_ns_sum", "u64"), 16: ("read_ns_max", "u64"),
    17: ("late_ns_max", "u64"), 18: ("values", "u64s"),
    19: ("ts_ns", "u64"), 20: ("read_ns", "u32"),
}
SAMPLE_ATTRS = {
    2: ("seq", "u64"), 3: ("stream", "u32"), 4: ("version", "u32"),
    5: ("ts_ns", "u64"), 6: ("read_ns", "u32"), 7: ("values", "u64s"),
}
TARGET_ATTRS = {1: ("netdev", "str"), 2: ("rdma_dev", "str"),
                3: ("rdma_port", "u32")}
TRACE_ATTRS = {
    2: ("id", "u32"), 3: ("targets", ("list", TARGET_ATTRS)),
    4: ("target", TARGET_ATTRS), 5: ("globs", ("strs",)), 6: ("glob", "str"),
    7: ("netdev_period_us", "u32"), 8: ("ethtool_period_us", "u32"),
    9: ("rdma_period_us", "u32"), 10: ("duration_ms", "u32"),
    11: ("buffer_bytes", "u32"), 12: ("batch_ms", "u32"),
    13: ("state", "u8"), 14: ("error", "s32"), 15: ("error_msg", "str"),
    16: ("start_ns", "u64"), 17: ("elapsed_ns", "u64"), 18: ("slots", "u32"),
    19: ("seq_next", "u64"), 20: ("seq_oldest", "u64"),
    21: ("streams", ("list", STREAM_ATTRS)), 22: ("stream", STREAM_ATTRS),
    23: ("cursor", "u64"), 24: ("lost", "u64"),
    25: ("samples", ("list", SAMPLE_ATTRS)), 26: ("sample", SAMPLE_ATTRS),
    27: ("cpu_ns", "u64"),
}
TRACE_STATES = ["running", "done", "stopped", "failed"]
INFO_ATTRS = {1: ("version", "str"), 2: ("kernel", "str"), 3: ("devices", "u32")}
DEV_ATTRS = {2: ("index", "u32"), 3: ("name", "str")}


def attr_set(cmd):
    if cmd == 1:
        return INFO_ATTRS
    if 2 <= cmd <= 5:
        return DEV_ATTRS
    if 6 <= cmd <= 8:
        return SERVER_ATTRS
    if 14 <= cmd <= 17:
        return BW_ATTRS
    if 18 <= cmd <= 24:
        return TRACE_ATTRS
    return LAT_ATTRS


def nla(atype, payload):
    pad = (4 - len(payload) % 4) % 4
    return struct.pack("HH", 4 + len(payload), atype) + payload + b"\0" * pad


def parse_attrs(data):
    attrs = {}
    while len(data) >= 4:
        alen, atype = struct.unpack_from("HH", data)
        if alen < 4:
            break
        attrs[atype & 0x3FFF] = data[4:alen]
        data = data[(alen + 3) & ~3:]
    return attrs


def parse_attr_list(data):
    out = []
    while len(data) >= 4:
        alen, atype = struct.unpack_from("HH", data)
        if alen < 4:
            break
        out.append((atype & 0x3FFF, data[4:alen]))
        data = data[(alen + 3) & ~3:]
    return out


def decode_value(kind, payload):
    if isinstance(kind, dict):
        return decode(kind, payload)
    if isinstance(kind, tuple) and kind[0] == "strs":
        return [p.rstrip(b"\0").decode(errors="replace")
                for _, p in parse_attr_list(payload)]
    if isinstance(kind, tuple):
        return [decode(kind[1], p) for _, p in parse_attr_list(payload)]
    if kind == "u64s":
        return list(struct.unpack("%dQ" % (len(payload) // 8), payload))
    fmt = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q", "s32": "i"}
    if kind in fmt:
        return struct.unpack_from(fmt[kind], payload)[0]
    if kind == "str":
        return payload.rstrip(b"\0").decode(errors="replace")
    if kind == "flag":
        return True
    if kind == "ip" and len(payload) in (4, 16):
        return str(ipaddress.ip_address(payload))
    return len(payload)


def decode(table, data):
    out = {}
    for atype, payload in parse_attr_list(data):
        if atype in table:
            name, kind = table[atype]
            out[name] = decode_value(kind, payload)
        elif atype != 1:
            out[str(atype)] = payload.hex()
    return out


def recv_all(sock):
    return sock.recv(1 << 22)


def transact(sock, family, cmd, flags, payload, version=1, reserved=0):
    """Returns (errno, ack TLVs, [(cmd, attribute bytes), ...])."""
    seq = (os.getpid() + transact.seq) & 0xFFFFFFFF
    transact.seq += 1
    genl = struct.pack("BBH", cmd, version, reserved)
    msg = struct.pack("IHHII", 16 + len(genl) + len(payload), family,
                      NLM_F_REQUEST | NLM_F_ACK | flags, seq, 0)
    sock.send(msg + genl + payload)
    replies = []
    while True:
        data = recv_all(sock)
        while len(data) >= 16:
            mlen, mtype, mflags, mseq, _ = struct.unpack_from("IHHII", data)
            body = data[16:mlen]
            data = data[(mlen + 3) & ~3:]
            if mseq != seq:
                continue
            if mtype == NLMSG_ERROR:
                err = -struct.unpack_from("i", body)[0]
                if err == 0:
                    return 0, {}, replies
                orig_len = 16 if mflags & NLM_F_CAPPED else \
                    struct.unpack_from("I", body, 4)[0]
                tlvs = parse_attrs(body[4 + orig_len:]) \
                    if mflags & NLM_F_ACK_TLVS else {}
                return err, tlvs, replies
            if mtype == NLMSG_DONE:
                return 0, {}, replies
            replies.append((body[0], body[4:]))


transact.seq = 0


def open_socket():
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    # SO_RCVBUF stops at net.core.rmem_max (208 KiB by default), less than
    # a second of batches of every RDMA counter: root takes the 4 MiB
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 1 << 22)
    except PermissionError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    sock.bind((0, 0))
    return sock


def resolve(sock):
    err, _, replies = transact(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
                               nla(CTRL_ATTR_FAMILY_NAME, b"sparkperf\0"))
    if err:
        return err, None, {}
    attrs = parse_attrs(replies[0][1])
    family = struct.unpack("H", attrs[CTRL_ATTR_FAMILY_ID][:2])[0]
    groups = {}
    for _, grp in parse_attr_list(attrs.get(CTRL_ATTR_MCAST_GROUPS, b"")):
        g = parse_attrs(grp)
        groups[g[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()] = \
            struct.unpack("I", g[CTRL_ATTR_MCAST_GRP_ID])[0]
    return 0, family, groups


def encode_attr(cmd, arg):
    atype, kind, value = arg.split(":", 2)
    if not atype.isdigit():
        names = {v[0]: k for k, v in attr_set(cmd).items()}
        atype = names[atype]
    atype = int(atype)
    packers = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q", "s32": "i"}
    if kind in packers:
        return nla(atype, struct.pack(packers[kind], int(value, 0)))
    if kind == "str":
        return nla(atype, value.encode() + b"\0")
    if kind == "flag":
        return nla(atype, b"")
    if kind == "hex":
        return nla(atype, bytes.fromhex(value))
    if kind == "ip":
        return nla(atype, ipaddress.ip_address(value).packed)
    return nla(atype, value.encode())


def error_out(err, tlvs):
    out = {"errno": err}
    if NLMSGERR_ATTR_MSG in tlvs:
        out["msg"] = tlvs[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
    if NLMSGERR_ATTR_OFFS in tlvs:
        out["offset"] = struct.unpack("I", tlvs[NLMSGERR_ATTR_OFFS])[0]
    if NLMSGERR_ATTR_MISS_TYPE in tlvs:
        out["miss_type"] = struct.unpack(
            "I", tlvs[NLMSGERR_ATTR_MISS_TYPE])[0]
    return out


def session_get(sock, family, run_cmd, sid):
    _, get_cmd, table = SESSION_CMDS[run_cmd]
    err, tlvs, replies = transact(sock, family, get_cmd, 0,
                                  nla(2, struct.pack("I", sid)))
    if err:
        return error_out(err, tlvs)
    return decode(table, replies[0][1])


def drain_progress(psock, progress):
    while psock and select.select([psock], [], [], 0)[0]:
        data = psock.recv(1 << 20)
        while len(data) >= 16:
            mlen = struct.unpack_from("I", data)[0]
            body = data[16:mlen]
            data = data[(mlen + 3) & ~3:]
            table = BW_ATTRS if body[0] == 17 else LAT_ATTRS
            msg = decode(table, body[4:])
            key = "interval" if "interval" in msg else \
                LAT_STATES[msg.get("state", 0)]
            progress[key] = progress.get(key, 0) + 1


def wait_session(sock, family, run_cmd, sid, opts, psock, progress):
    start = time.monotonic()
    stopped = False
    while True:
        drain_progress(psock, progress)
        res = session_get(sock, family, run_cmd, sid)
        if res.get("errno") or res.get("state", 0) >= 2:
            return res
        if opts["running"] and (res.get("count", 0) > 0 or
                                res.get("tx_msgs", 0) > 0):
            with open(opts["running"], "w", encoding="utf-8"):
                pass
            opts["running"] = None
        now = time.monotonic() - start
        if opts["stop_after"] is not None and not stopped and \
                now >= opts["stop_after"]:
            err, tlvs, _ = transact(sock, family, SESSION_CMDS[run_cmd][0],
                                    0, nla(2, struct.pack("I", sid)))
            stopped = True
            if err:
                return {"stop": error_out(err, tlvs)}
            continue
        if now > opts["timeout"]:
            return {"timeout": True, "last": res}
        time.sleep(0.2)


def dump_samples(sock, family, sid):
    err, tlvs, replies = transact(sock, family, CMD_LAT_SAMPLES, NLM_F_DUMP,
                                  nla(2, struct.pack("I", sid)))
    if err:
        return error_out(err, tlvs)
    pairs, first, contiguous = [], None, True
    for _, body in replies:
        attrs = parse_attrs(body)
        f = struct.unpack("Q", attrs[35])[0]
        if first is None:
            first = f
        elif f != first + len(pairs):
            contiguous = False
        data = attrs[36]
        pairs += [struct.unpack_from("QQ", data, i)
                  for i in range(0, len(data), 16)]
    ordered = all(pairs[i][0] <= pairs[i + 1][0]
                  for i in range(len(pairs) - 1))
    return {"messages": len(replies), "count": len(pairs), "first": first,
            "contiguous": contiguous, "ordered": ordered,
            "head": pairs[:3]}


def encode_target(spec):
    keys = {"netdev": (1, "str"), "rdma": (2, "str"), "port": (3, "u32")}
    out = b""
    for item in filter(None, spec.split(",")):
        key, value = item.split("=", 1)
        atype, kind = keys[key]
        out += nla(atype, value.encode() + b"\0" if kind == "str"
                   else struct.pack("I", int(value, 0)))
    return out


def trace_get(sock, family, tid):
    err, tlvs, replies = transact(sock, family, CMD_TRACE_GET, 0,
                                  nla(2, struct.pack("I", tid)))
    if err:
        return error_out(err, tlvs)
    return decode(TRACE_ATTRS, replies[0][1])


def new_watch():
    return {"batches": 0, "samples": 0, "first_seq": None, "last_seq": None,
            "contiguous": True, "lost": 0, "overruns": 0, "tables": [],
            "end": None, "after_end": 0, "others": 0}


def drain_watch(wsock, tid, watch, timeout=0.0):
    while wsock and select.select([wsock], [], [], timeout)[0]:
        try:
            data = wsock.recv(1 << 22)
        except OSError as e:
            if e.errno != errno.ENOBUFS:
                raise
            # the socket dropped messages: the gap shows in "contiguous"
            watch["overruns"] += 1
            continue
        while len(data) >= 16:
            mlen = struct.unpack_from("I", data)[0]
            body = data[16:mlen]
            data = data[(mlen + 3) & ~3:]
            msg = decode(TRACE_ATTRS, body[4:])
            if msg.get("id") != tid:
                watch["others"] += 1
                continue
            if body[0] == CMD_TRACE_SAMPLES:
                watch["batches"] += 1
                watch["lost"] += msg.get("lost", 0)
                for smp in msg.get("samples", []):
                    seq = smp["seq"]
                    if watch["first_seq"] is None:
                        watch["first_seq"] = seq
                    elif seq != watch["last_seq"] + 1:
                        watch["contiguous"] = False
                    watch["last_seq"] = seq
                    watch["samples"] += 1
                    if watch["end"] is not None:
                        watch["after_end"] += 1
            elif body[0] == CMD_TRACE_TABLE:
                for st in msg.get("streams", []):
                    watch["tables"].append({"stream": st.get("index"),
                                            "version": st.get("version"),
                                            "names": len(st.get("names", [])),
                                            "truncated": bool(st.get("truncated"))})
            elif body[0] == CMD_TRACE_END:
                watch["end"] = msg
        timeout = 0.0


def wait_trace(sock, family, tid, opts, wsock, watch):
    start = time.monotonic()
    stopped = {}
    while True:
        drain_watch(wsock, tid, watch)
        res = trace_get(sock, family, tid)
        if res.get("errno") or res.get("state", 0) != 0:
            return dict(res, **stopped)
        now = time.monotonic() - start
        if opts["stop_after"] is not None and not stopped and \
                now >= opts["stop_after"]:
            # time.monotonic_ns() is CLOCK_MONOTONIC, the traces' clock.
            sent = time.monotonic_ns()
            err, tlvs, _ = transact(sock, family, CMD_TRACE_STOP, 0,
                                    nla(2, struct.pack("I", tid)))
            stopped = {"stop_sent_ns": sent,
                       "stop_done_ns": time.monotonic_ns()}
            if err:
                return {"stop": error_out(err, tlvs)}
            continue
        if now > opts["timeout"]:
            return {"timeout": True, "last": res}
        if opts["ready"]:
            with open(opts["ready"], "w", encoding="utf-8"):
                pass
            opts["ready"] = None
        time.sleep(0.2)


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


def dump_trace_samples(sock, family, tid, cursor):
    payload = nla(2, struct.pack("I", tid))
    if cursor is not None:
        payload += nla(23, struct.pack("Q", cursor))
    err, tlvs, replies = transact(sock, family, CMD_TRACE_SAMPLES,
                                  NLM_F_DUMP, payload)
    if err:
        return error_out(err, tlvs)
    out = {"messages": len(replies), "count": 0, "lost": 0,
           "first_seq": None, "last_seq": None, "contiguous": True,
           "streams": {}}
    ts = {}
    for _, body in replies:
        msg = decode(TRACE_ATTRS, body)
        out["lost"] += msg.get("lost", 0)
        for smp in msg.get("samples", []):
            seq = smp["seq"]
            if out["first_seq"] is None:
                out["first_seq"] = seq
            elif seq != out["last_seq"] + 1:
                out["contiguous"] = False
            out["last_seq"] = seq
            out["count"] += 1
            st = out["streams"].setdefault(str(smp["stream"]), {
                "count": 0, "increasing": True, "versions": [],
                "values_min": None, "values_max": 0})
            st["count"] += 1
            if smp["version"] not in st["versions"]:
                st["versions"].append(smp["version"])
            n = len(smp.get("values", []))
            st["values_min"] = n if st["values_min"] is None else \
                min(st["values_min"], n)
            st["values_max"] = max(st["values_max"], n)
            prev = ts.setdefault(smp["stream"], [])
            if prev and smp["ts_ns"] <= prev[-1]:
                st["increasing"] = False
            prev.append(smp["ts_ns"])
    for sid, values in ts.items():
        out["streams"][str(sid)]["median_period_ns"] = median(
            [b - a for a, b in zip(values, values[1:])])
        out["streams"][str(sid)]["last_ts_ns"] = values[-1]
    return out


def run_one(sock, family, groups, argv):
    cmd = CMDS.get(argv[0]) or int(argv[0], 0)
    flags, reserved, version, attrs = 0, 0, 1, b""
    opts = {"decode": False, "wait": False, "timeout": 120.0,
            "stop_after": None, "samples": False, "progress": False,
            "hold": 0.0, "ready": None, "running": None, "watch": False,
            "wait_trace": False, "trace_samples": False, "cursor": None}
    targets, globs = [], []
    args = argv[1:]
    while args:
        arg = args.pop(0)
        if arg in ("--flags", "--reserved", "--version"):
            value = int(args.pop(0), 0)
            if arg == "--flags":
                flags = value
            elif arg == "--reserved":
                reserved = value
            else:
                version = value
        elif arg == "--dump":
            flags |= NLM_F_DUMP
        elif arg in ("--decode", "--wait", "--samples", "--progress",
                     "--watch", "--wait-trace", "--trace-samples"):
            opts[arg[2:].replace("-", "_")] = True
        elif arg == "--cursor":
            opts["cursor"] = int(args.pop(0), 0)
        elif arg == "--target":
            targets.append(encode_target(args.pop(0)))
        elif arg == "--glob":
            globs.append(nla(6, args.pop(0).encode() + b"\0"))
        elif arg in ("--timeout", "--stop-after", "--hold"):
            opts[arg[2:].replace("-", "_")] = float(args.pop(0))
        elif arg in ("--ready", "--running"):
            opts[arg[2:]] = args.pop(0)
        else:
            attrs += encode_attr(cmd, arg)

    if cmd == CMD_COUNTERS_GET and targets:
        attrs += nla(4 | 0x8000, targets[0])
    elif targets:
        attrs += nla(3 | 0x8000, b"".join(nla(4 | 0x8000, t)
                                          for t in targets))
    if globs:
        attrs += nla(5 | 0x8000, b"".join(globs))
    wsock, watch = None, new_watch()
    if opts["watch"]:
        wsock = open_socket()
        wsock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                         groups["trace"])

    psock, progress = None, {}
    if opts["progress"]:
        psock = open_socket()
        psock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                         groups["progress"])

    err, tlvs, replies = transact(sock, family, cmd, flags, attrs,
                                  version, reserved)
    if opts["ready"] and not opts["wait_trace"]:
        with open(opts["ready"], "w", encoding="utf-8"):
            pass
    if err:
        out = error_out(err, tlvs)
    else:
        out = {"errno": 0, "replies": len(replies)}
        if opts["decode"]:
            out["msgs"] = [decode(attr_set(c), body) for c, body in replies]
        if cmd in SESSION_CMDS and replies:
            sid = decode(attr_set(cmd), replies[0][1])["id"]
            out["id"] = sid
            if opts["wait"]:
                out["result"] = wait_session(sock, family, cmd, sid, opts,
                                             psock, progress)
            if opts["samples"]:
                out["samples"] = dump_samples(sock, family, sid)
        if cmd == CMD_TRACE_START and replies:
            tid = decode(TRACE_ATTRS, replies[0][1])["id"]
            out["id"] = tid
            if opts["wait_trace"]:
                out["result"] = wait_trace(sock, family, tid, opts, wsock,
                                           watch)
            if opts["trace_samples"]:
                out["samples"] = dump_trace_samples(sock, family, tid,
                                                    opts["cursor"])
            if wsock:
                end = time.monotonic() + 5
                while watch["end"] is None and time.monotonic() < end:
                    drain_watch(wsock, tid, watch, 0.2)
                out["watch"] = watch
    if opts["hold"]:
        time.sleep(opts["hold"])
    if wsock:
        wsock.close()
    if psock:
        time.sleep(0.2)
        drain_progress(psock, progress)
        out["progress"] = progress
        psock.close()
    print(json.dumps(out))
    sys.stdout.flush()


def main(argv):
    sock = open_socket()
    err, family, groups = resolve(sock)
    if err:
        print(json.dumps({"error": "family not found", "errno": err}))
        return 1
    # Requests separated by "--" go one after the other on one socket.
    request = []
    for arg in argv + ["--"]:
        if arg != "--":
            request.append(arg)
        elif request:
            run_one(sock, family, groups, request)
            request = []
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
