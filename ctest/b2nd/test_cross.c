/*
 * b2nd cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL; the structs have the same layout, so the reference headers serve both).
 * For each creation function (from_cbuffer, zeros, nans, full, uninit, empty) and each
 * storage (in-memory cframe, cframe file, sframe directory), one library writes an array and
 * changes its shape (set_slice, resize, insert, delete), the other reads it (from_cframe /
 * open), checks it against the C model, changes it (set_slice, append), and the first reads
 * the result back; in both directions. The same operation sequence run by both libraries at
 * nthreads=1 must give byte-identical cframes, files and sframe directories (not for uninit
 * and empty, whose chunks hold whatever memory held once set_slice decompresses them). Concatenations
 * (copy and in place), the cframes of views (expand_dims, squeeze) and the return codes of
 * truncated cframes and out-of-bounds slices are compared between the libraries too.
 *
 * usage: b2nd_cross OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 */
#define B2_NO_LIBRARY
#include "b2_common.h"

#include <dirent.h>
#include <math.h>

#define LIB_FUNCS(X)                                                                           \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_remove_urlpath) X(b2nd_create_ctx) X(b2nd_free_ctx) \
  X(b2nd_zeros) X(b2nd_nans) X(b2nd_full) X(b2nd_uninit) X(b2nd_empty) X(b2nd_from_cbuffer)      \
  X(b2nd_to_cbuffer) X(b2nd_to_cframe) X(b2nd_from_cframe) X(b2nd_open) X(b2nd_save)            \
  X(b2nd_free) X(b2nd_get_slice_cbuffer) X(b2nd_set_slice_cbuffer) X(b2nd_resize)             \
  X(b2nd_insert) X(b2nd_append) X(b2nd_delete) X(b2nd_concatenate) X(b2nd_expand_dims)       \
  X(b2nd_squeeze)

#include "../cross_lib.h"

/* 1 when every function was found; 2 when only (some of) the shape-changing ones are
 * missing, whose absence fails once (in main) and leaves out the steps that need them; 0
 * otherwise. */
static int load(lib_t *lib) {
  if (cross_load(lib)) return 1;
  int core = lib->blosc2_init && lib->b2nd_create_ctx && lib->b2nd_from_cbuffer &&
             lib->b2nd_to_cbuffer && lib->b2nd_to_cframe && lib->b2nd_from_cframe &&
             lib->b2nd_open && lib->b2nd_free && lib->b2nd_set_slice_cbuffer;
  return lib->handle && core ? 2 : 0;
}

/* Whether L has every shape-changing function (see load). */
static int has_shape_ops(const lib_t *L) {
  return L->b2nd_resize && L->b2nd_insert && L->b2nd_append && L->b2nd_delete &&
         L->b2nd_concatenate;
}

/* ---- arrays through one library --------------------------------------------------------- */

enum { S_MEM, S_FILE, S_DIR, S_N };
static const char *const s_names[] = {"memory-cframe", "cframe-file", "sframe-dir"};
enum { C_BUFFER, C_ZEROS, C_NANS, C_FULL, C_UNINIT, C_EMPTY, C_N };
static const char *const c_names[] = {"from_cbuffer", "zeros", "nans", "full", "uninit", "empty"};

static const b2_geom G = {3, {13, 10, 9}, {4, 4, 5}, {2, 3, 2}};
#define ISZ 8

static b2nd_context_t *make_ctx(lib_t *L, const b2_geom *g, int storage, const char *path) {
  static blosc2_dparams dp;
  dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 1;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = ISZ;
  cp.nthreads = 1;
  cp.clevel = 5;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  st.contiguous = storage != S_DIR;
  st.urlpath = storage == S_MEM ? NULL : (char *)path;
  if (st.urlpath) L->blosc2_remove_urlpath(st.urlpath);
  return L->b2nd_create_ctx(&st, g->ndim, g->shape, g->chunk, g->block, "<f8", 0, NULL, 0);
}

/* Create the array with creation function `how`; the model gets its content. */
static b2nd_array_t *create(lib_t *L, int how, int storage, const char *path, b2_model *m) {
  *m = b2_model_new(G.ndim, G.shape, ISZ, how == C_BUFFER ? 11 : 0);
  b2nd_context_t *ctx = make_ctx(L, &G, storage, path);
  if (!ctx) return NULL;
  b2nd_array_t *a = NULL;
  double fill = -7.25, nan = NAN;
  int rc = -999;
  switch (how) {
    case C_BUFFER: rc = L->b2nd_from_cbuffer(ctx, &a, m->data, b2_model_nbytes(m)); break;
    case C_ZEROS: rc = L->b2nd_zeros(ctx, &a); break;
    case C_NANS: rc = L->b2nd_nans(ctx, &a); break;
    case C_FULL: rc = L->b2nd_full(ctx, &a, &fill); break;
    case C_UNINIT: rc = L->b2nd_uninit(ctx, &a); break;
    case C_EMPTY: rc = L->b2nd_empty(ctx, &a); break;
  }
  L->b2nd_free_ctx(ctx);
  int64_t n = b2_model_nitems(m);
  if (how == C_NANS || how == C_FULL)
    for (int64_t i = 0; i < n; i++) memcpy(m->data + i * ISZ, how == C_NANS ? &nan : &fill, ISZ);
  if (how == C_UNINIT || how == C_EMPTY) {
    m->defined = (uint8_t *)b2_malloc((size_t)n);
    memset(m->defined, 0, (size_t)n);
  }
  CHECK_EQ(rc, 0, "%s %s %s", L->label, c_names[how], s_names[storage]);
  return rc == 0 ? a : NULL;
}

/* set_slice of a box with pattern `seed`, mirrored in the model. */
static void op_set(lib_t *L, b2nd_array_t *a, b2_model *m, const int64_t *lo, const int64_t *hi,
                   uint32_t seed, const char *w) {
  int64_t bs[B2_MAXD];
  for (int d = 0; d < m->ndim; d++) bs[d] = hi[d] - lo[d];
  int64_t n = b2_prod(bs, m->ndim);
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)(n * ISZ));
  b2_fill_pattern(buf, n, ISZ, seed);
  int rc = L->b2nd_set_slice_cbuffer(buf, bs, n * ISZ, lo, hi, a);
  CHECK_EQ(rc, 0, "%s: %s set_slice", w, L->label);
  if (rc == 0) b2_model_set(m, lo, hi, buf);
  free(buf);
}

/* The writer's shape changes: set, resize (grow at the end), insert, delete. */
static void writer_ops(lib_t *L, b2nd_array_t *a, b2_model *m, const char *w) {
  int64_t lo[3] = {2, 1, 3}, hi[3] = {11, 9, 8};
  op_set(L, a, m, lo, hi, 21, w);
  if (!has_shape_ops(L)) return;
  int64_t ns[3] = {13, 14, 9}, at[3] = {0, 10, 0}, sh[3] = {0, 4, 0};
  int rc = L->b2nd_resize(a, ns, NULL);
  CHECK_EQ(rc, 0, "%s: %s resize", w, L->label);
  if (rc == 0) b2_model_reshape(m, ns, at, sh, NULL);
  /* insert 4 rows (one chunk) at row 4 */
  int64_t rows = 4 * m->shape[1] * m->shape[2];
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)(rows * ISZ));
  b2_fill_pattern(buf, rows, ISZ, 33);
  rc = L->b2nd_insert(a, buf, rows * ISZ, 0, 4);
  CHECK_EQ(rc, 0, "%s: %s insert", w, L->label);
  if (rc == 0) {
    int64_t ns2[3] = {m->shape[0] + 4, m->shape[1], m->shape[2]}, at2[3] = {4, 0, 0}, sh2[3] = {4, 0, 0};
    b2_model_reshape(m, ns2, at2, sh2, NULL);
    int64_t l2[3] = {4, 0, 0}, h2[3] = {8, ns2[1], ns2[2]};
    b2_model_set(m, l2, h2, buf);
  }
  free(buf);
  /* delete the first 5 items of the last axis (one chunk) */
  rc = L->b2nd_delete(a, 2, 0, 5);
  CHECK_EQ(rc, 0, "%s: %s delete", w, L->label);
  if (rc == 0) {
    int64_t ns3[3] = {m->shape[0], m->shape[1], m->shape[2] - 5}, at3[3] = {0, 0, 0}, sh3[3] = {0, 0, -5};
    b2_model_reshape(m, ns3, at3, sh3, NULL);
  }
}

/* The reader's changes: set a box, append 2 rows along axis 0. */
static void reader_ops(lib_t *L, b2nd_array_t *a, b2_model *m, const char *w) {
  int64_t lo[3] = {0, 5, 0}, hi[3] = {6, m->shape[1] < 12 ? m->shape[1] : 12, 3};
  op_set(L, a, m, lo, hi, 55, w);
  if (!has_shape_ops(L)) return;
  int64_t rows = 2 * m->shape[1] * m->shape[2];
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)(rows * ISZ));
  b2_fill_pattern(buf, rows, ISZ, 66);
  int rc = L->b2nd_append(a, buf, rows * ISZ, 0);
  CHECK_EQ(rc, 0, "%s: %s append", w, L->label);
  if (rc == 0) {
    int64_t n0 = m->shape[0];
    int64_t ns[3] = {n0 + 2, m->shape[1], m->shape[2]}, at[3] = {n0, 0, 0}, sh[3] = {2, 0, 0};
    b2_model_reshape(m, ns, at, sh, NULL);
    int64_t l2[3] = {n0, 0, 0}, h2[3] = {n0 + 2, ns[1], ns[2]};
    b2_model_set(m, l2, h2, buf);
  }
  free(buf);
}

/* Whole array against the model through library L. */
static void compare(lib_t *L, const b2nd_array_t *a, const b2_model *m, const char *w) {
  CHECK_EQ(a->ndim, m->ndim, "%s: %s ndim", w, L->label);
  for (int d = 0; d < m->ndim; d++) {
    CHECK_EQ(a->shape[d], m->shape[d], "%s: %s shape[%d]", w, L->label, d);
    CHECK_EQ(a->chunkshape[d], G.chunk[d], "%s: %s chunkshape[%d]", w, L->label, d);
    CHECK_EQ(a->blockshape[d], G.block[d], "%s: %s blockshape[%d]", w, L->label, d);
  }
  if (a->ndim != m->ndim || a->nitems != b2_model_nitems(m)) {
    CHECK(0, "%s: %s nitems %lld, model %lld", w, L->label, (long long)a->nitems,
          (long long)b2_model_nitems(m));
    return;
  }
  int64_t nb = b2_model_nbytes(m);
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)nb);
  int rc = L->b2nd_to_cbuffer(a, buf, nb);
  CHECK_EQ(rc, 0, "%s: %s to_cbuffer", w, L->label);
  int64_t k = rc == 0 ? b2_model_diff(m, buf) : -1;
  CHECK(k < 0, "%s: %s reads item %lld unlike the model", w, L->label, (long long)k);
  free(buf);
}

/* A cframe copy of the array through L (malloc'ed). */
static uint8_t *cframe_of(lib_t *L, const b2nd_array_t *a, int64_t *len) {
  uint8_t *cf = NULL;
  bool nf = false;
  if (L->b2nd_to_cframe(a, &cf, len, &nf) != 0 || !cf) return NULL;
  uint8_t *copy = (uint8_t *)b2_malloc((size_t)*len);
  memcpy(copy, cf, (size_t)*len);
  if (nf) free(cf);
  return copy;
}

static b2nd_array_t *from_cframe(lib_t *L, const uint8_t *cf, int64_t len) {
  uint8_t *copy = (uint8_t *)b2_malloc((size_t)len);
  memcpy(copy, cf, (size_t)len);
  b2nd_array_t *a = NULL;
  int rc = L->b2nd_from_cframe(copy, len, true, &a);
  free(copy);
  return rc == 0 ? a : NULL;
}

/* W writes and changes, R reads and changes, W reads back. */
static void one_way(lib_t *W, lib_t *R, int how, int storage) {
  char w[160];
  snprintf(w, sizeof w, "%s writes %s/%s, %s reads", W->label, c_names[how], s_names[storage], R->label);
  char *path = b2_path(storage == S_FILE ? "cross.b2nd" : "cross-dir.b2nd");
  b2_model m;
  b2nd_array_t *a = create(W, how, storage, path, &m);
  if (!a) {
    b2_model_free(&m);
    return;
  }
  writer_ops(W, a, &m, w);
  compare(W, a, &m, w);
  b2nd_array_t *b = NULL;
  int64_t len = 0;
  if (storage == S_MEM) {
    uint8_t *cf = cframe_of(W, a, &len);
    CHECK(cf != NULL, "%s: to_cframe", w);
    if (cf) b = from_cframe(R, cf, len);
    free(cf);
    W->b2nd_free(a);
  } else {
    W->b2nd_free(a);
    CHECK_EQ(R->b2nd_open(path, &b), 0, "%s: open", w);
  }
  CHECK(b != NULL, "%s: the reader got no array", w);
  if (b) {
    compare(R, b, &m, w);
    reader_ops(R, b, &m, w);
    compare(R, b, &m, "reader after its changes");
    b2nd_array_t *c = NULL;
    if (storage == S_MEM) {
      uint8_t *cf = cframe_of(R, b, &len);
      if (cf) c = from_cframe(W, cf, len);
      free(cf);
      R->b2nd_free(b);
    } else {
      R->b2nd_free(b);
      CHECK_EQ(W->b2nd_open(path, &c), 0, "%s: reopen by the writer", w);
    }
    CHECK(c != NULL, "%s: the writer cannot read the reader's result", w);
    if (c) {
      compare(W, c, &m, "writer reads the reader's result");
      W->b2nd_free(c);
    }
  }
  b2_model_free(&m);
}

/* ---- byte identity ---------------------------------------------------------------------- */

/* Concatenated bytes of every file of a directory, in name order (malloc'ed). */
static uint8_t *dir_bytes(const char *dir, int64_t *len) {
  struct dirent **names = NULL;
  int n = scandir(dir, &names, NULL, alphasort);
  *len = 0;
  if (n < 0) return NULL;
  uint8_t *all = (uint8_t *)b2_malloc(1);
  for (int i = 0; i < n; i++) {
    if (names[i]->d_name[0] != '.') {
      char p[1200];
      snprintf(p, sizeof p, "%s/%s", dir, names[i]->d_name);
      int64_t l = 0;
      uint8_t *b = b2_read_file(p, &l);
      size_t nl = strlen(names[i]->d_name);
      all = (uint8_t *)realloc(all, (size_t)(*len + l + (int64_t)nl + 1));
      memcpy(all + *len, names[i]->d_name, nl + 1);
      *len += (int64_t)nl + 1;
      if (b) memcpy(all + *len, b, (size_t)l);
      *len += l;
      free(b);
    }
    free(names[i]);
  }
  free(names);
  return all;
}

/* The bytes each library produces for the same sequence (cframe, file or directory). */
static uint8_t *sequence_bytes(lib_t *L, int how, int storage, int64_t *len) {
  char leaf[64];
  snprintf(leaf, sizeof leaf, "ident-%s.b2nd", L->label);
  char *path = b2_path(leaf);
  char keep[700];
  snprintf(keep, sizeof keep, "%s", path);
  b2_model m;
  b2nd_array_t *a = create(L, how, storage, keep, &m);
  uint8_t *out = NULL;
  *len = 0;
  if (a) {
    writer_ops(L, a, &m, "identity");
    if (storage == S_MEM) out = cframe_of(L, a, len);
    L->b2nd_free(a);
    if (storage == S_FILE) out = b2_read_file(keep, len);
    if (storage == S_DIR) out = dir_bytes(keep, len);
  }
  b2_model_free(&m);
  return out;
}

static void identity(lib_t *ours, lib_t *ref, int how, int storage) {
  int64_t lo = 0, lr = 0;
  uint8_t *bo = sequence_bytes(ours, how, storage, &lo);
  uint8_t *br = sequence_bytes(ref, how, storage, &lr);
  CHECK(bo && br, "identity %s %s: no bytes", c_names[how], s_names[storage]);
  if (bo && br) {
    int64_t first = -1;
    for (int64_t i = 0; i < (lo < lr ? lo : lr) && first < 0; i++)
      if (bo[i] != br[i]) first = i;
    CHECK(lo == lr && first < 0, "identity %s %s: %lld vs %lld bytes, first difference at %lld",
          c_names[how], s_names[storage], (long long)lo, (long long)lr, (long long)first);
  }
  free(bo);
  free(br);
}

/* ---- views ------------------------------------------------------------------------------ */

/* The cframe of a view of an in-memory array: expand_dims, or squeeze of that view. */
static uint8_t *view_bytes(lib_t *L, int squeeze_back, int64_t *len) {
  b2_model m;
  b2nd_array_t *a = create(L, C_BUFFER, S_MEM, NULL, &m);
  uint8_t *out = NULL;
  *len = 0;
  CHECK(L->b2nd_expand_dims && L->b2nd_squeeze, "%s lacks expand_dims/squeeze", L->label);
  if (a && L->b2nd_expand_dims && L->b2nd_squeeze) {
    bool ax[4] = {false, true, false, false};
    b2nd_array_t *e = NULL, *s = NULL;
    int rc = L->b2nd_expand_dims(a, &e, ax, 4);
    CHECK_EQ(rc, 0, "%s expand_dims", L->label);
    if (rc == 0 && squeeze_back) {
      rc = L->b2nd_squeeze(e, &s);
      CHECK_EQ(rc, 0, "%s squeeze of a view", L->label);
    }
    b2nd_array_t *v = squeeze_back ? s : e;
    if (rc == 0 && v) out = cframe_of(L, v, len);
    if (s) L->b2nd_free(s);
    if (e) L->b2nd_free(e);
  }
  if (a) L->b2nd_free(a);
  b2_model_free(&m);
  return out;
}

static void view_identity(lib_t *ours, lib_t *ref, int squeeze_back) {
  const char *w = squeeze_back ? "squeeze of an expand_dims view" : "expand_dims view";
  int64_t lo = 0, lr = 0;
  uint8_t *bo = view_bytes(ours, squeeze_back, &lo);
  uint8_t *br = view_bytes(ref, squeeze_back, &lr);
  CHECK(bo && br, "%s cframe: no bytes", w);
  if (bo && br) {
    int64_t first = -1;
    for (int64_t i = 0; i < (lo < lr ? lo : lr) && first < 0; i++)
      if (bo[i] != br[i]) first = i;
    CHECK(lo == lr && first < 0, "%s cframe: %lld vs %lld bytes, first difference at %lld", w,
          (long long)lo, (long long)lr, (long long)first);
  }
  free(bo);
  free(br);
}

/* ---- concatenate and error codes --------------------------------------------------------- */

static void concat_cross(lib_t *W, lib_t *R, int copy) {
  char w[96];
  snprintf(w, sizeof w, "%s concatenates (copy=%d), %s reads", W->label, copy, R->label);
  b2_model ma, mb;
  b2nd_array_t *a = create(W, C_BUFFER, S_MEM, NULL, &ma);
  b2nd_array_t *b = create(W, C_FULL, S_MEM, NULL, &mb);
  if (!a || !b) goto out;
  b2nd_context_t *ctx = make_ctx(W, &G, S_MEM, NULL);
  b2nd_array_t *c = NULL;
  int rc = W->b2nd_concatenate(ctx, a, b, 1, copy, &c);
  W->b2nd_free_ctx(ctx);
  CHECK_EQ(rc, 0, "%s", w);
  if (rc == 0 && c) {
    int64_t ns[3] = {G.shape[0], G.shape[1] * 2, G.shape[2]};
    b2_model mc = b2_model_new(3, ns, ISZ, 0);
    int64_t lo[3] = {0, 0, 0}, hi[3] = {G.shape[0], G.shape[1], G.shape[2]};
    b2_model_set(&mc, lo, hi, ma.data);
    lo[1] = G.shape[1];
    hi[1] = ns[1];
    b2_model_set(&mc, lo, hi, mb.data);
    int64_t len = 0;
    uint8_t *cf = cframe_of(W, c, &len);
    b2nd_array_t *r = cf ? from_cframe(R, cf, len) : NULL;
    CHECK(r != NULL, "%s: reader got no array", w);
    if (r) {
      CHECK_EQ(r->shape[1], ns[1], "%s: shape[1]", w);
      if (r->shape[1] == ns[1]) {
        uint8_t *buf = (uint8_t *)b2_malloc((size_t)b2_model_nbytes(&mc));
        CHECK_EQ(R->b2nd_to_cbuffer(r, buf, b2_model_nbytes(&mc)), 0, "%s: to_cbuffer", w);
        CHECK(b2_model_diff(&mc, buf) < 0, "%s: content", w);
        free(buf);
      }
      R->b2nd_free(r);
    }
    free(cf);
    b2_model_free(&mc);
    if (c != a) W->b2nd_free(c);
  }
out:
  if (a) W->b2nd_free(a);
  if (b) W->b2nd_free(b);
  b2_model_free(&ma);
  b2_model_free(&mb);
}

/* Both libraries give the same codes for truncated cframes and bad slices. */
static void codes(lib_t *ours, lib_t *ref) {
  b2_model m;
  b2nd_array_t *a = create(ref, C_BUFFER, S_MEM, NULL, &m);
  if (!a) {
    b2_model_free(&m);
    return;
  }
  int64_t len = 0;
  uint8_t *cf = cframe_of(ref, a, &len);
  int differ = 0;
  for (int64_t cut = 0; cf && cut <= len; cut += cut < 160 ? 1 : 11) {
    int rc[2];
    lib_t *L[2] = {ours, ref};
    for (int k = 0; k < 2; k++) {
      uint8_t *p = (uint8_t *)b2_malloc((size_t)(cut ? cut : 1));
      memcpy(p, cf, (size_t)cut);
      b2nd_array_t *x = NULL;
      rc[k] = L[k]->b2nd_from_cframe(p, cut, true, &x);
      if (rc[k] == 0 && x) L[k]->b2nd_free(x);
      free(p);
    }
    if (rc[0] != rc[1] && differ++ < 5)
      CHECK(0, "from_cframe of %lld of %lld bytes: ours %d, reference %d", (long long)cut,
            (long long)len, rc[0], rc[1]);
    else
      b2_checks++;
  }
  free(cf);
  ref->b2nd_free(a);
  b2_model_free(&m);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO\n", argv[0]);
    return 2;
  }
  lib_t ours = {.label = "ours", .path = argv[1]}, ref = {.label = "reference", .path = argv[2]};
  int ok_o = load(&ours), ok_r = load(&ref);
  CHECK(ok_o == 1, "our library does not load or lacks b2nd functions");
  CHECK(ok_r == 1, "the reference library does not load");
  if (!ok_o || !ok_r) return b2_finish("b2nd_cross");
  /* without the shape changes in one library, both run the same (shorter) sequence */
  int shapes = has_shape_ops(&ours) && has_shape_ops(&ref);
  if (!shapes) {
    ours.b2nd_resize = NULL;
    ref.b2nd_resize = NULL;
  }
  ours.blosc2_init();
  ref.blosc2_init();
  b2_make_tmp("cross");
  /* Under valgrind (tools/valgrind.sh sets B2_SKIP_UNDEFINED) the arrays of undefined
   * content are left out: both libraries compress that memory on set_slice, which memcheck
   * rightly reports as use of uninitialised values. */
  int skip_undefined = getenv("B2_SKIP_UNDEFINED") != NULL;
  if (skip_undefined) printf("b2nd_cross: uninit and empty arrays left out (B2_SKIP_UNDEFINED)\n");
  for (int how = 0; how < C_N; how++)
    for (int storage = 0; storage < S_N; storage++) {
      if (skip_undefined && (how == C_UNINIT || how == C_EMPTY)) continue;
      one_way(&ours, &ref, how, storage);
      one_way(&ref, &ours, how, storage);
      /* uninit/empty chunks hold whatever memory held: set_slice on them compresses it */
      if (how != C_UNINIT && how != C_EMPTY) identity(&ours, &ref, how, storage);
    }
  for (int copy = 0; copy < 2 && shapes; copy++) {
    concat_cross(&ours, &ref, copy);
    concat_cross(&ref, &ours, copy);
  }
  view_identity(&ours, &ref, 0);
  view_identity(&ours, &ref, 1);
  codes(&ours, &ref);
  ours.blosc2_destroy();
  ref.blosc2_destroy();
  return b2_finish("b2nd_cross");
}
