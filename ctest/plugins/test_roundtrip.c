/*
 * Round trips of the built-in N-dimensional plugins through super-chunks carrying a b2nd
 * metalayer, 1-D to 4-D, several shapes, chunk/block shapes and typesizes: NDLZ (4x4 and
 * 8x8 cells, lossless), ZFP in its three modes (lossy, error checked), NDCELL (lossless)
 * and NDMEAN (each cell's items replaced by their mean); plus the geometries they refuse,
 * with the reference's error codes. The same source runs against both libraries.
 */
#include "pl_common.h"

static long failures = 0, checks = 0;
#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    checks++;                                                                    \
    if (!(cond)) {                                                               \
      failures++;                                                                \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
      fprintf(stderr, __VA_ARGS__);                                              \
      fprintf(stderr, "\n");                                                     \
    }                                                                            \
  } while (0)

enum { LOSSLESS, TOLERANCE, CELLMEAN };

/* Appends two chunks and decompresses them; `want` < 0 expects that append error. */
static void run(const char *what, blosc2_cparams cp, const geom_t *g, int kind, int check, double tol, int want) {
  blosc2_schunk *sc = pl_schunk(cp, g);
  CHECK(sc != NULL, "%s: schunk", what);
  if (!sc) return;
  int64_t nitems = pl_items(g->chunk, g->ndim);
  int32_t nbytes = (int32_t)(nitems * cp.typesize);
  uint8_t *src = malloc(nbytes), *dst = malloc(nbytes);
  for (int c = 0; c < 2; c++) {
    pl_fill(src, nitems, cp.typesize, (kind + c) % 3);
    int64_t rc = blosc2_schunk_append_buffer(sc, src, nbytes);
    if (want < 0) {
      CHECK(rc == want, "%s: append gave %lld, want %d", what, (long long)rc, want);
      break;
    }
    CHECK(rc == c + 1, "%s: append chunk %d gave %lld", what, c, (long long)rc);
    int n = blosc2_schunk_decompress_chunk(sc, c, dst, nbytes);
    CHECK(n == nbytes, "%s: decompress chunk %d gave %d", what, c, n);
    if (n != nbytes) continue;
    if (check == LOSSLESS) {
      CHECK(memcmp(src, dst, nbytes) == 0, "%s: chunk %d differs", what, c);
    } else if (check == CELLMEAN) {
      /* Cell means lie between the smallest and the largest item of the chunk. */
      double lo = INFINITY, hi = -INFINITY, out_lo = INFINITY, out_hi = -INFINITY;
      for (int64_t i = 0; i < nitems; i++) {
        double a, b;
        if (cp.typesize == 4) { float x, y; memcpy(&x, src + 4 * i, 4); memcpy(&y, dst + 4 * i, 4); a = x; b = y; }
        else { memcpy(&a, src + 8 * i, 8); memcpy(&b, dst + 8 * i, 8); }
        lo = fmin(lo, a); hi = fmax(hi, a); out_lo = fmin(out_lo, b); out_hi = fmax(out_hi, b);
      }
      double eps = (hi - lo) * 1e-5 + 1e-6;
      CHECK(out_lo >= lo - eps && out_hi <= hi + eps, "%s: chunk %d means [%g, %g] outside [%g, %g]",
            what, c, out_lo, out_hi, lo, hi);
    } else {
      double worst = 0;
      for (int64_t i = 0; i < nitems; i++) {
        double a, b;
        if (cp.typesize == 4) { float x, y; memcpy(&x, src + 4 * i, 4); memcpy(&y, dst + 4 * i, 4); a = x; b = y; }
        else { memcpy(&a, src + 8 * i, 8); memcpy(&b, dst + 8 * i, 8); }
        double d = fabs(a - b) / (fabs(a) + 1.0);
        if (d > worst) worst = d;
      }
      CHECK(worst <= tol, "%s: chunk %d relative error %g > %g", what, c, worst, tol);
    }
    /* Items of the middle of the chunk through getitem equal the full decode. */
    uint8_t *chunk;
    bool needs_free;
    int cb = blosc2_schunk_get_chunk(sc, c, &chunk, &needs_free);
    if (cb > 0 && check != CELLMEAN) {
      int start = (int)(nitems / 3), len = (int)(nitems / 5) + 1;
      uint8_t *part = malloc((size_t)len * cp.typesize);
      int gi = blosc2_getitem_ctx(sc->dctx, chunk, cb, start, len, part, len * cp.typesize);
      CHECK(gi == len * cp.typesize, "%s: getitem gave %d", what, gi);
      CHECK(memcmp(part, dst + (int64_t)start * cp.typesize, (size_t)len * cp.typesize) == 0,
            "%s: getitem differs from the full decode", what);
      free(part);
    }
    if (needs_free) free(chunk);
  }
  free(src);
  free(dst);
  blosc2_schunk_free(sc);
}

static const geom_t geoms[] = {
  {1, {4000}, {1000}},
  {1, {1200}, {400}},
  {2, {64, 64}, {32, 32}},
  {2, {60, 50}, {30, 25}},
  {2, {80, 96}, {40, 48}},
  {3, {16, 16, 16}, {8, 8, 8}},
  {3, {20, 16, 20}, {10, 8, 10}},
  {4, {8, 8, 8, 8}, {4, 4, 4, 4}},
  {4, {8, 12, 8, 6}, {4, 6, 4, 6}},
};
#define NGEOMS (int)(sizeof(geoms) / sizeof(geoms[0]))

int main(void) {
  blosc2_init();
  char what[256];
  for (int gi = 0; gi < NGEOMS; gi++) {
    const geom_t *g = &geoms[gi];
    /* NDLZ: 2-D one-byte items, and wider items split into byte planes by SHUFFLE. */
    if (g->ndim == 2) {
      for (int meta = 4; meta <= 8; meta += 4) {
        for (int ts = 1; ts <= 4; ts *= 2) {
          blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
          cp.compcode = BLOSC_CODEC_NDLZ;
          cp.compcode_meta = (uint8_t)meta;
          cp.typesize = ts;
          cp.filters[BLOSC2_MAX_FILTERS - 1] = ts > 1 ? BLOSC_SHUFFLE : BLOSC_NOFILTER;
          cp.splitmode = BLOSC_ALWAYS_SPLIT;
          for (int kind = 0; kind < 3; kind++) {
            snprintf(what, sizeof what, "ndlz%d ts%d geom%d kind%d", meta, ts, gi, kind);
            run(what, cp, g, kind, LOSSLESS, 0, 0);
          }
        }
      }
    } else {
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.compcode = BLOSC_CODEC_NDLZ;
      cp.compcode_meta = 4;
      cp.typesize = 1;
      cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
      snprintf(what, sizeof what, "ndlz refuses %d-D geom%d", g->ndim, gi);
      run(what, cp, g, 0, LOSSLESS, 0, BLOSC2_ERROR_DATA);
    }
    for (int ts = 4; ts <= 8; ts += 4) {
      /* ZFP: accuracy 1e-3, precision, rate 50%. */
      struct { int code; uint8_t meta; double tol; } zfp[] = {
        {BLOSC_CODEC_ZFP_FIXED_ACCURACY, (uint8_t)-3, 1e-2},
        {BLOSC_CODEC_ZFP_FIXED_PRECISION, 20, 1e-2},
        {BLOSC_CODEC_ZFP_FIXED_RATE, 50, 0.5},
      };
      for (int z = 0; z < 3; z++) {
        blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
        cp.compcode = (uint8_t)zfp[z].code;
        cp.compcode_meta = zfp[z].meta;
        cp.typesize = ts;
        cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
        cp.splitmode = BLOSC_NEVER_SPLIT;
        snprintf(what, sizeof what, "zfp%d ts%d geom%d", zfp[z].code, ts, gi);
        run(what, cp, g, 0, TOLERANCE, zfp[z].tol, 0);
      }
      /* NDCELL and NDMEAN before a shuffle and zstd / lz4. */
      for (int meta = 2; meta <= 4; meta++) {
        blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
        cp.compcode = BLOSC_ZSTD;
        cp.typesize = ts;
        cp.filters[0] = BLOSC_FILTER_NDCELL;
        cp.filters_meta[0] = (uint8_t)meta;
        cp.filters[1] = BLOSC_SHUFFLE;
        /* The reference's pipeline does not undo NDCELL followed by two shuffles. */
        cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
        snprintf(what, sizeof what, "ndcell%d ts%d geom%d", meta, ts, gi);
        run(what, cp, g, 1, LOSSLESS, 0, 0);
        cp.compcode = BLOSC_LZ4;
        cp.filters[0] = BLOSC_FILTER_NDMEAN;
        snprintf(what, sizeof what, "ndmean%d ts%d geom%d", meta, ts, gi);
        /* Means of smooth data stay near the data. */
        run(what, cp, g, 0, CELLMEAN, 0.5, 0);
      }
    }
  }
  /* Refused geometries and typesizes. */
  {
    geom_t thin = {2, {16, 16}, {2, 8}};
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = BLOSC_CODEC_ZFP_FIXED_ACCURACY;
    cp.typesize = 4;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
    cp.splitmode = BLOSC_NEVER_SPLIT;
    run("zfp refuses blocks thinner than 4", cp, &thin, 0, TOLERANCE, 0, BLOSC2_ERROR_DATA);
    geom_t sq = {2, {16, 16}, {8, 8}};
    cp.compcode = BLOSC_CODEC_ZFP_FIXED_RATE;
    cp.typesize = 2;
    run("zfp refuses 2-byte items", cp, &sq, 0, TOLERANCE, 0, BLOSC2_ERROR_DATA);
    /* Split blocks hand ZFP one stream per byte of the item, shorter than the block: each
       is stored as it is, whatever the typesize, so the data round-trips exactly. */
    cp.splitmode = BLOSC_ALWAYS_SPLIT;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_SHUFFLE;
    run("zfp stores the split streams of 2-byte items", cp, &sq, 1, LOSSLESS, 0, 0);
    cp.typesize = 4;
    run("zfp stores the split streams of 4-byte items", cp, &sq, 1, LOSSLESS, 0, 0);
    cp.splitmode = BLOSC_FORWARD_COMPAT_SPLIT;
    cp = (blosc2_cparams)BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 2;
    cp.filters[0] = BLOSC_FILTER_NDMEAN;
    cp.filters_meta[0] = 4;
    run("ndmean refuses 2-byte items", cp, &sq, 0, LOSSLESS, 0, BLOSC2_ERROR_FILTER_PIPELINE);
    cp.typesize = 4;
    cp.filters[0] = BLOSC_FILTER_NDCELL;
    cp.filters_meta[0] = 20;
    run("ndcell refuses cells larger than the block", cp, &sq, 0, LOSSLESS, 0, BLOSC2_ERROR_FILTER_PIPELINE);
    cp = (blosc2_cparams)BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = BLOSC_CODEC_NDLZ;
    cp.compcode_meta = 5;
    cp.typesize = 1;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
    run("ndlz refuses cells other than 4 and 8", cp, &sq, 0, LOSSLESS, 0, BLOSC2_ERROR_DATA);
  }
  /* Without a b2nd metalayer the plugins fail. */
  {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = BLOSC_CODEC_NDLZ;
    cp.compcode_meta = 4;
    cp.typesize = 1;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.cparams = &cp;
    blosc2_schunk *sc = blosc2_schunk_new(&st);
    uint8_t buf[4096];
    pl_fill(buf, 4096, 1, 2);
    int64_t rc = blosc2_schunk_append_buffer(sc, buf, sizeof buf);
    CHECK(rc == BLOSC2_ERROR_DATA, "ndlz without metalayer gave %lld", (long long)rc);
    blosc2_schunk_free(sc);
    cp = (blosc2_cparams)BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    cp.filters[0] = BLOSC_FILTER_NDCELL;
    cp.filters_meta[0] = 4;
    sc = blosc2_schunk_new(&st);
    rc = blosc2_schunk_append_buffer(sc, buf, sizeof buf);
    CHECK(rc == BLOSC2_ERROR_FILTER_PIPELINE, "ndcell without metalayer gave %lld", (long long)rc);
    blosc2_schunk_free(sc);
  }
  blosc2_destroy();
  printf("%ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
