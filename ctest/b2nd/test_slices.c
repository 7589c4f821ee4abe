/*
 * b2nd slices: get_slice_cbuffer / set_slice_cbuffer on random boxes (also on arrays made of
 * special-value chunks), get_slice into new arrays with other chunk/block shapes and
 * storages, copy, copy_buffer / copy_buffer2 between C buffers, orthogonal selections (get and
 * set) and get_sparse_cbuffer. Every result is compared with the C model; bad bounds and
 * short buffers give the reference's codes.
 */
#include "b2_common.h"

static const b2_geom geoms[] = {
    {1, {200}, {64}, {16}},
    {2, {37, 21}, {10, 8}, {4, 3}},
    {3, {13, 10, 11}, {5, 4, 6}, {2, 4, 3}},
    {4, {6, 7, 5, 4}, {3, 4, 2, 4}, {2, 2, 1, 3}},
    {5, {4, 5, 3, 4, 3}, {2, 3, 2, 2, 3}, {1, 2, 2, 1, 2}},
    {2, {50, 40}, {50, 40}, {25, 40}},
};
#define NGEOMS ((int)(sizeof geoms / sizeof geoms[0]))

static uint64_t rng = 88172645463325252ULL;
static int64_t rnd(int64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return n > 0 ? (int64_t)(rng % (uint64_t)n) : 0;
}

/* A random box inside shape (may be empty when allow_empty). */
static void random_box(int n, const int64_t *shape, int64_t *start, int64_t *stop,
                       int allow_empty) {
  for (int d = 0; d < n; d++) {
    int64_t a = rnd(shape[d] + (allow_empty ? 1 : 0));
    if (!allow_empty && a >= shape[d]) a = shape[d] - 1;
    int64_t b = a + (allow_empty ? 0 : 1) + rnd(shape[d] - a + (allow_empty ? 1 : 0));
    if (b > shape[d]) b = shape[d];
    start[d] = a;
    stop[d] = b;
  }
}

static void test_get_set(void) {
  for (int gi = 0; gi < NGEOMS; gi++) {
    const b2_geom *g = &geoms[gi];
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      for (int base = 0; base < 3; base++) { /* data / zeros / full */
        char w[128];
        snprintf(w, sizeof w, "get/set geom %d %s base %d", gi, b2_kind_names[kind], base);
        int32_t isz = base == 2 ? 4 : (gi % 2 ? 8 : 2);
        b2_model m = b2_model_new(g->ndim, g->shape, isz, base == 0 ? (uint32_t)(gi + 1) : 0);
        b2nd_array_t *a = NULL;
        uint8_t fill[8] = {0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0};
        if (base == 0) {
          a = b2_from_model(&m, g, kind, "gs.b2nd");
        } else {
          b2nd_context_t *ctx = b2_ctx(g, isz, kind, "gs.b2nd", 1);
          if (ctx) {
            int rc = base == 1 ? b2nd_zeros(ctx, &a) : b2nd_full(ctx, &a, fill);
            CHECK_EQ(rc, 0, "%s create", w);
            b2nd_free_ctx(ctx);
          }
          if (base == 2)
            for (int64_t i = 0; i < b2_model_nitems(&m); i++) memcpy(m.data + i * 4, fill, 4);
        }
        CHECK(a != NULL, "%s: array", w);
        if (!a) {
          b2_model_free(&m);
          continue;
        }
        int rounds = kind == B2_MEM_SPARSE ? 12 : 5;
        for (int r = 0; r < rounds; r++) {
          int64_t start[B2_MAXD], stop[B2_MAXD], bs[B2_MAXD];
          random_box(g->ndim, g->shape, start, stop, r % 4 == 3);
          for (int d = 0; d < g->ndim; d++) bs[d] = stop[d] - start[d];
          int64_t n = b2_prod(bs, g->ndim);
          uint8_t *got = (uint8_t *)b2_malloc((size_t)(n * isz) + 8);
          uint8_t *want = (uint8_t *)b2_malloc((size_t)(n * isz) + 8);
          /* set, then get the same box, then compare the whole array */
          b2_fill_pattern(got, n, isz, (uint32_t)(1000 + r + gi));
          int rc = b2nd_set_slice_cbuffer(got, bs, n * isz, start, stop, a);
          CHECK_EQ(rc, 0, "%s set %s-%s", w, b2_shape_str(g->ndim, start), b2_shape_str(g->ndim, stop));
          if (rc == 0) b2_model_set(&m, start, stop, got);
          random_box(g->ndim, g->shape, start, stop, r % 5 == 4);
          for (int d = 0; d < g->ndim; d++) bs[d] = stop[d] - start[d];
          n = b2_prod(bs, g->ndim);
          free(got);
          free(want);
          got = (uint8_t *)b2_malloc((size_t)(n * isz) + 8);
          want = (uint8_t *)b2_malloc((size_t)(n * isz) + 8);
          rc = b2nd_get_slice_cbuffer(a, start, stop, got, bs, n * isz);
          CHECK_EQ(rc, 0, "%s get %s-%s", w, b2_shape_str(g->ndim, start), b2_shape_str(g->ndim, stop));
          b2_model_get(&m, start, stop, want);
          int64_t k = b2_first_diff(got, want, n, isz);
          CHECK(rc != 0 || k < 0, "%s: get %s-%s item %lld differs", w, b2_shape_str(g->ndim, start),
                b2_shape_str(g->ndim, stop), (long long)k);
          free(got);
          free(want);
        }
        b2_matches(a, &m, w);
        b2nd_free(a);
        b2_model_free(&m);
      }
    }
  }
}

/* A buffer larger than the slice: the slice goes to the buffer's origin, the rest is zeroed. */
static void test_bigger_buffer(void) {
  const b2_geom *g = &geoms[1];
  b2_model m = b2_model_new(2, g->shape, 4, 7);
  b2nd_array_t *a = b2_from_model(&m, g, B2_MEM_SPARSE, NULL);
  REQUIRE(a != NULL, "bigger buffer: array");
  int64_t start[2] = {3, 5}, stop[2] = {9, 12}, bs[2] = {10, 9};
  int32_t buf[90], want[42];
  for (int i = 0; i < 90; i++) buf[i] = -1;
  CHECK_EQ(b2nd_get_slice_cbuffer(a, start, stop, buf, bs, sizeof buf), 0, "bigger buffer get");
  b2_model_get(&m, start, stop, (uint8_t *)want);
  int bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 9; j++) {
      int32_t v = buf[i * 9 + j];
      if (i < 6 && j < 7) bad += v != want[i * 7 + j];
      else bad += v != 0;
    }
  CHECK_EQ(bad, 0, "bigger buffer placement");
  /* too small a buffer and bad bounds (bounds past the shape: see test_hostile.c) */
  int64_t bs2[2] = {6, 7};
  CHECK_EQ(b2nd_get_slice_cbuffer(a, start, stop, buf, bs2, 6 * 7 * 4 - 1), -12, "short get buffer");
  CHECK_EQ(b2nd_set_slice_cbuffer(buf, bs2, 6 * 7 * 4 - 1, start, stop, a), -12, "short set buffer");
  int64_t bs3[2] = {6, 6};
  int rc = b2nd_get_slice_cbuffer(a, start, stop, buf, bs3, 36 * 4);
  CHECK_EQ(rc, -12, "buffershape smaller than the slice");
  int32_t *big = (int32_t *)b2_malloc(35 * 7 * 4);
  /* start after stop: an empty box, nothing done */
  int64_t rstart[2] = {9, 5}, rstop[2] = {3, 12}, rbs[2] = {1, 7};
  CHECK_EQ(b2nd_get_slice_cbuffer(a, rstart, rstop, big, rbs, 35 * 7 * 4), 0, "start after stop");
  CHECK_EQ(b2nd_set_slice_cbuffer(big, rbs, 35 * 7 * 4, rstart, rstop, a), 0, "set start after stop");
  /* a negative start is refused (the reference then mishandles an empty set_slice on the
   * same array: checked last) */
  int64_t nstart[2] = {-1, 5}, nbs[2] = {10, 7};
  CHECK_EQ(b2nd_get_slice_cbuffer(a, nstart, stop, big, nbs, 35 * 7 * 4), -1, "negative start");
  CHECK_EQ(b2nd_set_slice_cbuffer(big, nbs, 35 * 7 * 4, nstart, stop, a), -1, "set negative start");
  free(big);
  b2_matches(a, &m, "after refused calls");
  b2nd_free(a);
  b2_model_free(&m);
}

/* get_slice into new arrays and copy with other shapes and storages. */
static void test_get_slice_copy(void) {
  for (int gi = 0; gi < NGEOMS; gi++) {
    const b2_geom *g = &geoms[gi];
    b2_model m = b2_model_new(g->ndim, g->shape, 4, (uint32_t)(300 + gi));
    b2nd_array_t *a = b2_from_model(&m, g, gi % 2 ? B2_MEM_CFRAME : B2_MEM_SPARSE, NULL);
    CHECK(a != NULL, "slice/copy geom %d: array", gi);
    if (!a) {
      b2_model_free(&m);
      continue;
    }
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      char w[96];
      snprintf(w, sizeof w, "get_slice geom %d into %s", gi, b2_kind_names[kind]);
      int64_t start[B2_MAXD], stop[B2_MAXD];
      random_box(g->ndim, g->shape, start, stop, 0);
      b2_geom rg = *g;
      for (int d = 0; d < g->ndim; d++) {
        rg.shape[d] = stop[d] - start[d];
        rg.chunk[d] = (int32_t)(1 + rnd(rg.shape[d]));
        rg.block[d] = (int32_t)(1 + rnd(rg.chunk[d]));
      }
      b2nd_context_t *ctx = b2_ctx(&rg, 4, kind, "slice.b2nd", 1);
      REQUIRE(ctx != NULL, "%s ctx", w);
      b2nd_array_t *s = NULL;
      CHECK_EQ(b2nd_get_slice(ctx, &s, a, start, stop), 0, "%s", w);
      b2nd_free_ctx(ctx);
      if (s) {
        b2_model sm = b2_model_new(g->ndim, rg.shape, 4, 0);
        b2_model_get(&m, start, stop, sm.data);
        b2_matches(s, &sm, w);
        for (int d = 0; d < g->ndim; d++) {
          CHECK_EQ(s->chunkshape[d], rg.chunk[d], "%s chunkshape[%d]", w, d);
          CHECK_EQ(s->blockshape[d], rg.block[d], "%s blockshape[%d]", w, d);
        }
        b2nd_free(s);
        b2_model_free(&sm);
      }
      snprintf(w, sizeof w, "copy geom %d into %s", gi, b2_kind_names[kind]);
      rg = *g;
      for (int d = 0; d < g->ndim; d++) {
        rg.chunk[d] = (int32_t)(1 + rnd(g->shape[d]));
        rg.block[d] = (int32_t)(1 + rnd(rg.chunk[d]));
      }
      ctx = b2_ctx(&rg, 4, kind, "copy.b2nd", 1);
      REQUIRE(ctx != NULL, "%s ctx", w);
      b2nd_array_t *c = NULL;
      CHECK_EQ(b2nd_copy(ctx, a, &c), 0, "%s", w);
      b2nd_free_ctx(ctx);
      if (c) {
        b2_matches(c, &m, w);
        for (int d = 0; d < g->ndim; d++)
          CHECK_EQ(c->chunkshape[d], rg.chunk[d], "%s chunkshape[%d]", w, d);
        CHECK_EQ(c->sc->storage->contiguous, kind == B2_MEM_CFRAME || kind == B2_FILE_CFRAME,
                 "%s contiguous", w);
        b2nd_free(c);
      }
    }
    b2nd_free(a);
    b2_model_free(&m);
  }
}

/* copy_buffer / copy_buffer2 between C buffers of different padded shapes. */
static void test_copy_buffer(void) {
  for (int r = 0; r < 40; r++) {
    int8_t nd = (int8_t)(1 + r % 6);
    int32_t isz = (int32_t)(1 + rnd(9));
    int64_t sshape[B2_MAXD], dshape[B2_MAXD], sstart[B2_MAXD], sstop[B2_MAXD], dstart[B2_MAXD],
        ext[B2_MAXD];
    for (int d = 0; d < nd; d++) {
      sshape[d] = 1 + rnd(nd > 3 ? 4 : 9);
      int64_t a = rnd(sshape[d]), b = a + 1 + rnd(sshape[d] - a);
      sstart[d] = a;
      sstop[d] = b;
      ext[d] = b - a;
      dshape[d] = ext[d] + rnd(4);
      dstart[d] = rnd(dshape[d] - ext[d] + 1);
    }
    b2_model src = b2_model_new(nd, sshape, isz, (uint32_t)(r + 1));
    b2_model dst = b2_model_new(nd, dshape, isz, (uint32_t)(r + 500));
    b2_model want = b2_model_new(nd, dshape, isz, (uint32_t)(r + 500));
    uint8_t *box = (uint8_t *)b2_malloc((size_t)(b2_prod(ext, nd) * isz));
    b2_model_get(&src, sstart, sstop, box);
    int64_t dstop[B2_MAXD];
    for (int d = 0; d < nd; d++) dstop[d] = dstart[d] + ext[d];
    b2_model_set(&want, dstart, dstop, box);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    int rc = (r % 2) ? b2nd_copy_buffer2(nd, isz, src.data, sshape, sstart, sstop, dst.data, dshape, dstart)
                     : b2nd_copy_buffer(nd, (uint8_t)isz, src.data, sshape, sstart, sstop, dst.data,
                                        dshape, dstart);
#pragma GCC diagnostic pop
    CHECK_EQ(rc, 0, "copy_buffer%s round %d", r % 2 ? "2" : "", r);
    CHECK(memcmp(dst.data, want.data, (size_t)b2_model_nbytes(&want)) == 0,
          "copy_buffer%s round %d: content", r % 2 ? "2" : "", r);
    free(box);
    b2_model_free(&src);
    b2_model_free(&dst);
    b2_model_free(&want);
  }
  /* copy_buffer2 takes item sizes above 255 */
  int64_t sh[2] = {3, 4}, s0[2] = {1, 1}, s1[2] = {3, 3}, d0[2] = {0, 2}, dsh[2] = {2, 5};
  b2_model src = b2_model_new(2, sh, 300, 9);
  b2_model dst = b2_model_new(2, dsh, 300, 0);
  b2_model want = b2_model_new(2, dsh, 300, 0);
  uint8_t *box = (uint8_t *)b2_malloc(4 * 300);
  b2_model_get(&src, s0, s1, box);
  int64_t d1[2] = {2, 4};
  b2_model_set(&want, d0, d1, box);
  CHECK_EQ(b2nd_copy_buffer2(2, 300, src.data, sh, s0, s1, dst.data, dsh, d0), 0, "copy_buffer2 isz 300");
  CHECK(memcmp(dst.data, want.data, 10 * 300) == 0, "copy_buffer2 isz 300 content");
  free(box);
  b2_model_free(&src);
  b2_model_free(&dst);
  b2_model_free(&want);
}

/* Orthogonal selections (get and set) and sparse coordinates. */
static void test_selections(void) {
  for (int gi = 0; gi < NGEOMS; gi++) {
    const b2_geom *g = &geoms[gi];
    for (int kind = 0; kind < B2_NKINDS; kind += 1 + (gi % 2)) {
      char w[96];
      snprintf(w, sizeof w, "orthogonal geom %d %s", gi, b2_kind_names[kind]);
      b2_model m = b2_model_new(g->ndim, g->shape, 8, (uint32_t)(700 + gi));
      b2nd_array_t *a = b2_from_model(&m, g, kind, "orth.b2nd");
      CHECK(a != NULL, "%s array", w);
      if (!a) {
        b2_model_free(&m);
        continue;
      }
      for (int r = 0; r < 4; r++) {
        int64_t *sel[B2_MAXD], selsize[B2_MAXD], bs[B2_MAXD];
        for (int d = 0; d < g->ndim; d++) {
          selsize[d] = 1 + rnd(r == 3 ? 2 : g->shape[d]);
          bs[d] = selsize[d];
          sel[d] = (int64_t *)b2_malloc((size_t)selsize[d] * 8);
          for (int64_t k = 0; k < selsize[d]; k++) sel[d][k] = rnd(g->shape[d]);
          if (r == 0) /* sorted, distinct where possible */
            for (int64_t k = 0; k < selsize[d]; k++) sel[d][k] = (k * g->shape[d]) / selsize[d];
        }
        int64_t n = b2_prod(bs, g->ndim);
        uint8_t *got = (uint8_t *)b2_malloc((size_t)n * 8);
        uint8_t *want = (uint8_t *)b2_malloc((size_t)n * 8);
        /* set (r odd, distinct indices only: duplicates make the winner order-dependent) */
        if (r == 0 || r == 2) {
          int distinct = 1;
          for (int d = 0; d < g->ndim; d++)
            for (int64_t i = 0; i < selsize[d]; i++)
              for (int64_t j = 0; j < i; j++) distinct &= sel[d][i] != sel[d][j];
          if (distinct) {
            b2_fill_pattern(got, n, 8, (uint32_t)(900 + r));
            int rc = b2nd_set_orthogonal_selection(a, sel, selsize, got, bs, n * 8);
            CHECK_EQ(rc, 0, "%s set round %d", w, r);
            if (rc == 0) {
              int64_t idx[B2_MAXD], lo[B2_MAXD], pos[B2_MAXD];
              for (int d = 0; d < g->ndim; d++) idx[d] = lo[d] = 0;
              int64_t k = 0;
              do {
                for (int d = 0; d < g->ndim; d++) pos[d] = sel[d][idx[d]];
                memcpy(m.data + b2_flat(g->ndim, g->shape, pos) * 8, got + k * 8, 8);
                k++;
              } while (b2_next_index(g->ndim, idx, lo, bs));
            }
          }
        }
        CHECK_EQ(b2nd_get_orthogonal_selection(a, sel, selsize, got, bs, n * 8), 0, "%s get round %d", w, r);
        int64_t idx[B2_MAXD], lo[B2_MAXD], pos[B2_MAXD];
        for (int d = 0; d < g->ndim; d++) idx[d] = lo[d] = 0;
        int64_t k = 0;
        do {
          for (int d = 0; d < g->ndim; d++) pos[d] = sel[d][idx[d]];
          memcpy(want + k * 8, m.data + b2_flat(g->ndim, g->shape, pos) * 8, 8);
          k++;
        } while (b2_next_index(g->ndim, idx, lo, bs));
        int64_t diff = b2_first_diff(got, want, n, 8);
        CHECK(diff < 0, "%s round %d: item %lld differs", w, r, (long long)diff);
        for (int d = 0; d < g->ndim; d++) free(sel[d]);
        free(got);
        free(want);
      }
      b2_matches(a, &m, w);
      /* sparse coordinates: flat C-order indices */
      int64_t coords[64];
      uint8_t got[64 * 8], want[64 * 8];
      int nc = 1 + (int)rnd(63);
      for (int i = 0; i < nc; i++) {
        coords[i] = rnd(a->nitems);
        memcpy(want + i * 8, m.data + coords[i] * 8, 8);
      }
      int rc = b2nd_get_sparse_cbuffer(a, nc, coords, got, nc * 8);
      CHECK_EQ(rc, 0, "%s get_sparse_cbuffer", w);
      CHECK(rc != 0 || memcmp(got, want, (size_t)nc * 8) == 0, "%s sparse content", w);
      CHECK_EQ(b2nd_get_sparse_cbuffer(a, nc, coords, got, nc * 8 - 1), -12, "%s sparse short buffer", w);
      coords[0] = a->nitems;
      CHECK_EQ(b2nd_get_sparse_cbuffer(a, nc, coords, got, nc * 8), -12, "%s sparse out of range", w);
      coords[0] = -1;
      CHECK_EQ(b2nd_get_sparse_cbuffer(a, nc, coords, got, nc * 8), -12, "%s sparse negative", w);
      b2nd_free(a);
      b2_model_free(&m);
    }
  }
}

int main(void) {
  blosc2_init();
  b2_make_tmp("slices");
  test_get_set();
  test_bigger_buffer();
  test_get_slice_copy();
  test_copy_buffer();
  test_selections();
  blosc2_destroy();
  return b2_finish("b2nd_slices");
}
