// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "testutil.h"

void cap_start(struct capture *c, bool json, bool pretty)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
	sp_print_init(c->f, json, pretty);
}

char *cap_end(struct capture *c)
{
	ck_assert_int_eq(sp_print_flush(), 0);
	fclose(c->f);
	sp_print_init(NULL, false, false);
	return c->buf;
}

size_t datagram(void *buf, size_t size, struct nl_msg **msgs, size_t n)
{
	size_t len = 0, i;

	for (i = 0; i < n; i++) {
		struct nlmsghdr *nlh = nlmsg_hdr(msgs[i]);
		size_t l = NLMSG_ALIGN(nlh->nlmsg_len);

		ck_assert(len + l <= size);
		memcpy((char *)buf + len, nlh, l);
		len += l;
		nlmsg_free(msgs[i]);
	}
	return len;
}
