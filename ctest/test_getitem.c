/*
 * blosc1_getitem, blosc2_getitem, blosc2_getitem_ctx and blosc2_getitem_bytes_ctx:
 * ranges at the edges (first item, last item, across block boundaries, whole chunk),
 * nitems 0, out-of-range requests (-12), destinations too small (-6), memcpyed and
 * special-value chunks.
 */
#include <blosc2.h>

#include "test_common.h"

#define GUARD 32

static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};

static uint8_t *g_src, *g_chunk, *g_out;
static blosc2_context *g_dctx;

/* Fetch [start, start+nitems) through all getitem entry points and compare. */
static void check_range(const uint8_t *chunk, int32_t cbytes, int32_t ts, int start, int nitems,
                        const char *ctx) {
  int32_t want = nitems * ts;
  for (int api = 0; api < 4; api++) {
    memset(g_out, 0xA5, (size_t)want + GUARD);
    int rc;
    if (api == 0) rc = blosc1_getitem(chunk, start, nitems, g_out);
    else if (api == 1) rc = blosc2_getitem(chunk, cbytes, start, nitems, g_out, want);
    else if (api == 2) rc = blosc2_getitem_ctx(g_dctx, chunk, cbytes, start, nitems, g_out, want);
    else rc = blosc2_getitem_bytes_ctx(g_dctx, chunk, cbytes, start * ts, want, g_out, want);
    CHECK_EQ(rc, want, "api %d start=%d nitems=%d %s", api, start, nitems, ctx);
    CHECK(memcmp(g_out, g_src + (size_t)start * (size_t)ts, (size_t)want) == 0,
          "api %d start=%d nitems=%d wrong bytes [%s]", api, start, nitems, ctx);
    for (int i = 0; i < GUARD; i++)
      if (g_out[want + i] != 0xA5) {
        CHECK(0, "api %d wrote past nitems*typesize [%s]", api, ctx);
        break;
      }
  }
}

/* A request that must fail with `code` and leave the destination untouched. */
static void check_error(const uint8_t *chunk, int32_t cbytes, int start, int nitems,
                        int32_t destsize, int code, int with_blosc1, const char *ctx) {
  /* destsize < 0: exactly nitems * typesize, so only the range check can fail. */
  if (destsize < 0) destsize = nitems > 0 ? nitems * (int32_t)chunk[BLOSC2_CHUNK_TYPESIZE] : 0;
  for (int api = with_blosc1 ? 0 : 1; api < 3; api++) {
    memset(g_out, 0xA5, 4096);
    int rc;
    if (api == 0) rc = blosc1_getitem(chunk, start, nitems, g_out);
    else if (api == 1) rc = blosc2_getitem(chunk, cbytes, start, nitems, g_out, destsize);
    else rc = blosc2_getitem_ctx(g_dctx, chunk, cbytes, start, nitems, g_out, destsize);
    CHECK_EQ(rc, code, "api %d start=%d nitems=%d destsize=%d %s", api, start, nitems, destsize,
             ctx);
    int touched = 0;
    for (int i = 0; i < 4096; i++) touched |= g_out[i] != 0xA5;
    CHECK(!touched, "api %d error path wrote to dest [%s]", api, ctx);
  }
}

static void check_chunk(int codec, int filt, int32_t ts, int32_t nbytes, int clevel, int split,
                        int kind) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "codec=%d filt=%d ts=%d n=%d cl=%d split=%d %s", codec, filt, ts,
           nbytes, clevel, split, tc_kind_name(kind));
  tc_fill(g_src, (size_t)nbytes, kind, (size_t)ts, (uint64_t)nbytes);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  cp.splitmode = split;
  memset(cp.filters, 0, sizeof cp.filters);
  if (filt == 3) cp.filters[4] = BLOSC_DELTA;
  cp.filters[5] = (uint8_t)(filt == 3 ? BLOSC_SHUFFLE : filt);
  blosc2_context *cctx = blosc2_create_cctx(cp);
  int cbytes = blosc2_compress_ctx(cctx, g_src, nbytes, g_chunk, nbytes + 32);
  blosc2_free_ctx(cctx);
  CHECK(cbytes > 0, "compress %d [%s]", cbytes, ctx);
  if (cbytes <= 0) return;
  int32_t sts = g_chunk[BLOSC2_CHUNK_TYPESIZE]; /* stored typesize: items are counted in it */
  CHECK_EQ(sts, ts > 255 ? 1 : ts, "%s", ctx);
  int n = nbytes / sts;
  int32_t bs = tc_rd32(g_chunk + BLOSC2_CHUNK_BLOCKSIZE);
  int ipb = bs / sts; /* items per block */

  check_range(g_chunk, cbytes, sts, 0, 1, ctx);
  check_range(g_chunk, cbytes, sts, n - 1, 1, ctx);
  check_range(g_chunk, cbytes, sts, 0, n, ctx);
  if (ipb > 1 && ipb < n) {
    check_range(g_chunk, cbytes, sts, ipb - 1, 2, ctx);
    check_range(g_chunk, cbytes, sts, ipb, 1, ctx);
    int s0 = ipb - 3 > 0 ? ipb - 3 : 0;
    check_range(g_chunk, cbytes, sts, s0, n - s0 < 9 ? n - s0 : 9, ctx);
    int nblocks = (n + ipb - 1) / ipb;
    check_range(g_chunk, cbytes, sts, (nblocks - 1) * ipb, n - (nblocks - 1) * ipb, ctx);
    check_range(g_chunk, cbytes, sts, (nblocks - 1) * ipb - 1, n - (nblocks - 1) * ipb + 1, ctx);
  }
  for (int r = 0; r < 6; r++) {
    int start = (int)tc_rand_below((uint32_t)n);
    int len = 1 + (int)tc_rand_below((uint32_t)(n - start));
    check_range(g_chunk, cbytes, sts, start, len, ctx);
  }

  /* nitems == 0 returns 0 without any range check. */
  for (int api = 0; api < 3; api++) {
    int starts[] = {0, n, n + 1, -1};
    for (int k = 0; k < 4; k++) {
      int rc = api == 0   ? blosc1_getitem(g_chunk, starts[k], 0, g_out)
               : api == 1 ? blosc2_getitem(g_chunk, cbytes, starts[k], 0, g_out, 16)
                          : blosc2_getitem_ctx(g_dctx, g_chunk, cbytes, starts[k], 0, g_out, 16);
      CHECK_EQ(rc, 0, "nitems 0 start %d api %d %s", starts[k], api, ctx);
    }
  }
  /* Out of range. */
  check_error(g_chunk, cbytes, n, 1, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  check_error(g_chunk, cbytes, n - 1, 2, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  check_error(g_chunk, cbytes, -1, 1, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  check_error(g_chunk, cbytes, 0, -1, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  check_error(g_chunk, cbytes, n + 5, 1, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  check_error(g_chunk, cbytes, 0, n + 1, -1, BLOSC2_ERROR_INVALID_PARAM, 1, ctx);
  /* Destination too small (blosc1_getitem has no destsize). */
  int k = n < 100 ? n : 100;
  check_error(g_chunk, cbytes, 0, k, k * sts - 1, BLOSC2_ERROR_WRITE_BUFFER, 0, ctx);
  check_error(g_chunk, cbytes, n - 1, 1, 0, BLOSC2_ERROR_WRITE_BUFFER, 0, ctx);
  /* getitem_bytes_ctx: start and nbytes must be non-negative multiples of the typesize. */
  if (sts > 1) {
    CHECK_EQ(blosc2_getitem_bytes_ctx(g_dctx, g_chunk, cbytes, 1, sts, g_out, 4096),
             BLOSC2_ERROR_INVALID_PARAM, "%s", ctx);
    CHECK_EQ(blosc2_getitem_bytes_ctx(g_dctx, g_chunk, cbytes, 0, sts + 1, g_out, 4096),
             BLOSC2_ERROR_INVALID_PARAM, "%s", ctx);
  }
  CHECK_EQ(blosc2_getitem_bytes_ctx(g_dctx, g_chunk, cbytes, -sts, sts, g_out, 4096),
           BLOSC2_ERROR_INVALID_PARAM, "%s", ctx);
}

static void check_special_chunks(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  uint8_t chunk[64];
  double v = 3.25, out[8];
  int cb = blosc2_chunk_repeatval(cp, 8000, chunk, sizeof chunk, &v);
  CHECK_EQ(cb, 40, "%s", "repeatval");
  CHECK_EQ(blosc2_getitem(chunk, cb, 10, 3, out, sizeof out), 24, "%s", "repeatval");
  CHECK(out[0] == 3.25 && out[1] == 3.25 && out[2] == 3.25, "repeatval getitem values %g",
        out[0]);
  CHECK_EQ(blosc1_getitem(chunk, 999, 1, out), 8, "%s", "repeatval last");
  CHECK_EQ(blosc2_getitem(chunk, cb, 999, 2, out, sizeof out), BLOSC2_ERROR_INVALID_PARAM, "%s",
           "repeatval out of range");
  cb = blosc2_chunk_zeros(cp, 8000, chunk, sizeof chunk);
  CHECK_EQ(cb, 32, "%s", "zeros");
  memset(out, 0xff, sizeof out);
  CHECK_EQ(blosc2_getitem_ctx(g_dctx, chunk, cb, 5, 8, out, sizeof out), 64, "%s", "zeros");
  for (int i = 0; i < 8; i++) CHECK(out[i] == 0.0, "zeros getitem value %d", i);
  cb = blosc2_chunk_nans(cp, 8000, chunk, sizeof chunk);
  CHECK_EQ(cb, 32, "%s", "nans");
  CHECK_EQ(blosc2_getitem(chunk, cb, 0, 4, out, sizeof out), 32, "%s", "nans");
  for (int i = 0; i < 4; i++) CHECK(isnan(out[i]), "nans getitem value %d", i);
}

int main(void) {
  blosc2_init();
  tc_seed(1234);
  size_t cap = 600000 * 2;
  g_src = tc_malloc(cap);
  g_chunk = tc_malloc(cap + 64);
  g_out = tc_malloc(cap + GUARD + 4096);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  g_dctx = blosc2_create_dctx(dp);
  long cases = 0;
  static const int32_t tss[] = {1, 2, 4, 8, 300};
#ifdef BLOSC2_VARIANT_OURS
  const int nfilt = 4; /* DELTA getitem past the first block is wrong in the reference. */
#else
  const int nfilt = 3;
#endif
  for (int ci = 0; ci < 5; ci++)
    for (int filt = 0; filt < nfilt; filt++)
      for (int ti = 0; ti < 5; ti++) {
        int32_t ts = tss[ti];
        int32_t sizes[] = {ts * 1000, 300000 - 300000 % ts, ts * 20, ts};
        for (int si = 0; si < 4; si++) {
          int clevel = si == 2 ? 0 : (int)(1 + cases % 9);
          check_chunk(codecs[ci], filt, ts, sizes[si], clevel, 1 + (int)(cases % 4),
                      (int)(cases % TC_NKINDS));
          cases++;
        }
      }
  check_special_chunks();
  printf("getitem: %ld chunks\n", cases);
  blosc2_free_ctx(g_dctx);
  blosc2_destroy();
  free(g_src);
  free(g_chunk);
  free(g_out);
  return tc_finish("getitem");
}
