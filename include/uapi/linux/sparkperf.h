/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * sparkperf: RDMA link measurement from the kernel.
 *
 * Documentation
 * =============
 *
 * The sparkperf kernel module is driven over the generic netlink family
 * SPARKPERF_GENL_NAME ("sparkperf"), version SPARKPERF_GENL_VERSION. This
 * header is the whole contract between the module and its userspace tool
 * (sparkperf-ctl). Command and attribute numbers are append-only: a value,
 * once released, is never renumbered or reused.
 *
 * Every request is strictly validated: unknown attributes, attributes of the
 * wrong type or length, a non-zero genlmsghdr.reserved and unknown flags are
 * all rejected with -EINVAL, numbers (and address lengths) outside the
 * documented ranges with -ERANGE, each with an extended ACK message
 * (NLMSGERR_ATTR_MSG) that names the problem; where an attribute is at fault
 * its offset comes back in NLMSGERR_ATTR_OFFS, and a missing required
 * attribute is named by NLMSGERR_ATTR_MISS_TYPE. Userspace should therefore
 * set NETLINK_EXT_ACK on its socket. (Before 6.5 the kernel sends no
 * extended ACK for the errors of a dump's start, such as a
 * SPARKPERF_CMD_LAT_SAMPLES without its id: only the errno.)
 *
 * Permissions: listing (SPARKPERF_CMD_INFO_GET, SPARKPERF_CMD_DEV_GET), one
 * read of a device's counters (SPARKPERF_CMD_COUNTERS_GET) and listening to
 * the "events" multicast group are unprivileged, like
 * "ibv_devinfo" or "rdma dev". Every command that creates, starts, stops or
 * allocates anything requires CAP_NET_ADMIN (GENL_ADMIN_PERM) and fails with
 * -EPERM otherwise.
 *
 * The module is loaded on demand: the first resolution of the family name
 * through the generic netlink controller loads sparkperf.ko
 * (MODULE_ALIAS_GENL_FAMILY), so "modprobe sparkperf" is optional.
 *
 * SPARKPERF_CMD_INFO_GET
 * ----------------------
 *
 * Request: no attributes, no flags.
 * Reply (one message, same command):
 *
 *    SPARKPERF_A_INFO_VERSION: NLA_NUL_STRING, the module version ("0.1.0")
 *    SPARKPERF_A_INFO_KERNEL: NLA_NUL_STRING, the running kernel release
 *    SPARKPERF_A_INFO_DEVICES: NLA_U32, RDMA devices currently registered
 *
 * SPARKPERF_CMD_DEV_GET
 * ---------------------
 *
 * Lists the RDMA devices the module sees (it is an ib_client of the RDMA
 * core) with their ports and, for RoCE ports, the Ethernet netdev and the
 * GID table.
 *
 * With NLM_F_DUMP: no attributes; one message per device, ordered by device
 * index. If the device list changes during a dump, the dump ends with
 * NLM_F_DUMP_INTR set on a message and should be restarted.
 *
 * Without NLM_F_DUMP (one device):
 *
 *    SPARKPERF_A_DEV_NAME: NLA_NUL_STRING, at most IB_DEVICE_NAME_MAX - 1
 *                          (63) bytes, required
 *
 * An unknown name fails with -ENODEV and the message "no RDMA device with
 * this name".
 *
 * As "rdma dev": when the RDMA core's netns mode is exclusive ("rdma system
 * set netns exclusive"), a device outside the caller's network namespace
 * (rdma_dev_access_netns()) is neither listed nor found by name (-ENODEV).
 *
 * Reply, one message per device, SPARKPERF_CMD_DEV_GET:
 *
 *    SPARKPERF_A_DEV_INDEX: NLA_U32, the RDMA core's device index
 *    SPARKPERF_A_DEV_NAME: NLA_NUL_STRING, e.g. "rocep1s0f0" or "rxe0"
 *    SPARKPERF_A_DEV_NODE_GUID: NLA_U64, host byte order
 *    SPARKPERF_A_DEV_NUMA_NODE: NLA_S32, NUMA node of the parent device,
 *                               -1 when unknown
 *    SPARKPERF_A_DEV_PARENT: NLA_NUL_STRING, the first PCI device above the
 *                            RDMA device (or above its port 1 netdev for
 *                            software devices such as rxe), e.g.
 *                            "0000:01:00.0"; absent when there is none
 *    SPARKPERF_A_DEV_PORTS: NLA_NESTED, one SPARKPERF_A_DEV_PORT per port
 *        SPARKPERF_A_DEV_PORT: NLA_NESTED
 *            SPARKPERF_A_PORT_NUM: NLA_U32, 1-based port number
 *            SPARKPERF_A_PORT_STATE: NLA_U8, enum sparkperf_port_state
 *            SPARKPERF_A_PORT_PHYS_STATE: NLA_U8, enum sparkperf_port_phys_state
 *            SPARKPERF_A_PORT_LINK_LAYER: NLA_U8, enum sparkperf_link_layer
 *            SPARKPERF_A_PORT_ACTIVE_MTU: NLA_U32, bytes (256 .. 4096)
 *            SPARKPERF_A_PORT_MAX_MTU: NLA_U32, bytes (256 .. 4096)
 *            SPARKPERF_A_PORT_ACTIVE_SPEED: NLA_U8, enum sparkperf_port_speed
 *            SPARKPERF_A_PORT_ACTIVE_WIDTH: NLA_U8, lanes (1, 2, 4, 8 or 12)
 *            SPARKPERF_A_PORT_RATE: NLA_U32, Mbit/s (10^6 bit/s), the
 *                                   nominal data rate: lane rate x lanes
 *            SPARKPERF_A_PORT_NETDEV_IFINDEX: NLA_U32 \
 *            SPARKPERF_A_PORT_NETDEV_NAME: NLA_NUL_STRING |  RoCE ports
 *            SPARKPERF_A_PORT_NETDEV_MTU: NLA_U32, bytes  |  with a netdev
 *            SPARKPERF_A_PORT_NETDEV_OPERSTATE: NLA_U8,   |  only
 *                                  RFC 2863 IF_OPER_* /
 *            SPARKPERF_A_PORT_GIDS: NLA_NESTED, valid GID table entries
 *                SPARKPERF_A_PORT_GID: NLA_NESTED
 *                    SPARKPERF_A_GID_INDEX: NLA_U32
 *                    SPARKPERF_A_GID_TYPE: NLA_U8, enum sparkperf_gid_type
 *                    SPARKPERF_A_GID_GID: NLA_BINARY, 16 bytes, network order
 *                                         (an IPv4 address appears mapped,
 *                                         ::ffff:a.b.c.d)
 *
 * "events" multicast group (SPARKPERF_MCGRP_EVENTS)
 * -------------------------------------------------
 *
 * Anyone may listen. Messages:
 *
 *    SPARKPERF_CMD_DEV_NEW: a device was added; the same attributes as a
 *                           SPARKPERF_CMD_DEV_GET reply
 *    SPARKPERF_CMD_DEV_CHANGE: a port of a device changed state, or its GID
 *                              table changed; the same attributes as a
 *                              SPARKPERF_CMD_DEV_GET reply, describing the
 *                              device after the change, plus
 *                              SPARKPERF_A_DEV_EVENT_PORT: NLA_U32, the port
 *    SPARKPERF_CMD_DEV_DEL: a device is going away; SPARKPERF_A_DEV_INDEX
 *                           and SPARKPERF_A_DEV_NAME only
 *
 * Sending SPARKPERF_CMD_DEV_NEW, _CHANGE or _DEL as a request fails with
 * -EOPNOTSUPP.
 *
 * Servers and latency sessions
 * ============================
 *
 * A server is a kernel rdma_cm listener that serves any sparkperf client:
 * the client pushes its whole test configuration in the connection's private
 * data and the server answers with what the client needs (its buffer address
 * and rkey). A latency session is the client side: a kernel thread that
 * connects to a server, runs the ping-pong and keeps the statistics. All of
 * these commands need CAP_NET_ADMIN.
 *
 * A session belongs to the netlink socket that started it and is destroyed
 * when that socket is closed (so a killed CLI releases it); a server is
 * detached and lives until SPARKPERF_CMD_SERVER_STOP or rmmod. Removing the
 * RDMA device under a server or session ends it: a session with state
 * SPARKPERF_LAT_STATE_FAILED and -ENODEV, a server with its listener gone.
 * At most SPARKPERF_SESSIONS_MAX sessions and SPARKPERF_SERVERS_MAX servers
 * exist at once (-ENOSPC beyond). A session's memory (two buffers of SIZE
 * bytes, a 16-byte slot per kept sample, two histograms) is allocated before
 * it connects.
 *
 * Addresses are NLA_BINARY of 4 (IPv4) or 16 (IPv6) bytes, network order;
 * any other length is refused with -ERANGE.
 *
 * SPARKPERF_CMD_SERVER_START
 * --------------------------
 *
 *    SPARKPERF_A_SERVER_ADDR: address to listen on, optional (any)
 *    SPARKPERF_A_SERVER_PORT: NLA_U16, optional, default
 *                             SPARKPERF_PORT_DEFAULT, range 1..65535
 *    SPARKPERF_A_SERVER_CONNS_MAX: NLA_U32, optional, connections served at
 *                             once, 1..SPARKPERF_SERVER_CONNS_MAX (the
 *                             default); a bandwidth run takes one per QP
 *    SPARKPERF_A_SERVER_BYTES_MAX: NLA_U64, optional, buffer memory pinned
 *                             for the connections at once (two buffers of
 *                             the client's SIZE each), 1 MiB..
 *                             SPARKPERF_SERVER_BYTES_MAX, default
 *                             SPARKPERF_SERVER_BYTES_DEFAULT
 *    SPARKPERF_A_SERVER_THREADS_MAX: NLA_U32, optional, kernel threads at
 *                             once (every connection but a latency READ
 *                             has one, which polls), 0..
 *                             SPARKPERF_SERVER_CONNS_MAX (the default)
 *    SPARKPERF_A_SERVER_ALLOW: NLA_NESTED, optional, the peers served: up
 *                             to SPARKPERF_SERVER_ALLOW_MAX
 *                             SPARKPERF_A_ALLOW_NET, each NLA_NESTED of
 *                             SPARKPERF_A_NET_ADDR (an address as above)
 *                             and SPARKPERF_A_NET_PREFIX (NLA_U8, at most
 *                             32 for IPv4, 128 for IPv6; bits after it
 *                             must be 0, -EINVAL otherwise); without it,
 *                             every peer
 *
 * Reply: one SPARKPERF_CMD_SERVER_GET message for the new server. -EADDRINUSE
 * if a server has the same address and port.
 *
 * A connection request beyond a budget, of the server or of the host (the
 * module parameters server_conns_max, server_bytes_max, server_threads_max,
 * over all servers), or from a peer outside the allow list, is rejected
 * with a reason that names the budget or the allow list: the client's
 * session fails with -ECONNREFUSED and "connection rejected by PEER:
 * REASON".
 *
 * SPARKPERF_CMD_SERVER_STOP
 * -------------------------
 *
 *    SPARKPERF_A_SERVER_ID: NLA_U32, optional; without it every server stops
 *
 * Connections being served are disconnected. -ENOENT for an unknown id.
 *
 * SPARKPERF_CMD_SERVER_GET
 * ------------------------
 *
 * NLM_F_DUMP, no attributes. One message per server:
 *
 *    SPARKPERF_A_SERVER_ID: NLA_U32
 *    SPARKPERF_A_SERVER_ADDR: as above (absent when listening on any)
 *    SPARKPERF_A_SERVER_PORT: NLA_U16
 *    SPARKPERF_A_SERVER_ACTIVE: NLA_U32, connections being served now
 *    SPARKPERF_A_SERVER_SERVED: NLA_U64, connections served since start
 *    SPARKPERF_A_SERVER_CONNS_MAX, SPARKPERF_A_SERVER_BYTES_MAX,
 *    SPARKPERF_A_SERVER_THREADS_MAX: the budgets, as above
 *    SPARKPERF_A_SERVER_BYTES: NLA_U64, buffer memory pinned now
 *    SPARKPERF_A_SERVER_THREADS: NLA_U32, threads now
 *    SPARKPERF_A_SERVER_REJECTED: NLA_U64, connection requests rejected
 *                             since start (budgets, allow list, bad hello)
 *    SPARKPERF_A_SERVER_ALLOW: as above, when given
 *
 * SPARKPERF_CMD_LAT_RUN
 * ---------------------
 *
 * Starts a latency session and answers at once; the connection and the run
 * proceed in the session's kernel thread (follow SPARKPERF_CMD_LAT_PROGRESS
 * on the "progress" group, or poll SPARKPERF_CMD_LAT_GET).
 *
 *    SPARKPERF_A_LAT_PEER: address of the server, required
 *    SPARKPERF_A_LAT_PORT: NLA_U16, default SPARKPERF_PORT_DEFAULT, 1..65535
 *    SPARKPERF_A_LAT_DEV: NLA_NUL_STRING, optional: the RDMA device the
 *                         route to the peer must use (-EXDEV otherwise)
 *    SPARKPERF_A_LAT_OP: NLA_U8, enum sparkperf_lat_op, default write
 *    SPARKPERF_A_LAT_SIZE: NLA_U32, bytes, 1..SPARKPERF_LAT_SIZE_MAX,
 *                          default 2
 *    SPARKPERF_A_LAT_ITERS: NLA_U64, measured iterations,
 *                           1..SPARKPERF_LAT_ITERS_MAX, default 1000
 *    SPARKPERF_A_LAT_DURATION_MS: NLA_U32, run for this long instead of a
 *                                 number of iterations,
 *                                 1..SPARKPERF_LAT_DURATION_MS_MAX
 *    SPARKPERF_A_LAT_WARMUP: NLA_U32, iterations run first and not measured,
 *                            0..SPARKPERF_LAT_WARMUP_MAX, default 100
 *    SPARKPERF_A_LAT_CPU: NLA_U32, CPU of the kernel thread; default a CPU
 *                         of the RDMA device's NUMA node
 *    SPARKPERF_A_LAT_SAMPLES_MAX: NLA_U32, raw samples kept (the last ones),
 *                                 0..SPARKPERF_LAT_SAMPLES_MAX, default
 *                                 SPARKPERF_LAT_SAMPLES_DEFAULT
 *    SPARKPERF_A_LAT_INTERVAL_MS: NLA_U32, length of one interval of the
 *                                 series, 10..60000, default 1000
 *    SPARKPERF_A_LAT_COMPLETION: NLA_U8, enum sparkperf_lat_completion,
 *        how a round trip ends: for write, SPARKPERF_LAT_COMPLETION_RECV
 *        (the default) or SPARKPERF_LAT_COMPLETION_LAST_BYTE; send ends
 *        only with RECV and read only with READ (-EINVAL otherwise)
 *
 * Write round trips are RDMA WRITEs with immediate by default, each ending
 * on the receive completion its immediate raises at the other side: a NIC
 * places the data before that completion whatever the PCIe ordering of the
 * data itself. Polling the last byte (perftest's ib_write_lat) is right
 * only where the payload's writes land in order: ConnectX (mlx5) turns on
 * relaxed ordering for the kernel's memory keys, so the last byte can land
 * before the rest and the round trip ends early, by more the larger SIZE.
 *
 * Reply: SPARKPERF_CMD_LAT_RUN with SPARKPERF_A_LAT_ID: NLA_U32.
 *
 * SPARKPERF_CMD_LAT_STOP
 * ----------------------
 *
 *    SPARKPERF_A_LAT_ID: NLA_U32, required
 *
 * Stops a session; what was measured stays readable. -ENOENT for an unknown
 * id.
 *
 * SPARKPERF_CMD_LAT_GET
 * ---------------------
 *
 * With SPARKPERF_A_LAT_ID: that session; with NLM_F_DUMP: every session.
 * Reply, one message per session:
 *
 *    SPARKPERF_A_LAT_ID, _PEER, _PORT, _OP, _SIZE, _ITERS or _DURATION_MS,
 *        _WARMUP, _SAMPLES_MAX, _INTERVAL_MS, _COMPLETION: the
 *        configuration (COMPLETION always present: how the round trips
 *        ended)
 *    SPARKPERF_A_LAT_DEV: NLA_NUL_STRING, the RDMA device used (once known)
 *    SPARKPERF_A_LAT_CPU: NLA_U32, the CPU the thread ran on
 *    SPARKPERF_A_LAT_STATE: NLA_U8, enum sparkperf_lat_state
 *    SPARKPERF_A_LAT_ERROR: NLA_S32, negative errno of a failed session
 *    SPARKPERF_A_LAT_ERROR_MSG: NLA_NUL_STRING, what failed, in words
 *    SPARKPERF_A_LAT_WARMUP_DONE: NLA_U64, warm-up iterations run
 *    SPARKPERF_A_LAT_COUNT: NLA_U64, measured round trips
 *    SPARKPERF_A_LAT_ELAPSED_NS: NLA_U64, from the first to the last
 *                                measured round trip
 *    SPARKPERF_A_LAT_YIELDS: NLA_U64, times the thread lost the CPU
 *                            between round trips
 *    SPARKPERF_A_LAT_RT_YIELDS: NLA_U64, measured round trips during which
 *                               the thread lost the CPU: it gives it to any
 *                               task runnable on it (a software RDMA
 *                               device such as rxe needs it to finish the
 *                               round trip; on PREEMPT_RT the thread is
 *                               preemptible); their times include the time
 *                               away. 0 on a CPU kept free for the thread
 *    SPARKPERF_A_LAT_CLOCK_RES_NS: NLA_U32, resolution of the clock
 *                                  (CLOCK_MONOTONIC, ktime_get_ns()): the
 *                                  smallest step between two readings
 *                                  the thread saw
 *    SPARKPERF_A_LAT_MIN_NS, _MAX_NS: NLA_U64, true extremes of the round
 *                                     trip time
 *    SPARKPERF_A_LAT_SUM_NS: NLA_U64, sum of the round trip times
 *    SPARKPERF_A_LAT_SUMSQ_HI, _SUMSQ_LO: NLA_U64, the 128-bit sum of their
 *                                         squares (ns^2), for an exact stdev
 *    SPARKPERF_A_LAT_P50_NS, _P90_NS, _P99_NS, _P999_NS, _P9999_NS,
 *        _P99999_NS: NLA_U64, round-trip percentiles from the histogram
 *        (the middle of the bucket, within half a bucket: < 0.4%)
 *    SPARKPERF_A_LAT_INTERVALS: NLA_NESTED, one entry per completed interval,
 *        oldest first, the last SPARKPERF_LAT_INTERVALS_MAX of them (the
 *        progress group has every one); the interval still open when the
 *        run ends is closed then, shorter. Left out of NLM_F_DUMP replies.
 *        SPARKPERF_A_LAT_INTERVALS_ENTRY: NLA_NESTED
 *            SPARKPERF_A_INTERVAL_END_NS: NLA_U64, since the first measured
 *                                         round trip
 *            SPARKPERF_A_INTERVAL_COUNT: NLA_U64
 *            SPARKPERF_A_INTERVAL_P50_NS, _P99_NS, _MAX_NS: NLA_U64
 *
 * Times are round trips; one-way latency is half of them.
 *
 * SPARKPERF_CMD_LAT_SAMPLES
 * -------------------------
 *
 * NLM_F_DUMP with SPARKPERF_A_LAT_ID (required): the kept raw samples,
 * oldest first, in messages of
 *
 *    SPARKPERF_A_LAT_ID: NLA_U32
 *    SPARKPERF_A_SAMPLES_FIRST: NLA_U64, measured-iteration number of the
 *                               first sample in this message (0-based)
 *    SPARKPERF_A_SAMPLES_DATA: NLA_BINARY, __u64 pairs in host order:
 *                              start of the round trip (ns since the first
 *                              measured one), round trip time (ns)
 *
 * "progress" multicast group (SPARKPERF_MCGRP_PROGRESS)
 * -----------------------------------------------------
 *
 * CAP_NET_ADMIN to join. SPARKPERF_CMD_LAT_PROGRESS messages, one at each
 * state change and at the end of every interval:
 *
 *    SPARKPERF_A_LAT_ID, _STATE, _COUNT, _WARMUP_DONE, and, at the end of an
 *    interval, SPARKPERF_A_LAT_INTERVAL: NLA_NESTED, that interval's
 *    SPARKPERF_A_INTERVAL_* attributes
 *
 * Bandwidth sessions
 * ==================
 *
 * A bandwidth session is the client side of a throughput test against a
 * sparkperf server: SPARKPERF_A_BW_QPS reliable connections (one rdma_cm
 * connection and RC queue pair each) to the same server, driven by
 * SPARKPERF_A_BW_THREADS kernel threads (QP i belongs to thread
 * i % threads), each keeping up to SPARKPERF_A_BW_DEPTH work requests
 * posted per QP and asking for a completion every SPARKPERF_A_BW_SIGNAL of
 * them, and at least one per 256 KiB sent. Sessions live, belong to their
 * socket, end on device removal and count against SPARKPERF_SESSIONS_MAX
 * exactly as latency sessions do; their state is an enum
 * sparkperf_lat_state. Several sessions (one per RDMA
 * device, for the two halves of a Spark port) run side by side; give them
 * the same SPARKPERF_A_BW_START_AT_NS to start them together.
 *
 * Directions. The client sends: RDMA WRITEs into the server's buffer,
 * SENDs into its receives, or RDMA READs of its buffer. With
 * SPARKPERF_A_BW_BIDIR the server also sends to the client with the same
 * operation for as long as the client sends (write and send only: a READ
 * issued by the server is invisible to the client). Bytes and messages
 * are payload, counted when the sender's completion (or the receiver's
 * receive completion) arrives; IB and RoCE headers are not included. A
 * completion retires the messages before it, so that at least one per
 * 256 KiB keeps them in the interval they completed in: with large
 * messages, each has its own.
 *
 * A run of SPARKPERF_A_BW_DURATION_MS is a window, as perftest's -D: what
 * completes after it is neither counted nor waited for. At its end the
 * client moves its QPs to the error state, which flushes the work requests
 * still in flight (up to DEPTH x SIZE bytes per QP); with
 * SPARKPERF_A_BW_VALIDATE it first waits up to 1 s for them and for the
 * server's count. The run returns about when its window ends.
 *
 * Validation (SPARKPERF_A_BW_VALIDATE): every sender's buffer holds a fixed
 * pattern that depends on the byte's offset; every receiver checks each
 * message against it (for the write op the client then uses RDMA WRITE
 * with immediate, so that the server sees each message). Each message in
 * flight lands in a slot of its own, so that none is overwritten before it
 * is checked: 3 x DEPTH + 1 slots of SIZE (rounded up to 64 bytes) at a
 * receiver of writes or sends, DEPTH at a client that reads. Messages
 * that do not match are counted in SPARKPERF_A_BW_VALIDATE_ERRORS (the
 * server reports its count to the client at the end), never ignored.
 *
 * Memory: each QP of the client has a buffer it sends from and one it
 * receives into, of SIZE bytes each, or with validation of the slots above
 * (and 64 bytes more to send from), allocated before the session
 * connects; a session whose buffers would exceed SPARKPERF_BW_MEM_MAX
 * bytes over all QPs is refused with -E2BIG. A server's budget is charged
 * the same for its side of each connection.
 *
 * SPARKPERF_CMD_BW_RUN
 * --------------------
 *
 * Starts a bandwidth session and answers at once; follow it with
 * SPARKPERF_CMD_BW_PROGRESS on the "progress" group or poll
 * SPARKPERF_CMD_BW_GET.
 *
 *    SPARKPERF_A_BW_PEER: address of the server, required
 *    SPARKPERF_A_BW_PORT: NLA_U16, default SPARKPERF_PORT_DEFAULT, 1..65535
 *    SPARKPERF_A_BW_DEV: NLA_NUL_STRING, optional: the RDMA device the
 *                        route to the peer must use (-EXDEV otherwise)
 *    SPARKPERF_A_BW_OP: NLA_U8, enum sparkperf_lat_op, default write
 *    SPARKPERF_A_BW_SIZE: NLA_U32, bytes per message,
 *                         1..SPARKPERF_BW_SIZE_MAX, default
 *                         SPARKPERF_BW_SIZE_DEFAULT (65536)
 *    SPARKPERF_A_BW_QPS: NLA_U32, 1..SPARKPERF_BW_QPS_MAX, default 1
 *    SPARKPERF_A_BW_THREADS: NLA_U32, 1..SPARKPERF_BW_THREADS_MAX and at
 *                            most QPS (-EINVAL otherwise), default 1
 *    SPARKPERF_A_BW_DEPTH: NLA_U32, work requests in flight per QP,
 *                          1..SPARKPERF_BW_DEPTH_MAX, default
 *                          SPARKPERF_BW_DEPTH_DEFAULT (128); more
 *                          than the device allows fails the session
 *    SPARKPERF_A_BW_SIGNAL: NLA_U32, a completion every this many work
 *                           requests at most, 1..DEPTH (-EINVAL above
 *                           DEPTH), default min(SPARKPERF_BW_SIGNAL_DEFAULT
 *                           (16), DEPTH); the run asks for one at least
 *                           every SPARKPERF_BW_SIGNAL_BYTES (256 KiB),
 *                           every message above that size
 *    SPARKPERF_A_BW_ITERS: NLA_U64, messages per QP,
 *                          1..SPARKPERF_BW_ITERS_MAX, default
 *                          SPARKPERF_BW_ITERS_DEFAULT (5000)
 *    SPARKPERF_A_BW_DURATION_MS: NLA_U32, measure for this long instead
 *                                (a window, see above),
 *                                1..SPARKPERF_LAT_DURATION_MS_MAX; ITERS
 *                                and DURATION_MS exclude each other
 *    SPARKPERF_A_BW_BIDIR: NLA_FLAG, both directions (write, send)
 *    SPARKPERF_A_BW_VALIDATE: NLA_FLAG, check the data at the receivers
 *    SPARKPERF_A_BW_INTERVAL_MS: NLA_U32, length of one interval of the
 *                                series, SPARKPERF_LAT_INTERVAL_MS_MIN..
 *                                SPARKPERF_LAT_INTERVAL_MS_MAX, default
 *                                SPARKPERF_BW_INTERVAL_MS_DEFAULT (100)
 *    SPARKPERF_A_BW_START_AT_NS: NLA_U64, CLOCK_MONOTONIC time (ns) at
 *                                which to start sending once connected
 *                                (at once if already past); at most
 *                                SPARKPERF_BW_START_AHEAD_MS ahead (-ERANGE)
 *
 * Reply: SPARKPERF_CMD_BW_RUN with SPARKPERF_A_BW_ID: NLA_U32.
 *
 * SPARKPERF_CMD_BW_STOP
 * ---------------------
 *
 *    SPARKPERF_A_BW_ID: NLA_U32, required
 *
 * Stops a session after the work requests in flight complete; what was
 * measured stays readable. -ENOENT for an unknown id (or a latency
 * session's id).
 *
 * SPARKPERF_CMD_BW_GET
 * --------------------
 *
 * With SPARKPERF_A_BW_ID: that session; with NLM_F_DUMP: every bandwidth
 * session. Reply, one message per session:
 *
 *    SPARKPERF_A_BW_ID, _PEER, _PORT, _OP, _SIZE, _QPS, _THREADS, _DEPTH,
 *        _SIGNAL, _ITERS or _DURATION_MS, _BIDIR, _VALIDATE, _INTERVAL_MS:
 *        the configuration
 *    SPARKPERF_A_BW_DEV: NLA_NUL_STRING, the RDMA device used (once known)
 *    SPARKPERF_A_BW_STATE: NLA_U8, enum sparkperf_lat_state
 *    SPARKPERF_A_BW_ERROR: NLA_S32, negative errno of a failed session
 *    SPARKPERF_A_BW_ERROR_MSG: NLA_NUL_STRING, what failed, in words; for a
 *                              completion error its status (name and
 *                              number), the operation and the vendor
 *                              error
 *    SPARKPERF_A_BW_START_NS: NLA_U64, CLOCK_MONOTONIC time the first
 *                             work request was posted
 *    SPARKPERF_A_BW_ELAPSED_NS: NLA_U64, from then to the last data
 *                               completion; DURATION_MS exactly for a
 *                               duration run that reached its end
 *    SPARKPERF_A_BW_TX_BYTES, _TX_MSGS: NLA_U64, what the client sent
 *    SPARKPERF_A_BW_RX_BYTES, _RX_MSGS: NLA_U64, what the client received
 *                                       (bidirectional runs)
 *    SPARKPERF_A_BW_VALIDATE_ERRORS: NLA_U64, messages that failed the
 *                                    check, client and server together;
 *                                    absent with VALIDATE when a QP was
 *                                    flushed before the server's count
 *                                    came (the end of a window)
 *    SPARKPERF_A_BW_CPU_NS: NLA_U64, CPU time the session's sending
 *                           threads used while measuring
 *    SPARKPERF_A_BW_INTERVALS: NLA_NESTED, one entry per completed
 *        interval, oldest first, the last SPARKPERF_LAT_INTERVALS_MAX of
 *        them. An interval ends when its counters were read, about every
 *        INTERVAL_MS (a late read makes a longer interval, never an empty
 *        one to catch up); the last ends with the measurement, at
 *        ELAPSED_NS, and takes in reads made after that. Left out of
 *        NLM_F_DUMP replies.
 *        SPARKPERF_A_LAT_INTERVALS_ENTRY: NLA_NESTED
 *            SPARKPERF_A_INTERVAL_END_NS: NLA_U64, since START_NS
 *            SPARKPERF_A_INTERVAL_COUNT: NLA_U64, messages (both ways)
 *            SPARKPERF_A_INTERVAL_BYTES: NLA_U64, bytes (both ways)
 *
 * Rates: bit/s = 8 x (TX_BYTES + RX_BYTES) x 1e9 / ELAPSED_NS.
 *
 * SPARKPERF_CMD_BW_PROGRESS, on the "progress" group: at each state change
 * and at the end of every interval, SPARKPERF_A_BW_ID, _STATE, _TX_BYTES,
 * _RX_BYTES and, at the end of an interval, SPARKPERF_A_BW_INTERVAL:
 * NLA_NESTED, that interval's SPARKPERF_A_INTERVAL_* attributes.
 *
 * Counters and traces
 * ===================
 *
 * The module reads three sources of counters, whose costs differ by about
 * 1000x:
 *
 *    SPARKPERF_SRC_NETDEV: dev_get_stats() of a netdev, the struct
 *        rtnl_link_stats64 fields under their own names ("rx_bytes",
 *        "tx_packets", ...); cheap, never sleeps. NOTE: on NICs that offload
 *        RDMA (mlx5) RDMA traffic is not in these counters; with soft-RoCE
 *        (rxe) it is, because rxe sends through the netdev.
 *    SPARKPERF_SRC_ETHTOOL: the netdev's "ethtool -S" statistics
 *        (get_sset_count / get_strings / get_ethtool_stats, called under
 *        rtnl_lock as the ethtool core calls them); on mlx5 dozens of
 *        firmware commands per read. "tx_bytes_phy" / "rx_bytes_phy" there
 *        are all bytes on the physical port, RoCE included.
 *    SPARKPERF_SRC_RDMA: the RDMA port's hardware counters, what
 *        "rdma statistic" and .../ports/N/hw_counters show, read through a
 *        private rdma_hw_stats (alloc_hw_port_stats / get_hw_stats), so that
 *        counts of QPs bound to non-default rdma counters are not included.
 *
 * A target is a netdev (sources netdev and ethtool) or an RDMA device port
 * (source rdma). A stream is one source of one target: its counter names
 * (the name table) and, per sample, one __u64 value per name, in table
 * order. Values are the raw cumulative counters, never reset or differenced
 * by the module; rates are the reader's business (a counter may wrap at
 * 2^32 or 2^64 or be reset by its driver).
 *
 * Counter names are selected by globs (glob_match(): "*", "?", "[a-z]",
 * "[!a-z]"), each optionally prefixed by its source: "netdev:tx_bytes",
 * "ethtool:*_bytes_phy", "rdma:*", "*prio*pause*" (any source). A glob is
 * 1..SPARKPERF_GLOB_MAX - 1 bytes of [A-Za-z0-9_.*?![]-] after the prefix,
 * with every "[" closed (-EINVAL otherwise, the glob named in the message).
 * A stream keeps the names matched by at least one glob that applies to its
 * source; streams with no name are left out. Without globs every name of
 * every source is selected.
 *
 * The ethtool name table can change while a trace runs (enabling PFC on a
 * priority inserts mlx5's "rx_prioN_pause..." names). The module re-reads
 * the names with an ethtool sample when the driver's count of them has
 * changed, and at least once a second; when they change it selects again,
 * increments the stream's SPARKPERF_A_STREAM_VERSION, multicasts
 * SPARKPERF_CMD_TRACE_TABLE and tags every later sample with the new
 * version. If a new table selects more names than the stream's slots hold
 * (SPARKPERF_A_STREAM_SLOT_VALUES), the first ones are kept and
 * SPARKPERF_A_STREAM_TRUNCATED is set.
 *
 * Permissions: SPARKPERF_CMD_COUNTERS_GET is unprivileged, as "ethtool -S"
 * and the sysfs counters are. Every trace command and the "trace" group
 * need CAP_NET_ADMIN.
 *
 * SPARKPERF_CMD_COUNTERS_GET
 * --------------------------
 *
 * One read of every counter of one target, now.
 *
 *    SPARKPERF_A_TRACE_TARGET: NLA_NESTED, required, one target:
 *        SPARKPERF_A_TARGET_NETDEV: NLA_NUL_STRING, at most IFNAMSIZ - 1
 *        or SPARKPERF_A_TARGET_RDMA_DEV: NLA_NUL_STRING, at most
 *            SPARKPERF_DEV_NAME_MAX - 1, with
 *            SPARKPERF_A_TARGET_RDMA_PORT: NLA_U32, 1..255, default 1
 *        (exactly one of NETDEV and RDMA_DEV: -EINVAL otherwise)
 *    SPARKPERF_A_TRACE_GLOBS: optional, as for SPARKPERF_CMD_TRACE_START
 *
 * -ENODEV for an unknown netdev or RDMA device, one outside the caller's
 * network namespace in exclusive netns mode (as for SPARKPERF_CMD_DEV_GET),
 * or a netdev that is not present (detached: suspended, being removed or
 * reset; as "ethtool -S" refuses it), -EINVAL for a port the device does not
 * have. Reply: one SPARKPERF_CMD_COUNTERS_GET message per stream that has
 * counters (a netdev without ethtool statistics has only its netdev stream;
 * an RDMA port without hardware counters none, then -EOPNOTSUPP), each with
 * SPARKPERF_A_TRACE_STREAM: NLA_NESTED, the stream (SPARKPERF_A_STREAM_*
 * below) including SPARKPERF_A_STREAM_NAMES, SPARKPERF_A_STREAM_VALUES,
 * SPARKPERF_A_STREAM_TS_NS: NLA_U64, CLOCK_MONOTONIC when the read started,
 * and SPARKPERF_A_STREAM_READ_NS: NLA_U32, how long the read took, in ns.
 *
 * SPARKPERF_CMD_TRACE_START
 * -------------------------
 *
 * Starts a trace: a kernel thread that samples every stream of its targets
 * on absolute hrtimer deadlines (CLOCK_MONOTONIC, the clock of the latency
 * and bandwidth timestamps), each source at its own period, into a ring of
 * fixed-size slots allocated here, before the first sample. The netdev
 * source is read from the thread directly, the ethtool and rdma sources
 * from the same thread (process context; they may sleep). Deadlines stay on
 * the grid START_NS + k x PERIOD: each due deadline gets one read, however
 * late it starts (the worst lateness is kept), and grid points that pass
 * entirely before that read starts get none: they are counted as missed.
 * With a duration the grid ends there: its points are those before
 * START_NS + DURATION_MS, and the ones left unread when it ends (the
 * thread was late) are missed too.
 *
 * When a trace ends by SPARKPERF_CMD_TRACE_STOP or by its duration, each
 * stream takes one closing read at that moment, outside the grid: it is a
 * sample like any other (timestamped, in the ring, in the last batch
 * before SPARKPERF_CMD_TRACE_END, counted in SPARKPERF_A_STREAM_SAMPLES
 * and the read times) but serves no deadline, so it is neither late nor
 * missed. Counter deltas over the trace thus reach its end, not its last
 * grid point, up to a period earlier. A read that starts at or after the
 * end of the duration is the stream's closing read. A trace that fails
 * (device removed, read failed) or is destroyed takes none.
 *
 *    SPARKPERF_A_TRACE_TARGETS: NLA_NESTED, required, 1..
 *        SPARKPERF_TRACE_TARGETS_MAX entries
 *        SPARKPERF_A_TRACE_TARGET: NLA_NESTED, as for COUNTERS_GET
 *    SPARKPERF_A_TRACE_GLOBS: NLA_NESTED, optional, 1..
 *        SPARKPERF_TRACE_GLOBS_MAX entries
 *        SPARKPERF_A_TRACE_GLOB: NLA_NUL_STRING, [SOURCE:]PATTERN
 *    SPARKPERF_A_TRACE_NETDEV_PERIOD_US: NLA_U32,
 *        SPARKPERF_TRACE_NETDEV_PERIOD_US_MIN..SPARKPERF_TRACE_PERIOD_US_MAX,
 *        default SPARKPERF_TRACE_NETDEV_PERIOD_US_DEFAULT
 *    SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US: NLA_U32,
 *        SPARKPERF_TRACE_SLOW_PERIOD_US_MIN..SPARKPERF_TRACE_PERIOD_US_MAX,
 *        default SPARKPERF_TRACE_SLOW_PERIOD_US_DEFAULT
 *    SPARKPERF_A_TRACE_RDMA_PERIOD_US: NLA_U32, as for ethtool
 *    SPARKPERF_A_TRACE_DURATION_MS: NLA_U32, 1..SPARKPERF_TRACE_DURATION_MS_MAX,
 *        optional: without it the trace runs until stopped
 *    SPARKPERF_A_TRACE_BUFFER_BYTES: NLA_U32, size of the ring,
 *        SPARKPERF_TRACE_BUFFER_MIN..SPARKPERF_TRACE_BUFFER_MAX, default
 *        SPARKPERF_TRACE_BUFFER_DEFAULT
 *    SPARKPERF_A_TRACE_BATCH_MS: NLA_U32, how often samples are multicast,
 *        1..1000, default SPARKPERF_TRACE_BATCH_MS_DEFAULT
 *
 * Errors: -ENODEV (and the target named) for an unknown device; -ENOENT
 * when the globs select no counter at all; -E2BIG when a stream selects
 * more than SPARKPERF_TRACE_COUNTERS_MAX names, the ring would hold fewer
 * than 64 slots, or the name tables (at SPARKPERF_A_STREAM_SLOT_VALUES names
 * each) would not fit one SPARKPERF_A_TRACE_STREAMS attribute (64 KiB);
 * -ENOSPC beyond SPARKPERF_TRACES_MAX traces.
 *
 * A trace belongs to the netlink socket that started it and is destroyed
 * when that socket closes; until then an ended trace stays readable.
 * A traced netdev that is not present (see SPARKPERF_CMD_COUNTERS_GET) is
 * not read: its grid points are missed until it is back; at TRACE_START
 * it is -ENODEV. Removing a traced netdev or RDMA device ends the trace:
 * state SPARKPERF_TRACE_STATE_FAILED, SPARKPERF_A_TRACE_ERROR -ENODEV and a
 * message naming the device; rmmod destroys every trace.
 *
 * Reply: SPARKPERF_CMD_TRACE_START, the same attributes as a
 * SPARKPERF_CMD_TRACE_GET reply (so the name tables come with it).
 *
 * SPARKPERF_CMD_TRACE_STOP
 * ------------------------
 *
 *    SPARKPERF_A_TRACE_ID: NLA_U32, required
 *
 * Ends sampling (state SPARKPERF_TRACE_STATE_STOPPED) with the closing
 * reads (see SPARKPERF_CMD_TRACE_START) and answers once they are in the
 * ring; the ring stays readable. -ENOENT for an unknown id.
 *
 * SPARKPERF_CMD_TRACE_GET
 * -----------------------
 *
 * With SPARKPERF_A_TRACE_ID: that trace; with NLM_F_DUMP: every trace.
 * Reply, one message per trace:
 *
 *    SPARKPERF_A_TRACE_ID: NLA_U32
 *    SPARKPERF_A_TRACE_STATE: NLA_U8, enum sparkperf_trace_state
 *    SPARKPERF_A_TRACE_ERROR: NLA_S32, negative errno of a failed trace
 *    SPARKPERF_A_TRACE_ERROR_MSG: NLA_NUL_STRING, why it ended, in words
 *    SPARKPERF_A_TRACE_START_NS: NLA_U64, CLOCK_MONOTONIC, the grid's origin
 *    SPARKPERF_A_TRACE_ELAPSED_NS: NLA_U64, from START_NS to the last sample
 *        (the closing reads, when the trace has them: at least DURATION_MS)
 *    SPARKPERF_A_TRACE_DURATION_MS, _BUFFER_BYTES, _BATCH_MS: the
 *        configuration
 *    SPARKPERF_A_TRACE_CPU_NS: NLA_U64, CPU time the trace has used: its
 *        sampler thread (reads and bookkeeping) and the work that builds
 *        and multicasts its batches
 *    SPARKPERF_A_TRACE_SLOTS: NLA_U32, samples the ring holds
 *    SPARKPERF_A_TRACE_SEQ_NEXT: NLA_U64, sequence number the next sample
 *        will get (samples are numbered from 0 across all streams)
 *    SPARKPERF_A_TRACE_SEQ_OLDEST: NLA_U64, oldest sample still in the ring
 *    SPARKPERF_A_TRACE_STREAMS: NLA_NESTED
 *        SPARKPERF_A_TRACE_STREAM: NLA_NESTED, one per stream
 *            SPARKPERF_A_STREAM_INDEX: NLA_U32, 0-based, within the trace
 *            SPARKPERF_A_STREAM_SOURCE: NLA_U8, enum sparkperf_counter_source
 *            SPARKPERF_A_STREAM_TARGET: NLA_NUL_STRING, netdev or RDMA
 *                                       device name
 *            SPARKPERF_A_STREAM_IFINDEX: NLA_U32, netdev streams
 *            SPARKPERF_A_STREAM_PORT: NLA_U32, rdma streams
 *            SPARKPERF_A_STREAM_PERIOD_US: NLA_U32
 *            SPARKPERF_A_STREAM_VERSION: NLA_U32, name table version, from 1
 *            SPARKPERF_A_STREAM_SLOT_VALUES: NLA_U32, values a slot holds
 *            SPARKPERF_A_STREAM_TRUNCATED: NLA_FLAG, see above
 *            SPARKPERF_A_STREAM_NAMES: NLA_NESTED, the selected names in
 *                value order, each SPARKPERF_A_STREAM_NAME: NLA_NUL_STRING
 *                (ETH_GSTRING_LEN at most)
 *            SPARKPERF_A_STREAM_SAMPLES: NLA_U64, samples taken, the
 *                closing read included: in a trace that ran its duration,
 *                SAMPLES + MISSED = the stream's grid points + 1
 *            SPARKPERF_A_STREAM_MISSED: NLA_U64, grid points missed
 *            SPARKPERF_A_STREAM_READ_NS_SUM, _READ_NS_MAX: NLA_U64, time
 *                spent in the reads (for the mean and the worst)
 *            SPARKPERF_A_STREAM_LATE_NS_MAX: NLA_U64, worst lateness of a
 *                read's start after its deadline (misses excluded)
 *
 * SPARKPERF_CMD_TRACE_SAMPLES
 * ---------------------------
 *
 * NLM_F_DUMP with SPARKPERF_A_TRACE_ID (required) and
 * SPARKPERF_A_TRACE_CURSOR: NLA_U64, optional, the first sequence number
 * wanted (default the oldest kept): the samples from there on, oldest
 * first, in messages of
 *
 *    SPARKPERF_A_TRACE_ID: NLA_U32
 *    SPARKPERF_A_TRACE_LOST: NLA_U64, samples from the cursor on that the
 *                            ring no longer holds (present when non-zero)
 *    SPARKPERF_A_TRACE_SAMPLES: NLA_NESTED
 *        SPARKPERF_A_TRACE_SAMPLE: NLA_NESTED, one per sample
 *            SPARKPERF_A_SAMPLE_SEQ: NLA_U64
 *            SPARKPERF_A_SAMPLE_STREAM: NLA_U32, the stream's index
 *            SPARKPERF_A_SAMPLE_VERSION: NLA_U32, its name table version
 *            SPARKPERF_A_SAMPLE_TS_NS: NLA_U64, CLOCK_MONOTONIC when the
 *                                      read started
 *            SPARKPERF_A_SAMPLE_READ_NS: NLA_U32, how long the read took
 *            SPARKPERF_A_SAMPLE_VALUES: NLA_BINARY, __u64 per name, host
 *                                       order
 *
 * "trace" multicast group (SPARKPERF_MCGRP_TRACE)
 * -----------------------------------------------
 *
 * CAP_NET_ADMIN to join. Messages, each with SPARKPERF_A_TRACE_ID:
 *
 *    SPARKPERF_CMD_TRACE_SAMPLES: every SPARKPERF_A_TRACE_BATCH_MS, the
 *        samples taken since the last batch, as in the dump (a listener
 *        that lost messages to ENOBUFS catches up with the dump from the
 *        sequence number it has)
 *    SPARKPERF_CMD_TRACE_TABLE: a stream's name table changed:
 *        SPARKPERF_A_TRACE_STREAMS with that one stream, its new version
 *        and names
 *    SPARKPERF_CMD_TRACE_END: the trace ended (duration reached, stopped,
 *        device removed): the SPARKPERF_CMD_TRACE_GET attributes, after the
 *        last batch
 *
 * Sending SPARKPERF_CMD_TRACE_TABLE or _END as a request fails with
 * -EOPNOTSUPP.
 *
 * Histogram
 * ---------
 *
 * Round trip times go into a log-linear histogram of SPARKPERF_HIST_BUCKETS
 * buckets: values below 2^SPARKPERF_HIST_SUB_BITS ns exactly, above that
 * 2^(SPARKPERF_HIST_SUB_BITS - 1) buckets per power of two (relative bucket
 * width at most 1/128); the last bucket, from 2^40 - 2^32 ns, also takes
 * every larger value. See kmod/hist.c.
 */

#ifndef _UAPI_LINUX_SPARKPERF_H
#define _UAPI_LINUX_SPARKPERF_H

#define SPARKPERF_GENL_NAME "sparkperf"
#define SPARKPERF_GENL_VERSION 1
#define SPARKPERF_MCGRP_EVENTS "events"
#define SPARKPERF_MCGRP_PROGRESS "progress"
#define SPARKPERF_MCGRP_TRACE "trace"

#define SPARKPERF_PORT_DEFAULT 18520
#define SPARKPERF_SERVERS_MAX 16
#define SPARKPERF_SERVER_CONNS_MAX 256
#define SPARKPERF_SERVER_BYTES_DEFAULT (1ULL << 30)
#define SPARKPERF_SERVER_BYTES_MAX (64ULL << 30)
#define SPARKPERF_SERVER_ALLOW_MAX 16
#define SPARKPERF_SESSIONS_MAX 64
#define SPARKPERF_LAT_SIZE_MAX (8 << 20)
#define SPARKPERF_LAT_ITERS_MAX 1000000000ULL
#define SPARKPERF_LAT_DURATION_MS_MAX 3600000
#define SPARKPERF_LAT_WARMUP_MAX 1000000
#define SPARKPERF_LAT_SAMPLES_DEFAULT 100000
#define SPARKPERF_LAT_SAMPLES_MAX (4 << 20)
#define SPARKPERF_LAT_INTERVAL_MS_MIN 10
#define SPARKPERF_LAT_INTERVAL_MS_MAX 60000
#define SPARKPERF_LAT_INTERVALS_MAX 1000
#define SPARKPERF_BW_SIZE_MAX (8 << 20)
#define SPARKPERF_BW_QPS_MAX 64
#define SPARKPERF_BW_THREADS_MAX 16
#define SPARKPERF_BW_DEPTH_MAX 1024
#define SPARKPERF_BW_ITERS_MAX 1000000000000ULL
#define SPARKPERF_BW_MEM_MAX (512 << 20)
#define SPARKPERF_BW_START_AHEAD_MS 60000
#define SPARKPERF_BW_SIZE_DEFAULT 65536
#define SPARKPERF_BW_DEPTH_DEFAULT 128
#define SPARKPERF_BW_SIGNAL_DEFAULT 16
#define SPARKPERF_BW_SIGNAL_BYTES (256 * 1024)
#define SPARKPERF_BW_ITERS_DEFAULT 5000
#define SPARKPERF_BW_INTERVAL_MS_DEFAULT 100
#define SPARKPERF_TRACES_MAX 16
#define SPARKPERF_TRACE_TARGETS_MAX 8
#define SPARKPERF_TRACE_GLOBS_MAX 32
#define SPARKPERF_GLOB_MAX 64
#define SPARKPERF_TRACE_COUNTERS_MAX 1024
#define SPARKPERF_TRACE_NETDEV_PERIOD_US_MIN 100
#define SPARKPERF_TRACE_NETDEV_PERIOD_US_DEFAULT 1000
#define SPARKPERF_TRACE_SLOW_PERIOD_US_MIN 1000
#define SPARKPERF_TRACE_SLOW_PERIOD_US_DEFAULT 10000
#define SPARKPERF_TRACE_PERIOD_US_MAX 60000000
#define SPARKPERF_TRACE_DURATION_MS_MAX 86400000
#define SPARKPERF_TRACE_BUFFER_MIN (64 << 10)
#define SPARKPERF_TRACE_BUFFER_DEFAULT (8 << 20)
#define SPARKPERF_TRACE_BUFFER_MAX (256 << 20)
#define SPARKPERF_TRACE_BATCH_MS_DEFAULT 20

#define SPARKPERF_HIST_SUB_BITS 8
#define SPARKPERF_HIST_MAX_BITS 40
#define SPARKPERF_HIST_BUCKETS \
	((SPARKPERF_HIST_MAX_BITS - SPARKPERF_HIST_SUB_BITS + 2) << \
	 (SPARKPERF_HIST_SUB_BITS - 1))

/* Longest RDMA device name, with its NUL (IB_DEVICE_NAME_MAX). */
#define SPARKPERF_DEV_NAME_MAX 64

enum sparkperf_cmd {
	SPARKPERF_CMD_UNSPEC,
	SPARKPERF_CMD_INFO_GET,
	SPARKPERF_CMD_DEV_GET,
	SPARKPERF_CMD_DEV_NEW,
	SPARKPERF_CMD_DEV_CHANGE,
	SPARKPERF_CMD_DEV_DEL,
	SPARKPERF_CMD_SERVER_START,
	SPARKPERF_CMD_SERVER_STOP,
	SPARKPERF_CMD_SERVER_GET,
	SPARKPERF_CMD_LAT_RUN,
	SPARKPERF_CMD_LAT_STOP,
	SPARKPERF_CMD_LAT_GET,
	SPARKPERF_CMD_LAT_SAMPLES,
	SPARKPERF_CMD_LAT_PROGRESS,
	SPARKPERF_CMD_BW_RUN,
	SPARKPERF_CMD_BW_STOP,
	SPARKPERF_CMD_BW_GET,
	SPARKPERF_CMD_BW_PROGRESS,
	SPARKPERF_CMD_COUNTERS_GET,
	SPARKPERF_CMD_TRACE_START,
	SPARKPERF_CMD_TRACE_STOP,
	SPARKPERF_CMD_TRACE_GET,
	SPARKPERF_CMD_TRACE_SAMPLES,
	SPARKPERF_CMD_TRACE_TABLE,
	SPARKPERF_CMD_TRACE_END,
	__SPARKPERF_CMD_MAX
};

#define SPARKPERF_CMD_MAX (__SPARKPERF_CMD_MAX - 1)

enum sparkperf_info_attr {
	SPARKPERF_A_INFO_UNSPEC,
	SPARKPERF_A_INFO_VERSION,
	SPARKPERF_A_INFO_KERNEL,
	SPARKPERF_A_INFO_DEVICES,
	__SPARKPERF_A_INFO_MAX
};

#define SPARKPERF_A_INFO_MAX (__SPARKPERF_A_INFO_MAX - 1)

enum sparkperf_dev_attr {
	SPARKPERF_A_DEV_UNSPEC,
	SPARKPERF_A_DEV_PAD,
	SPARKPERF_A_DEV_INDEX,
	SPARKPERF_A_DEV_NAME,
	SPARKPERF_A_DEV_NODE_GUID,
	SPARKPERF_A_DEV_NUMA_NODE,
	SPARKPERF_A_DEV_PARENT,
	SPARKPERF_A_DEV_PORTS,
	SPARKPERF_A_DEV_EVENT_PORT,
	__SPARKPERF_A_DEV_MAX
};

#define SPARKPERF_A_DEV_MAX (__SPARKPERF_A_DEV_MAX - 1)

/* The only attribute inside SPARKPERF_A_DEV_PORTS. */
enum sparkperf_dev_ports_attr {
	SPARKPERF_A_DEV_PORT_UNSPEC,
	SPARKPERF_A_DEV_PORT,
	__SPARKPERF_A_DEV_PORT_MAX
};

#define SPARKPERF_A_DEV_PORT_MAX (__SPARKPERF_A_DEV_PORT_MAX - 1)

enum sparkperf_port_attr {
	SPARKPERF_A_PORT_UNSPEC,
	SPARKPERF_A_PORT_NUM,
	SPARKPERF_A_PORT_STATE,
	SPARKPERF_A_PORT_PHYS_STATE,
	SPARKPERF_A_PORT_LINK_LAYER,
	SPARKPERF_A_PORT_ACTIVE_MTU,
	SPARKPERF_A_PORT_MAX_MTU,
	SPARKPERF_A_PORT_ACTIVE_SPEED,
	SPARKPERF_A_PORT_ACTIVE_WIDTH,
	SPARKPERF_A_PORT_RATE,
	SPARKPERF_A_PORT_NETDEV_IFINDEX,
	SPARKPERF_A_PORT_NETDEV_NAME,
	SPARKPERF_A_PORT_NETDEV_MTU,
	SPARKPERF_A_PORT_NETDEV_OPERSTATE,
	SPARKPERF_A_PORT_GIDS,
	__SPARKPERF_A_PORT_MAX
};

#define SPARKPERF_A_PORT_MAX (__SPARKPERF_A_PORT_MAX - 1)

/* The only attribute inside SPARKPERF_A_PORT_GIDS. */
enum sparkperf_port_gids_attr {
	SPARKPERF_A_PORT_GID_UNSPEC,
	SPARKPERF_A_PORT_GID,
	__SPARKPERF_A_PORT_GID_MAX
};

#define SPARKPERF_A_PORT_GID_MAX (__SPARKPERF_A_PORT_GID_MAX - 1)

enum sparkperf_gid_attr {
	SPARKPERF_A_GID_UNSPEC,
	SPARKPERF_A_GID_INDEX,
	SPARKPERF_A_GID_TYPE,
	SPARKPERF_A_GID_GID,
	__SPARKPERF_A_GID_MAX
};

#define SPARKPERF_A_GID_MAX (__SPARKPERF_A_GID_MAX - 1)

enum sparkperf_server_attr {
	SPARKPERF_A_SERVER_UNSPEC,
	SPARKPERF_A_SERVER_PAD,
	SPARKPERF_A_SERVER_ID,
	SPARKPERF_A_SERVER_ADDR,
	SPARKPERF_A_SERVER_PORT,
	SPARKPERF_A_SERVER_ACTIVE,
	SPARKPERF_A_SERVER_SERVED,
	SPARKPERF_A_SERVER_CONNS_MAX,
	SPARKPERF_A_SERVER_BYTES_MAX,
	SPARKPERF_A_SERVER_THREADS_MAX,
	SPARKPERF_A_SERVER_ALLOW,
	SPARKPERF_A_SERVER_BYTES,
	SPARKPERF_A_SERVER_THREADS,
	SPARKPERF_A_SERVER_REJECTED,
	__SPARKPERF_A_SERVER_MAX
};

#define SPARKPERF_A_SERVER_MAX (__SPARKPERF_A_SERVER_MAX - 1)

enum sparkperf_allow_attr {
	SPARKPERF_A_ALLOW_UNSPEC,
	SPARKPERF_A_ALLOW_NET,
	__SPARKPERF_A_ALLOW_MAX
};

#define SPARKPERF_A_ALLOW_MAX (__SPARKPERF_A_ALLOW_MAX - 1)

enum sparkperf_net_attr {
	SPARKPERF_A_NET_UNSPEC,
	SPARKPERF_A_NET_ADDR,
	SPARKPERF_A_NET_PREFIX,
	__SPARKPERF_A_NET_MAX
};

#define SPARKPERF_A_NET_MAX (__SPARKPERF_A_NET_MAX - 1)

enum sparkperf_lat_attr {
	SPARKPERF_A_LAT_UNSPEC,
	SPARKPERF_A_LAT_PAD,
	SPARKPERF_A_LAT_ID,
	SPARKPERF_A_LAT_PEER,
	SPARKPERF_A_LAT_PORT,
	SPARKPERF_A_LAT_DEV,
	SPARKPERF_A_LAT_OP,
	SPARKPERF_A_LAT_SIZE,
	SPARKPERF_A_LAT_ITERS,
	SPARKPERF_A_LAT_DURATION_MS,
	SPARKPERF_A_LAT_WARMUP,
	SPARKPERF_A_LAT_CPU,
	SPARKPERF_A_LAT_SAMPLES_MAX,
	SPARKPERF_A_LAT_INTERVAL_MS,
	SPARKPERF_A_LAT_STATE,
	SPARKPERF_A_LAT_ERROR,
	SPARKPERF_A_LAT_ERROR_MSG,
	SPARKPERF_A_LAT_WARMUP_DONE,
	SPARKPERF_A_LAT_COUNT,
	SPARKPERF_A_LAT_ELAPSED_NS,
	SPARKPERF_A_LAT_YIELDS,
	SPARKPERF_A_LAT_CLOCK_RES_NS,
	SPARKPERF_A_LAT_MIN_NS,
	SPARKPERF_A_LAT_MAX_NS,
	SPARKPERF_A_LAT_SUM_NS,
	SPARKPERF_A_LAT_SUMSQ_HI,
	SPARKPERF_A_LAT_SUMSQ_LO,
	SPARKPERF_A_LAT_P50_NS,
	SPARKPERF_A_LAT_P90_NS,
	SPARKPERF_A_LAT_P99_NS,
	SPARKPERF_A_LAT_P999_NS,
	SPARKPERF_A_LAT_P9999_NS,
	SPARKPERF_A_LAT_P99999_NS,
	SPARKPERF_A_LAT_INTERVALS,
	SPARKPERF_A_LAT_INTERVAL,
	SPARKPERF_A_SAMPLES_FIRST,
	SPARKPERF_A_SAMPLES_DATA,
	SPARKPERF_A_LAT_RT_YIELDS,
	SPARKPERF_A_LAT_COMPLETION,
	__SPARKPERF_A_LAT_MAX
};

#define SPARKPERF_A_LAT_MAX (__SPARKPERF_A_LAT_MAX - 1)

/* The only attribute inside SPARKPERF_A_LAT_INTERVALS. */
enum sparkperf_lat_intervals_attr {
	SPARKPERF_A_LAT_INTERVALS_UNSPEC,
	SPARKPERF_A_LAT_INTERVALS_ENTRY,
	__SPARKPERF_A_LAT_INTERVALS_MAX
};

#define SPARKPERF_A_LAT_INTERVALS_MAX (__SPARKPERF_A_LAT_INTERVALS_MAX - 1)

enum sparkperf_interval_attr {
	SPARKPERF_A_INTERVAL_UNSPEC,
	SPARKPERF_A_INTERVAL_PAD,
	SPARKPERF_A_INTERVAL_END_NS,
	SPARKPERF_A_INTERVAL_COUNT,
	SPARKPERF_A_INTERVAL_P50_NS,
	SPARKPERF_A_INTERVAL_P99_NS,
	SPARKPERF_A_INTERVAL_MAX_NS,
	SPARKPERF_A_INTERVAL_BYTES,
	__SPARKPERF_A_INTERVAL_MAX
};

#define SPARKPERF_A_INTERVAL_MAX (__SPARKPERF_A_INTERVAL_MAX - 1)

enum sparkperf_bw_attr {
	SPARKPERF_A_BW_UNSPEC,
	SPARKPERF_A_BW_PAD,
	SPARKPERF_A_BW_ID,
	SPARKPERF_A_BW_PEER,
	SPARKPERF_A_BW_PORT,
	SPARKPERF_A_BW_DEV,
	SPARKPERF_A_BW_OP,
	SPARKPERF_A_BW_SIZE,
	SPARKPERF_A_BW_QPS,
	SPARKPERF_A_BW_THREADS,
	SPARKPERF_A_BW_DEPTH,
	SPARKPERF_A_BW_SIGNAL,
	SPARKPERF_A_BW_ITERS,
	SPARKPERF_A_BW_DURATION_MS,
	SPARKPERF_A_BW_BIDIR,
	SPARKPERF_A_BW_VALIDATE,
	SPARKPERF_A_BW_INTERVAL_MS,
	SPARKPERF_A_BW_START_AT_NS,
	SPARKPERF_A_BW_STATE,
	SPARKPERF_A_BW_ERROR,
	SPARKPERF_A_BW_ERROR_MSG,
	SPARKPERF_A_BW_START_NS,
	SPARKPERF_A_BW_ELAPSED_NS,
	SPARKPERF_A_BW_TX_BYTES,
	SPARKPERF_A_BW_TX_MSGS,
	SPARKPERF_A_BW_RX_BYTES,
	SPARKPERF_A_BW_RX_MSGS,
	SPARKPERF_A_BW_VALIDATE_ERRORS,
	SPARKPERF_A_BW_CPU_NS,
	SPARKPERF_A_BW_INTERVALS,
	SPARKPERF_A_BW_INTERVAL,
	__SPARKPERF_A_BW_MAX
};

#define SPARKPERF_A_BW_MAX (__SPARKPERF_A_BW_MAX - 1)

enum sparkperf_trace_attr {
	SPARKPERF_A_TRACE_UNSPEC,
	SPARKPERF_A_TRACE_PAD,
	SPARKPERF_A_TRACE_ID,
	SPARKPERF_A_TRACE_TARGETS,
	SPARKPERF_A_TRACE_TARGET,
	SPARKPERF_A_TRACE_GLOBS,
	SPARKPERF_A_TRACE_GLOB,
	SPARKPERF_A_TRACE_NETDEV_PERIOD_US,
	SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US,
	SPARKPERF_A_TRACE_RDMA_PERIOD_US,
	SPARKPERF_A_TRACE_DURATION_MS,
	SPARKPERF_A_TRACE_BUFFER_BYTES,
	SPARKPERF_A_TRACE_BATCH_MS,
	SPARKPERF_A_TRACE_STATE,
	SPARKPERF_A_TRACE_ERROR,
	SPARKPERF_A_TRACE_ERROR_MSG,
	SPARKPERF_A_TRACE_START_NS,
	SPARKPERF_A_TRACE_ELAPSED_NS,
	SPARKPERF_A_TRACE_SLOTS,
	SPARKPERF_A_TRACE_SEQ_NEXT,
	SPARKPERF_A_TRACE_SEQ_OLDEST,
	SPARKPERF_A_TRACE_STREAMS,
	SPARKPERF_A_TRACE_STREAM,
	SPARKPERF_A_TRACE_CURSOR,
	SPARKPERF_A_TRACE_LOST,
	SPARKPERF_A_TRACE_SAMPLES,
	SPARKPERF_A_TRACE_SAMPLE,
	SPARKPERF_A_TRACE_CPU_NS,
	__SPARKPERF_A_TRACE_MAX
};

#define SPARKPERF_A_TRACE_MAX (__SPARKPERF_A_TRACE_MAX - 1)

/* Inside SPARKPERF_A_TRACE_TARGET. */
enum sparkperf_target_attr {
	SPARKPERF_A_TARGET_UNSPEC,
	SPARKPERF_A_TARGET_NETDEV,
	SPARKPERF_A_TARGET_RDMA_DEV,
	SPARKPERF_A_TARGET_RDMA_PORT,
	__SPARKPERF_A_TARGET_MAX
};

#define SPARKPERF_A_TARGET_MAX (__SPARKPERF_A_TARGET_MAX - 1)

/* Inside SPARKPERF_A_TRACE_STREAM. */
enum sparkperf_stream_attr {
	SPARKPERF_A_STREAM_UNSPEC,
	SPARKPERF_A_STREAM_PAD,
	SPARKPERF_A_STREAM_INDEX,
	SPARKPERF_A_STREAM_SOURCE,
	SPARKPERF_A_STREAM_TARGET,
	SPARKPERF_A_STREAM_IFINDEX,
	SPARKPERF_A_STREAM_PORT,
	SPARKPERF_A_STREAM_PERIOD_US,
	SPARKPERF_A_STREAM_VERSION,
	SPARKPERF_A_STREAM_SLOT_VALUES,
	SPARKPERF_A_STREAM_TRUNCATED,
	SPARKPERF_A_STREAM_NAMES,
	SPARKPERF_A_STREAM_NAME,
	SPARKPERF_A_STREAM_SAMPLES,
	SPARKPERF_A_STREAM_MISSED,
	SPARKPERF_A_STREAM_READ_NS_SUM,
	SPARKPERF_A_STREAM_READ_NS_MAX,
	SPARKPERF_A_STREAM_LATE_NS_MAX,
	SPARKPERF_A_STREAM_VALUES,
	SPARKPERF_A_STREAM_TS_NS,
	SPARKPERF_A_STREAM_READ_NS,
	__SPARKPERF_A_STREAM_MAX
};

#define SPARKPERF_A_STREAM_MAX (__SPARKPERF_A_STREAM_MAX - 1)

/* Inside SPARKPERF_A_TRACE_SAMPLE. */
enum sparkperf_sample_attr {
	SPARKPERF_A_SAMPLE_UNSPEC,
	SPARKPERF_A_SAMPLE_PAD,
	SPARKPERF_A_SAMPLE_SEQ,
	SPARKPERF_A_SAMPLE_STREAM,
	SPARKPERF_A_SAMPLE_VERSION,
	SPARKPERF_A_SAMPLE_TS_NS,
	SPARKPERF_A_SAMPLE_READ_NS,
	SPARKPERF_A_SAMPLE_VALUES,
	__SPARKPERF_A_SAMPLE_MAX
};

#define SPARKPERF_A_SAMPLE_MAX (__SPARKPERF_A_SAMPLE_MAX - 1)

enum sparkperf_counter_source {
	SPARKPERF_SRC_UNSPEC,
	SPARKPERF_SRC_NETDEV,
	SPARKPERF_SRC_ETHTOOL,
	SPARKPERF_SRC_RDMA,
	__SPARKPERF_SRC_MAX
};

#define SPARKPERF_SRC_MAX (__SPARKPERF_SRC_MAX - 1)

enum sparkperf_trace_state {
	SPARKPERF_TRACE_STATE_RUNNING,
	SPARKPERF_TRACE_STATE_DONE,
	SPARKPERF_TRACE_STATE_STOPPED,
	SPARKPERF_TRACE_STATE_FAILED,
};

enum sparkperf_lat_op {
	SPARKPERF_LAT_OP_UNSPEC,
	SPARKPERF_LAT_OP_WRITE,
	SPARKPERF_LAT_OP_SEND,
	SPARKPERF_LAT_OP_READ,
	__SPARKPERF_LAT_OP_MAX
};

#define SPARKPERF_LAT_OP_MAX (__SPARKPERF_LAT_OP_MAX - 1)

/* How a latency round trip ends (SPARKPERF_A_LAT_COMPLETION). */
enum sparkperf_lat_completion {
	SPARKPERF_LAT_COMPLETION_UNSPEC,
	/* a receive completion: the echo's SEND or RDMA WRITE with immediate */
	SPARKPERF_LAT_COMPLETION_RECV,
	/* the last byte of the receive buffer, polled (write only) */
	SPARKPERF_LAT_COMPLETION_LAST_BYTE,
	/* the RDMA READ's own completion */
	SPARKPERF_LAT_COMPLETION_READ,
	__SPARKPERF_LAT_COMPLETION_MAX
};

#define SPARKPERF_LAT_COMPLETION_MAX (__SPARKPERF_LAT_COMPLETION_MAX - 1)

enum sparkperf_lat_state {
	SPARKPERF_LAT_STATE_CONNECTING,
	SPARKPERF_LAT_STATE_RUNNING,
	SPARKPERF_LAT_STATE_DONE,
	SPARKPERF_LAT_STATE_STOPPED,
	SPARKPERF_LAT_STATE_FAILED,
};

/* Port logical state; the values are those of the IB specification. */
enum sparkperf_port_state {
	SPARKPERF_PORT_NOP,
	SPARKPERF_PORT_DOWN,
	SPARKPERF_PORT_INIT,
	SPARKPERF_PORT_ARMED,
	SPARKPERF_PORT_ACTIVE,
	SPARKPERF_PORT_ACTIVE_DEFER,
};

/* Port physical state; the values are those of the IB specification. */
enum sparkperf_port_phys_state {
	SPARKPERF_PHYS_UNKNOWN,
	SPARKPERF_PHYS_SLEEP,
	SPARKPERF_PHYS_POLLING,
	SPARKPERF_PHYS_DISABLED,
	SPARKPERF_PHYS_TRAINING,
	SPARKPERF_PHYS_LINK_UP,
	SPARKPERF_PHYS_LINK_ERROR_RECOVERY,
	SPARKPERF_PHYS_PHY_TEST,
};

enum sparkperf_link_layer {
	SPARKPERF_LINK_LAYER_UNSPECIFIED,
	SPARKPERF_LINK_LAYER_INFINIBAND,
	SPARKPERF_LINK_LAYER_ETHERNET,
};

/*
 * Lane speed. Nominal data rates per lane: SDR 2.5, DDR 5, QDR 10,
 * FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100, XDR 200 Gbit/s.
 */
enum sparkperf_port_speed {
	SPARKPERF_SPEED_UNKNOWN,
	SPARKPERF_SPEED_SDR,
	SPARKPERF_SPEED_DDR,
	SPARKPERF_SPEED_QDR,
	SPARKPERF_SPEED_FDR10,
	SPARKPERF_SPEED_FDR,
	SPARKPERF_SPEED_EDR,
	SPARKPERF_SPEED_HDR,
	SPARKPERF_SPEED_NDR,
	SPARKPERF_SPEED_XDR,
};

enum sparkperf_gid_type {
	SPARKPERF_GID_TYPE_IB,
	SPARKPERF_GID_TYPE_ROCE_V1,
	SPARKPERF_GID_TYPE_ROCE_V2,
};

#endif /* _UAPI_LINUX_SPARKPERF_H */
