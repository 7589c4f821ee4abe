/*
 * b2nd shape changes: resize (grow and shrink, with and without a start position), insert,
 * append and delete along every axis, concatenate (copy and in place), squeeze,
 * squeeze_index and expand_dims (views sharing their source's items). Random operation
 * sequences on every storage kind are mirrored in the C model; the expected return code of
 * each call follows the alignment rule measured on the reference (below); a refused call
 * leaves the array unchanged.
 *
 * Alignment rule (reference 3.3.5), per axis of length n and chunk length c, for a change of
 * L items at position s: inserting (insert, or resize growing with a start) needs s == n, or
 * s and L both multiples of c; deleting (delete, or resize shrinking with a start) needs
 * s + L == n, or s and L both multiples of c; s outside [0, n] is refused; -12 otherwise.
 */
#include "b2_common.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static int64_t rnd(int64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return n > 0 ? (int64_t)(rng % (uint64_t)n) : 0;
}

static int ins_ok(int64_t s, int64_t len, int64_t n, int64_t c) {
  if (s < 0 || s > n) return 0;
  return s == n || (s % c == 0 && len % c == 0);
}
static int del_ok(int64_t s, int64_t len, int64_t n, int64_t c) {
  if (s < 0 || s > n || len < 0 || s + len > n) return 0;
  return s + len == n || (s % c == 0 && len % c == 0);
}

/* A position on an axis: mostly chunk-aligned or at the end, sometimes anywhere. */
static int64_t pick_pos(int64_t n, int64_t c) {
  int64_t k = rnd(4);
  if (k == 0) return n;
  if (k == 3) return rnd(n + 1);
  return c * rnd(n / c + 1);
}
/*
 * A length: one or two chunks, or at most one chunk (the reference mis-sizes some appends of
 * c + 2 items: shape 20, chunk 6, append of 8 items gives shape 26, see README.md).
 */
static int64_t pick_len(int64_t c, int64_t max) {
  int64_t l = rnd(3) ? c * (1 + rnd(2)) : 1 + rnd(c);
  return l > max ? max : l;
}


static void run_sequence(int gi, const b2_geom *g, int kind, int nops) {
  char w[128];
  snprintf(w, sizeof w, "sequence geom %d %s", gi, b2_kind_names[kind]);
  int32_t isz = 4 + 4 * (gi % 2);
  b2_model m = b2_model_new(g->ndim, g->shape, isz, (uint32_t)(gi * 13 + kind + 1));
  b2nd_array_t *a = b2_from_model(&m, g, kind, "seq.b2nd");
  REQUIRE(a != NULL, "%s: array", w);
  for (int op = 0; op < nops; op++) {
    int nd = g->ndim;
    int8_t axis = (int8_t)rnd(nd);
    int64_t n = m.shape[axis], c = g->chunk[axis];
    int which = (int)rnd(5);
    char ow[200];
    int rc, ok;
    int64_t at[B2_MAXD], shift[B2_MAXD], ns[B2_MAXD];
    memcpy(ns, m.shape, sizeof ns);
    memset(at, 0, sizeof at);
    memset(shift, 0, sizeof shift);
    int other_empty = 0;
    for (int d = 0; d < nd; d++) other_empty |= d != axis && m.shape[d] == 0;
    if (other_empty && which < 2) which = 3; /* the reference divides by zero (SIGFPE) there */
    if (which == 0 || which == 1) { /* insert / append */
      int64_t s = which == 1 ? n : pick_pos(n, c);
      int64_t len = pick_len(c, 9);
      if (n + len > 40) len = 1;
      ns[axis] = n + len;
      int64_t bs[B2_MAXD];
      memcpy(bs, m.shape, sizeof bs);
      bs[axis] = len;
      int64_t cnt = b2_prod(bs, nd);
      uint8_t *buf = (uint8_t *)b2_malloc((size_t)(cnt * isz));
      b2_fill_pattern(buf, cnt, isz, (uint32_t)(op * 7 + 3));
      snprintf(ow, sizeof ow, "%s op %d %s axis %d at %lld len %lld", w, op,
               which ? "append" : "insert", axis, (long long)s, (long long)len);
      rc = which ? b2nd_append(a, buf, cnt * isz, axis) : b2nd_insert(a, buf, cnt * isz, axis, s);
      ok = ins_ok(s, len, n, c);
      if (ok) {
        at[axis] = s;
        shift[axis] = len;
        b2_model_reshape(&m, ns, at, shift, NULL);
        int64_t lo[B2_MAXD] = {0}, hi[B2_MAXD];
        memcpy(hi, m.shape, sizeof hi);
        lo[axis] = s;
        hi[axis] = s + len;
        b2_model_set(&m, lo, hi, buf);
      }
      free(buf);
    } else if (which == 2) { /* delete */
      int64_t s = pick_pos(n, c);
      if (s == n && n > 0 && rnd(2)) s = n - 1;
      int64_t len = rnd(3) ? pick_len(c, n - s) : n - s;
      snprintf(ow, sizeof ow, "%s op %d delete axis %d at %lld len %lld", w, op, axis,
               (long long)s, (long long)len);
      rc = b2nd_delete(a, axis, s, len);
      ok = del_ok(s, len, n, c);
      if (ok) {
        ns[axis] = n - len;
        at[axis] = s;
        shift[axis] = -len;
        b2_model_reshape(&m, ns, at, shift, NULL);
      }
    } else { /* resize, at the end (3) or with a start (4), on one or two axes */
      int64_t start[B2_MAXD] = {0};
      int with_start = which == 4;
      ok = 1;
      int naxes = nd > 1 && rnd(3) == 0 ? 2 : 1;
      for (int k = 0; k < naxes; k++) {
        int8_t ax = k == 0 ? axis : (int8_t)((axis + 1) % nd);
        int64_t an = m.shape[ax], ac = g->chunk[ax];
        int64_t len = pick_len(ac, 8);
        int grow = an == 0 || rnd(2);
        if (!grow && len > an) len = an;
        if (an + len > 40) grow = 0, len = an < len ? an : len;
        ns[ax] = grow ? an + len : an - len;
        int64_t s = grow ? pick_pos(an, ac) : pick_pos(an - len, ac);
        if (!with_start) s = grow ? an : an - len;
        start[ax] = s;
        at[ax] = s;
        shift[ax] = grow ? len : -len;
        if (with_start) ok &= grow ? ins_ok(s, len, an, ac) : del_ok(s, len, an, ac);
      }
      snprintf(ow, sizeof ow, "%s op %d resize%s %s -> %s at %s", w, op, with_start ? "+start" : "",
               b2_shape_str(nd, m.shape), b2_shape_str(nd, ns), b2_shape_str(nd, start));
      rc = b2nd_resize(a, ns, with_start ? start : NULL);
      if (ok) b2_model_reshape(&m, ns, at, shift, NULL);
    }
    if (getenv("B2_TRACE")) printf("%s -> %d\n", ow, rc);
    CHECK_EQ(rc, ok ? 0 : -12, "%s", ow);
    if (!b2_matches(a, &m, ow)) break;
    for (int d = 0; d < nd; d++) {
      int64_t ext = ((m.shape[d] + g->chunk[d] - 1) / g->chunk[d]) * g->chunk[d];
      CHECK_EQ(a->extshape[d], ext, "%s extshape[%d]", ow, d);
    }
  }
  /* the result persists through a cframe round trip */
  uint8_t *cf = NULL;
  int64_t len = 0;
  bool nf = false;
  if (b2nd_to_cframe(a, &cf, &len, &nf) == 0) {
    b2nd_array_t *b = NULL;
    CHECK_EQ(b2nd_from_cframe(cf, len, true, &b), 0, "%s from_cframe after the sequence", w);
    if (b) {
      b2_matches(b, &m, "sequence result via cframe");
      b2nd_free(b);
    }
    if (nf) free(cf);
  } else {
    CHECK(0, "%s: to_cframe failed", w);
  }
  if (kind == B2_FILE_CFRAME || kind == B2_DIR_SFRAME) {
    b2nd_array_t *b = NULL;
    CHECK_EQ(b2nd_open(b2_path("seq.b2nd"), &b), 0, "%s reopen", w);
    if (b) {
      b2_matches(b, &m, "sequence result reopened");
      b2nd_free(b);
    }
  }
  b2nd_free(a);
  b2_model_free(&m);
}

static const b2_geom geoms[] = {
    {1, {20}, {6}, {4}},
    {2, {6, 5}, {4, 3}, {2, 2}},
    {3, {5, 7, 4}, {2, 3, 4}, {2, 2, 3}},
    {4, {4, 3, 5, 2}, {2, 2, 3, 1}, {1, 2, 2, 1}},
    {2, {12, 9}, {3, 3}, {3, 3}},
};
#define NGEOMS ((int)(sizeof geoms / sizeof geoms[0]))

static void test_sequences(void) {
  for (int gi = 0; gi < NGEOMS; gi++)
    for (int kind = 0; kind < B2_NKINDS; kind++) run_sequence(gi, &geoms[gi], kind, kind == 0 ? 40 : 15);
}

/* Shape changes on arrays made of special-value chunks (zeros, full). */
static void test_special_shapes(void) {
  b2_geom g = {2, {8, 6}, {4, 3}, {2, 3}};
  for (int which = 0; which < 2; which++) {
    char w[64];
    snprintf(w, sizeof w, "%s shape changes", which ? "full" : "zeros");
    b2nd_context_t *ctx = b2_ctx(&g, 4, B2_MEM_CFRAME, NULL, 1);
    REQUIRE(ctx != NULL, "%s ctx", w);
    b2nd_array_t *a = NULL;
    int32_t fill = 0x5A5A1234;
    CHECK_EQ(which ? b2nd_full(ctx, &a, &fill) : b2nd_zeros(ctx, &a), 0, "%s create", w);
    b2nd_free_ctx(ctx);
    if (!a) continue;
    b2_model m = b2_model_new(2, g.shape, 4, 0);
    if (which)
      for (int64_t i = 0; i < 48; i++) memcpy(m.data + i * 4, &fill, 4);
    int32_t rows[4 * 6];
    b2_fill_pattern((uint8_t *)rows, 24, 4, 5);
    CHECK_EQ(b2nd_insert(a, rows, sizeof rows, 0, 4), 0, "%s insert", w);
    int64_t ns[2] = {12, 6}, at[2] = {4, 0}, sh[2] = {4, 0};
    b2_model_reshape(&m, ns, at, sh, NULL);
    int64_t lo[2] = {4, 0}, hi[2] = {8, 6};
    b2_model_set(&m, lo, hi, (uint8_t *)rows);
    b2_matches(a, &m, w);
    int64_t ns2[2] = {12, 9}, st2[2] = {0, 3}, at2[2] = {0, 3}, sh2[2] = {0, 3};
    CHECK_EQ(b2nd_resize(a, ns2, st2), 0, "%s resize", w);
    b2_model_reshape(&m, ns2, at2, sh2, NULL);
    b2_matches(a, &m, w);
    CHECK_EQ(b2nd_delete(a, 0, 0, 4), 0, "%s delete", w);
    int64_t ns3[2] = {8, 9}, at3[2] = {0, 0}, sh3[2] = {-4, 0};
    b2_model_reshape(&m, ns3, at3, sh3, NULL);
    b2_matches(a, &m, w);
    b2nd_free(a);
    b2_model_free(&m);
  }
}

/* Model of concatenating b after a along axis. */
static b2_model model_concat(const b2_model *a, const b2_model *b, int axis) {
  int64_t ns[B2_MAXD];
  memcpy(ns, a->shape, sizeof ns);
  ns[axis] += b->shape[axis];
  b2_model r = b2_model_new(a->ndim, ns, a->itemsize, 0);
  int64_t lo[B2_MAXD] = {0}, hi[B2_MAXD];
  memcpy(hi, a->shape, sizeof hi);
  b2_model_set(&r, lo, hi, a->data);
  lo[axis] = a->shape[axis];
  hi[axis] = ns[axis];
  b2_model_set(&r, lo, hi, b->data);
  return r;
}

static void test_concatenate(void) {
  static const b2_geom pairs[][2] = {
      {{2, {6, 5}, {4, 3}, {2, 2}}, {2, {3, 5}, {2, 2}, {1, 2}}},
      {{2, {8, 6}, {4, 3}, {2, 3}}, {2, {4, 6}, {4, 3}, {2, 3}}}, /* chunk-aligned */
      {{3, {4, 5, 6}, {2, 2, 3}, {1, 2, 3}}, {3, {4, 5, 2}, {3, 3, 2}, {3, 1, 1}}},
      {{1, {10}, {4}, {4}}, {1, {7}, {3}, {2}}},
  };
  for (int p = 0; p < 4; p++) {
    const b2_geom *ga = &pairs[p][0], *gb = &pairs[p][1];
    int axis = 0;
    for (int d = 0; d < ga->ndim; d++)
      if (ga->shape[d] != gb->shape[d]) axis = d;
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      for (int copy = 0; copy < 2; copy++) {
        char w[96];
        snprintf(w, sizeof w, "concatenate pair %d %s copy=%d", p, b2_kind_names[kind], copy);
        b2_model ma = b2_model_new(ga->ndim, ga->shape, 4, (uint32_t)(p + 1));
        b2_model mb = b2_model_new(gb->ndim, gb->shape, 4, (uint32_t)(p + 50));
        b2_model mr = model_concat(&ma, &mb, axis);
        b2nd_array_t *a = b2_from_model(&ma, ga, kind, "cat-a.b2nd");
        b2nd_array_t *b = b2_from_model(&mb, gb, (kind + 1) % B2_NKINDS, "cat-b.b2nd");
        CHECK(a && b, "%s: arrays", w);
        b2_geom rg = *ga;
        rg.shape[axis] = mr.shape[axis];
        for (int d = 0; d < rg.ndim; d++) {
          rg.chunk[d] = (int32_t)(1 + rnd(rg.shape[d]));
          rg.block[d] = (int32_t)(1 + rnd(rg.chunk[d]));
        }
        b2nd_context_t *ctx = b2_ctx(&rg, 4, (kind + 2) % B2_NKINDS, "cat-r.b2nd", 1);
        b2nd_array_t *r = NULL;
        if (a && b && ctx) {
          CHECK_EQ(b2nd_concatenate(ctx, a, b, (int8_t)axis, copy, &r), 0, "%s", w);
          if (r) {
            b2_matches(r, &mr, w);
            if (copy) {
              CHECK(r != a, "%s: copy returned the source", w);
              b2_matches(a, &ma, "concatenate source untouched");
              for (int d = 0; d < rg.ndim; d++)
                CHECK_EQ(r->chunkshape[d], rg.chunk[d], "%s chunkshape[%d]", w, d);
            } else {
              CHECK(r == a, "%s: in place returned another array", w);
              for (int d = 0; d < rg.ndim; d++)
                CHECK_EQ(r->chunkshape[d], ga->chunk[d], "%s chunkshape[%d]", w, d);
            }
            b2_matches(b, &mb, "concatenate second source untouched");
          }
          /* other axes must agree; axis must exist */
          b2nd_array_t *x = NULL;
          int other = (axis + 1) % ga->ndim;
          if (other != axis)
            CHECK_EQ(b2nd_concatenate(ctx, a, b, (int8_t)other, copy, &x), -12, "%s wrong axis", w);
          CHECK_EQ(b2nd_concatenate(ctx, a, b, (int8_t)ga->ndim, copy, &x), -12, "%s axis past ndim", w);
        }
        if (ctx) b2nd_free_ctx(ctx);
        if (r && r != a) b2nd_free(r);
        if (a) b2nd_free(a);
        if (b) b2nd_free(b);
        b2_model_free(&ma);
        b2_model_free(&mb);
        b2_model_free(&mr);
      }
    }
  }
}

static void test_squeeze_expand(void) {
  b2_geom gs = {4, {1, 5, 1, 3}, {1, 2, 1, 3}, {1, 1, 1, 2}};
  for (int kind = 0; kind < B2_NKINDS; kind++) {
    char w[64];
    snprintf(w, sizeof w, "squeeze %s", b2_kind_names[kind]);
    b2_model m = b2_model_new(4, gs.shape, 4, 9);
    b2nd_array_t *a = b2_from_model(&m, &gs, kind, "sq.b2nd");
    REQUIRE(a != NULL, "%s array", w);
    b2nd_array_t *v = NULL;
    CHECK_EQ(b2nd_squeeze(a, &v), 0, "%s", w);
    if (v) {
      b2_model mv = m;
      mv.ndim = 2;
      mv.shape[0] = 5;
      mv.shape[1] = 3;
      b2_matches(v, &mv, w);
      CHECK_EQ(v->chunkshape[0], 2, "%s chunkshape[0]", w);
      CHECK_EQ(v->chunkshape[1], 3, "%s chunkshape[1]", w);
      CHECK_EQ(v->blockshape[1], 2, "%s blockshape[1]", w);
      CHECK(v->sc->view, "%s: view flag not set", w);
      CHECK_EQ(a->ndim, 4, "%s source ndim", w);
      b2nd_free(v);
    }
    bool idx[4] = {true, false, false, false};
    v = NULL;
    CHECK_EQ(b2nd_squeeze_index(a, &v, idx), 0, "%s squeeze_index", w);
    if (v) {
      b2_model mv = m;
      mv.ndim = 3;
      mv.shape[0] = 5;
      mv.shape[1] = 1;
      mv.shape[2] = 3;
      b2_matches(v, &mv, "squeeze_index");
      b2nd_free(v);
    }
    bool bad[4] = {false, true, false, false};
    v = NULL;
    CHECK_EQ(b2nd_squeeze_index(a, &v, bad), -33, "%s squeeze_index of a long axis", w);
    b2_matches(a, &m, "squeeze source untouched");
    b2nd_free(a);
    b2_model_free(&m);

    snprintf(w, sizeof w, "expand_dims %s", b2_kind_names[kind]);
    b2_geom ge = {2, {5, 3}, {2, 3}, {1, 2}};
    m = b2_model_new(2, ge.shape, 8, 19);
    a = b2_from_model(&m, &ge, kind, "ex.b2nd");
    REQUIRE(a != NULL, "%s array", w);
    bool ax[4] = {false, true, false, true};
    v = NULL;
    CHECK_EQ(b2nd_expand_dims(a, &v, ax, 4), 0, "%s", w);
    if (v) {
      b2_model mv = m;
      mv.ndim = 4;
      int64_t s4[4] = {5, 1, 3, 1};
      memcpy(mv.shape, s4, sizeof s4);
      b2_matches(v, &mv, w);
      CHECK_EQ(v->chunkshape[1], 1, "%s chunkshape[1]", w);
      CHECK_EQ(v->chunkshape[2], 3, "%s chunkshape[2]", w);
      CHECK(v->sc->view, "%s: view flag not set", w);
      /* and squeezed back */
      b2nd_array_t *s = NULL;
      CHECK_EQ(b2nd_squeeze(v, &s), 0, "%s squeeze back", w);
      if (s) {
        b2_matches(s, &m, "expand then squeeze");
        b2nd_free(s);
      }
      b2nd_free(v);
    }
    bool ax0[3] = {true, false, false};
    v = NULL;
    CHECK_EQ(b2nd_expand_dims(a, &v, ax0, 3), 0, "%s front", w);
    if (v) {
      b2_model mv = m;
      mv.ndim = 3;
      int64_t s3[3] = {1, 5, 3};
      memcpy(mv.shape, s3, sizeof s3);
      b2_matches(v, &mv, "expand_dims front");
      b2nd_free(v);
    }
    CHECK_EQ(a->ndim, 2, "%s source ndim", w);
    b2_matches(a, &m, "expand_dims source untouched");
    b2nd_free(a);
    b2_model_free(&m);
  }
}

/*
 * Views share their source's items (reference 3.3.5: the view's super-chunk points to the
 * source's chunks): writes to the source are read through the view; writes through the view
 * reach the source of an in-memory array and fail (-1) for an array stored in a frame (the
 * reference cannot update a frame whose metalayer has another size). Either may be freed
 * first. `ws` writes one item (value `tag`) at flat position `at` of array `x`.
 */
static int ws(b2nd_array_t *x, int64_t at, uint8_t tag) {
  int64_t start[B2_MAXD], stop[B2_MAXD], bshape[B2_MAXD];
  int64_t rest = at;
  for (int d = x->ndim - 1; d >= 0; d--) {
    start[d] = rest % x->shape[d];
    rest /= x->shape[d];
    stop[d] = start[d] + 1;
    bshape[d] = 1;
  }
  uint8_t item[8];
  memset(item, tag, sizeof item);
  return b2nd_set_slice_cbuffer(item, bshape, x->sc->typesize, start, stop, x);
}

static void test_views_share(void) {
  b2_geom g = {3, {1, 10, 6}, {1, 4, 6}, {1, 2, 3}};
  for (int kind = 0; kind < B2_NKINDS; kind++) {
    char w[64];
    int in_memory = kind == B2_MEM_SPARSE;
    snprintf(w, sizeof w, "view sharing %s", b2_kind_names[kind]);
    b2_model m = b2_model_new(3, g.shape, 8, 23);
    b2nd_array_t *a = b2_from_model(&m, &g, kind, "views.b2nd");
    REQUIRE(a != NULL, "%s: array", w);
    b2nd_array_t *v = NULL;
    CHECK_EQ(b2nd_squeeze(a, &v), 0, "%s: squeeze", w);
    REQUIRE(v != NULL, "%s: squeeze gave no view", w);
    CHECK(v->sc->view, "%s: the view's view flag is not set", w);
    CHECK(!a->sc->view, "%s: the source's view flag is set", w);
    b2_model mv = m;
    mv.ndim = 2;
    mv.shape[0] = 10;
    mv.shape[1] = 6;
    /* a write to the source is read through the view */
    uint8_t tag[8];
    memset(tag, 0xA5, sizeof tag);
    CHECK_EQ(ws(a, 59, 0xA5), 0, "%s: write to the source", w);
    memcpy(m.data + 59 * 8, tag, 8);
    b2_matches(v, &mv, "view reads a later write to its source");
    /* a write through the view */
    int rc = ws(v, 19, 0x5A);
    if (in_memory) {
      CHECK_EQ(rc, 0, "%s: write through the view", w);
      memset(m.data + 19 * 8, 0x5A, 8);
      b2_matches(a, &m, "source reads a write through its view");
      b2_matches(v, &mv, "view after its write");
    } else {
      CHECK(rc < 0, "%s: write through a view of a frame: %d (the reference fails)", w, rc);
    }
    CHECK_EQ(b2nd_free(v), 0, "%s: free the view first", w);
    if (!in_memory) {
      /* the failed write may or may not have reached the source: re-read it */
      int64_t nb = b2_model_nbytes(&m);
      CHECK_EQ(b2nd_to_cbuffer(a, m.data, nb), 0, "%s: to_cbuffer", w);
    }
    b2_matches(a, &m, "source after its view was freed");

    /* expand_dims, then the source is freed first */
    b2nd_array_t *e = NULL;
    bool ax[4] = {false, false, true, false};
    CHECK_EQ(b2nd_expand_dims(a, &e, ax, 4), 0, "%s: expand_dims", w);
    REQUIRE(e != NULL, "%s: expand_dims gave no view", w);
    CHECK(e->sc->view, "%s: the expanded view's view flag is not set", w);
    b2_model me = m;
    me.ndim = 4;
    int64_t s4[4] = {1, 10, 1, 6};
    memcpy(me.shape, s4, sizeof s4);
    b2_matches(e, &me, "expand_dims view");
    if (in_memory) {
      CHECK_EQ(ws(e, 7, 0x3C), 0, "%s: write through the expanded view", w);
      memset(m.data + 7 * 8, 0x3C, 8);
      b2_matches(a, &m, "source reads a write through its expanded view");
    }
    CHECK_EQ(ws(a, 0, 0xC3), 0, "%s: write to the source", w);
    memset(m.data, 0xC3, 8);
    b2_matches(e, &me, "expanded view reads a later write to its source");
    CHECK_EQ(b2nd_free(a), 0, "%s: free the source first", w);
    CHECK_EQ(b2nd_free(e), 0, "%s: then the view", w);
    b2_model_free(&m);
  }
}

int main(void) {
  blosc2_init();
  b2_make_tmp("shape");
  test_sequences();
  test_special_shapes();
  test_concatenate();
  test_squeeze_expand();
  test_views_share();
  blosc2_destroy();
  return b2_finish("b2nd_shape");
}
