/*
 * Round trips through the context API and the global API over codecs x filters x
 * typesizes x sizes x clevels x split modes x thread counts, on several kinds of data.
 * The full cross product is pruned: small sizes get the whole grid, 1 MB a rotating
 * subset, 8 MB a handful of cases. TRUNC_PREC (lossy) is checked against the exact
 * bit mask it must apply.
 */
#include <blosc2.h>
#include <time.h>

#include "test_common.h"

static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
static const char *codec_names[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
#define NCODECS 5

enum { F_NONE, F_SHUFFLE, F_BITSHUFFLE, F_DELTA_SHUFFLE, NFILTERS };
static const char *filter_names[] = {"none", "shuffle", "bitshuffle", "delta+shuffle"};

static const int32_t typesizes[] = {1, 2, 3, 4, 7, 8, 16, 255, 300};
#define NTYPESIZES 9

#define GUARD 64

/*
 * Known reference bug: with DELTA, the trailing nbytes % typesize bytes of a chunk are not
 * written by the reference's delta encoder (they decode to leftovers of its scratch
 * buffer). The reference variant skips those bytes; ours must round-trip them exactly
 * (storing them unfiltered keeps the chunk readable by the reference decoder).
 */
static int32_t delta_tail(int has_delta, int32_t ts, int32_t nbytes) {
#ifdef BLOSC2_VARIANT_REFERENCE
  if (!has_delta || ts <= 1) return 0;
  int32_t eff = (ts == 2 || ts == 4 || ts == 8) ? ts : (ts % 8 == 0 ? 8 : 1);
  if (ts > 255) eff = 1;
  return nbytes % eff;
#else
  (void)has_delta;
  (void)ts;
  (void)nbytes;
  return 0;
#endif
}
#define MB (1024 * 1024)

static void set_filters(blosc2_cparams *cp, int filt) {
  memset(cp->filters, 0, sizeof(cp->filters));
  memset(cp->filters_meta, 0, sizeof(cp->filters_meta));
  switch (filt) {
    case F_SHUFFLE: cp->filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_SHUFFLE; break;
    case F_BITSHUFFLE: cp->filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_BITSHUFFLE; break;
    case F_DELTA_SHUFFLE:
      cp->filters[BLOSC2_MAX_FILTERS - 2] = BLOSC_DELTA;
      cp->filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_SHUFFLE;
      break;
    default: break;
  }
}

/* Reusable buffers sized for the largest case. */
static uint8_t *g_src, *g_comp, *g_dec;
static size_t g_cap;

static void ensure_capacity(size_t n) {
  if (n <= g_cap && g_src) return;
  if (n < 4096) n = 4096;
  free(g_src);
  free(g_comp);
  free(g_dec);
  g_src = tc_malloc(n);
  g_comp = tc_malloc(n + BLOSC2_MAX_OVERHEAD + GUARD);
  g_dec = tc_malloc(n + GUARD);
  g_cap = n;
}

static long g_cases = 0;

/* Check the 32-byte header of a chunk made from nbytes of typesize ts. */
static void check_header(const uint8_t *c, int cbytes, int32_t nbytes, int32_t ts,
                         const char *ctx) {
  CHECK_EQ(c[BLOSC2_CHUNK_VERSION], BLOSC2_VERSION_FORMAT_STABLE, "%s", ctx);
  CHECK_EQ(c[BLOSC2_CHUNK_VERSIONLZ], 1, "%s", ctx);
  CHECK_EQ(c[BLOSC2_CHUNK_TYPESIZE], ts > 255 ? 1 : ts, "%s", ctx);
  CHECK_EQ(tc_rd32(c + BLOSC2_CHUNK_NBYTES), nbytes, "%s", ctx);
  CHECK_EQ(tc_rd32(c + BLOSC2_CHUNK_CBYTES), cbytes, "%s", ctx);
  CHECK((c[BLOSC2_CHUNK_FLAGS] & 0x05) == 0x05, "extended-header flag bits missing [%s]", ctx);
  int32_t nb = -1, cb = -1, bs = -1;
  int rc = blosc2_cbuffer_sizes(c, &nb, &cb, &bs);
  CHECK_EQ(rc, 0, "%s", ctx);
  CHECK_EQ(nb, nbytes, "%s", ctx);
  CHECK_EQ(cb, cbytes, "%s", ctx);
  CHECK(bs >= 1 && (nbytes == 0 || bs <= nbytes), "blocksize %d out of range [%s]", bs, ctx);
}

/* Decompress comp into g_dec with a context of nthreads and compare with g_src. */
static void check_decompress_ctx(const uint8_t *comp, int cbytes, int32_t nbytes, int nthreads,
                                 int32_t tail, const char *ctx) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  blosc2_context *dctx = blosc2_create_dctx(dp);
  CHECK(dctx != NULL, "create_dctx failed [%s]", ctx);
  if (!dctx) return;
  memset(g_dec, 0xA5, (size_t)nbytes + GUARD);
  int rc = blosc2_decompress_ctx(dctx, comp, cbytes, g_dec, nbytes);
  CHECK_EQ(rc, nbytes, "decompress_ctx nthreads=%d %s", nthreads, ctx);
  CHECK(memcmp(g_src, g_dec, (size_t)(nbytes - tail)) == 0, "decoded data differs [%s]", ctx);
  for (int i = 0; i < GUARD; i++) {
    if (g_dec[nbytes + i] != 0xA5) {
      CHECK(0, "write past destination end at +%d [%s]", i, ctx);
      break;
    }
  }
  blosc2_free_ctx(dctx);
}

/* One context-API round trip. Returns the compressed size (or <= 0 on failure). */
static int roundtrip_ctx(int ci, int filt, int32_t ts, int32_t nbytes, int clevel, int split,
                         int nthreads, int kind, uint64_t seed) {
  char ctx[200];
  snprintf(ctx, sizeof ctx, "%s %s ts=%d n=%d cl=%d split=%d thr=%d %s", codec_names[ci],
           filter_names[filt], ts, nbytes, clevel, split, nthreads, tc_kind_name(kind));
  ensure_capacity((size_t)nbytes);
  tc_fill(g_src, (size_t)nbytes, kind, (size_t)ts, seed);
  g_cases++;

  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codecs[ci];
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  cp.nthreads = (int16_t)nthreads;
  cp.splitmode = split;
  set_filters(&cp, filt);
  blosc2_context *cctx = blosc2_create_cctx(cp);
  CHECK(cctx != NULL, "create_cctx failed [%s]", ctx);
  if (!cctx) return -1;
  int32_t destsize = nbytes + BLOSC2_MAX_OVERHEAD;
  memset(g_comp + destsize, 0x5A, GUARD);
  int cbytes = blosc2_compress_ctx(cctx, g_src, nbytes, g_comp, destsize);
  CHECK(cbytes > 0 && cbytes <= destsize, "compress_ctx returned %d (destsize %d) [%s]", cbytes,
        destsize, ctx);
  for (int i = 0; i < GUARD; i++) {
    if (g_comp[destsize + i] != 0x5A) {
      CHECK(0, "compress wrote past destsize [%s]", ctx);
      break;
    }
  }
  blosc2_free_ctx(cctx);
  if (cbytes <= 0) return cbytes;
  check_header(g_comp, cbytes, nbytes, ts, ctx);
  int32_t tail = delta_tail(filt == F_DELTA_SHUFFLE, ts, nbytes);
  check_decompress_ctx(g_comp, cbytes, nbytes, nthreads, tail, ctx);
  /* A chunk made with N threads decodes with the other thread count too. */
  if (nbytes >= 65536) check_decompress_ctx(g_comp, cbytes, nbytes, 3 - nthreads, tail, ctx);
  return cbytes;
}

static void grid_small(void) {
  long before = g_cases;
  for (int ci = 0; ci < NCODECS; ci++)
    for (int filt = 0; filt < NFILTERS; filt++)
      for (int ti = 0; ti < NTYPESIZES; ti++) {
        int32_t ts = typesizes[ti];
        int32_t sizes[] = {0, 1, ts - 1, 1024, 10007};
        for (int si = 0; si < 5; si++) {
          if (si == 2 && ts <= 2) continue; /* ts-1 is 0 or 1: already covered */
          static const int clevels[] = {0, 1, 5, 9};
          for (int cl = 0; cl < 4; cl++)
            for (int split = 1; split <= 4; split++)
              for (int thr = 1; thr <= 2; thr++) {
                int kind = (int)((g_cases * 7 + (long)ti) % TC_NKINDS);
                roundtrip_ctx(ci, filt, ts, sizes[si], clevels[cl], split, thr, kind,
                              (uint64_t)g_cases);
              }
        }
      }
  printf("small grid: %ld cases\n", g_cases - before);
}

static void grid_1mb(void) {
  long before = g_cases;
  int rot = 0;
  for (int ci = 0; ci < NCODECS; ci++)
    for (int filt = 0; filt < NFILTERS; filt++)
      for (int ti = 0; ti < NTYPESIZES; ti++) {
        int32_t ts = typesizes[ti];
        int kind = (rot++) % TC_NKINDS;
        static const int clevels[] = {5, 1, 9};
        /* Alternate between the default settings with 2 threads and a rotating variant. */
        if (rot % 2)
          roundtrip_ctx(ci, filt, ts, MB, 5, BLOSC_FORWARD_COMPAT_SPLIT, 2, kind, 11);
        else {
          int r = rot / 2;
          roundtrip_ctx(ci, filt, ts, MB + (r % 2) * 333, clevels[r % 3], 1 + r % 3, 1 + r % 2,
                        kind, 12);
        }
      }
  printf("1 MB grid: %ld cases\n", g_cases - before);
}

static void grid_8mb(void) {
  long before = g_cases;
  for (int ci = 0; ci < NCODECS; ci++)
    roundtrip_ctx(ci, F_SHUFFLE, 4, 8 * MB, 5, BLOSC_FORWARD_COMPAT_SPLIT, 2, TC_FLOATS, 1);
  roundtrip_ctx(4, F_BITSHUFFLE, 8, 8 * MB, 5, BLOSC_FORWARD_COMPAT_SPLIT, 2, TC_RAMP, 2);
  roundtrip_ctx(1, F_DELTA_SHUFFLE, 8, 8 * MB, 1, BLOSC_ALWAYS_SPLIT, 2, TC_TEXT, 3);
  roundtrip_ctx(0, F_NONE, 1, 8 * MB + 7, 9, BLOSC_NEVER_SPLIT, 1, TC_LOWENT, 4);
  printf("8 MB cases: %ld\n", g_cases - before);
}

/* All ten clevels for a subset; compressed size must not explode with the level. */
static void grid_all_clevels(void) {
  long before = g_cases;
  for (int ci = 0; ci < NCODECS; ci++) {
    int32_t sizes[] = {10007, MB};
    for (int si = 0; si < 2; si++)
      for (int cl = 0; cl <= 9; cl++) {
        int cb = roundtrip_ctx(ci, F_SHUFFLE, 4, sizes[si], cl, BLOSC_FORWARD_COMPAT_SPLIT, 1,
                               TC_FLOATS, 5);
        if (cl == 0) CHECK_EQ(cb, sizes[si] + BLOSC2_MAX_OVERHEAD, "clevel 0 is memcpy %s",
                              codec_names[ci]);
        else CHECK(cb < sizes[si], "clevel %d did not compress %s", cl, codec_names[ci]);
      }
  }
  printf("all-clevels: %ld cases\n", g_cases - before);
}

/* TRUNC_PREC keeps `prec` mantissa bits: decoded == original with the low bits cleared. */
static void check_trunc_prec(void) {
  const int32_t n = 100000;
  for (int ts = 4; ts <= 8; ts += 4)
    for (int ci = 0; ci < NCODECS; ci++) {
      int prec = ts == 4 ? 10 : 23;
      ensure_capacity((size_t)n * (size_t)ts);
      int32_t nbytes = n * ts;
      tc_fill(g_src, (size_t)nbytes, TC_FLOATS, (size_t)ts, 9);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.compcode = (uint8_t)codecs[ci];
      cp.typesize = ts;
      memset(cp.filters, 0, sizeof cp.filters);
      cp.filters[0] = BLOSC_TRUNC_PREC;
      cp.filters_meta[0] = (uint8_t)prec;
      cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_SHUFFLE;
      blosc2_context *cctx = blosc2_create_cctx(cp);
      int cbytes = blosc2_compress_ctx(cctx, g_src, nbytes, g_comp, nbytes + 32);
      blosc2_free_ctx(cctx);
      CHECK(cbytes > 0, "trunc_prec compress %d ts=%d %s", cbytes, ts, codec_names[ci]);
      if (cbytes <= 0) continue;
      CHECK_EQ(g_comp[BLOSC2_CHUNK_FILTER_CODES], BLOSC_TRUNC_PREC, "ts=%d", ts);
      CHECK_EQ(g_comp[BLOSC2_CHUNK_FILTER_META], prec, "ts=%d", ts);
      blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
      blosc2_context *dctx = blosc2_create_dctx(dp);
      int rc = blosc2_decompress_ctx(dctx, g_comp, cbytes, g_dec, nbytes);
      blosc2_free_ctx(dctx);
      CHECK_EQ(rc, nbytes, "trunc_prec decompress ts=%d %s", ts, codec_names[ci]);
      long bad = 0;
      for (int32_t i = 0; i < n; i++) {
        if (ts == 4) {
          uint32_t o, d;
          memcpy(&o, g_src + 4 * i, 4);
          memcpy(&d, g_dec + 4 * i, 4);
          uint32_t mask = ~((1u << (23 - prec)) - 1u);
          if (d != (o & mask)) bad++;
        } else {
          uint64_t o, d;
          memcpy(&o, g_src + 8 * (size_t)i, 8);
          memcpy(&d, g_dec + 8 * (size_t)i, 8);
          uint64_t mask = ~((1ull << (52 - prec)) - 1ull);
          if (d != (o & mask)) bad++;
        }
      }
      CHECK(bad == 0, "trunc_prec ts=%d %s: %ld values not truncated as expected", ts,
            codec_names[ci], bad);
    }
}

/* Global API: blosc2_compress / blosc1_compress must produce exactly what a context with
 * the equivalent parameters produces, and decode through every global entry point. */
static void check_global_api(void) {
  long cases = 0;
  static const int32_t gts[] = {1, 2, 4, 8, 255, 300};
  static const int32_t gsizes[] = {0, 1, 100, 10007, 70000};
  blosc2_init();
  blosc2_set_nthreads(1);
  blosc1_set_blocksize(0);
  blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT);
  uint8_t *ref = tc_malloc(300000 + 64);
  for (int ci = 0; ci < NCODECS; ci++) {
    CHECK_EQ(blosc1_set_compressor(codec_names[ci]), codecs[ci], "%s", codec_names[ci]);
    for (int doshuffle = 0; doshuffle <= 2; doshuffle++)
      for (int delta = 0; delta <= 1; delta++)
        for (int ti = 0; ti < 6; ti++)
          for (int si = 0; si < 5; si++) {
            static const int clevels[] = {0, 5, 9};
            int32_t ts = gts[ti], n = gsizes[si];
            int clevel = clevels[(cases) % 3];
            char ctx[160];
            snprintf(ctx, sizeof ctx, "global %s shuf=%d delta=%d ts=%d n=%d cl=%d",
                     codec_names[ci], doshuffle, delta, ts, n, clevel);
            cases++;
            ensure_capacity((size_t)n);
            tc_fill(g_src, (size_t)n, (int)(cases % TC_NKINDS), (size_t)ts, (uint64_t)cases);
            blosc2_set_delta(delta);
            int cb = blosc2_compress(clevel, doshuffle, ts, g_src, n, g_comp, n + 32);
            CHECK(cb > 0, "blosc2_compress returned %d [%s]", cb, ctx);
            if (cb <= 0) continue;
            check_header(g_comp, cb, n, ts, ctx);

            /* Equivalent context. */
            blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
            cp.compcode = (uint8_t)codecs[ci];
            cp.clevel = (uint8_t)clevel;
            cp.typesize = ts;
            memset(cp.filters, 0, sizeof cp.filters);
            if (doshuffle == BLOSC_SHUFFLE && ts > 1) cp.filters[5] = BLOSC_SHUFFLE;
            if (doshuffle == BLOSC_BITSHUFFLE) cp.filters[5] = BLOSC_BITSHUFFLE;
            if (delta) cp.filters[4] = BLOSC_DELTA;
            blosc2_context *cctx = blosc2_create_cctx(cp);
            int cb2 = blosc2_compress_ctx(cctx, g_src, n, ref, n + 32);
            blosc2_free_ctx(cctx);
            CHECK(cb2 == cb && memcmp(ref, g_comp, (size_t)cb) == 0,
                  "global and context outputs differ (%d vs %d) [%s]", cb, cb2, ctx);

            /* blosc1_compress is the same function with size_t arguments. */
            int cb1 = blosc1_compress(clevel, doshuffle, (size_t)ts, (size_t)n, g_src, ref,
                                      (size_t)n + 32);
            CHECK(cb1 == cb && memcmp(ref, g_comp, (size_t)cb) == 0,
                  "blosc1_compress differs from blosc2_compress [%s]", ctx);

            size_t cmp = (size_t)(n - delta_tail(delta, ts, n));
            memset(g_dec, 0xA5, (size_t)n + 1);
            CHECK_EQ(blosc2_decompress(g_comp, cb, g_dec, n), n, "%s", ctx);
            CHECK(memcmp(g_dec, g_src, cmp) == 0, "blosc2_decompress data [%s]", ctx);
            CHECK_EQ(g_dec[n], 0xA5, "blosc2_decompress overrun [%s]", ctx);
            memset(g_dec, 0xA5, (size_t)n + 1);
            CHECK_EQ(blosc1_decompress(g_comp, g_dec, (size_t)n), n, "%s", ctx);
            CHECK(memcmp(g_dec, g_src, cmp) == 0, "blosc1_decompress data [%s]", ctx);
          }
  }
  blosc2_set_delta(0);

  /* Threads, split modes and a forced blocksize through the global setters. */
  CHECK_EQ(blosc1_set_compressor("zstd"), BLOSC_ZSTD, "%s", "zstd");
  for (int thr = 1; thr <= 2; thr++)
    for (int split = 1; split <= 4; split++)
      for (int bsi = 0; bsi < 3; bsi++) {
        static const int bsizes[] = {0, 4096, 65536 + 8};
        int32_t n = 300000;
        char ctx[120];
        snprintf(ctx, sizeof ctx, "global thr=%d split=%d bs=%d", thr, split, bsizes[bsi]);
        blosc2_set_nthreads((int16_t)thr);
        blosc1_set_splitmode(split);
        blosc1_set_blocksize((size_t)bsizes[bsi]);
        CHECK_EQ(blosc1_get_blocksize(), bsizes[bsi], "%s", ctx);
        tc_fill(g_src, (size_t)n, TC_FLOATS, 4, 3);
        int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, n, g_comp, n + 32);
        CHECK(cb > 0, "compress %d [%s]", cb, ctx);
        if (cb <= 0) continue;
        if (bsizes[bsi]) CHECK_EQ(tc_rd32(g_comp + BLOSC2_CHUNK_BLOCKSIZE), bsizes[bsi], "%s", ctx);
        CHECK_EQ(blosc2_decompress(g_comp, cb, g_dec, n), n, "%s", ctx);
        CHECK(memcmp(g_dec, g_src, (size_t)n) == 0, "data [%s]", ctx);
        cases++;
      }
  blosc1_set_blocksize(0);
  blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT);
  blosc2_set_nthreads(1);
  blosc1_set_compressor("blosclz");
  free(ref);
  printf("global API: %ld cases\n", cases);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#define TIMED(call)                                        \
  do {                                                     \
    double t0_ = now();                                    \
    call;                                                  \
    printf("  (%s: %.2f s)\n", #call, now() - t0_);        \
  } while (0)

int main(void) {
  blosc2_init();
  TIMED(grid_small());
  TIMED(grid_1mb());
  TIMED(grid_8mb());
  TIMED(grid_all_clevels());
  TIMED(check_trunc_prec());
  TIMED(check_global_api());
  blosc2_destroy();
  free(g_src);
  free(g_comp);
  free(g_dec);
  return tc_finish("roundtrip");
}
