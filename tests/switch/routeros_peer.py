#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# TEST DOUBLE: not RouterOS.
#
# A stand-in for the RouterOS API of a MikroTik switch, for the end-to-end
# tests of "sparkperf-ctl switch" (tests/switch/run-tests). It speaks the
# subset of the protocol that sparkperf-ctl uses, and no more: the paths it
# answers are exactly the ones the client sends. It listens on 127.0.0.1
# only, with TLS (a throwaway certificate, or anonymous Diffie-Hellman as
# api-ssl without a certificate) or plain TCP.
#
# The switch's state is a JSON file, read at start and written back after
# every change (so a test reads it with jq):
#   {"version": "7.22 (stable)", "board": "CRS804-4DDQ",
#    "menus": {"/interface/ethernet": [{"name": ..., "speed": ...}, ...], ...},
#    "cables": {"qsfp56-dd-1-1": "200G-baseCR4", ...},   # what is plugged in
#    "files": []}                                        # /export writes here
#
# What it models of RouterOS: the post-6.43 login; tags; !re/!done/!trap/
# !fatal, and !empty for prints without rows from 7.18 on; values checked
# per property (a bad one is a !trap); MTU clamped to the L2MTU without a
# word; links up only with auto-negotiation off and the speed of the cable;
# safe mode, whose changes are undone by /safe-mode/unroll (7.18 on) or when
# the session ends without /safe-mode/release; the QoS menus from 7.15 on.
#
# Faults, for the failure paths:
#   --drop-after-sets N     close the connection, without a reply, on the
#                           first set/add/remove after N of them (once)
#   --trap-on [ROW:]P=V     refuse setting property P to V (on row ROW)
#   --link-down PORT        the link of PORT never comes up
#   --link-delay S          links come up S seconds after a change
#   --stall                 never answer anything
import argparse
import json
import os
import socket
import socketserver
import ssl
import sys
import threading
import time

ETHERNET = "/interface/ethernet"
SWITCH = "/interface/ethernet/switch"
QOS = "/interface/ethernet/switch/qos"

SPEEDS = ("10M-baseT-half", "10M-baseT-full", "100M-baseT-full", "1G-baseT-full",
          "10G-baseSR-LR", "25G-baseCR", "50G-baseCR", "100G-baseCR2", "100G-baseCR4",
          "200G-baseCR4", "200G-baseSR4-LR4", "400G-baseCR8")
BOOLS = {"yes": "true", "no": "false", "true": "true", "false": "false"}
MAX_L2MTU = 10218


def boolean(v, row):
    return BOOLS.get(v)


def one_of(*values):
    return lambda v, row: v if v in values else None


def number(lo, hi):
    def check(v, row):
        return v if v.isdigit() and lo <= int(v) <= hi else None
    return check


def rate(v, row):
    digits = v.rstrip("bps").rstrip("kMGT").replace(".", "", 1)
    return v if digits.isdigit() else None


def text(v, row):
    return v if v else None


# menu -> (property that names a row, rows may be added, property checks)
MENUS = {
    ETHERNET: ("name", False, {
        "name": text, "speed": one_of(*SPEEDS), "auto-negotiation": boolean,
        "fec-mode": one_of("auto", "fec74", "fec91", "off"),
        "mtu": number(0, 65535), "l2mtu": number(0, MAX_L2MTU)}),
    SWITCH: ("name", False, {"name": text, "qos-hw-offloading": boolean}),
    QOS + "/profile": ("name", True, {"name": text, "traffic-class": number(0, 7)}),
    QOS + "/map/ip": ("dscp", True, {"dscp": number(0, 63), "profile": text}),
    QOS + "/port": ("name", False, {
        "name": text, "trust-l3": one_of("ignore", "keep"),
        "egress-rate-queue3": rate, "pfc": text}),
    QOS + "/priority-flow-control": ("name", True, {
        "name": text, "traffic-class": number(0, 7), "rx": boolean, "tx": boolean}),
}


def version_tuple(v):
    out = []
    for part in v.split()[0].split("."):
        digits = "".join(c for c in part if c.isdigit())
        out.append(int(digits or 0))
    return tuple(out + [0] * (3 - len(out)))


# ---- framing ----------------------------------------------------------------

def encode_len(n):
    if n < 0x80:
        return bytes([n])
    if n < 0x4000:
        return (n | 0x8000).to_bytes(2, "big")
    if n < 0x200000:
        return (n | 0xC00000).to_bytes(3, "big")
    if n < 0x10000000:
        return (n | 0xE0000000).to_bytes(4, "big")
    return b"\xf0" + n.to_bytes(4, "big")


def encode(words):
    out = b""
    for w in words:
        b = w.encode()
        out += encode_len(len(b)) + b
    return out + b"\0"


class Closed(Exception):
    pass


def read_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise Closed()
        buf += chunk
    return buf


def read_len(sock):
    first = read_exact(sock, 1)[0]
    if first < 0x80:
        return first
    if first < 0xC0:
        return ((first & 0x3F) << 8) | read_exact(sock, 1)[0]
    if first < 0xE0:
        return ((first & 0x1F) << 16) | int.from_bytes(read_exact(sock, 2), "big")
    if first < 0xF0:
        return ((first & 0x0F) << 24) | int.from_bytes(read_exact(sock, 3), "big")
    if first == 0xF0:
        return int.from_bytes(read_exact(sock, 4), "big")
    raise Closed()  # a control byte: not the API


def read_sentence(sock):
    words = []
    while True:
        n = read_len(sock)
        if n == 0:
            if words:
                return words
            continue
        words.append(read_exact(sock, n).decode())


# ---- the switch -------------------------------------------------------------

class Switch:
    def __init__(self, args):
        self.args = args
        self.lock = threading.RLock()
        with open(args.state) as f:
            self.state = json.load(f)
        self.version = version_tuple(self.state["version"])
        self.state.setdefault("files", [])
        ids = [int(r[".id"][1:], 16) for rows in self.state["menus"].values()
               for r in rows if ".id" in r]
        self.next_id = max(ids, default=0) + 1
        for rows in self.state["menus"].values():
            for row in rows:
                row.setdefault(".id", self.new_id())
        self.changed_at = {}
        self.modifications = 0
        self.dropped = False
        self.safe_owner = None
        self.save()

    def new_id(self):
        self.next_id += 1
        return "*%X" % (self.next_id - 1)

    def save(self):
        tmp = self.args.state + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1, sort_keys=True)
        os.replace(tmp, self.args.state)

    def has_menu(self, menu):
        if menu not in MENUS or menu not in self.state["menus"]:
            return False
        return not menu.startswith(QOS) or self.version >= (7, 15, 0)

    def rows(self, menu):
        return self.state["menus"][menu]

    def find(self, menu, ident):
        key = MENUS[menu][0]
        for i, row in enumerate(self.rows(menu)):
            if row[".id"] == ident or row.get(key) == ident:
                return i, row
        return None, None

    def link(self, name):
        row = self.find(ETHERNET, name)[1]
        cable = self.state.get("cables", {}).get(name)
        if (row is None or not cable or name in self.args.link_down
                or row["auto-negotiation"] != "false" or row["speed"] != cable
                or row["fec-mode"] not in ("fec91", "auto")
                or time.time() - self.changed_at.get(name, 0) < self.args.link_delay):
            return "no-link", None
        return "link-ok", cable.split("-")[0] + "bps"


class Trap(Exception):
    pass


class Session:
    """One API connection: its login, its safe mode and what that undoes."""

    def __init__(self, switch, sock):
        self.sw = switch
        self.sock = sock
        self.logged_in = False
        self.undo = None  # a list while this session holds safe mode

    def reply(self, tag, *sentences):
        out = b""
        for words in sentences:
            out += encode(list(words) + ([".tag=" + tag] if tag is not None else []))
        self.sock.sendall(out)

    def serve(self):
        try:
            while True:
                words = read_sentence(self.sock)
                if self.sw.args.stall:
                    continue
                self.command(words)
        except (Closed, OSError, ssl.SSLError):
            pass
        finally:
            self.end()

    def end(self):
        """A session that ends in safe mode has its changes undone."""
        with self.sw.lock:
            if self.undo is not None:
                self.unroll()
        try:
            self.sock.close()
        except OSError:
            pass

    def command(self, words):
        cmd, attrs, tag = words[0], {}, None
        for w in words[1:]:
            if w.startswith(".tag="):
                tag = w[5:]
            elif w.startswith("="):
                name, _, value = w[1:].partition("=")
                attrs[name] = value
        if not self.logged_in and cmd != "/login":
            self.reply(None, ["!fatal", "not logged in"])
            raise Closed()
        with self.sw.lock:
            try:
                rows, ret = self.run(cmd, attrs)
            except Trap as e:
                self.reply(tag, ["!trap", "=message=" + str(e)], ["!done"])
                return
            if rows is None:
                raise Closed()  # dropped on purpose: no reply
            sentences = [["!re"] + ["=%s=%s" % kv for kv in r.items()] for r in rows]
            if not rows and cmd.endswith("/print") and self.sw.version >= (7, 18, 0):
                sentences.append(["!empty"])
            sentences.append(["!done"] + (["=ret=" + ret] if ret else []))
            self.reply(tag, *sentences)

    def run(self, cmd, attrs):
        sw = self.sw
        if cmd == "/login":
            if attrs.get("name") == sw.args.user and attrs.get("password") == sw.password:
                self.logged_in = True
                return [], None
            raise Trap("invalid user name or password (6)")
        if cmd == "/system/resource/print":
            row = {"version": sw.state["version"], "board-name": sw.state["board"]}
            return [proplist(row, attrs)], None
        if cmd == "/export":
            if not attrs.get("file"):
                raise Trap("sparkperf test double: /export needs =file=")
            sw.state["files"].append(attrs["file"] + ".rsc")
            sw.save()
            return [], None
        if cmd.startswith("/safe-mode/"):
            return self.safe_mode(cmd[len("/safe-mode/"):])
        if cmd == ETHERNET + "/monitor":
            return self.monitor(attrs), None
        menu, _, verb = cmd.rpartition("/")
        if not sw.has_menu(menu) or verb not in ("print", "set", "add", "remove"):
            raise Trap("no such command prefix")
        if verb == "print":
            return [proplist(r, attrs) for r in sw.rows(menu)], None
        if sw.args.drop_after_sets is not None and not sw.dropped \
                and sw.modifications >= sw.args.drop_after_sets:
            sw.dropped = True
            return None, None
        ret = getattr(self, verb)(menu, attrs)
        sw.modifications += 1
        sw.save()
        return [], ret

    def safe_mode(self, what):
        sw = self.sw
        if what == "take":
            if sw.safe_owner not in (None, self):
                raise Trap("safe mode is taken by another session")
            sw.safe_owner, self.undo = self, []
        elif what == "release":
            sw.safe_owner, self.undo = None, None
        elif what == "unroll" and sw.version >= (7, 18, 0):
            if self.undo is not None:
                self.unroll()
        else:
            raise Trap("no such command")
        return [], None

    def unroll(self):
        for undo in reversed(self.undo):
            undo()
        self.sw.safe_owner, self.undo = None, None
        self.sw.save()

    def remember(self, undo):
        if self.undo is not None:
            self.undo.append(undo)

    def monitor(self, attrs):
        if "once" not in attrs:
            raise Trap("sparkperf test double: monitor needs =once=")
        name = attrs.get("numbers", "")
        if self.sw.find(ETHERNET, name)[1] is None:
            raise Trap("no such item")
        status, rate_ = self.sw.link(name)
        row = {"name": name, "status": status}
        if rate_:
            row.update({"rate": rate_, "full-duplex": "true"})
        return [row]

    def values(self, menu, attrs, row):
        """Checked values of attrs, as the switch stores them."""
        checks = MENUS[menu][2]
        out = {}
        for name, value in attrs.items():
            if name == ".id":
                continue
            if name not in checks:
                raise Trap("unknown parameter " + name)
            for trap in self.sw.args.trap_on:
                where, _, setting = trap.rpartition(":")
                if setting == "%s=%s" % (name, value) and where in ("", row.get("name")):
                    raise Trap("failure: %s=%s is not supported on %s"
                               % (name, value, row.get("name", menu)))
            stored = checks[name](value, row)
            if stored is None:
                raise Trap("input does not match any value of " + name)
            out[name] = stored
        return out

    def set(self, menu, attrs):
        i, row = self.sw.find(menu, attrs.get(".id", ""))
        if row is None:
            raise Trap("no such item")
        new = dict(row, **self.values(menu, attrs, row))
        if menu == ETHERNET:
            # RouterOS clamps the MTU to the L2MTU, and says nothing
            new["mtu"] = str(min(int(new["mtu"]), int(new["l2mtu"])))
            self.sw.changed_at[row["name"]] = time.time()
        rows = self.sw.rows(menu)
        rows[i] = new
        self.remember(lambda: rows.__setitem__(rows.index(new), row))
        return None

    def add(self, menu, attrs):
        key, addable, _ = MENUS[menu]
        if not addable:
            raise Trap("add is not supported here")
        row = self.values(menu, attrs, {})
        if key not in row or self.sw.find(menu, row[key])[1] is not None:
            raise Trap("failure: item with such %s already exists" % key)
        row[".id"] = self.sw.new_id()
        rows = self.sw.rows(menu)
        rows.append(row)
        self.remember(lambda: rows.remove(row))
        return row[".id"]

    def remove(self, menu, attrs):
        if not MENUS[menu][1]:
            raise Trap("remove is not supported here")
        i, row = self.sw.find(menu, attrs.get(".id", ""))
        if row is None:
            raise Trap("no such item")
        rows = self.sw.rows(menu)
        del rows[i]
        self.remember(lambda: rows.insert(i, row))
        return None


def proplist(row, attrs):
    names = attrs.get(".proplist")
    if not names:
        return row
    return {n: row[n] for n in names.split(",") if n in row}


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        if self.server.tls:
            try:
                sock = self.server.tls.wrap_socket(sock, server_side=True)
            except (ssl.SSLError, OSError):
                return  # a client that refused our certificate
        Session(self.server.switch, sock).serve()


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    p = argparse.ArgumentParser(description="TEST DOUBLE: not RouterOS")
    p.add_argument("--state", required=True)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    p.add_argument("--user", default="admin")
    p.add_argument("--password-file", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--anon-dh", metavar="DHPARAMS")
    p.add_argument("--drop-after-sets", type=int)
    p.add_argument("--trap-on", action="append", default=[])
    p.add_argument("--link-down", action="append", default=[])
    p.add_argument("--link-delay", type=float, default=0)
    p.add_argument("--stall", action="store_true")
    args = p.parse_args()

    with open(args.password_file) as f:
        password = f.read().split("\n")[0]
    switch = Switch(args)
    switch.password = password

    tls = None
    if args.cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.cert, args.key)
    elif args.anon_dh:
        # what api-ssl offers without a certificate
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.maximum_version = ssl.TLSVersion.TLSv1_2
        tls.set_ciphers("aNULL:@SECLEVEL=0")
        tls.load_dh_params(args.anon_dh)

    server = Server(("127.0.0.1", args.port), Handler)
    server.switch = switch
    server.tls = tls
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % server.server_address[1])
        os.replace(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
