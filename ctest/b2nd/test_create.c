/*
 * b2nd creation: create_ctx / free_ctx, empty, uninit, zeros, nans, full, from_cbuffer,
 * to_cbuffer over 0..8 dimensions, dimensions of length 0, padded chunk and block shapes,
 * item sizes 1..300 and the four storage kinds. Content is compared with a plain C model;
 * the struct fields the reference fills (extshape, extchunkshape, the item counts) with
 * values computed here from the shapes; special-value creations must not materialise data.
 */
#include "b2_common.h"

#include <math.h>

static int64_t ceil_to(int64_t v, int64_t m) { return m == 0 ? v : ((v + m - 1) / m) * m; }

/* The derived fields of the array struct against values computed from the shapes. */
static void check_fields(const b2nd_array_t *a, const b2_geom *g, int32_t isz, const char *w) {
  int64_t nitems = 1, chunknitems = 1, blocknitems = 1, extnitems = 1, extchunknitems = 1;
  CHECK_EQ(a->ndim, g->ndim, "%s ndim", w);
  for (int d = 0; d < g->ndim; d++) {
    int64_t ext = ceil_to(g->shape[d], g->chunk[d]);
    int64_t extc = ceil_to(g->chunk[d], g->block[d]);
    CHECK_EQ(a->shape[d], g->shape[d], "%s shape[%d]", w, d);
    CHECK_EQ(a->chunkshape[d], g->chunk[d], "%s chunkshape[%d]", w, d);
    CHECK_EQ(a->blockshape[d], g->block[d], "%s blockshape[%d]", w, d);
    CHECK_EQ(a->extshape[d], ext, "%s extshape[%d]", w, d);
    CHECK_EQ(a->extchunkshape[d], extc, "%s extchunkshape[%d]", w, d);
    nitems *= g->shape[d];
    chunknitems *= g->chunk[d];
    blocknitems *= g->block[d];
    extnitems *= ext;
    extchunknitems *= extc;
  }
  CHECK_EQ(a->nitems, nitems, "%s nitems", w);
  CHECK_EQ(a->chunknitems, chunknitems, "%s chunknitems", w);
  CHECK_EQ(a->blocknitems, blocknitems, "%s blocknitems", w);
  CHECK_EQ(a->extnitems, extnitems, "%s extnitems", w);
  CHECK_EQ(a->extchunknitems, extchunknitems, "%s extchunknitems", w);
  REQUIRE(a->sc != NULL, "%s: no super-chunk", w);
  CHECK_EQ(a->sc->typesize, isz, "%s typesize", w);
  CHECK_EQ(a->sc->blocksize, blocknitems * isz, "%s schunk blocksize", w);
  CHECK_EQ(a->sc->chunksize, extchunknitems * isz, "%s schunk chunksize", w);
  if (nitems > 0) {
    int64_t nchunks = 1;
    for (int d = 0; d < g->ndim; d++) nchunks *= ceil_to(g->shape[d], g->chunk[d]) / g->chunk[d];
    CHECK_EQ(a->sc->nchunks, nchunks, "%s nchunks", w);
  }
  CHECK(a->dtype != NULL, "%s: dtype NULL", w);
}

/* Every chunk of the array is a special-value chunk (no data block). */
static void check_all_special(const b2nd_array_t *a, const char *w) {
  for (int64_t n = 0; n < a->sc->nchunks; n++) {
    uint8_t *chunk = NULL;
    bool needs_free = false;
    int cb = blosc2_schunk_get_lazychunk(a->sc, n, &chunk, &needs_free);
    CHECK(cb > 0 && cb <= BLOSC_EXTENDED_HEADER_LENGTH + a->sc->typesize,
          "%s: chunk %lld has %d bytes (not a special-value chunk)", w, (long long)n, cb);
    if (cb >= BLOSC_EXTENDED_HEADER_LENGTH) {
      int special = (chunk[BLOSC2_CHUNK_BLOSC2_FLAGS] >> 4) & BLOSC2_SPECIAL_MASK;
      CHECK(special != 0, "%s: chunk %lld not special (flags %02x)", w, (long long)n,
            chunk[BLOSC2_CHUNK_BLOSC2_FLAGS]);
    }
    if (needs_free) free(chunk);
  }
}

static const b2_geom geoms[] = {
    {1, {100}, {30}, {7}},
    {1, {64}, {64}, {64}},
    {1, {1}, {1}, {1}},
    {2, {10, 7}, {4, 4}, {2, 2}},
    {2, {33, 65}, {16, 32}, {5, 9}},
    {2, {8, 8}, {8, 8}, {8, 8}},
    {3, {10, 11, 12}, {4, 5, 6}, {2, 3, 3}},
    {3, {20, 1, 9}, {7, 1, 9}, {3, 1, 4}},
    {4, {5, 6, 7, 8}, {2, 3, 4, 5}, {1, 2, 3, 2}},
    {5, {3, 4, 5, 2, 3}, {2, 2, 3, 2, 2}, {1, 2, 2, 1, 2}},
    {6, {2, 3, 4, 3, 2, 5}, {1, 2, 3, 2, 2, 3}, {1, 1, 2, 2, 1, 2}},
    {7, {3, 2, 3, 2, 3, 2, 4}, {2, 2, 2, 1, 2, 2, 3}, {1, 1, 2, 1, 1, 2, 2}},
    {8, {2, 3, 2, 3, 2, 3, 2, 5}, {1, 2, 2, 2, 1, 2, 2, 3}, {1, 1, 1, 2, 1, 2, 1, 2}},
};
#define NGEOMS ((int)(sizeof geoms / sizeof geoms[0]))

/* from_cbuffer / to_cbuffer round trips over the geometries, item sizes and kinds. */
static void test_roundtrip(void) {
  static const int32_t sizes[] = {1, 2, 4, 8, 3, 16};
  for (int gi = 0; gi < NGEOMS; gi++) {
    for (int si = 0; si < 6; si++) {
      int32_t isz = sizes[si];
      for (int kind = 0; kind < B2_NKINDS; kind++) {
        if (kind != B2_MEM_SPARSE && si > 2 && gi % 3 != 0) continue; /* keep it short */
        char w[128];
        snprintf(w, sizeof w, "roundtrip geom %d isz %d %s", gi, isz, b2_kind_names[kind]);
        const b2_geom *g = &geoms[gi];
        b2_model m = b2_model_new(g->ndim, g->shape, isz, (uint32_t)(gi * 31 + si + 1));
        b2nd_array_t *a = b2_from_model(&m, g, kind, "rt.b2nd");
        CHECK(a != NULL, "%s: from_cbuffer failed", w);
        if (a) {
          check_fields(a, g, isz, w);
          b2_matches(a, &m, w);
          CHECK_EQ(a->sc->storage->contiguous, kind == B2_MEM_CFRAME || kind == B2_FILE_CFRAME,
                   "%s contiguous", w);
          /* a buffer one byte short is refused, a larger one accepted */
          int64_t nb = b2_model_nbytes(&m);
          uint8_t *buf = (uint8_t *)b2_malloc((size_t)nb + 16);
          CHECK_EQ(b2nd_to_cbuffer(a, buf, nb - 1), -12, "%s short to_cbuffer", w);
          CHECK_EQ(b2nd_to_cbuffer(a, buf, nb + 16), 0, "%s larger to_cbuffer", w);
          CHECK(memcmp(buf, m.data, (size_t)nb) == 0, "%s: larger to_cbuffer content", w);
          free(buf);
          CHECK_EQ(b2nd_free(a), 0, "%s free", w);
        }
        b2_model_free(&m);
      }
    }
  }
}

/* from_cbuffer with too small a buffer is refused. */
static void test_from_short(void) {
  const b2_geom *g = &geoms[3];
  b2_model m = b2_model_new(g->ndim, g->shape, 8, 5);
  b2nd_context_t *ctx = b2_ctx(g, 8, B2_MEM_SPARSE, NULL, 1);
  REQUIRE(ctx != NULL, "ctx");
  b2nd_array_t *a = NULL;
  CHECK_EQ(b2nd_from_cbuffer(ctx, &a, m.data, b2_model_nbytes(&m) - 1), -12, "short from_cbuffer");
  a = NULL; /* the reference may leave a half-made array here: not used */
  CHECK_EQ(b2nd_from_cbuffer(ctx, &a, m.data, b2_model_nbytes(&m) + 100), 0, "long from_cbuffer");
  if (a) {
    b2_matches(a, &m, "long from_cbuffer");
    b2nd_free(a);
  }
  CHECK_EQ(b2nd_free_ctx(ctx), 0, "free_ctx");
  b2_model_free(&m);
}

/* zeros / nans / full / uninit / empty over geometries and kinds. */
static void test_special(void) {
  for (int gi = 0; gi < NGEOMS; gi += 2) {
    const b2_geom *g = &geoms[gi];
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      for (int which = 0; which < 6; which++) {
        static const char *names[] = {"zeros", "nans4", "nans8", "full", "uninit", "empty"};
        int32_t isz = which == 1 ? 4 : which == 2 ? 8 : which == 3 ? 12 : 8;
        char w[128];
        snprintf(w, sizeof w, "%s geom %d %s", names[which], gi, b2_kind_names[kind]);
        b2nd_context_t *ctx = b2_ctx(g, isz, kind, "sp.b2nd", 1);
        REQUIRE(ctx != NULL, "%s: ctx", w);
        b2nd_array_t *a = NULL;
        uint8_t fill[12];
        for (int i = 0; i < 12; i++) fill[i] = (uint8_t)(0xA0 + i * 7 + gi);
        int rc;
        switch (which) {
          case 0: rc = b2nd_zeros(ctx, &a); break;
          case 1:
          case 2: rc = b2nd_nans(ctx, &a); break;
          case 3: rc = b2nd_full(ctx, &a, fill); break;
          case 4: rc = b2nd_uninit(ctx, &a); break;
          default: rc = b2nd_empty(ctx, &a); break;
        }
        b2nd_free_ctx(ctx);
        CHECK_EQ(rc, 0, "%s", w);
        if (rc != 0 || !a) continue;
        check_fields(a, g, isz, w);
        check_all_special(a, w);
        int64_t n = a->nitems;
        uint8_t *buf = (uint8_t *)b2_malloc((size_t)(n * isz));
        CHECK_EQ(b2nd_to_cbuffer(a, buf, n * isz), 0, "%s to_cbuffer", w);
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0 && which < 4; i++) {
          const uint8_t *it = buf + i * isz;
          int ok;
          if (which == 0) {
            ok = 1;
            for (int b = 0; b < isz; b++) ok &= it[b] == 0;
          } else if (which == 1) {
            float f;
            memcpy(&f, it, 4);
            ok = isnan(f);
          } else if (which == 2) {
            double f;
            memcpy(&f, it, 8);
            ok = isnan(f);
          } else {
            ok = memcmp(it, fill, (size_t)isz) == 0;
          }
          if (!ok) bad = i;
        }
        CHECK(bad < 0, "%s: item %lld has the wrong value", w, (long long)bad);
        free(buf);
        /* one item read back through a slice as well */
        if (n > 0) {
          int64_t start[B2_MAXD], stop[B2_MAXD], bs[B2_MAXD];
          for (int d = 0; d < g->ndim; d++) {
            start[d] = g->shape[d] - 1;
            stop[d] = g->shape[d];
            bs[d] = 1;
          }
          uint8_t one[16];
          CHECK_EQ(b2nd_get_slice_cbuffer(a, start, stop, one, bs, isz), 0, "%s last item", w);
          if (which == 0) {
            uint8_t z[16] = {0};
            CHECK(memcmp(one, z, (size_t)isz) == 0, "%s: last item not zero", w);
          } else if (which == 3) {
            CHECK(memcmp(one, fill, (size_t)isz) == 0, "%s: last item not the fill", w);
          }
        }
        b2nd_free(a);
      }
    }
  }
  /* nans needs a float item size */
  int32_t bad_sizes[] = {1, 2, 3, 16};
  for (int i = 0; i < 4; i++) {
    b2nd_context_t *ctx = b2_ctx(&geoms[3], bad_sizes[i], B2_MEM_SPARSE, NULL, 1);
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_nans(ctx, &a), -3, "nans typesize %d", bad_sizes[i]);
    b2nd_free_ctx(ctx);
  }
}

/* 0-dimensional arrays hold one item. */
static void test_scalar(void) {
  b2_geom g = {0, {0}, {0}, {0}};
  int64_t none[1] = {0};
  for (int kind = 0; kind < B2_NKINDS; kind++) {
    char w[64];
    snprintf(w, sizeof w, "0-dim %s", b2_kind_names[kind]);
    double v = 3.25, out = 0;
    b2nd_context_t *ctx = b2_ctx(&g, 8, kind, "scalar.b2nd", 1);
    REQUIRE(ctx != NULL, "%s ctx", w);
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_from_cbuffer(ctx, &a, &v, 8), 0, "%s from_cbuffer", w);
    b2nd_free_ctx(ctx);
    if (a) {
      CHECK_EQ(a->ndim, 0, "%s ndim", w);
      CHECK_EQ(a->nitems, 1, "%s nitems", w);
      CHECK_EQ(a->sc->nchunks, 1, "%s nchunks", w);
      CHECK_EQ(b2nd_to_cbuffer(a, &out, 8), 0, "%s to_cbuffer", w);
      CHECK(out == v, "%s value %g", w, out);
      out = 0;
      CHECK_EQ(b2nd_get_slice_cbuffer(a, none, none, &out, none, 8), 0, "%s get_slice_cbuffer", w);
      CHECK(out == v, "%s slice value %g", w, out);
      b2nd_free(a);
    }
    a = NULL;
    double fv = -1.5;
    ctx = b2_ctx(&g, 8, kind, "scalar.b2nd", 1);
    CHECK_EQ(b2nd_full(ctx, &a, &fv), 0, "%s full", w);
    if (a) {
      CHECK_EQ(b2nd_to_cbuffer(a, &out, 8), 0, "%s full to_cbuffer", w);
      CHECK(out == fv, "%s full value %g", w, out);
      b2nd_free(a);
    }
    /* the same context again: on disk the path now exists and is not overwritten */
    a = NULL;
    int rc = b2nd_zeros(ctx, &a);
    CHECK_EQ(rc, kind >= B2_FILE_CFRAME ? -1 : 0, "%s zeros on a used context", w);
    if (rc == 0 && a) b2nd_free(a);
    b2nd_free_ctx(ctx);
    a = NULL;
    ctx = b2_ctx(&g, 8, kind, "scalar.b2nd", 1);
    CHECK_EQ(b2nd_zeros(ctx, &a), 0, "%s zeros", w);
    if (a) {
      out = 1;
      CHECK_EQ(b2nd_to_cbuffer(a, &out, 8), 0, "%s zeros to_cbuffer", w);
      CHECK(out == 0, "%s zeros value %g", w, out);
      b2nd_free(a);
    }
    b2nd_free_ctx(ctx);
  }
}

/* Dimensions of length 0. */
static void test_zero_length(void) {
  static const b2_geom zg[] = {
      {1, {0}, {4}, {2}},
      {2, {0, 5}, {3, 5}, {1, 5}},
      {3, {5, 0, 3}, {2, 2, 3}, {1, 2, 3}},
      {2, {6, 0}, {3, 1}, {3, 1}},
  };
  for (int gi = 0; gi < 4; gi++) {
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      char w[64];
      snprintf(w, sizeof w, "zero-length geom %d %s", gi, b2_kind_names[kind]);
      const b2_geom *g = &zg[gi];
      for (int which = 0; which < 3; which++) {
        b2nd_context_t *ctx = b2_ctx(g, 4, kind, "zl.b2nd", 1);
        CHECK(ctx != NULL, "%s ctx", w);
        if (!ctx) continue;
        b2nd_array_t *a = NULL;
        int32_t dummy = 7;
        int rc = which == 0 ? b2nd_zeros(ctx, &a)
                 : which == 1 ? b2nd_from_cbuffer(ctx, &a, &dummy, 0)
                              : b2nd_full(ctx, &a, &dummy);
        b2nd_free_ctx(ctx);
        CHECK_EQ(rc, 0, "%s create %d", w, which);
        if (!a) continue;
        CHECK_EQ(a->nitems, 0, "%s nitems", w);
        CHECK_EQ(a->sc->nchunks, 0, "%s nchunks", w);
        for (int d = 0; d < g->ndim; d++) CHECK_EQ(a->shape[d], g->shape[d], "%s shape[%d]", w, d);
        CHECK_EQ(b2nd_to_cbuffer(a, &dummy, 0), 0, "%s to_cbuffer", w);
        CHECK_EQ(dummy, 7, "%s to_cbuffer wrote", w);
        b2nd_free(a);
      }
    }
  }
}

/* Large item sizes (structured dtypes): typesize above 255. */
static void test_large_items(void) {
  b2_geom g = {2, {9, 5}, {4, 3}, {2, 2}};
  int32_t sizes[] = {255, 256, 300, 1000};
  for (int i = 0; i < 4; i++) {
    char w[64];
    snprintf(w, sizeof w, "typesize %d", sizes[i]);
    b2_model m = b2_model_new(2, g.shape, sizes[i], (uint32_t)(77 + i));
    for (int kind = 0; kind < B2_NKINDS; kind += 2) {
      b2nd_array_t *a = b2_from_model(&m, &g, kind, "big.b2nd");
      CHECK(a != NULL, "%s %s from_cbuffer", w, b2_kind_names[kind]);
      if (!a) continue;
      CHECK_EQ(a->sc->typesize, sizes[i], "%s typesize", w);
      b2_matches(a, &m, w);
      b2nd_free(a);
    }
    b2_model_free(&m);
  }
}

/* Multi-threaded compression and decompression give the same content. */
static void test_threads(void) {
  b2_geom g = {3, {40, 30, 20}, {20, 16, 10}, {10, 8, 5}};
  b2_model m = b2_model_new(3, g.shape, 4, 99);
  b2nd_context_t *ctx = b2_ctx(&g, 4, B2_MEM_CFRAME, NULL, 2);
  REQUIRE(ctx != NULL, "threads ctx");
  b2nd_array_t *a = NULL;
  CHECK_EQ(b2nd_from_cbuffer(ctx, &a, m.data, b2_model_nbytes(&m)), 0, "threads from_cbuffer");
  if (a) {
    b2_matches(a, &m, "threads");
    b2nd_free(a);
  }
  b2nd_free_ctx(ctx);
  b2_model_free(&m);
}

/* create_ctx refuses impossible geometries. */
static void test_ctx_errors(void) {
  int64_t shape[17];
  int32_t chunk[17], block[17];
  for (int i = 0; i < 17; i++) {
    shape[i] = 2;
    chunk[i] = 1;
    block[i] = 1;
  }
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 17, shape, chunk, block, NULL, 0, NULL, 0);
  CHECK(ctx == NULL, "ndim 17 accepted");
  if (ctx) b2nd_free_ctx(ctx);
  ctx = b2nd_create_ctx(&st, 16, shape, chunk, block, NULL, 0, NULL, 0);
  CHECK(ctx != NULL, "ndim 16 refused");
  if (ctx) {
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_zeros(ctx, &a), 0, "ndim 16 zeros");
    if (a) {
      CHECK_EQ(a->nitems, 65536, "ndim 16 nitems");
      b2nd_free(a);
    }
    b2nd_free_ctx(ctx);
  }
  /* block larger than chunk */
  int64_t s2[2] = {10, 10};
  int32_t c2[2] = {4, 4}, b2[2] = {5, 2};
  ctx = b2nd_create_ctx(&st, 2, s2, c2, b2, NULL, 0, NULL, 0);
  /* the reference accepts a block longer than the chunk: the chunk is padded to it */
  CHECK(ctx != NULL, "block > chunk refused");
  if (ctx) {
    b2_model m = b2_model_new(2, s2, 4, 1234);
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_from_cbuffer(ctx, &a, m.data, b2_model_nbytes(&m)), 0, "block > chunk from_cbuffer");
    if (a) {
      CHECK_EQ(a->extchunkshape[0], 5, "block > chunk extchunkshape[0]");
      CHECK_EQ(a->extchunkshape[1], 4, "block > chunk extchunkshape[1]");
      b2_matches(a, &m, "block > chunk");
      b2nd_free(a);
    }
    b2_model_free(&m);
    b2nd_free_ctx(ctx);
  }
  /* NULL shape arrays */
  ctx = b2nd_create_ctx(&st, 2, NULL, c2, b2, NULL, 0, NULL, 0);
  CHECK(ctx == NULL, "NULL shape accepted");
  if (ctx) b2nd_free_ctx(ctx);
}

int main(void) {
  blosc2_init();
  b2_make_tmp("create");
  test_roundtrip();
  test_from_short();
  test_special();
  test_scalar();
  test_zero_length();
  test_large_items();
  test_threads();
  test_ctx_errors();
  blosc2_destroy();
  return b2_finish("b2nd_create");
}
