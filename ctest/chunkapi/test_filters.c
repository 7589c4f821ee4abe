/*
 * Prefilter / postfilter callbacks and blosc2_set_maskout.
 *
 * Every callback call is recorded and checked against what the reference passes (measured
 * on c-blosc2 3.3.5). With ebsize = blocksize + 4 * stored typesize and q = ttmp_nbytes / 4:
 *   prefilter : one call per block; nblock; output_size = block size (the last, partial block
 *               is rounded down to a multiple of the typesize by the reference, so its last
 *               bytes are never filtered; ours may pass the full size); output_typesize =
 *               stored typesize; output_offset = nblock * blocksize; nchunk -1 (the schunk's
 *               chunk index when compressing through a super-chunk); tid in [0, nthreads);
 *               ttmp != NULL, ttmp_nbytes = 4 * ebsize; input = src + offset; output = ttmp
 *               (memcpy chunks: chunk + 32 + offset); ctx = the cctx; user_data as given;
 *               output_is_disposable as in cparams.preparams. Parallel compression: each tid
 *               has its own ttmp.
 *   postfilter: one call per block not masked out; size = block size (full last block);
 *               typesize, offset, nchunk, tid as above; ttmp_nbytes = 4 * ebsize for a fresh
 *               context; input = ttmp + q (memcpy / special chunks: ttmp); output = dest +
 *               offset. getitem: one call per touched block with the full block size,
 *               input = ttmp + 2q (memcpy / special: ttmp), output = ttmp + q.
 *   return codes: prefilter < 0 -> compress -18; postfilter < 0 -> decompress / getitem -27.
 *   output_is_disposable set in cparams.preparams -> all-zero-run chunk (32-byte special
 *   zero chunk); setting it inside the callback has no effect. pre/postparams are copied at
 *   context creation.
 *   maskout: masked blocks are neither decoded nor postfiltered (destination untouched),
 *   decompress returns nbytes; the mask is consumed by one decompress_ctx call but not by
 *   getitem; a mask for the wrong number of blocks is accepted (0) and the next decompress
 *   fails with -3.
 */
#include "ca_common.h"

#include <blosc2.h>
#include <pthread.h>

#define MAXREC 4096

typedef struct {
  int32_t nblock, size, typesize, offset, tid;
  int64_t nchunk;
  const uint8_t *input;
  uint8_t *output, *ttmp;
  size_t ttmp_nbytes;
  void *ctx, *user_data;
  int disposable;
} rec_t;

static rec_t g_rec[MAXREC];
static int g_nrec;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_pre_rc, g_post_rc, g_set_disposable;
static int g_tag_a, g_tag_b;

static void record(const rec_t *r) {
  pthread_mutex_lock(&g_mu);
  if (g_nrec < MAXREC) g_rec[g_nrec] = *r;
  g_nrec++;
  pthread_mutex_unlock(&g_mu);
}

/* Prefilter: output = input + 1. */
static int prefilter(blosc2_prefilter_params *p) {
  rec_t r = {p->nblock,
             p->output_size,
             p->output_typesize,
             p->output_offset,
             p->tid,
             p->nchunk,
             p->input,
             p->output,
             p->ttmp,
             p->ttmp_nbytes,
             p->ctx,
             p->user_data,
             p->output_is_disposable};
  record(&r);
  for (int32_t i = 0; i < p->output_size; i++) p->output[i] = (uint8_t)(p->input[i] + 1);
  if (g_set_disposable) p->output_is_disposable = true;
  return g_pre_rc;
}

/* Postfilter: output = input * 2. */
static int postfilter(blosc2_postfilter_params *p) {
  rec_t r = {p->nblock, p->size, p->typesize,    p->offset, p->tid,       p->nchunk, p->input,
             p->output, p->ttmp, p->ttmp_nbytes, p->ctx,    p->user_data, 0};
  record(&r);
  for (int32_t i = 0; i < p->size; i++) p->output[i] = (uint8_t)(p->input[i] * 2);
  return g_post_rc;
}

static int by_block(const void *a, const void *b) {
  return ((const rec_t *)a)->nblock - ((const rec_t *)b)->nblock;
}

static blosc2_context *make_cctx(int ts, int clevel, int blocksize, int nthreads, void *ud,
                                 bool disposable) {
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  pp.user_data = ud;
  pp.output_is_disposable = disposable;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = ts;
  cp.clevel = (uint8_t)clevel;
  cp.blocksize = blocksize;
  cp.nthreads = (int16_t)nthreads;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  return blosc2_create_cctx(cp);
}

static blosc2_context *make_dctx(int nthreads, void *ud) {
  blosc2_postfilter_params qp;
  memset(&qp, 0, sizeof qp);
  qp.user_data = ud;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  dp.postfilter = postfilter;
  dp.postparams = &qp;
  return blosc2_create_dctx(dp);
}

/* Expected size of the prefilter call for a block (see the header comment). */
static int pre_size_ok(int32_t got, int32_t bsize, int32_t ts, int last) {
  if (!last) return got == bsize;
#ifdef BLOSC2_VARIANT_REFERENCE
  return got == bsize - bsize % ts;
#else
  return got == bsize || got == bsize - bsize % ts;
#endif
}

/* One compress / decompress / getitem cycle with both callbacks, all records checked. */
static void run_case(const char *what, int32_t n, int ts, int clevel, int blocksize, int cth,
                     int dth) {
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64);
  uint8_t *out = tc_malloc((size_t)n + 64);
  tc_fill(src, (size_t)n, TC_RAMP, (size_t)ts, 1);
  blosc2_context *c = make_cctx(ts, clevel, blocksize, cth, &g_tag_a, false);
  g_nrec = 0;
  int cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
  REQUIRE(cb > 0, "%s compress -> %d", what, cb);
  int32_t bs = ca_blocksize(chunk), sts = chunk[3];
  int memcpyed = chunk[2] & 0x02;
  int32_t nblocks = (n + bs - 1) / bs, leftover = n % bs;
  size_t ebsize4 = 4 * (size_t)(bs + 4 * sts);
  CHECK_EQ(g_nrec, nblocks, "%s prefilter calls", what);
  qsort(g_rec, (size_t)(g_nrec < MAXREC ? g_nrec : MAXREC), sizeof(rec_t), by_block);
  int32_t covered = n;
  for (int i = 0; i < g_nrec && i < nblocks; i++) {
    rec_t *r = &g_rec[i];
    int last = i == nblocks - 1 && leftover;
    CHECK_EQ(r->nblock, i, "%s prefilter block order", what);
    CHECK(pre_size_ok(r->size, last ? leftover : bs, sts, last), "%s pre block %d size %d", what, i,
          r->size);
    if (last) covered = r->offset + r->size;
    CHECK_EQ(r->typesize, sts, "%s pre block %d typesize", what, i);
    CHECK_EQ(r->offset, i * bs, "%s pre block %d offset", what, i);
    CHECK_EQ(r->nchunk, -1, "%s pre block %d nchunk", what, i);
    CHECK(r->tid >= 0 && r->tid < cth, "%s pre block %d tid %d", what, i, r->tid);
    CHECK(r->ttmp != NULL, "%s pre block %d ttmp NULL", what, i);
    CHECK_EQ(r->ttmp_nbytes, ebsize4, "%s pre block %d ttmp_nbytes", what, i);
    CHECK(r->input == src + r->offset, "%s pre block %d input at src%+ld", what, i,
          (long)(r->input - src));
    if (memcpyed)
      CHECK(r->output == chunk + 32 + r->offset, "%s pre block %d output not in the chunk", what,
            i);
    else
      CHECK(r->output == r->ttmp, "%s pre block %d output at ttmp%+ld", what, i,
            (long)(r->output - r->ttmp));
    CHECK(r->ctx == c, "%s pre block %d ctx", what, i);
    CHECK(r->user_data == &g_tag_a, "%s pre block %d user_data", what, i);
    CHECK_EQ(r->disposable, 0, "%s pre block %d disposable", what, i);
    for (int j = 0; j < i; j++) {
      if (g_rec[j].tid == r->tid)
        CHECK(g_rec[j].ttmp == r->ttmp, "%s pre: tid %d with two ttmp", what, r->tid);
      else
        CHECK(g_rec[j].ttmp != r->ttmp, "%s pre: tids %d and %d share ttmp", what, r->tid,
              g_rec[j].tid);
    }
  }

  blosc2_context *d = make_dctx(dth, &g_tag_b);
  g_nrec = 0;
  memset(out, 0xee, (size_t)n + 64);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "%s decompress", what);
  for (int32_t i = 0; i < covered; i++) {
    if (out[i] != (uint8_t)((src[i] + 1) * 2)) {
      CHECK(0, "%s decoded byte %d is %02x, want %02x", what, i, out[i],
            (uint8_t)((src[i] + 1) * 2));
      break;
    }
  }
  CHECK_FILLED(out + n, 0xee, 64, "%s past nbytes", what);
  CHECK_EQ(g_nrec, nblocks, "%s postfilter calls", what);
  qsort(g_rec, (size_t)(g_nrec < MAXREC ? g_nrec : MAXREC), sizeof(rec_t), by_block);
  for (int i = 0; i < g_nrec && i < nblocks; i++) {
    rec_t *r = &g_rec[i];
    int last = i == nblocks - 1 && leftover;
    CHECK_EQ(r->nblock, i, "%s postfilter block order", what);
    CHECK_EQ(r->size, last ? leftover : bs, "%s post block %d size", what, i);
    CHECK_EQ(r->typesize, sts, "%s post block %d typesize", what, i);
    CHECK_EQ(r->offset, i * bs, "%s post block %d offset", what, i);
    CHECK_EQ(r->nchunk, -1, "%s post block %d nchunk", what, i);
    CHECK(r->tid >= 0 && r->tid < dth, "%s post block %d tid %d", what, i, r->tid);
    CHECK(r->ttmp != NULL, "%s post block %d ttmp NULL", what, i);
    CHECK_EQ(r->ttmp_nbytes, ebsize4, "%s post block %d ttmp_nbytes", what, i);
    if (dth == 1) {
      const uint8_t *want = memcpyed ? r->ttmp : r->ttmp + r->ttmp_nbytes / 4;
      CHECK(r->input == want, "%s post block %d input at ttmp%+ld", what, i,
            (long)(r->input - r->ttmp));
    } else {
      CHECK(r->input >= r->ttmp && r->input + r->size <= r->ttmp + r->ttmp_nbytes,
            "%s post block %d input outside ttmp", what, i);
    }
    CHECK(r->output == out + r->offset, "%s post block %d output at dest%+ld", what, i,
          (long)(r->output - out));
    CHECK(r->ctx == d, "%s post block %d ctx", what, i);
    CHECK(r->user_data == &g_tag_b, "%s post block %d user_data", what, i);
  }

  /* getitem over the boundary of the first two blocks (or inside the only block). */
  int32_t first_item = nblocks > 1 ? (bs - 8) / sts : 1, nitems = 16 / sts;
  if ((first_item + nitems) * sts > covered) first_item = 0;
  blosc2_context *g = make_dctx(1, &g_tag_b);
  g_nrec = 0;
  memset(out, 0xee, 64);
  int rc = blosc2_getitem_ctx(g, chunk, cb, first_item, nitems, out, n);
  CHECK_EQ(rc, nitems * sts, "%s getitem", what);
  for (int32_t i = 0; i < rc; i++) {
    int32_t k = first_item * sts + i;
    if (out[i] != (uint8_t)((src[k] + 1) * 2)) {
      CHECK(0, "%s getitem byte %d", what, i);
      break;
    }
  }
  int32_t touched = (first_item * sts + rc - 1) / bs - first_item * sts / bs + 1;
  CHECK_EQ(g_nrec, touched, "%s getitem postfilter calls", what);
  for (int i = 0; i < g_nrec && i < MAXREC; i++) {
    rec_t *r = &g_rec[i];
    size_t q = r->ttmp_nbytes / 4;
    int last = r->nblock == nblocks - 1 && leftover;
    CHECK_EQ(r->size, last ? leftover : bs, "%s getitem post size", what);
    CHECK_EQ(r->offset, r->nblock * bs, "%s getitem post offset", what);
    CHECK(r->input == (memcpyed ? r->ttmp : r->ttmp + 2 * q), "%s getitem post input at ttmp%+ld",
          what, (long)(r->input - r->ttmp));
    CHECK(r->output == r->ttmp + q, "%s getitem post output at ttmp%+ld", what,
          (long)(r->output - r->ttmp));
  }
  blosc2_free_ctx(g);
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
  free(src);
  free(chunk);
  free(out);
}

static void test_cases(void) {
  run_case("1 block", 100000, 4, 5, 0, 1, 1);
  run_case("10 blocks", 10000, 4, 5, 1000, 1, 1);
  run_case("leftover 6", 10006, 4, 5, 1000, 1, 1);
  run_case("leftover 3", 10003, 4, 5, 1000, 1, 1);
  run_case("ts 1", 10000, 1, 5, 1000, 1, 1);
  run_case("ts 300", 10000, 300, 5, 0, 1, 1);
  run_case("memcpy clevel 0", 10000, 4, 0, 0, 1, 1);
  run_case("memcpy 4 blocks", 10000, 4, 0, 3000, 1, 1);
  run_case("memcpy 20 bytes", 20, 4, 5, 0, 1, 1);
  run_case("4 threads", 1 << 20, 4, 5, 32768, 4, 4);
  run_case("3 threads, 2 to decompress", 100000, 8, 9, 8000, 3, 2);
}

static void test_return_codes_and_flags(void) {
  int32_t n = 4000;
  uint8_t src[4000], chunk[4200], out[4000];
  tc_fill(src, (size_t)n, TC_RANDOM, 4, 1);
  blosc2_context *c = make_cctx(4, 5, 1000, 1, NULL, false);
  g_pre_rc = -5;
  CHECK_EQ(blosc2_compress_ctx(c, src, n, chunk, sizeof chunk), -18, "failing prefilter");
  g_pre_rc = 0;
  int cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  REQUIRE(cb > 32, "compress");
  blosc2_context *d = make_dctx(1, NULL);
  g_post_rc = -5;
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), -27, "failing postfilter");
  CHECK_EQ(blosc2_getitem_ctx(d, chunk, cb, 300, 10, out, n), -27, "failing postfilter, getitem");
  g_post_rc = 0;
  blosc2_free_ctx(d);
  blosc2_free_ctx(c);

  /* output_is_disposable set inside the callback: ignored (same chunk as without). */
  uint8_t plain[4200];
  c = make_cctx(4, 5, 1000, 1, NULL, false);
  int pcb = blosc2_compress_ctx(c, src, n, plain, sizeof plain);
  g_set_disposable = 1;
  cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  g_set_disposable = 0;
  CHECK_EQ(cb, pcb, "disposable set in the callback");
  if (cb == pcb && cb > 0) CHECK_BYTES(chunk, plain, cb, "disposable set in the callback");
  blosc2_free_ctx(c);
  /* output_is_disposable in cparams.preparams: every call sees it, the chunk is all zeros. */
  c = make_cctx(4, 5, 1000, 1, NULL, true);
  g_nrec = 0;
  cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  CHECK_EQ(cb, 32, "disposable chunk size");
  CHECK_EQ(chunk[31], 0x10, "disposable chunk is a zero special chunk");
  CHECK_EQ(g_nrec, 4, "disposable prefilter calls");
  for (int i = 0; i < g_nrec && i < 4; i++)
    CHECK_EQ(g_rec[i].disposable, 1, "disposable flag %d", i);
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress(chunk, cb, out, n), n, "disposable chunk decompress");
  CHECK_FILLED(out, 0, n, "disposable chunk decodes to zeros");
  blosc2_free_ctx(c);

  /* Parameters are copied when the context is created. */
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  pp.user_data = &g_tag_a;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  c = blosc2_create_cctx(cp);
  pp.user_data = &g_tag_b;
  g_nrec = 0;
  cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  CHECK(g_nrec >= 1 && g_rec[0].user_data == &g_tag_a, "preparams copied at creation");
  blosc2_cparams got;
  blosc2_ctx_get_cparams(c, &got);
  CHECK(got.prefilter == prefilter, "ctx_get_cparams prefilter");
  blosc2_free_ctx(c);
  blosc2_postfilter_params qp;
  memset(&qp, 0, sizeof qp);
  qp.user_data = &g_tag_a;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.postfilter = postfilter;
  dp.postparams = &qp;
  d = blosc2_create_dctx(dp);
  qp.user_data = &g_tag_b;
  g_nrec = 0;
  blosc2_decompress_ctx(d, chunk, cb, out, n);
  CHECK(g_nrec >= 1 && g_rec[0].user_data == &g_tag_a, "postparams copied at creation");
  blosc2_free_ctx(d);
}

/* Postfilter on a special chunk and together with a maskout. */
static void test_special_and_maskout(void) {
  int32_t n = 10000;
  uint8_t chunk[10100], out[10000];
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 4000;
  int32_t v = 0x03030303;
  int cb = blosc2_chunk_repeatval(cp, n, chunk, sizeof chunk, &v);
  blosc2_context *d = make_dctx(1, NULL);
  bool mask[3] = {false, true, false};
  CHECK_EQ(blosc2_set_maskout(d, mask, 3), 0, "set_maskout");
  g_nrec = 0;
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "special + postfilter + maskout");
  CHECK_FILLED(out, 6, 4000, "block 0 postfiltered");
  CHECK_FILLED(out + 4000, 0xee, 4000, "block 1 masked");
  CHECK_FILLED(out + 8000, 6, 2000, "block 2 postfiltered");
  CHECK_EQ(g_nrec, 2, "postfilter calls with a mask");
  for (int i = 0; i < g_nrec && i < 2; i++) {
    rec_t *r = &g_rec[i];
    CHECK_EQ(r->nblock, i * 2, "special postfilter block");
    CHECK_EQ(r->size, i ? 2000 : 4000, "special postfilter size");
    CHECK(r->input == r->ttmp, "special postfilter input at ttmp%+ld", (long)(r->input - r->ttmp));
    CHECK(r->output == out + r->offset, "special postfilter output");
  }
  blosc2_free_ctx(d);
}

static void test_schunk_nchunk(void) {
  int32_t n = 8000;
  uint8_t src[8000], out[8000];
  tc_fill(src, (size_t)n, TC_RAMP, 4, 2);
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  blosc2_postfilter_params qp;
  memset(&qp, 0, sizeof qp);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 2000;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.postfilter = postfilter;
  dp.postparams = &qp;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  blosc2_schunk *s = blosc2_schunk_new(&st);
  REQUIRE(s != NULL, "schunk_new");
  for (int k = 0; k < 3; k++) {
    g_nrec = 0;
    CHECK_EQ(blosc2_schunk_append_buffer(s, src, n), k + 1, "append %d", k);
    CHECK_EQ(g_nrec, 4, "append %d prefilter calls", k);
    for (int i = 0; i < g_nrec && i < 4; i++) CHECK_EQ(g_rec[i].nchunk, k, "append %d nchunk", k);
  }
  for (int k = 0; k < 3; k++) {
    g_nrec = 0;
    CHECK_EQ(blosc2_schunk_decompress_chunk(s, k, out, n), n, "decompress_chunk %d", k);
    CHECK_EQ(g_nrec, 4, "decompress_chunk %d postfilter calls", k);
    for (int i = 0; i < g_nrec && i < 4; i++) CHECK_EQ(g_rec[i].nchunk, k, "chunk %d nchunk", k);
    CHECK_EQ(out[100], (uint8_t)((src[100] + 1) * 2), "chunk %d data", k);
  }
  blosc2_schunk_free(s);
}

static void test_maskout(void) {
  int32_t n = 8000;
  uint8_t src[8000], chunk[8200], out[8000];
  tc_fill(src, (size_t)n, TC_RAMP, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 2000;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  bool m[4] = {false, true, false, true};
  CHECK_EQ(blosc2_set_maskout(d, m, 4), 0, "set_maskout");
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "masked decompress");
  CHECK_BYTES(out, src, 2000, "block 0");
  CHECK_FILLED(out + 2000, 0xee, 2000, "block 1 masked");
  CHECK_BYTES(out + 4000, src + 4000, 2000, "block 2");
  CHECK_FILLED(out + 6000, 0xee, 2000, "block 3 masked");
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "mask consumed");
  CHECK_BYTES(out, src, n, "mask consumed: all blocks");
  /* Wrong number of blocks: accepted, then the decompression fails once. */
  CHECK_EQ(blosc2_set_maskout(d, m, 3), 0, "set_maskout 3 blocks");
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), -3, "mask of 3 blocks for 4");
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "after the bad mask");
  CHECK_EQ(blosc2_set_maskout(c, m, 4), 0, "set_maskout on a cctx");
  bool all[4] = {true, true, true, true};
  blosc2_set_maskout(d, all, 4);
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "all masked");
  CHECK_FILLED(out, 0xee, n, "all masked: untouched");
  /* getitem does not consume the mask. */
  blosc2_set_maskout(d, m, 4);
  CHECK_EQ(blosc2_getitem_ctx(d, chunk, cb, 10, 10, out, n), 40, "getitem with a mask");
  CHECK_BYTES(out, src + 40, 40, "getitem in an unmasked block");
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "decompress after getitem");
  CHECK_FILLED(out + 2000, 0xee, 2000, "mask still active after getitem");
  CHECK_BYTES(out, src, 2000, "block 0 after getitem");
  /* Parallel decompression, memcpy chunk, special chunk. */
  dp.nthreads = 4;
  blosc2_context *d4 = blosc2_create_dctx(dp);
  blosc2_set_maskout(d4, m, 4);
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d4, chunk, cb, out, n), n, "4 threads masked");
  CHECK_BYTES(out + 4000, src + 4000, 2000, "4 threads block 2");
  CHECK_FILLED(out + 6000, 0xee, 2000, "4 threads block 3 masked");
  blosc2_free_ctx(d4);
  blosc2_free_ctx(c);
  cp.clevel = 0;
  c = blosc2_create_cctx(cp);
  cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  CHECK_EQ(chunk[2], 0x07, "memcpy chunk");
  blosc2_set_maskout(d, m, 4);
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "memcpy masked");
  CHECK_BYTES(out, src, 2000, "memcpy block 0");
  CHECK_FILLED(out + 2000, 0xee, 2000, "memcpy block 1 masked");
  cp.clevel = 5;
  cb = blosc2_chunk_zeros(cp, n, chunk, sizeof chunk);
  blosc2_set_maskout(d, m, 4);
  memset(out, 0xee, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "zeros masked");
  CHECK_FILLED(out, 0, 2000, "zeros block 0");
  CHECK_FILLED(out + 2000, 0xee, 2000, "zeros block 1 masked");
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
}

int main(void) {
  blosc2_init();
  test_cases();
  test_return_codes_and_flags();
  test_special_and_maskout();
  test_schunk_nchunk();
  test_maskout();
  blosc2_destroy();
  return tc_finish("chunkapi_filters (" CA_VARIANT ")");
}
