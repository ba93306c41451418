#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vm-switch - the Ethernet switches of scripts/vm-run's N-VM mode.

Usage: vm-switch.py READY SOCKET [SOCKET...]

Each SOCKET becomes a learning switch: a unix stream socket that QEMU's
"-netdev stream,server=off,addr.type=unix" connects to, frames carried as
QEMU carries them (a 4-byte big-endian length, then the frame). Once every
socket listens, READY is created. Nothing but these unix sockets: no path
off the machine.

Why not vde2's vde_switch: it cuts frames at 1518 bytes, and the VMs' links
run 9000-byte jumbo frames as the Sparks' do.

A frame goes to the port its destination MAC was learnt on, else to every
other port of its switch. While a port has QUEUE_MAX bytes queued for a VM
that is slow to read, its switch reads no more frames (lossless, as RoCE
fabrics are with pause frames: soft-RoCE recovers from a lost packet only
after a timeout), unless that port has not drained for STALL_S seconds (a
hung guest), whose frames are then dropped. Exits once every connection it
had is closed (the VMs powered off), or on SIGTERM.
"""
import os
import select
import socket
import struct
import sys
import time

QUEUE_MAX = 1 << 20
READ_MAX = 256 << 10
STALL_S = 2.0


class Port:
    def __init__(self, switch, conn):
        self.switch = switch
        self.conn = conn
        self.inbuf = bytearray()
        self.out = bytearray()
        self.drained = time.monotonic()

    def full(self):
        return len(self.out) >= QUEUE_MAX

    def stalled(self):
        return self.full() and time.monotonic() - self.drained > STALL_S


class Switch:
    def __init__(self, path):
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(16)
        self.listener.setblocking(False)
        self.ports = []
        self.macs = {}

    def paused(self):
        return any(p.full() and not p.stalled() for p in self.ports)

    def forward(self, src, frame):
        if len(frame) < 14:
            return
        # a group address (multicast, broadcast) is never learnt
        if not frame[6] & 1:
            self.macs[bytes(frame[6:12])] = src
        dst = self.macs.get(bytes(frame[0:6]))
        targets = [dst] if dst is not None else self.ports
        for p in targets:
            if p is not src and not p.stalled():
                p.out += struct.pack(">I", len(frame)) + frame
                flush(p)


def flush(port):
    try:
        sent = port.conn.send(port.out)
    except BlockingIOError:
        return
    except OSError:
        sent = len(port.out)
    if sent:
        port.drained = time.monotonic()
    del port.out[:sent]


def receive(port):
    """A port's frames forwarded; False once its VM hung up."""
    try:
        data = port.conn.recv(READ_MAX)
    except BlockingIOError:
        return True
    except OSError:
        data = b""
    if not data:
        return False
    buf = port.inbuf
    buf += data
    at = 0
    while len(buf) - at >= 4:
        (n,) = struct.unpack_from(">I", buf, at)
        if len(buf) - at - 4 < n:
            break
        port.switch.forward(port, buf[at + 4:at + 4 + n])
        at += 4 + n
    del buf[:at]
    return True


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: vm-switch.py READY SOCKET [SOCKET...]")
    switches = [Switch(path) for path in sys.argv[2:]]
    with open(sys.argv[1], "w", encoding="ascii"):
        pass
    poll = select.poll()
    fds = {}
    for sw in switches:
        poll.register(sw.listener, select.POLLIN)
        fds[sw.listener.fileno()] = sw
    had = 0
    while not had or any(sw.ports for sw in switches):
        paused = False
        for sw in switches:
            stop = sw.paused()
            paused = paused or stop
            for p in sw.ports:
                poll.modify(p.conn, (0 if stop else select.POLLIN) |
                            (select.POLLOUT if p.out else 0))
        for fd, ev in poll.poll(100 if paused else None):
            obj = fds.get(fd)
            if isinstance(obj, Switch):
                try:
                    conn, _ = obj.listener.accept()
                except BlockingIOError:
                    continue
                conn.setblocking(False)
                port = Port(obj, conn)
                obj.ports.append(port)
                fds[conn.fileno()] = port
                poll.register(conn, select.POLLIN)
                had += 1
                continue
            if obj is None:
                continue
            if ev & select.POLLOUT:
                flush(obj)
            if ev & (select.POLLIN | select.POLLHUP | select.POLLERR) and not receive(obj):
                sw = obj.switch
                sw.ports.remove(obj)
                sw.macs = {m: p for m, p in sw.macs.items() if p is not obj}
                poll.unregister(obj.conn)
                del fds[fd]
                obj.conn.close()
    for sw in switches:
        os.unlink(sw.listener.getsockname())


if __name__ == "__main__":
    main()
