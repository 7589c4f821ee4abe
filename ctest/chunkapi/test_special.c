/*
 * Special-value chunks: blosc2_chunk_zeros / nans / repeatval / uninit.
 *   - exact bytes (BEHAVIOUR.md §5) and header fields for several cparams;
 *   - error codes (API.md §7);
 *   - decompress / getitem / global decompress / blosc1 calls on every kind, NaN for
 *     typesize 4 and 8 (others -3), repeated values of typesize 1..300, uninit leaving the
 *     destination untouched;
 *   - the automatic zero detection of blosc2_compress(_ctx).
 * Expected values were measured on the reference c-blosc2 3.3.5.
 */
#include "ca_common.h"

#include <blosc2.h>

static uint8_t g_chunk[4096];
static uint8_t g_out[1 << 20];

static const uint8_t k_header_8000[16] = {0x05, 0x01, 0x05, 0x08, 0x40, 0x1f, 0x00, 0x00,
                                          0x40, 0x1f, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00};

/* The four constructors with default cparams, typesize 8, nbytes 8000. */
static void test_exact_bytes(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  uint8_t want[40];
  static const uint8_t kinds[3] = {0x10, 0x20, 0x40};
  for (int k = 0; k < 3; k++) {
    memset(g_chunk, 0xee, sizeof g_chunk);
    int rc = k == 0   ? blosc2_chunk_zeros(cp, 8000, g_chunk, 64)
             : k == 1 ? blosc2_chunk_nans(cp, 8000, g_chunk, 64)
                      : blosc2_chunk_uninit(cp, 8000, g_chunk, 64);
    CHECK_EQ(rc, 32, "kind %d", k);
    memset(want, 0, sizeof want);
    memcpy(want, k_header_8000, 16);
    want[31] = kinds[k];
    CHECK_BYTES(g_chunk, want, 32, "special kind %d", k);
    CHECK_FILLED(g_chunk + 32, 0xee, 32, "bytes after the special chunk %d", k);
  }
  double v = 3.25;
  memset(g_chunk, 0xee, sizeof g_chunk);
  int rc = blosc2_chunk_repeatval(cp, 8000, g_chunk, 64, &v);
  CHECK_EQ(rc, 40, "repeatval");
  memset(want, 0, sizeof want);
  memcpy(want, k_header_8000, 16);
  want[12] = 0x28;
  want[31] = 0x30;
  memcpy(want + 32, &v, 8);
  CHECK_BYTES(g_chunk, want, 40, "repeatval bytes");
  CHECK_FILLED(g_chunk + 40, 0xee, 24, "bytes after the repeatval chunk");
}

/* Header fields (nbytes, blocksize, typesize byte, cbytes) for various cparams. */
static void test_header_fields(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  double v = 3.25;
  /* nbytes 0: blocksize 1. */
  int rc = blosc2_chunk_zeros(cp, 0, g_chunk, 64);
  CHECK_EQ(rc, 32, "zeros nbytes 0");
  CHECK_EQ(ca_nbytes(g_chunk), 0, "nbytes 0");
  CHECK_EQ(ca_blocksize(g_chunk), 1, "nbytes 0 blocksize");
  rc = blosc2_chunk_repeatval(cp, 0, g_chunk, 64, &v);
  CHECK_EQ(rc, 40, "repeatval nbytes 0");
  CHECK_EQ(g_chunk[31], 0x30, "repeatval nbytes 0 flags");
  rc = blosc2_chunk_nans(cp, 0, g_chunk, 64);
  CHECK_EQ(rc, 32, "nans nbytes 0");
  rc = blosc2_chunk_uninit(cp, 0, g_chunk, 64);
  CHECK_EQ(rc, 32, "uninit nbytes 0");

  /* blocksize as stune computes it: zstd 800000 -> 524288, lz4 clevel 9 1 MiB -> 1 MiB. */
  blosc2_cparams z = cp;
  z.compcode = BLOSC_ZSTD;
  rc = blosc2_chunk_zeros(z, 800000, g_chunk, 64);
  CHECK_EQ(rc, 32, "zstd zeros");
  CHECK_EQ(ca_nbytes(g_chunk), 800000, "zstd");
  CHECK_EQ(ca_blocksize(g_chunk), 524288, "zstd 800000 blocksize");
  CHECK_EQ(g_chunk[2], 0x05, "special flags have no codec bits");
  CHECK_EQ(g_chunk[22], 0, "special udcodec byte");
  z = cp;
  z.compcode = BLOSC_LZ4;
  z.clevel = 9;
  z.nthreads = 4;
  rc = blosc2_chunk_zeros(z, 1 << 20, g_chunk, 64);
  CHECK_EQ(rc, 32, "lz4 zeros");
  CHECK_EQ(ca_blocksize(g_chunk), 1 << 20, "lz4 clevel 9 blocksize");
  z = cp;
  z.blocksize = 1000;
  rc = blosc2_chunk_zeros(z, 8000, g_chunk, 64);
  CHECK_EQ(ca_blocksize(g_chunk), 1000, "explicit blocksize");
  /* Filters, split mode and filters_meta are not recorded. */
  z = cp;
  z.typesize = 4;
  z.splitmode = BLOSC_ALWAYS_SPLIT;
  z.filters[5] = BLOSC_BITSHUFFLE;
  z.filters_meta[0] = 9;
  rc = blosc2_chunk_zeros(z, 100000, g_chunk, 64);
  static const uint8_t want4[32] = {
      0x05, 0x01, 0x05, 0x04, 0xa0, 0x86, 0x01, 0x00, 0xa0, 0x86, 0x01, 0x00, 0x20, 0, 0, 0,
      0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0x10};
  CHECK_EQ(rc, 32, "zeros ts 4");
  CHECK_BYTES(g_chunk, want4, 32, "zeros ts 4 bitshuffle always-split");
  /* The compcode is not checked. */
  z = cp;
  z.compcode = 77;
  rc = blosc2_chunk_zeros(z, 8000, g_chunk, 64);
  CHECK_EQ(rc, 32, "compcode 77");
  CHECK_BYTES(g_chunk, k_header_8000, 16, "compcode 77 header");

  /* typesize 300: header typesize 1, the value occupies cbytes - 32 = 300 bytes. */
  uint8_t val[300];
  for (int i = 0; i < 300; i++) val[i] = (uint8_t)i;
  z = cp;
  z.typesize = 300;
  rc = blosc2_chunk_repeatval(z, 3000, g_chunk, 400, val);
  CHECK_EQ(rc, 332, "repeatval ts 300");
  CHECK_EQ(g_chunk[3], 1, "ts 300 stored as 1");
  CHECK_EQ(ca_cbytes(g_chunk), 332, "ts 300 cbytes");
  CHECK_EQ(ca_blocksize(g_chunk), 3000, "ts 300 blocksize");
  CHECK_BYTES(g_chunk + 32, val, 300, "ts 300 value bytes");
  rc = blosc2_chunk_zeros(z, 3000, g_chunk, 400);
  CHECK_EQ(rc, 32, "zeros ts 300");
  CHECK_EQ(g_chunk[3], 1, "zeros ts 300 stored as 1");
  z.typesize = 3;
  rc = blosc2_chunk_repeatval(z, 3000, g_chunk, 400, val);
  CHECK_EQ(rc, 35, "repeatval ts 3");
  CHECK_EQ(g_chunk[3], 3, "ts 3");

  /* Negative nbytes is not rejected by the reference (header nbytes -8). */
  rc = blosc2_chunk_zeros(cp, -8, g_chunk, 64);
#ifdef BLOSC2_VARIANT_REFERENCE
  CHECK_EQ(rc, 32, "zeros nbytes -8");
  CHECK_EQ(ca_nbytes(g_chunk), -8, "nbytes -8");
  CHECK_EQ(ca_blocksize(g_chunk), 1, "nbytes -8 blocksize");
#else
  CHECK(rc == 32 || rc < 0, "zeros nbytes -8 -> %d", rc);
#endif
  if (rc == 32) {
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    blosc2_context *d = blosc2_create_dctx(dp);
    CHECK(blosc2_decompress_ctx(d, g_chunk, 32, g_out, 100) <= 0, "negative-nbytes chunk decodes");
    CHECK_EQ(blosc2_getitem_ctx(d, g_chunk, 32, 0, 1, g_out, 100), -12, "negative nbytes");
    blosc2_free_ctx(d);
  }
}

static void test_errors(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  double v = 3.25;
  CHECK_EQ(blosc2_chunk_zeros(cp, 8000, g_chunk, 31), -3, "zeros destsize 31");
  CHECK_EQ(blosc2_chunk_zeros(cp, 8000, g_chunk, 32), 32, "zeros destsize 32");
  CHECK_EQ(blosc2_chunk_nans(cp, 8000, g_chunk, 31), -3, "nans destsize 31");
  CHECK_EQ(blosc2_chunk_uninit(cp, 8000, g_chunk, 31), -3, "uninit destsize 31");
  CHECK_EQ(blosc2_chunk_repeatval(cp, 8000, g_chunk, 39, &v), -3, "repeatval destsize 39");
  CHECK_EQ(blosc2_chunk_repeatval(cp, 8000, g_chunk, 40, &v), 40, "repeatval destsize 40");
  blosc2_cparams c3 = cp;
  c3.typesize = 300;
  uint8_t val[300] = {0};
  CHECK_EQ(blosc2_chunk_repeatval(c3, 3000, g_chunk, 331, val), -3, "ts 300 destsize 331");
  /* nbytes not a multiple of the typesize. */
  CHECK_EQ(blosc2_chunk_zeros(cp, 8001, g_chunk, 64), -3, "zeros 8001");
  CHECK_EQ(blosc2_chunk_nans(cp, 8001, g_chunk, 64), -3, "nans 8001");
  CHECK_EQ(blosc2_chunk_uninit(cp, 8001, g_chunk, 64), -3, "uninit 8001");
  CHECK_EQ(blosc2_chunk_repeatval(cp, 8001, g_chunk, 64, &v), -3, "repeatval 8001");
  /* nbytes above BLOSC2_MAX_BUFFERSIZE. */
  int32_t big = BLOSC2_MAX_BUFFERSIZE + 1;
  CHECK_EQ(blosc2_chunk_zeros(cp, big, g_chunk, 64), -35, "zeros too big");
  CHECK_EQ(blosc2_chunk_nans(cp, big, g_chunk, 64), -35, "nans too big");
  CHECK_EQ(blosc2_chunk_uninit(cp, big, g_chunk, 64), -35, "uninit too big");
  CHECK_EQ(blosc2_chunk_repeatval(cp, big, g_chunk, 64, &v), -35, "repeatval too big");
  CHECK_EQ(blosc2_chunk_zeros(cp, 2147483608, g_chunk, 64), 32, "largest multiple of 8");
  /* clevel out of range. */
  blosc2_cparams bad = cp;
  bad.clevel = 10;
  CHECK_EQ(blosc2_chunk_zeros(bad, 8000, g_chunk, 64), -8, "zeros clevel 10");
  CHECK_EQ(blosc2_chunk_nans(bad, 8000, g_chunk, 64), -8, "nans clevel 10");
  CHECK_EQ(blosc2_chunk_uninit(bad, 8000, g_chunk, 64), -8, "uninit clevel 10");
  CHECK_EQ(blosc2_chunk_repeatval(bad, 8000, g_chunk, 64, &v), -8, "repeatval clevel 10");
  /* typesize above BLOSC2_MAXTYPESIZE: -12 (with nbytes 8000 the multiple check fires first). */
  bad = cp;
  bad.typesize = BLOSC2_MAXTYPESIZE + 1;
  CHECK_EQ(blosc2_chunk_zeros(bad, 0, g_chunk, 64), -12, "typesize too big, nbytes 0");
  CHECK_EQ(blosc2_chunk_zeros(bad, 8000, g_chunk, 64), -3, "typesize too big, nbytes 8000");
  CHECK_EQ(blosc2_chunk_nans(bad, 8000, g_chunk, 64), -3, "nans typesize too big");
  bad.typesize = BLOSC2_MAXTYPESIZE;
  CHECK_EQ(blosc2_chunk_zeros(bad, 0, g_chunk, 64), 32, "typesize = MAXTYPESIZE");
  /* A filter id create_cctx rejects: the internal context cannot be created. */
  bad = cp;
  bad.filters[0] = 7;
  CHECK_EQ(blosc2_chunk_zeros(bad, 8000, g_chunk, 64), -32, "zeros filter 7");
  CHECK_EQ(blosc2_chunk_repeatval(bad, 8000, g_chunk, 64, &v), -32, "repeatval filter 7");
}

/* Decode one special chunk with every reader; `expect` NULL means "destination untouched". */
static void decode_all(const char *what, const uint8_t *chunk, int cbytes, int32_t nbytes,
                       const uint8_t *expect, int want_rc) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  uint8_t stored_ts = chunk[3];
  for (int reader = 0; reader < 3; reader++) {
    memset(g_out, 0xab, (size_t)nbytes + 16);
    int rc = reader == 0   ? blosc2_decompress_ctx(d, chunk, cbytes, g_out, nbytes)
             : reader == 1 ? blosc2_decompress(chunk, cbytes, g_out, nbytes)
                           : blosc1_decompress(chunk, g_out, (size_t)nbytes);
    CHECK_EQ(rc, want_rc, "%s reader %d", what, reader);
    if (want_rc > 0 && expect) CHECK_BYTES(g_out, expect, nbytes, "%s reader %d", what, reader);
    if (want_rc < 0 || !expect)
      CHECK_FILLED(g_out, 0xab, nbytes, "%s reader %d untouched", what, reader);
    CHECK_FILLED(g_out + nbytes, 0xab, 16, "%s reader %d past nbytes", what, reader);
  }
  /* getitem of 5 items starting at item 3 (stored typesize units). */
  int32_t nitems = nbytes / stored_ts;
  if (nitems >= 8) {
    memset(g_out, 0xab, 64 + 5 * (size_t)stored_ts);
    int rc = blosc2_getitem_ctx(d, chunk, cbytes, 3, 5, g_out, nbytes);
    int want = want_rc > 0 ? 5 * stored_ts : want_rc;
    CHECK_EQ(rc, want, "%s getitem(3,5)", what);
    if (rc > 0 && expect) CHECK_BYTES(g_out, expect + 3 * stored_ts, rc, "%s getitem data", what);
    if (rc > 0 && !expect) CHECK_FILLED(g_out, 0xab, rc, "%s getitem leaves dest", what);
    rc = blosc2_getitem(chunk, cbytes, 3, 5, g_out, nbytes);
    CHECK_EQ(rc, want, "%s global getitem(3,5)", what);
    CHECK_EQ(blosc2_getitem_ctx(d, chunk, cbytes, nitems + 1, 0, g_out, nbytes), 0,
             "%s getitem nitems 0 out of range", what);
    CHECK_EQ(blosc2_getitem_ctx(d, chunk, cbytes, nitems - 1, 2, g_out, nbytes), -12,
             "%s getitem past the end", what);
  }
  /* Destination too small, source truncated. */
  if (nbytes > 0) {
    CHECK_EQ(blosc2_decompress_ctx(d, chunk, cbytes, g_out, nbytes - 1), -6, "%s destsize", what);
  }
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, 31, g_out, nbytes), -5, "%s srcsize 31", what);
  blosc2_free_ctx(d);
}

static void test_decoding(void) {
  static const int32_t typesizes[] = {1, 2, 3, 4, 7, 8, 16, 255, 256, 300};
  static uint8_t expect[300 * 100];
  uint8_t val[300];
  for (int i = 0; i < 300; i++) val[i] = (uint8_t)(i * 7 + 1);
  for (size_t t = 0; t < sizeof typesizes / sizeof typesizes[0]; t++) {
    int32_t ts = typesizes[t], nbytes = ts * 100;
    char what[64];
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = ts;
    int cb = blosc2_chunk_zeros(cp, nbytes, g_chunk, sizeof g_chunk);
    CHECK_EQ(cb, 32, "zeros ts %d", ts);
    memset(expect, 0, (size_t)nbytes);
    snprintf(what, sizeof what, "zeros ts %d", ts);
    decode_all(what, g_chunk, cb, nbytes, expect, nbytes);

    cb = blosc2_chunk_nans(cp, nbytes, g_chunk, sizeof g_chunk);
    CHECK_EQ(cb, 32, "nans ts %d", ts);
    snprintf(what, sizeof what, "nans ts %d", ts);
    if (ts == 4) {
      for (int i = 0; i < 100; i++) tc_wr32(expect + 4 * i, 0x7fc00000);
      decode_all(what, g_chunk, cb, nbytes, expect, nbytes);
    } else if (ts == 8) {
      for (int i = 0; i < 100; i++) {
        tc_wr32(expect + 8 * i, 0);
        tc_wr32(expect + 8 * i + 4, 0x7ff80000);
      }
      decode_all(what, g_chunk, cb, nbytes, expect, nbytes);
    } else {
      decode_all(what, g_chunk, cb, nbytes, NULL, -3);
    }

    cb = blosc2_chunk_repeatval(cp, nbytes, g_chunk, sizeof g_chunk, val);
    CHECK_EQ(cb, 32 + ts, "repeatval ts %d", ts);
    for (int i = 0; i < nbytes; i++) expect[i] = val[i % ts];
    snprintf(what, sizeof what, "repeatval ts %d", ts);
    if (ts <= 255) {
      decode_all(what, g_chunk, cb, nbytes, expect, nbytes);
    } else {
      /* Stored typesize 1: getitem works in bytes; see test_wide_repeatval_getitem. */
      blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
      blosc2_context *d = blosc2_create_dctx(dp);
      memset(g_out, 0xab, (size_t)nbytes + 16);
      CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, nbytes), nbytes, "%s", what);
      CHECK_BYTES(g_out, expect, nbytes, "%s", what);
      CHECK_FILLED(g_out + nbytes, 0xab, 16, "%s past nbytes", what);
      CHECK_EQ(blosc2_decompress(g_chunk, cb, g_out, nbytes), nbytes, "%s global", what);
      CHECK_BYTES(g_out, expect, nbytes, "%s global", what);
      blosc2_free_ctx(d);
    }

    cb = blosc2_chunk_uninit(cp, nbytes, g_chunk, sizeof g_chunk);
    CHECK_EQ(cb, 32, "uninit ts %d", ts);
    snprintf(what, sizeof what, "uninit ts %d", ts);
    decode_all(what, g_chunk, cb, nbytes, NULL, nbytes);
  }

  /* getitem(10,3) of the 3.25 chunk: 24 bytes of 3.25. */
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  double v = 3.25, got[3];
  int cb = blosc2_chunk_repeatval(cp, 8000, g_chunk, 64, &v);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  CHECK_EQ(blosc2_getitem_ctx(d, g_chunk, cb, 10, 3, got, 24), 24, "getitem 3.25");
  CHECK(got[0] == 3.25 && got[1] == 3.25 && got[2] == 3.25, "getitem 3.25 values");
  CHECK_EQ(blosc2_getitem_ctx(d, g_chunk, cb, 10, 3, got, 23), -6, "getitem destsize 23");
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, 39, g_out, 8000), -11, "repeatval truncated");
  CHECK_EQ(blosc1_getitem(g_chunk, 2, 3, got), 24, "blosc1_getitem 3.25");
  CHECK(got[2] == 3.25, "blosc1_getitem value");
  /* A larger destination is fine; only nbytes are written. */
  memset(g_out, 0xab, 9000);
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, 9000), 8000, "dest larger");
  CHECK_FILLED(g_out + 8000, 0xab, 1000, "dest larger: tail untouched");
  /* Info functions. */
  int32_t nb = -1, cbytes = -1, bs = -1;
  CHECK_EQ(blosc2_cbuffer_sizes(g_chunk, &nb, &cbytes, &bs), 0, "cbuffer_sizes");
  CHECK(nb == 8000 && cbytes == 40 && bs == 8000, "cbuffer_sizes %d %d %d", nb, cbytes, bs);
  const char *lib = blosc2_cbuffer_complib(g_chunk);
  CHECK(lib && strcmp(lib, "BloscLZ") == 0, "complib %s", lib ? lib : "(null)");
  blosc2_free_ctx(d);

  /* A 4 MiB zeros chunk through a 4-thread context (many blocks of a special chunk). */
  cp.typesize = 4;
  cb = blosc2_chunk_zeros(cp, 4 << 20, g_chunk, 64);
  dp.nthreads = 4;
  d = blosc2_create_dctx(dp);
  uint8_t *big = tc_malloc(4 << 20);
  memset(big, 1, 4 << 20);
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, big, 4 << 20), 4 << 20, "4 MiB zeros");
  CHECK_FILLED(big, 0, 4 << 20, "4 MiB zeros, 4 threads");
  cb = blosc2_chunk_uninit(cp, 4 << 20, g_chunk, 64);
  memset(big, 1, 4 << 20);
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, big, 4 << 20), 4 << 20, "4 MiB uninit");
  CHECK_FILLED(big, 1, 4 << 20, "4 MiB uninit, 4 threads");
  free(big);
  blosc2_free_ctx(d);
}

/* Typesize > 255 repeatval: stored typesize 1, so getitem counts bytes. The reference copies
 * the value from its first byte whatever the start (wrong data when start % 300 != 0) and
 * fails (-3) when the byte count is not a multiple of 300. Ours must not return wrong data. */
static void test_wide_repeatval_getitem(void) {
  uint8_t val[300];
  for (int i = 0; i < 300; i++) val[i] = (uint8_t)(i * 7 + 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 300;
  int cb = blosc2_chunk_repeatval(cp, 30000, g_chunk, sizeof g_chunk, val);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  static const int ranges[][2] = {{0, 300}, {300, 600}, {29700, 300}, {0, 30000}, {3, 5},
                                  {0, 256}, {100, 64},  {29999, 1},   {3, 300}};
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    int start = ranges[i][0], n = ranges[i][1];
    memset(g_out, 0xab, 30000);
    int rc = blosc2_getitem_ctx(d, g_chunk, cb, start, n, g_out, 30000);
    int aligned = n % 300 == 0;
    int correct = rc == n;
    for (int j = 0; correct && j < n; j++) correct = g_out[j] == val[(start + j) % 300];
    if (start % 300 == 0 && aligned) {
      CHECK_EQ(rc, n, "ts 300 getitem(%d,%d)", start, n);
      CHECK(correct, "ts 300 getitem(%d,%d) data", start, n);
    } else {
#ifdef BLOSC2_VARIANT_REFERENCE
      CHECK_EQ(rc, aligned ? n : -3, "reference ts 300 getitem(%d,%d)", start, n);
#else
      CHECK(rc == -3 || correct, "ts 300 getitem(%d,%d) -> %d, data %s", start, n, rc,
            correct ? "correct" : "WRONG");
#endif
    }
  }
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, g_chunk, cb, 0, 600, g_out, 30000), 600, "%s",
           "getitem_bytes ts 300");
  CHECK_EQ(blosc2_getitem(g_chunk, cb, 0, 600, g_out, 30000), 600, "global getitem ts 300");
  blosc2_free_ctx(d);
}

/* blosc2_compress(_ctx) turns all-zero input into a 32-byte special chunk. */
static void test_zero_detection(void) {
  static uint8_t zeros[1 << 20];
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  int rc = blosc2_compress_ctx(c, zeros, 100000, g_chunk, sizeof g_chunk);
  static const uint8_t want[32] = {0x05, 0x01, 0x05, 0x04, 0xa0, 0x86, 0x01, 0x00, 0xa0, 0x86, 0x01,
                                   0x00, 0x20, 0,    0,    0,    0,    0,    0,    0,    0,    0x01,
                                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};
  CHECK_EQ(rc, 32, "zeros detected");
  CHECK_BYTES(g_chunk, want, 32, "zero-detected chunk");
  /* A repeated non-zero byte stays a regular chunk with run streams (56 bytes). */
  memset(g_out, 7, 100000);
  rc = blosc2_compress_ctx(c, g_out, 100000, g_chunk, sizeof g_chunk);
  CHECK_EQ(rc, 56, "0x07 run chunk");
  CHECK_EQ(g_chunk[31], 0, "run chunk is not special");
  static const uint8_t run[5] = {0xf9, 0xff, 0xff, 0xff, 0x01};
  for (int s = 0; s < 4 && rc == 56; s++) CHECK_BYTES(g_chunk + 36 + 5 * s, run, 5, "stream %d", s);
  blosc2_free_ctx(c);
  /* zstd, 4 threads, 1 MiB: keeps the codec flags and blocksize. */
  cp.compcode = BLOSC_ZSTD;
  cp.nthreads = 4;
  c = blosc2_create_cctx(cp);
  rc = blosc2_compress_ctx(c, zeros, 1 << 20, g_chunk, sizeof g_chunk);
  CHECK_EQ(rc, 32, "zstd zeros");
  CHECK_EQ(g_chunk[2], 0x85, "zstd zeros flags");
  CHECK_EQ(ca_blocksize(g_chunk), 262144, "zstd zeros blocksize");
  CHECK_EQ(g_chunk[22], 5, "zstd zeros udcodec");
  CHECK_EQ(g_chunk[31], 0x10, "zstd zeros special flag");
  blosc2_free_ctx(c);
  /* Not for clevel 0 (memcpy). */
  cp.clevel = 0;
  c = blosc2_create_cctx(cp);
  uint8_t *big = tc_malloc((1 << 20) + 64);
  rc = blosc2_compress_ctx(c, zeros, 1 << 20, big, (1 << 20) + 64);
  CHECK_EQ(rc, (1 << 20) + 32, "clevel 0 zeros");
  CHECK_EQ(big[2], 0x07, "clevel 0 flags");
  free(big);
  blosc2_free_ctx(c);
  /* The global API too. */
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, zeros, 100000, g_chunk, sizeof g_chunk);
  CHECK_EQ(rc, 32, "global zeros");
  CHECK_EQ(g_chunk[31], 0x10, "global zeros flag");
}

int main(void) {
  blosc2_init();
  test_exact_bytes();
  test_header_fields();
  test_errors();
  test_decoding();
  test_wide_repeatval_getitem();
  test_zero_detection();
  blosc2_destroy();
  return tc_finish("chunkapi_special (" CA_VARIANT ")");
}
