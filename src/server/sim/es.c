// SPDX-License-Identifier: GPL-2.0
/*
 * vts elementary streams: a black MPEG-2 I-frame coded here (DC only
 * intra macroblocks, ISO/IEC 13818-2), a silent MPEG-1 Layer II frame,
 * PES headers and TS packets.
 */
#include <string.h>

#include "server/sim/vts.h"
#include "server/sim/vts_int.h"

struct vts_bits {
	uint8_t *p;
	size_t size;		/* bytes */
	size_t pos;		/* bits */
	bool overflow;
};

static void vts_put_bits(struct vts_bits *b, uint32_t v, unsigned int n)
{
	while (n--) {
		if (b->pos >= 8 * b->size) {
			b->overflow = true;
			return;
		}
		if ((v >> n) & 1)
			b->p[b->pos / 8] |= 0x80 >> (b->pos % 8);
		b->pos++;
	}
}

static void vts_start_code(struct vts_bits *b, uint8_t code)
{
	b->pos = (b->pos + 7) & ~(size_t)7;
	vts_put_bits(b, 0x000001, 24);
	vts_put_bits(b, code, 8);
}

static void vts_sequence_header(struct vts_bits *b, uint32_t bitrate)
{
	uint32_t rate = (bitrate + 399) / 400;

	if (rate > 0x3ffff)
		rate = 0x3ffff;
	vts_start_code(b, 0xb3);
	vts_put_bits(b, VTS_VIDEO_WIDTH, 12);
	vts_put_bits(b, VTS_VIDEO_HEIGHT, 12);
	vts_put_bits(b, 2, 4);		/* aspect 4:3 */
	vts_put_bits(b, 3, 4);		/* 25 frames/s */
	vts_put_bits(b, rate, 18);
	vts_put_bits(b, 1, 1);		/* marker */
	vts_put_bits(b, 112, 10);	/* vbv_buffer_size: MP@ML */
	vts_put_bits(b, 0, 3);		/* constrained, no matrices */

	vts_start_code(b, 0xb5);	/* sequence_extension */
	vts_put_bits(b, 1, 4);
	vts_put_bits(b, 0x48, 8);	/* Main Profile @ Main Level */
	vts_put_bits(b, 1, 1);		/* progressive_sequence */
	vts_put_bits(b, 1, 2);		/* 4:2:0 */
	vts_put_bits(b, 0, 4 + 12);	/* size and bit rate extensions */
	vts_put_bits(b, 1, 1);		/* marker */
	vts_put_bits(b, 0, 8 + 1 + 7);	/* vbv ext, low_delay, frame rate ext */
}

static void vts_picture_headers(struct vts_bits *b)
{
	vts_start_code(b, 0xb8);	/* GOP */
	vts_put_bits(b, 0, 12);		/* drop, hours, minutes */
	vts_put_bits(b, 1, 1);		/* marker */
	vts_put_bits(b, 0, 12);		/* seconds, pictures */
	vts_put_bits(b, 1, 1);		/* closed_gop */
	vts_put_bits(b, 0, 1);		/* broken_link */

	vts_start_code(b, 0x00);	/* picture */
	vts_put_bits(b, 0, 10);		/* temporal_reference */
	vts_put_bits(b, 1, 3);		/* I */
	vts_put_bits(b, 0xffff, 16);	/* vbv_delay */
	vts_put_bits(b, 0, 1);		/* extra_bit_picture */

	vts_start_code(b, 0xb5);	/* picture_coding_extension */
	vts_put_bits(b, 8, 4);
	vts_put_bits(b, 0xffff, 16);	/* f_codes */
	vts_put_bits(b, 0, 2);		/* intra_dc_precision: 8 bits */
	vts_put_bits(b, 3, 2);		/* frame picture */
	vts_put_bits(b, 0x41, 8);	/* frame_pred_frame_dct, ..., 420 type */
	vts_put_bits(b, 1, 1);		/* progressive_frame */
	vts_put_bits(b, 0, 1);		/* composite_display_flag */
}

/*
 * A row of intra macroblocks with DC only: luma 16 (black) against the
 * predictor 128 reset at the slice start, so the first block codes -112
 * (dct_dc_size 7: '111110', differential 15), every other block 0.
 */
static void vts_black_slice(struct vts_bits *b, unsigned int row)
{
	unsigned int mb, blk;

	vts_start_code(b, row + 1);
	vts_put_bits(b, 8, 5);		/* quantiser_scale_code */
	vts_put_bits(b, 0, 1);		/* extra_bit_slice */
	for (mb = 0; mb < VTS_VIDEO_WIDTH / 16; mb++) {
		vts_put_bits(b, 1, 1);	/* address increment 1 */
		vts_put_bits(b, 1, 1);	/* macroblock_type: intra */
		for (blk = 0; blk < 4; blk++) {
			if (!mb && !blk) {
				vts_put_bits(b, 0x3e, 6);
				vts_put_bits(b, 15, 7);
			} else {
				vts_put_bits(b, 4, 3);	/* dc size 0 */
			}
			vts_put_bits(b, 2, 2);		/* EOB */
		}
		for (blk = 0; blk < 2; blk++)
			vts_put_bits(b, 2, 4);	/* chroma dc size 0, EOB */
	}
}

size_t vts_mpeg2_black_frame(uint8_t *buf, size_t size, uint32_t bitrate)
{
	struct vts_bits b = { .p = buf, .size = size };
	unsigned int row;

	memset(buf, 0, size);
	vts_sequence_header(&b, bitrate);
	vts_picture_headers(&b);
	for (row = 0; row < VTS_VIDEO_HEIGHT / 16; row++)
		vts_black_slice(&b, row);
	return b.overflow ? 0 : (b.pos + 7) / 8;
}

void vts_mp2_silent_frame(uint8_t *buf)
{
	/* sync, MPEG-1, Layer II, no CRC, 192 kbit/s, 48 kHz, stereo,
	 * original; all bit allocations 0: silence */
	static const uint8_t hdr[4] = { 0xff, 0xfd, 0xa4, 0x04 };

	memset(buf, 0, VTS_MP2_FRAME);
	memcpy(buf, hdr, sizeof(hdr));
}

void vts_pes_header(uint8_t *buf, uint8_t stream_id, size_t es_len,
		    uint64_t pts)
{
	size_t len = es_len + VTS_PES_HEADER - 6;

	buf[0] = 0;
	buf[1] = 0;
	buf[2] = 1;
	buf[3] = stream_id;
	if (len > 0xffff)
		len = 0;	/* unbounded, video only */
	buf[4] = len >> 8;
	buf[5] = len;
	buf[6] = 0x84;		/* '10', data_alignment_indicator */
	buf[7] = 0x80;		/* PTS only */
	buf[8] = 5;
	buf[9] = 0x21 | ((pts >> 29) & 0x0e);
	buf[10] = pts >> 22;
	buf[11] = 0x01 | ((pts >> 14) & 0xfe);
	buf[12] = pts >> 7;
	buf[13] = 0x01 | ((pts << 1) & 0xfe);
}

size_t vts_ts_packet(uint8_t *pkt, uint16_t pid, bool pusi, uint8_t cc,
		     int64_t pcr, const uint8_t *data, size_t len)
{
	size_t room = VTS_TS_SIZE - 4 - (pcr >= 0 ? 8 : 0);
	size_t take = len < room ? len : room;
	size_t af = VTS_TS_SIZE - 4 - take;	/* adaptation field bytes */
	uint8_t *p = pkt + 4;

	pkt[0] = 0x47;
	pkt[1] = (pusi ? 0x40 : 0) | pid >> 8;
	pkt[2] = pid;
	pkt[3] = (af ? 0x30 : 0x10) | (cc & 0x0f);
	if (af) {
		*p++ = af - 1;
		if (af > 1) {
			*p++ = pcr >= 0 ? 0x10 : 0;
			memset(p, 0xff, af - 2);
		}
		if (pcr >= 0) {
			uint64_t base = pcr / 300, ext = pcr % 300;

			p[0] = base >> 25;
			p[1] = base >> 17;
			p[2] = base >> 9;
			p[3] = base >> 1;
			p[4] = (base & 1) << 7 | 0x7e | ext >> 8;
			p[5] = ext;
		}
		p = pkt + 4 + af;
	}
	memcpy(p, data, take);
	return take;
}
