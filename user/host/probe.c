// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <sys/socket.h>

#include "probe.h"

/* linux/in.h, since 4.10; glibc's netinet/in.h may lack it */
#ifndef IP_RECVFRAGSIZE
#define IP_RECVFRAGSIZE 25
#endif

#define IP_MAX 65535

/* The Internet checksum (RFC 1071), in network byte order. */
static uint16_t inet_checksum(const void *data, size_t len)
{
	const uint8_t *b = data;
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		sum += (uint32_t)(b[len - 1] << 8);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * A ping socket when net.ipv4.ping_group_range lets this user have one,
 * else a raw socket (CAP_NET_RAW). Replies on a raw socket start with the
 * IP header.
 */
static int icmp_socket(bool *raw)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);

	*raw = false;
	if (fd >= 0)
		return fd;
	*raw = true;
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	return fd < 0 ? -errno : fd;
}

struct echo {
	int fd;
	bool raw;
	uint16_t id;
	const struct in_addr *peer;
	uint8_t *buf;
};

/* The ICMP message in a received datagram, from the peer; NULL if not ours. */
static const struct icmphdr *icmp_of(const struct echo *e, const uint8_t *d, size_t len,
				     const struct sockaddr_in *from, size_t *icmp_len)
{
	size_t off = 0;

	if (e->raw) {
		const struct iphdr *ip = (const void *)d;

		if (len < sizeof(*ip) || len < (size_t)ip->ihl * 4)
			return NULL;
		off = (size_t)ip->ihl * 4;
	}
	if (len < off + sizeof(struct icmphdr))
		return NULL;
	*icmp_len = len - off;
	/* a router's error comes from the router, not from the peer */
	if (from->sin_addr.s_addr != e->peer->s_addr &&
	    ((const struct icmphdr *)(d + off))->type == ICMP_ECHOREPLY)
		return NULL;
	return (const void *)(d + off);
}

/* Waits for the reply to seq until deadline; 1 when it came, 0 on time-out. */
static int wait_reply(const struct echo *e, uint16_t seq, double deadline, struct sp_probe *p)
{
	uint8_t cbuf[256];
	struct sockaddr_in from;
	struct iovec iov = { .iov_base = e->buf, .iov_len = IP_MAX };
	struct msghdr msg = {
		.msg_name = &from, .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
	};
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
	const struct icmphdr *h;
	struct cmsghdr *c;
	size_t icmp_len;
	ssize_t n;
	int left;

	for (;;) {
		left = (int)(deadline - now_ms());
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return 0;
		msg.msg_namelen = sizeof(from);
		msg.msg_controllen = sizeof(cbuf);
		n = recvmsg(e->fd, &msg, MSG_DONTWAIT);
		if (n < 0)
			continue;
		h = icmp_of(e, e->buf, (size_t)n, &from, &icmp_len);
		if (!h)
			continue;
		if (h->type == ICMP_DEST_UNREACH && h->code == ICMP_FRAG_NEEDED) {
			p->frag_needed = ntohs(h->un.frag.mtu);
			continue;
		}
		/* a ping socket's id is its port: the kernel checks it */
		if (h->type != ICMP_ECHOREPLY || ntohs(h->un.echo.sequence) != seq ||
		    (e->raw && ntohs(h->un.echo.id) != e->id))
			continue;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVFRAGSIZE &&
			    c->cmsg_len >= CMSG_LEN(sizeof(int)))
				memcpy(&p->frag_max, CMSG_DATA(c), sizeof(p->frag_max));
		return 1;
	}
}

int sp_probe_echo(const struct in_addr *peer, const char *dev, size_t payload,
		  unsigned int tries, unsigned int timeout_ms, struct sp_probe *p)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr = *peer };
	int on = 1, pmtu = IP_PMTUDISC_DO, fd, ret = 0;
	struct echo e = { .peer = peer };
	size_t len = sizeof(struct icmphdr) + payload, i;
	struct icmphdr *h;
	unsigned int t;
	double t0;

	memset(p, 0, sizeof(*p));
	if (len > IP_MAX)
		return -EMSGSIZE;
	fd = icmp_socket(&e.raw);
	if (fd < 0)
		return fd;
	e.fd = fd;
	e.id = (uint16_t)(getpid() ^ (unsigned int)time(NULL));
	e.buf = calloc(1, IP_MAX);
	if (!e.buf || setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu))) {
		ret = e.buf ? -errno : -ENOMEM;
		goto out;
	}
	/* older kernels cannot tell fragments: the probe still sees losses */
	setsockopt(fd, IPPROTO_IP, IP_RECVFRAGSIZE, &on, sizeof(on));
	/* without the privilege to bind, the route chooses the same netdev */
	if (dev)
		setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, (socklen_t)strlen(dev) + 1);
	for (t = 1; t <= tries && !p->replied && !p->send_error; t++) {
		memset(e.buf, 0, len);
		h = (struct icmphdr *)e.buf;
		h->type = ICMP_ECHO;
		h->un.echo.id = htons(e.id);
		h->un.echo.sequence = htons((uint16_t)t);
		for (i = sizeof(*h); i < len; i++)
			e.buf[i] = (uint8_t)i;
		h->checksum = inet_checksum(e.buf, len);
		t0 = now_ms();
		if (sendto(fd, e.buf, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
			p->send_error = errno;
			break;
		}
		if (wait_reply(&e, (uint16_t)t, t0 + timeout_ms, p)) {
			p->replied = true;
			p->rtt_ms = now_ms() - t0;
		}
	}
out:
	free(e.buf);
	close(fd);
	return ret;
}
