// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - see text.h.
 */
#include <stdio.h>
#include <string.h>

#include "common/text.h"

size_t vt_text_escape(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src), i = 0, out = 0, k, j;

	while (i < n) {
		k = vt_text_ctl(src + i, n - i);
		if (!k) {
			if (out + 1 >= cap)
				break;
			dst[out++] = src[i++];
			continue;
		}
		if (out + 4 * k >= cap)
			break;
		for (j = 0; j < k; j++, out += 4)
			snprintf(dst + out, 5, "\\x%02x",
				 (unsigned char)src[i + j]);
		i += k;
	}
	dst[out] = 0;
	return out;
}

void vt_text_clean(char *s)
{
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		k = vt_text_ctl(s + i, n - i);
		if (k)
			memset(s + i, '?', k);
		i += k ? k : 1;
	}
}
