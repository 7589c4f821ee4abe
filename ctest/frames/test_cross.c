/*
 * Frame cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL; the structs have the same layout, so the reference headers serve both) and
 * checks that frames written by one are read and modified by the other, and that the
 * result reads back in the first, in both directions:
 *   - in memory (to_buffer / from_buffer, copy and no-copy), cframe files, sframe dirs;
 *   - with metalayers, vlmetalayers, deleted / inserted / updated / reordered chunks and
 *     special chunks (zeros, NaN, uninit) in the index;
 *   - VL-block frames, variable chunk sizes (without specials), fill_special frames, and
 *     frames appended after foreign bytes (append_file / open_offset).
 * Also reports (without failing) whether both libraries serialise the same chunks into
 * byte-identical frames.
 *
 * usage: frames_cross OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 * (for development the reference may be given twice)
 */
#define FC_NO_LIBRARY
#include "fc_common.h"

#include <math.h>

#define LIB_FUNCS(X)                                                                       \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_free_ctx)                \
  X(blosc2_compress_ctx) X(blosc2_vlcompress_ctx) X(blosc2_chunk_zeros) X(blosc2_chunk_nans) \
  X(blosc2_chunk_uninit) X(blosc2_schunk_new) X(blosc2_schunk_free)                        \
  X(blosc2_schunk_append_buffer) X(blosc2_schunk_append_chunk) X(blosc2_schunk_insert_chunk) \
  X(blosc2_schunk_update_chunk) X(blosc2_schunk_delete_chunk) X(blosc2_schunk_reorder_offsets) \
  X(blosc2_schunk_decompress_chunk) X(blosc2_schunk_to_buffer) X(blosc2_schunk_from_buffer) \
  X(blosc2_schunk_open) X(blosc2_schunk_open_offset) X(blosc2_schunk_append_file)          \
  X(blosc2_schunk_to_file) X(blosc2_schunk_get_vlblock) X(blosc2_schunk_fill_special)      \
  X(blosc2_schunk_get_slice_buffer) X(blosc2_schunk_set_slice_buffer) X(blosc2_meta_add)   \
  X(blosc2_meta_update) X(blosc2_vlmeta_add) X(blosc2_vlmeta_update) X(blosc2_vlmeta_get)  \
  X(blosc2_vlmeta_delete) X(blosc2_remove_urlpath)

#include "../cross_lib.h"

/* ---- model of a frame's content ------------------------------------------------------- */

enum { C_DATA, C_ZERO, C_NAN, C_UNINIT, C_VL };
#define ITEMS 1000
#define MAXC 64

typedef struct {
  int kind;
  int tag;       /* C_DATA: content tag; C_VL: index into g_vl */
  int32_t items; /* int32 items (C_DATA, specials) */
} centry_t;

typedef struct {
  centry_t c[MAXC];
  int n;
  char vlnames[8][16];
  char vlvals[8][4000];
  int32_t vllens[8];
  int nvl;
  uint8_t alpha[8];
} model_t;

static int32_t g_buf[ITEMS * 8];
static int32_t g_out[ITEMS * 8];

/* VL chunks (written by either library): block b of chunk v has size vl_size(v, b). */
static int32_t vl_nblocks(int v) { return 2 + v % 3; }
static int32_t vl_size(int v, int b) { return 1 + (v * 37 + b * 501) % 3000; }
static void vl_fill(uint8_t *dst, int v, int b) {
  fc_fill_bytes(dst, (size_t)vl_size(v, b), (uint32_t)(v * 16 + b));
}

static uint8_t *make_chunk(lib_t *L, const centry_t *e, int32_t *cbytes) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  uint8_t *dest = (uint8_t *)fc_malloc(ITEMS * 4 * 8 + 4096);
  int rc = -1;
  int32_t nb = e->items * 4;
  if (e->kind == C_DATA) {
    fc_fill_i32(g_buf, e->items, 0, e->tag);
    blosc2_context *c = L->blosc2_create_cctx(cp);
    rc = L->blosc2_compress_ctx(c, g_buf, nb, dest, nb + BLOSC2_MAX_OVERHEAD);
    L->blosc2_free_ctx(c);
  } else if (e->kind == C_ZERO) {
    rc = L->blosc2_chunk_zeros(cp, nb, dest, 64);
  } else if (e->kind == C_NAN) {
    rc = L->blosc2_chunk_nans(cp, nb, dest, 64);
  } else if (e->kind == C_UNINIT) {
    rc = L->blosc2_chunk_uninit(cp, nb, dest, 64);
  } else {
    cp.typesize = 1;
    blosc2_context *c = L->blosc2_create_cctx(cp);
    const void *srcs[4];
    int32_t sizes[4];
    uint8_t *blocks[4];
    for (int b = 0; b < vl_nblocks(e->tag); b++) {
      sizes[b] = vl_size(e->tag, b);
      blocks[b] = (uint8_t *)fc_malloc((size_t)sizes[b]);
      vl_fill(blocks[b], e->tag, b);
      srcs[b] = blocks[b];
    }
    rc = L->blosc2_vlcompress_ctx(c, srcs, sizes, vl_nblocks(e->tag), dest, ITEMS * 4 * 8 + 4096);
    for (int b = 0; b < vl_nblocks(e->tag); b++) free(blocks[b]);
    L->blosc2_free_ctx(c);
  }
  if (rc <= 0) {
    free(dest);
    return NULL;
  }
  *cbytes = rc;
  return dest;
}

static int32_t entry_nbytes(const centry_t *e) {
  if (e->kind != C_VL) return e->items * 4;
  int32_t n = 0;
  for (int b = 0; b < vl_nblocks(e->tag); b++) n += vl_size(e->tag, b);
  return n;
}

/* Apply one chunk operation through library L, mirrored in the model. */
static void op_append(lib_t *L, blosc2_schunk *sc, model_t *m, centry_t e, const char *ctx) {
  int32_t cb = 0;
  uint8_t *chunk = make_chunk(L, &e, &cb);
  REQUIRE(chunk != NULL, "%s: %s cannot make a chunk", ctx, L->label);
  int64_t rc = L->blosc2_schunk_append_chunk(sc, chunk, true);
  free(chunk);
  CHECK_EQ(rc, m->n + 1, "%s: %s append_chunk", ctx, L->label);
  if (rc == m->n + 1) m->c[m->n++] = e;
}

static void op_insert(lib_t *L, blosc2_schunk *sc, model_t *m, int pos, centry_t e,
                      const char *ctx) {
  int32_t cb = 0;
  uint8_t *chunk = make_chunk(L, &e, &cb);
  REQUIRE(chunk != NULL, "%s: %s cannot make a chunk", ctx, L->label);
  int64_t rc = L->blosc2_schunk_insert_chunk(sc, pos, chunk, true);
  free(chunk);
  CHECK_EQ(rc, m->n + 1, "%s: %s insert_chunk at %d", ctx, L->label, pos);
  if (rc != m->n + 1) return;
  memmove(&m->c[pos + 1], &m->c[pos], (size_t)(m->n - pos) * sizeof m->c[0]);
  m->c[pos] = e;
  m->n++;
}

static void op_update(lib_t *L, blosc2_schunk *sc, model_t *m, int pos, centry_t e,
                      const char *ctx) {
  int32_t cb = 0;
  uint8_t *chunk = make_chunk(L, &e, &cb);
  REQUIRE(chunk != NULL, "%s: %s cannot make a chunk", ctx, L->label);
  int64_t rc = L->blosc2_schunk_update_chunk(sc, pos, chunk, true);
  free(chunk);
  CHECK_EQ(rc, m->n, "%s: %s update_chunk at %d", ctx, L->label, pos);
  if (rc == m->n) m->c[pos] = e;
}

static void op_delete(lib_t *L, blosc2_schunk *sc, model_t *m, int pos, const char *ctx) {
  int64_t rc = L->blosc2_schunk_delete_chunk(sc, pos);
  CHECK_EQ(rc, m->n - 1, "%s: %s delete_chunk %d", ctx, L->label, pos);
  if (rc != m->n - 1) return;
  memmove(&m->c[pos], &m->c[pos + 1], (size_t)(m->n - pos - 1) * sizeof m->c[0]);
  m->n--;
}

static void op_reverse(lib_t *L, blosc2_schunk *sc, model_t *m, const char *ctx) {
  int64_t order[MAXC];
  for (int i = 0; i < m->n; i++) order[i] = m->n - 1 - i;
  int rc = L->blosc2_schunk_reorder_offsets(sc, order);
  CHECK_EQ(rc, 0, "%s: %s reorder_offsets", ctx, L->label);
  if (rc != 0) return;
  for (int i = 0; i < m->n / 2; i++) {
    centry_t t = m->c[i];
    m->c[i] = m->c[m->n - 1 - i];
    m->c[m->n - 1 - i] = t;
  }
}

static void vl_set(lib_t *L, blosc2_schunk *sc, model_t *m, const char *name, const char *val,
                   int32_t len, const char *ctx) {
  int idx = -1;
  for (int i = 0; i < m->nvl; i++)
    if (strcmp(m->vlnames[i], name) == 0) idx = i;
  int rc;
  if (idx < 0) {
    rc = L->blosc2_vlmeta_add(sc, name, (uint8_t *)val, len, NULL);
    CHECK_EQ(rc, m->nvl, "%s: %s vlmeta_add %s", ctx, L->label, name);
    idx = m->nvl++;
    snprintf(m->vlnames[idx], sizeof m->vlnames[idx], "%s", name);
  } else {
    rc = L->blosc2_vlmeta_update(sc, name, (uint8_t *)val, len, NULL);
    CHECK_EQ(rc, idx, "%s: %s vlmeta_update %s", ctx, L->label, name);
  }
  memcpy(m->vlvals[idx], val, (size_t)len);
  m->vllens[idx] = len;
}

static void vl_del(lib_t *L, blosc2_schunk *sc, model_t *m, const char *name, const char *ctx) {
  int idx = -1;
  for (int i = 0; i < m->nvl; i++)
    if (strcmp(m->vlnames[i], name) == 0) idx = i;
  REQUIRE(idx >= 0, "%s: model has no vlmeta %s", ctx, name);
  CHECK_EQ(L->blosc2_vlmeta_delete(sc, name), m->nvl - 1, "%s: %s vlmeta_delete %s", ctx,
           L->label, name);
  for (int i = idx; i < m->nvl - 1; i++) {
    memcpy(m->vlnames[i], m->vlnames[i + 1], sizeof m->vlnames[0]);
    memcpy(m->vlvals[i], m->vlvals[i + 1], sizeof m->vlvals[0]);
    m->vllens[i] = m->vllens[i + 1];
  }
  m->nvl--;
}

/* Everything in the model reads back through library L. */
static void verify(lib_t *L, blosc2_schunk *sc, const model_t *m, const char *ctx) {
  REQUIRE(sc != NULL, "%s: %s could not open the frame", ctx, L->label);
  CHECK_EQ(sc->nchunks, m->n, "%s: %s nchunks", ctx, L->label);
  int64_t nbytes = 0;
  for (int i = 0; i < m->n && i < sc->nchunks; i++) {
    const centry_t *e = &m->c[i];
    int32_t nb = entry_nbytes(e);
    nbytes += nb;
    memset(g_out, 0x3C, (size_t)nb);
    int rc = L->blosc2_schunk_decompress_chunk(sc, i, g_out, (int32_t)sizeof g_out);
    CHECK_EQ(rc, nb, "%s: %s decompress chunk %d (kind %d)", ctx, L->label, i, e->kind);
    if (rc != nb) continue;
    if (e->kind == C_DATA) {
      fc_fill_i32(g_buf, e->items, 0, e->tag);
      CHECK(memcmp(g_out, g_buf, (size_t)nb) == 0, "%s: %s chunk %d data", ctx, L->label, i);
    } else if (e->kind == C_ZERO) {
      CHECK(g_out[0] == 0 && g_out[e->items - 1] == 0, "%s: %s chunk %d zeros", ctx, L->label, i);
    } else if (e->kind == C_NAN) {
      float f;
      memcpy(&f, &g_out[e->items - 1], 4);
      CHECK(isnan(f), "%s: %s chunk %d NaN", ctx, L->label, i);
    } else if (e->kind == C_VL) {
      for (int b = 0; b < vl_nblocks(e->tag); b++) {
        uint8_t *d = NULL;
        int32_t ds = 0;
        uint8_t want[3100];
        vl_fill(want, e->tag, b);
        int vr = L->blosc2_schunk_get_vlblock(sc, i, b, &d, &ds);
        CHECK(vr == vl_size(e->tag, b) && d && memcmp(d, want, (size_t)vr) == 0,
              "%s: %s chunk %d VL block %d -> %d", ctx, L->label, i, b, vr);
        free(d);
      }
    }
  }
  CHECK_EQ(sc->nbytes, nbytes, "%s: %s nbytes", ctx, L->label);
  /* metalayers */
  uint8_t *content = NULL;
  int32_t len = 0;
  CHECK(blosc2_meta_get(sc, "alpha", &content, &len) >= 0 && len == 8 && content &&
            memcmp(content, m->alpha, 8) == 0,
        "%s: %s metalayer alpha", ctx, L->label);
  free(content);
  content = NULL;
  CHECK(blosc2_meta_get(sc, "beta", &content, &len) >= 0 && len == 20 && content &&
            content[19] == 19,
        "%s: %s metalayer beta", ctx, L->label);
  free(content);
  CHECK_EQ(sc->nvlmetalayers, m->nvl, "%s: %s nvlmetalayers", ctx, L->label);
  for (int i = 0; i < m->nvl; i++) {
    content = NULL;
    int rc = L->blosc2_vlmeta_get(sc, m->vlnames[i], &content, &len);
    CHECK(rc >= 0 && len == m->vllens[i] && content &&
              memcmp(content, m->vlvals[i], (size_t)len) == 0,
          "%s: %s vlmeta %s -> %d", ctx, L->label, m->vlnames[i], rc);
    free(content);
  }
}

/* ---- storage ---------------------------------------------------------------------------- */

enum { S_MEM, S_FILE, S_DIR, S_MEM_COPY };
static const char *s_names[] = {"memory", "cframe-file", "sframe-dir", "memory(copy)"};

static blosc2_schunk *create(lib_t *L, int s, const char *path) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = s != S_DIR;
  st.urlpath = (s == S_FILE || s == S_DIR) ? (char *)path : NULL;
  if (st.urlpath) L->blosc2_remove_urlpath(st.urlpath);
  blosc2_schunk *sc = L->blosc2_schunk_new(&st);
  if (!sc) return NULL;
  uint8_t alpha[8] = {1, 2, 3, 4, 5, 6, 7, 8}, beta[20];
  for (int i = 0; i < 20; i++) beta[i] = (uint8_t)i;
  if (L->blosc2_meta_add(sc, "alpha", alpha, 8) != 0 || L->blosc2_meta_add(sc, "beta", beta, 20) != 1) {
    L->blosc2_schunk_free(sc);
    return NULL;
  }
  return sc;
}

/* Hand a schunk over from library A to library B (A's handle is freed). */
static blosc2_schunk *hand_over(lib_t *A, blosc2_schunk *sc, lib_t *B, int s, const char *path,
                                const char *ctx) {
  if (s == S_FILE || s == S_DIR) {
    A->blosc2_schunk_free(sc);
    return B->blosc2_schunk_open(path);
  }
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t len = A->blosc2_schunk_to_buffer(sc, &cf, &nf);
  CHECK(len > 87, "%s: %s to_buffer -> %lld", ctx, A->label, (long long)len);
  if (len <= 87) {
    A->blosc2_schunk_free(sc);
    return NULL;
  }
  uint8_t *copy = (uint8_t *)fc_malloc((size_t)len);
  memcpy(copy, cf, (size_t)len);
  if (nf) free(cf);
  A->blosc2_schunk_free(sc);
  if (s == S_MEM_COPY) {
    blosc2_schunk *r = B->blosc2_schunk_from_buffer(copy, len, true);
    free(copy);
    return r;
  }
  /* no copy: B owns the buffer from now on */
  blosc2_schunk *r = B->blosc2_schunk_from_buffer(copy, len, false);
  if (!r) free(copy);
  return r;
}

static centry_t D(int tag) { centry_t e = {C_DATA, tag, ITEMS}; return e; }
static centry_t SPECIAL(int kind) { centry_t e = {kind, 0, ITEMS}; return e; }

static void scenario_main(lib_t *W, lib_t *R, int s) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s writes, %s reads, %s", W->label, R->label, s_names[s]);
  const char *path = fc_path(s == S_DIR ? "cross.b2d" : "cross.b2");
  model_t m;
  memset(&m, 0, sizeof m);
  for (int i = 0; i < 8; i++) m.alpha[i] = (uint8_t)(i + 1);
  blosc2_schunk *sc = create(W, s, path);
  REQUIRE(sc != NULL, "%s: create", ctx);
  for (int i = 0; i < 8; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(W->blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), i + 1, "%s: append_buffer", ctx);
    m.c[m.n++] = D(i);
  }
  op_append(W, sc, &m, SPECIAL(C_ZERO), ctx);
  op_append(W, sc, &m, SPECIAL(C_NAN), ctx);
  op_delete(W, sc, &m, 1, ctx);
  op_insert(W, sc, &m, 2, D(20), ctx);
  op_update(W, sc, &m, 3, D(30), ctx);
  op_reverse(W, sc, &m, ctx);
  vl_set(W, sc, &m, "v1", "hello", 5, ctx);
  static char big[3000];
  for (int i = 0; i < 3000; i++) big[i] = (char)('a' + i % 26);
  vl_set(W, sc, &m, "v2", big, 3000, ctx);
  vl_set(W, sc, &m, "v3", "tmp", 3, ctx);
  vl_set(W, sc, &m, "v1", "hello, world", 12, ctx);
  vl_del(W, sc, &m, "v3", ctx);
  verify(W, sc, &m, ctx);

  blosc2_schunk *r = hand_over(W, sc, R, s, path, ctx);
  verify(R, r, &m, ctx);
  if (!r) return;
  op_append(R, r, &m, D(40), ctx);
  op_append(R, r, &m, SPECIAL(C_UNINIT), ctx);
  op_delete(R, r, &m, 0, ctx);
  op_update(R, r, &m, 0, D(41), ctx);
  op_insert(R, r, &m, 0, SPECIAL(C_NAN), ctx);
  uint8_t alpha2[8] = {9, 9, 8, 8, 7, 7, 6, 6};
  CHECK_EQ(R->blosc2_meta_update(r, "alpha", alpha2, 8), 0, "%s: %s meta_update", ctx, R->label);
  memcpy(m.alpha, alpha2, 8);
  vl_set(R, r, &m, "v4", "from the reader", 15, ctx);
  vl_set(R, r, &m, "v2", "short", 5, ctx);
  vl_del(R, r, &m, "v1", ctx);
  verify(R, r, &m, ctx);

  blosc2_schunk *w = hand_over(R, r, W, s, path, ctx);
  snprintf(ctx, sizeof ctx, "%s reads back what %s changed, %s", W->label, R->label, s_names[s]);
  verify(W, w, &m, ctx);
  if (!w) return;
  op_append(W, w, &m, D(50), ctx);
  op_delete(W, w, &m, 2, ctx);
  blosc2_schunk *r2 = hand_over(W, w, R, s, path, ctx);
  snprintf(ctx, sizeof ctx, "%s reads %s's second round, %s", R->label, W->label, s_names[s]);
  verify(R, r2, &m, ctx);
  if (r2) R->blosc2_schunk_free(r2);
  if (s == S_FILE || s == S_DIR) W->blosc2_remove_urlpath(path);
}

/* VL-block frames and variable chunk sizes (no specials: see test_slices.c). */
static void scenario_shapes(lib_t *W, lib_t *R, int s, int vl) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s writes %s, %s reads, %s", W->label, vl ? "VL blocks" : "variable sizes",
           R->label, s_names[s]);
  const char *path = fc_path(s == S_DIR ? "shapes.b2d" : "shapes.b2");
  model_t m;
  memset(&m, 0, sizeof m);
  for (int i = 0; i < 8; i++) m.alpha[i] = (uint8_t)(i + 1);
  blosc2_schunk *sc = create(W, s, path);
  REQUIRE(sc != NULL, "%s: create", ctx);
  static const int32_t sizes[] = {ITEMS, ITEMS, 300, ITEMS, 7, ITEMS * 2};
  for (int i = 0; i < 6; i++) {
    centry_t e = vl ? (centry_t){C_VL, i, 0} : (centry_t){C_DATA, i, sizes[i]};
    op_append(W, sc, &m, e, ctx);
  }
  op_delete(W, sc, &m, 1, ctx);
  op_insert(W, sc, &m, 0, vl ? (centry_t){C_VL, 9, 0} : (centry_t){C_DATA, 9, 123}, ctx);
  vl_set(W, sc, &m, "shape", vl ? "vl" : "var", vl ? 2 : 3, ctx);
  blosc2_schunk *r = hand_over(W, sc, R, s, path, ctx);
  verify(R, r, &m, ctx);
  if (!r) return;
  op_append(R, r, &m, vl ? (centry_t){C_VL, 11, 0} : (centry_t){C_DATA, 11, 500}, ctx);
  op_update(R, r, &m, 2, vl ? (centry_t){C_VL, 12, 0} : (centry_t){C_DATA, 12, ITEMS}, ctx);
  op_delete(R, r, &m, 0, ctx);
  blosc2_schunk *w = hand_over(R, r, W, s, path, ctx);
  snprintf(ctx, sizeof ctx, "%s reads back %s frame changed by %s, %s", W->label,
           vl ? "VL" : "variable", R->label, s_names[s]);
  verify(W, w, &m, ctx);
  if (w) W->blosc2_schunk_free(w);
  if (s == S_FILE || s == S_DIR) W->blosc2_remove_urlpath(path);
}

/* fill_special by one library; slices set and read by the other. */
static void scenario_fill(lib_t *W, lib_t *R, int s) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s fill_special, %s slices, %s", W->label, R->label, s_names[s]);
  const char *path = fc_path(s == S_DIR ? "fill.b2d" : "fill.b2");
  blosc2_schunk *sc = create(W, s, path);
  REQUIRE(sc != NULL, "%s: create", ctx);
  CHECK_EQ(W->blosc2_schunk_fill_special(sc, 10500, BLOSC2_SPECIAL_ZERO, 4000), 11, "%s: fill", ctx);
  blosc2_schunk *r = hand_over(W, sc, R, s, path, ctx);
  REQUIRE(r != NULL, "%s: hand over", ctx);
  CHECK_EQ(r->nbytes, 42000, "%s: nbytes", ctx);
  int32_t in[50];
  for (int i = 0; i < 50; i++) in[i] = 1000 + i;
  CHECK_EQ(R->blosc2_schunk_set_slice_buffer(r, 980, 1030, in), 0, "%s: set_slice", ctx);
  CHECK_EQ(R->blosc2_schunk_set_slice_buffer(r, 10450, 10500, in), 0, "%s: set_slice tail", ctx);
  blosc2_schunk *w = hand_over(R, r, W, s, path, ctx);
  REQUIRE(w != NULL, "%s: hand back", ctx);
  memset(g_out, 0x77, 4 * 100);
  CHECK_EQ(W->blosc2_schunk_get_slice_buffer(w, 970, 1040, g_out), 0, "%s: get_slice", ctx);
  CHECK(g_out[9] == 0 && memcmp(g_out + 10, in, 200) == 0 && g_out[60] == 0, "%s: slice content",
        ctx);
  CHECK_EQ(W->blosc2_schunk_get_slice_buffer(w, 10440, 10500, g_out), 0, "%s: get tail", ctx);
  CHECK(g_out[9] == 0 && memcmp(g_out + 10, in, 200) == 0, "%s: tail content", ctx);
  W->blosc2_schunk_free(w);
  if (s == S_FILE || s == S_DIR) W->blosc2_remove_urlpath(path);
}

/* Frames appended after foreign bytes by one library, opened at offsets by the other. */
static void scenario_offsets(lib_t *W, lib_t *R) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s append_file, %s open_offset", W->label, R->label);
  const char *path = fc_path("multi.bin");
  fc_write_file(path, "0123456789", 10);
  model_t m[2];
  int64_t offs[2];
  for (int f = 0; f < 2; f++) {
    memset(&m[f], 0, sizeof m[f]);
    for (int i = 0; i < 8; i++) m[f].alpha[i] = (uint8_t)(i + 1);
    blosc2_schunk *sc = create(W, S_MEM, NULL);
    REQUIRE(sc != NULL, "%s: create", ctx);
    for (int i = 0; i < 3 + f; i++) op_append(W, sc, &m[f], D(100 * f + i), ctx);
    vl_set(W, sc, &m[f], "frame", f ? "second" : "first", f ? 6 : 5, ctx);
    offs[f] = W->blosc2_schunk_append_file(sc, path);
    CHECK(offs[f] >= 10, "%s: append_file -> %lld", ctx, (long long)offs[f]);
    W->blosc2_schunk_free(sc);
  }
  for (int f = 0; f < 2; f++) {
    blosc2_schunk *r = R->blosc2_schunk_open_offset(path, offs[f]);
    verify(R, r, &m[f], ctx);
    if (r && f == 1) {
      op_append(R, r, &m[f], D(300), ctx);
      vl_set(R, r, &m[f], "frame", "second, changed", 15, ctx);
    }
    if (r) R->blosc2_schunk_free(r);
  }
  for (int f = 0; f < 2; f++) {
    blosc2_schunk *w = W->blosc2_schunk_open_offset(path, offs[f]);
    verify(W, w, &m[f], ctx);
    if (w) W->blosc2_schunk_free(w);
  }
}

/* Informational: do both libraries serialise the same chunks into the same bytes? */
static void report_identity(lib_t *A, lib_t *B) {
  uint8_t *frames[2] = {NULL, NULL};
  int64_t lens[2] = {0, 0};
  lib_t *libs[2] = {A, B};
  int32_t cb = 0;
  model_t m;
  memset(&m, 0, sizeof m);
  uint8_t *chunks[4];
  for (int i = 0; i < 4; i++) {
    centry_t e = D(i);
    chunks[i] = make_chunk(A, &e, &cb); /* the same chunk bytes for both */
  }
  for (int l = 0; l < 2; l++) {
    blosc2_schunk *sc = create(libs[l], S_MEM, NULL);
    if (!sc) continue;
    for (int i = 0; i < 4; i++)
      if (chunks[i]) libs[l]->blosc2_schunk_append_chunk(sc, chunks[i], true);
    libs[l]->blosc2_vlmeta_add(sc, "same", (uint8_t *)"bytes?", 6, NULL);
    uint8_t *cf = NULL;
    bool nf = false;
    lens[l] = libs[l]->blosc2_schunk_to_buffer(sc, &cf, &nf);
    if (lens[l] > 0) {
      frames[l] = (uint8_t *)fc_malloc((size_t)lens[l]);
      memcpy(frames[l], cf, (size_t)lens[l]);
    }
    if (nf) free(cf);
    libs[l]->blosc2_schunk_free(sc);
  }
  int same = lens[0] == lens[1] && frames[0] && frames[1] &&
             memcmp(frames[0], frames[1], (size_t)lens[0]) == 0;
  int64_t first_diff = -1;
  for (int64_t i = 0; !same && frames[0] && frames[1] && i < lens[0] && i < lens[1]; i++)
    if (frames[0][i] != frames[1][i]) {
      first_diff = i;
      break;
    }
  printf("info: same chunks + metalayers -> %s frames (%lld vs %lld bytes, first difference at "
         "%lld)\n",
         same ? "byte-identical" : "different", (long long)lens[0], (long long)lens[1],
         (long long)first_diff);
  for (int i = 0; i < 4; i++) free(chunks[i]);
  free(frames[0]);
  free(frames[1]);
}

int main(int argc, char **argv) {
  static lib_t ours, ref;
  if (!cross_load_pair(argc, argv, &ours, &ref)) return 2;
  if (ours.handle == ref.handle)
    printf("note: both paths name the same library instance (development mode)\n");
  ours.blosc2_init();
  ref.blosc2_init();
  fc_make_tmp("cross");
  lib_t *pairs[2][2] = {{&ours, &ref}, {&ref, &ours}};
  for (int p = 0; p < 2; p++) {
    lib_t *W = pairs[p][0], *R = pairs[p][1];
    for (int s = S_MEM; s <= S_MEM_COPY; s++) scenario_main(W, R, s);
    for (int s = S_MEM; s <= S_DIR; s++) {
      scenario_shapes(W, R, s, 0);
      scenario_shapes(W, R, s, 1);
      scenario_fill(W, R, s);
    }
    scenario_offsets(W, R);
  }
  report_identity(&ours, &ref);
  ours.blosc2_destroy();
  ref.blosc2_destroy();
  return fc_finish("frames_cross");
}
