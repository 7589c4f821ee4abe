/*
 * VL-block chunks (BEHAVIOUR.md §11, API.md §13): blosc2_vlcompress_ctx,
 * blosc2_vldecompress_ctx, blosc2_vldecompress_block_ctx, blosc2_vlchunk_get_nblocks,
 * blosc2_decompress_ctx (concatenation), getitem (-12) and the error cases.
 *   - exact bytes of a 3-block chunk (35, 1, 1000 bytes) for lz4 and zstd, layout for blosclz;
 *   - hard-coded reference chunks decode;
 *   - random round trips over codecs, typesizes, filters, split modes, dictionaries, threads;
 *   - errors; the reference crashes (clevel 0, destsize 32..40 and 84 for the example) are
 *     only exercised for ours.
 * Expected values were measured on the reference c-blosc2 3.3.5.
 */
#include "ca_common.h"

#include <blosc2.h>

static uint8_t g_b0[35], g_b1[1], g_b2[1000];
static const void *g_srcs[3] = {g_b0, g_b1, g_b2};
static const int32_t g_sizes[3] = {35, 1, 1000};
static uint8_t g_chunk[1 << 20];

/* The reference's chunks for the example blocks, typesize 1, clevel 5, shuffle. */
static const uint8_t k_lz4_chunk[115] = {
    0x06, 0x01, 0x35, 0x01, 0x0c, 0x04, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x73, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x53, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00, 0x23,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
    0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
    0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x01, 0x00, 0x00, 0x00, 0x77, 0xe8, 0x03,
    0x00, 0x00, 0xaf, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x00,
    0xff, 0xff, 0xff, 0xc9, 0x50, 0x05, 0x06, 0x07, 0x08, 0x09};
static const uint8_t k_zstd_chunk[119] = {
    0x06, 0x01, 0x95, 0x01, 0x0c, 0x04, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x77, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x53, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00, 0x23,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
    0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
    0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x01, 0x00, 0x00, 0x00, 0x77, 0xe8, 0x03,
    0x00, 0x00, 0x28, 0xb5, 0x2f, 0xfd, 0x60, 0xe8, 0x02, 0x8d, 0x00, 0x00, 0x50, 0x00, 0x01,
    0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x01, 0x00, 0xdb, 0x5b, 0x15, 0x24};

static void fill_example(void) {
  for (int i = 0; i < 35; i++) g_b0[i] = (uint8_t)i;
  g_b1[0] = 0x77;
  for (int i = 0; i < 1000; i++) g_b2[i] = (uint8_t)(i % 10);
}

static int compress_example(int codec, int clevel, void *dest, int32_t destsize) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 1;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  blosc2_context *c = blosc2_create_cctx(cp);
  int rc = blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, destsize);
  blosc2_free_ctx(c);
  return rc;
}

/* Everything a reader can do with the example chunk. */
static void check_example_chunk(const char *what, const uint8_t *chunk, int cb) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  int32_t nb = -1;
  CHECK_EQ(blosc2_vlchunk_get_nblocks(chunk, cb, &nb), 0, "%s get_nblocks", what);
  CHECK_EQ(nb, 3, "%s nblocks", what);
  void *dests[4] = {NULL, NULL, NULL, NULL};
  int32_t dsz[4] = {0, 0, 0, 0};
  CHECK_EQ(blosc2_vldecompress_ctx(d, chunk, cb, dests, dsz, 3), 3, "%s vldecompress", what);
  for (int b = 0; b < 3; b++) {
    CHECK_EQ(dsz[b], g_sizes[b], "%s block %d size", what, b);
    if (dests[b] && dsz[b] == g_sizes[b])
      CHECK_BYTES(dests[b], g_srcs[b], dsz[b], "%s block %d", what, b);
    free(dests[b]);
  }
  CHECK_EQ(blosc2_vldecompress_ctx(d, chunk, cb, dests, dsz, 2), -12, "%s maxblocks 2", what);
  for (int b = -1; b <= 3; b++) {
    uint8_t *p = NULL;
    int32_t s = -5;
    int rc = blosc2_vldecompress_block_ctx(d, chunk, cb, b, &p, &s);
    if (b < 0 || b >= 3) {
      CHECK_EQ(rc, -12, "%s block %d", what, b);
      CHECK(p == NULL && s == -5, "%s block %d: outputs written", what, b);
    } else {
      CHECK_EQ(rc, g_sizes[b], "%s block %d", what, b);
      CHECK_EQ(s, g_sizes[b], "%s block %d size", what, b);
      if (p && rc == g_sizes[b]) CHECK_BYTES(p, g_srcs[b], rc, "%s block %d data", what, b);
    }
    free(p);
  }
  /* decompress_ctx concatenates the blocks. */
  static uint8_t out[2048], cat[1036];
  memcpy(cat, g_b0, 35);
  cat[35] = 0x77;
  memcpy(cat + 36, g_b2, 1000);
  memset(out, 0xcc, sizeof out);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, sizeof out), 1036, "%s decompress_ctx", what);
  CHECK_BYTES(out, cat, 1036, "%s concatenation", what);
  CHECK_FILLED(out + 1036, 0xcc, 16, "%s past the end", what);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, 1036), 1036, "%s exact dest", what);
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, 1035), -6, "%s small dest", what);
  memset(out, 0, sizeof out);
  CHECK_EQ(blosc2_decompress(chunk, cb, out, sizeof out), 1036, "%s blosc2_decompress", what);
  CHECK_BYTES(out, cat, 1036, "%s global", what);
  CHECK_EQ(blosc1_decompress(chunk, out, sizeof out), 1036, "%s blosc1_decompress", what);
  /* getitem is not supported on VL chunks. */
  CHECK_EQ(blosc2_getitem_ctx(d, chunk, cb, 0, 1, out, 10), -12, "%s getitem_ctx", what);
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, chunk, cb, 0, 1, out, 10), -12, "%s getitem_bytes", what);
  CHECK_EQ(blosc2_getitem(chunk, cb, 0, 1, out, 10), -12, "%s getitem", what);
  CHECK_EQ(blosc1_getitem(chunk, 0, 1, out), -12, "%s blosc1_getitem", what);
  /* Header info. */
  int32_t nbytes = -1, cbytes = -1, bs = -1;
  CHECK_EQ(blosc2_cbuffer_sizes(chunk, &nbytes, &cbytes, &bs), 0, "%s cbuffer_sizes", what);
  CHECK(nbytes == 1036 && cbytes == cb && bs == 3, "%s sizes %d %d %d", what, nbytes, cbytes, bs);
  int v = -1, vlz = -1;
  blosc2_cbuffer_versions(chunk, &v, &vlz);
  CHECK(v == 6 && vlz == 1, "%s versions %d %d", what, v, vlz);
  size_t ts = 0;
  int flags = 0;
  blosc1_cbuffer_metainfo(chunk, &ts, &flags);
  CHECK(ts == 1 && (flags & 0x10), "%s metainfo ts %zu flags %02x", what, ts, flags);
  /* Truncated source. */
  CHECK_EQ(blosc2_vldecompress_ctx(d, chunk, cb - 1, dests, dsz, 3), -11, "%s truncated", what);
  uint8_t *p = NULL;
  int32_t s = 0;
  CHECK_EQ(blosc2_vldecompress_block_ctx(d, chunk, cb - 1, 2, &p, &s), -11, "%s truncated block",
           what);
  free(p);
  nb = -1;
  CHECK_EQ(blosc2_vlchunk_get_nblocks(chunk, 15, &nb), -5, "%s nblocks srcsize 15", what);
  CHECK_EQ(blosc2_vlchunk_get_nblocks(chunk, 31, &nb), -5, "%s nblocks srcsize 31", what);
  CHECK_EQ(nb, -1, "%s nblocks untouched on error", what);
  CHECK_EQ(blosc2_vlchunk_get_nblocks(chunk, cb, NULL), -12, "%s nblocks NULL out", what);
  CHECK_EQ(blosc2_vlchunk_get_nblocks(NULL, cb, &nb), -12, "%s nblocks NULL src", what);
  blosc2_free_ctx(d);
}

static void test_example(void) {
  int cb = compress_example(BLOSC_LZ4, 5, g_chunk, sizeof g_chunk);
  CHECK_EQ(cb, 115, "lz4 example size");
  if (cb == 115) CHECK_BYTES(g_chunk, k_lz4_chunk, 115, "lz4 example bytes");
  cb = compress_example(BLOSC_ZSTD, 5, g_chunk, sizeof g_chunk);
  CHECK_EQ(cb, 119, "zstd example size");
  if (cb == 119) CHECK_BYTES(g_chunk, k_zstd_chunk, 119, "zstd example bytes");
  /* blosclz: same layout up to the compressed third block (the codec's output may differ). */
  cb = compress_example(BLOSC_BLOSCLZ, 5, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 92, "blosclz example -> %d", cb);
  uint8_t want[92];
  memcpy(want, k_lz4_chunk, 92);
  want[2] = 0x15;
  want[22] = 0;
  tc_wr32(want + 12, cb);
  CHECK_BYTES(g_chunk, want, 92, "blosclz example layout");
  CHECK_EQ(ca_cbytes(g_chunk), cb, "blosclz cbytes field");
  check_example_chunk("blosclz", g_chunk, cb);
  check_example_chunk("reference lz4 bytes", k_lz4_chunk, sizeof k_lz4_chunk);
  check_example_chunk("reference zstd bytes", k_zstd_chunk, sizeof k_zstd_chunk);
}

/* Header bytes for the other codecs (ts 8 default cparams) and a single 1-byte block. */
static void test_headers(void) {
  static const struct {
    int codec;
    uint8_t flags;
  } codecs[] = {{BLOSC_BLOSCLZ, 0x15},
                {BLOSC_LZ4, 0x35},
                {BLOSC_LZ4HC, 0x35},
                {BLOSC_ZLIB, 0x75},
                {BLOSC_ZSTD, 0x95}};
  for (int k = 0; k < 5; k++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = (uint8_t)codecs[k].codec;
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, g_chunk, sizeof g_chunk);
    blosc2_free_ctx(c);
    REQUIRE(cb > 48, "codec %d -> %d", codecs[k].codec, cb);
    uint8_t want[48];
    memcpy(want, k_lz4_chunk, 48);
    want[2] = codecs[k].flags;
    want[3] = 8;
    tc_wr32(want + 12, cb);
    want[22] = (uint8_t)codecs[k].codec;
    CHECK_BYTES(g_chunk, want, 48, "ts 8 codec %d header", codecs[k].codec);
  }
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_vlcompress_ctx(c, g_srcs + 1, g_sizes + 1, 1, g_chunk, sizeof g_chunk);
  static const uint8_t single[41] = {
      0x06, 0x01, 0x15, 0x08, 0x01, 0, 0, 0, 0x01, 0,    0, 0,    0x29, 0, 0, 0,    0, 0, 0, 0,   0,
      0x01, 0,    0,    0,    0,    0, 0, 0, 0,    0x01, 0, 0x24, 0,    0, 0, 0x01, 0, 0, 0, 0x77};
  CHECK_EQ(cb, 41, "single 1-byte block");
  CHECK_BYTES(g_chunk, single, 41, "single 1-byte block bytes");
  /* DELTA is recorded in flags (0x1d) and filters. */
  blosc2_free_ctx(c);
  cp.filters[4] = BLOSC_DELTA;
  c = blosc2_create_cctx(cp);
  cb = blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, g_chunk, sizeof g_chunk);
  CHECK(cb > 32 && g_chunk[2] == 0x1d && g_chunk[20] == BLOSC_DELTA, "delta header %02x",
        g_chunk[2]);
  blosc2_free_ctx(c);
}

static void test_errors(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 1;
  blosc2_context *c = blosc2_create_cctx(cp);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  uint8_t *dest = g_chunk + 4096;
  CHECK_EQ(blosc2_vlcompress_ctx(d, g_srcs, g_sizes, 3, dest, 2000), -12, "dctx");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 0, dest, 2000), -12, "nblocks 0");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, -1, dest, 2000), -12, "nblocks -1");
  const int32_t zero_size[3] = {35, 0, 1000}, neg_size[3] = {35, -1, 1000};
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, zero_size, 3, dest, 2000), -12, "block size 0");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, neg_size, 3, dest, 2000), -12, "block size -1");
  CHECK_EQ(blosc2_vlcompress_ctx(c, NULL, g_sizes, 3, dest, 2000), -12, "NULL srcs");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, NULL, 3, dest, 2000), -12, "NULL sizes");
  const void *null_block[3] = {g_b0, NULL, g_b2};
  CHECK_EQ(blosc2_vlcompress_ctx(c, null_block, g_sizes, 3, dest, 2000), -12, "NULL block");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, 31), -35, "destsize 31");
  /* Total size above BLOSC2_MAX_BUFFERSIZE: rejected before reading the blocks. */
  const int32_t huge[2] = {1 << 30, 1 << 30};
  const void *two[2] = {g_b2, g_b2};
  CHECK_EQ(blosc2_vlcompress_ctx(c, two, huge, 2, dest, 2000), -35, "1 GiB + 1 GiB");
  const int32_t huge2[2] = {2000000000, 2000000000};
  CHECK_EQ(blosc2_vlcompress_ctx(c, two, huge2, 2, dest, 2000), -35, "2e9 + 2e9");
  /* No memcpy fallback: 0 when it does not fit; the reference needs 158 bytes for 113. */
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, 200), 113, "destsize 200");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, 160), 113, "destsize 160");
#ifdef BLOSC2_VARIANT_REFERENCE
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, 100), 0, "destsize 100");
  CHECK_EQ(blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, 150), 0, "destsize 150");
#endif
#ifdef BLOSC2_VARIANT_OURS
  /* The reference crashes for some of these (32..40, 84): ours returns 0 or an error when
   * the chunk does not fit, and a decodable chunk otherwise. */
  for (int ds = 32; ds < 200; ds++) {
    memset(dest, 0, 256);
    int rc = blosc2_vlcompress_ctx(c, g_srcs, g_sizes, 3, dest, ds);
    if (ds < 113) {
      CHECK(rc <= 0, "destsize %d -> %d", ds, rc);
    } else {
      CHECK(rc == 0 || rc == 113, "destsize %d -> %d", ds, rc);
      if (rc == 113) check_example_chunk("small destsize", dest, rc);
    }
  }
  /* clevel 0 crashes the reference: ours fails cleanly or writes a decodable chunk. */
  int rc = compress_example(BLOSC_BLOSCLZ, 0, dest, 4096);
  CHECK(rc <= 0 || rc > 32, "clevel 0 -> %d", rc);
  if (rc > 32) check_example_chunk("clevel 0", dest, rc);
#endif
  /* Readers on a chunk that is not VL, and with the wrong kind of context. */
  int cb = blosc2_compress_ctx(c, g_b2, 1000, g_chunk, 2000);
  REQUIRE(cb > 0, "regular chunk");
  int32_t nb = -7;
  CHECK_EQ(blosc2_vlchunk_get_nblocks(g_chunk, cb, &nb), -12, "nblocks of a regular chunk");
  CHECK_EQ(nb, -7, "nblocks untouched");
  uint8_t *p = NULL;
  int32_t s = 0;
  CHECK_EQ(blosc2_vldecompress_block_ctx(d, g_chunk, cb, 0, &p, &s), -12, "block of regular");
  void *dests[3];
  int32_t dsz[3];
  CHECK_EQ(blosc2_vldecompress_ctx(d, g_chunk, cb, dests, dsz, 3), -12, "vldecompress regular");
  cb = compress_example(BLOSC_BLOSCLZ, 5, g_chunk, 4096);
  CHECK_EQ(blosc2_vldecompress_ctx(c, g_chunk, cb, dests, dsz, 3), -12, "vldecompress with cctx");
  CHECK_EQ(blosc2_vldecompress_block_ctx(c, g_chunk, cb, 0, &p, &s), -12, "block with cctx");
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
}

/* Random round trips. DELTA is excluded: the reference does not round-trip VL chunks with
 * DELTA (wrong data, no error); ours must either refuse them or round-trip. */
static void test_roundtrips(void) {
  enum { MAXB = 48, MAXS = 5000 };
  static uint8_t data[MAXB][MAXS], cat[MAXB * MAXS], out[MAXB * MAXS];
  const void *srcs[MAXB];
  int32_t sz[MAXB];
  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  static const int typesizes[] = {1, 2, 3, 4, 8, 16};
  for (int trial = 0; trial < 160; trial++) {
    tc_seed((uint64_t)trial + 1);
    int nb = 1 + (int)tc_rand_below(MAXB);
    int ts = typesizes[tc_rand_below(6)];
    int codec = codecs[tc_rand_below(5)];
    int filt = (int)tc_rand_below(trial % 8 == 7 ? 4 : 3);
    int nth = 1 + 2 * (int)tc_rand_below(2);
    int clevel = 1 + (int)tc_rand_below(9);
    int split = 1 + (int)tc_rand_below(4);
    int dict = (codec == BLOSC_LZ4 || codec == BLOSC_ZSTD) && tc_rand_below(4) == 0;
    size_t pos = 0;
    for (int b = 0; b < nb; b++) {
      sz[b] = 1 + (int32_t)tc_rand_below(tc_rand_below(2) ? MAXS : 100);
      tc_fill(data[b], (size_t)sz[b], (int)tc_rand_below(TC_NKINDS), (size_t)ts,
              (uint64_t)trial * 100 + (uint64_t)b);
      srcs[b] = data[b];
      memcpy(cat + pos, data[b], (size_t)sz[b]);
      pos += (size_t)sz[b];
    }
    char what[160];
    snprintf(what, sizeof what,
             "trial %d nb=%d ts=%d codec=%d filt=%d nth=%d cl=%d split=%d dict=%d", trial, nb, ts,
             codec, filt, nth, clevel, split, dict);
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = ts;
    cp.compcode = (uint8_t)codec;
    cp.nthreads = (int16_t)nth;
    cp.clevel = (uint8_t)clevel;
    cp.splitmode = split;
    cp.use_dict = dict;
    memset(cp.filters, 0, sizeof cp.filters);
    if (filt == 1) cp.filters[5] = BLOSC_SHUFFLE;
    if (filt == 2) cp.filters[5] = BLOSC_BITSHUFFLE;
    if (filt == 3) cp.filters[4] = BLOSC_DELTA;
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_vlcompress_ctx(c, srcs, sz, nb, g_chunk, sizeof g_chunk);
    blosc2_free_ctx(c);
    if (filt == 3) {
#ifdef BLOSC2_VARIANT_REFERENCE
      continue;
#else
      if (cb <= 0) continue;
#endif
    }
    REQUIRE(cb > 32, "%s -> %d", what, cb);
    CHECK_EQ(g_chunk[0], 6, "%s version", what);
    CHECK_EQ(g_chunk[30], 1, "%s flags2", what);
    CHECK_EQ(ca_blocksize(g_chunk), nb, "%s blocksize field", what);
    CHECK_EQ(ca_nbytes(g_chunk), (int32_t)pos, "%s nbytes", what);
    CHECK(g_chunk[2] & 0x10, "%s flags %02x lack the no-split bit", what, g_chunk[2]);
    /* A dictionary may be dropped when too small to help (plain chunk then). */
    CHECK(dict ? (g_chunk[31] & 0xfe) == 0 : g_chunk[31] == 0, "%s blosc2 flags %02x", what,
          g_chunk[31]);
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.nthreads = (int16_t)nth;
    blosc2_context *d = blosc2_create_dctx(dp);
    void *dests[MAXB];
    int32_t dsz[MAXB];
    int rc = blosc2_vldecompress_ctx(d, g_chunk, cb, dests, dsz, MAXB);
    CHECK_EQ(rc, nb, "%s vldecompress", what);
    for (int b = 0; b < rc; b++) {
      CHECK_EQ(dsz[b], sz[b], "%s block %d size", what, b);
      if (dsz[b] == sz[b]) CHECK_BYTES(dests[b], data[b], sz[b], "%s block %d", what, b);
      free(dests[b]);
    }
    int b = (int)tc_rand_below((uint32_t)nb);
    uint8_t *p = NULL;
    int32_t s = 0;
    rc = blosc2_vldecompress_block_ctx(d, g_chunk, cb, b, &p, &s);
    CHECK_EQ(rc, sz[b], "%s block_ctx %d", what, b);
    if (p && rc == sz[b]) CHECK_BYTES(p, data[b], rc, "%s block_ctx %d data", what, b);
    free(p);
    rc = blosc2_decompress_ctx(d, g_chunk, cb, out, sizeof out);
    CHECK_EQ(rc, (int)pos, "%s decompress_ctx", what);
    if (rc == (int)pos) CHECK_BYTES(out, cat, pos, "%s concatenation", what);
    blosc2_free_ctx(d);
  }
}

int main(void) {
  blosc2_init();
  fill_example();
  test_example();
  test_headers();
  test_errors();
  test_roundtrips();
  blosc2_destroy();
  return tc_finish("chunkapi_vlchunks (" CA_VARIANT ")");
}
