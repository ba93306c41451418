#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Sends one hand-made request to the sparkperf generic netlink family and
prints the kernel's answer as JSON, so that tests can check what the
module's policies accept and reject, including input sparkperf-ctl itself
would never send.

usage: nlraw.py CMD [--flags N] [--reserved N] [--version N] [ATTR ...]
  ATTR: TYPE:u32:VALUE | TYPE:str:TEXT (NUL added) | TYPE:raw:TEXT (no NUL)

prints {"errno": E, "msg": ..., "offset": ..., "miss_type": ...} for an
error, {"errno": 0, "replies": N} otherwise. The offset is the kernel's:
that of the bad attribute from the start of the request (netlink header 16
bytes, generic netlink header 4, so the first attribute is at 20).
"""
import json
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
NETLINK_EXT_ACK = 11
SOL_NETLINK = 270
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_ACK_TLVS = 0x200
NLM_F_CAPPED = 0x100
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_MISS_TYPE = 5


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


def transact(sock, family, cmd, flags, payload, version=1, reserved=0):
    seq = os.getpid() & 0xFFFF
    genl = struct.pack("BBH", cmd, version, reserved)
    msg = struct.pack("IHHII", 16 + len(genl) + len(payload), family,
                      NLM_F_REQUEST | NLM_F_ACK | flags, seq, 0)
    sock.send(msg + genl + payload)
    replies = []
    while True:
        data = sock.recv(65536)
        while len(data) >= 16:
            mlen, mtype, mflags, _, _ = struct.unpack_from("IHHII", data)
            body = data[16:mlen]
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
            replies.append(body)
            data = data[(mlen + 3) & ~3:]


def main(argv):
    cmd, flags, reserved, version, attrs = int(argv[0]), 0, 0, 1, b""
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
            continue
        atype, kind, value = arg.split(":", 2)
        if kind == "u32":
            attrs += nla(int(atype), struct.pack("I", int(value, 0)))
        elif kind == "str":
            attrs += nla(int(atype), value.encode() + b"\0")
        else:
            attrs += nla(int(atype), value.encode())

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.bind((0, 0))
    err, _, replies = transact(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
                               nla(CTRL_ATTR_FAMILY_NAME, b"sparkperf\0"))
    if err:
        print(json.dumps({"error": "family not found", "errno": err}))
        return 1
    family = struct.unpack(
        "H", parse_attrs(replies[0][4:])[CTRL_ATTR_FAMILY_ID][:2])[0]

    err, tlvs, replies = transact(sock, family, cmd, flags, attrs,
                                  version, reserved)
    out = {"errno": err}
    if err:
        if NLMSGERR_ATTR_MSG in tlvs:
            out["msg"] = tlvs[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
        if NLMSGERR_ATTR_OFFS in tlvs:
            out["offset"] = struct.unpack("I", tlvs[NLMSGERR_ATTR_OFFS])[0]
        if NLMSGERR_ATTR_MISS_TYPE in tlvs:
            out["miss_type"] = struct.unpack(
                "I", tlvs[NLMSGERR_ATTR_MISS_TYPE])[0]
    else:
        out["replies"] = len(replies)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
