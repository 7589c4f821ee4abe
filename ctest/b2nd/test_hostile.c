/*
 * b2nd hostile inputs: hand-made "b2nd" metalayers (ndim past the limit, negative and
 * overflowing shapes, chunkshape 0, shape x typesize overflow, a dtype length past the
 * buffer, shapes that disagree with the super-chunk), truncated and mutated cframes and
 * files, impossible create_ctx geometries, slices past the bounds, bad axes and indices, and
 * NULL arguments. Every case runs in a child process, so a crash is a failure (or, for the
 * cases where the reference is known to crash, the expected outcome on the reference only).
 * Return codes are the ones measured on the reference; the cross test (b2nd_cross) also
 * compares both libraries' codes on the same inputs at run time.
 *
 * usage: b2nd_hostile [--list] [CASE-NAME]
 */
#include "b2_common.h"

/* ---- a msgpack writer for hand-made metalayers ------------------------------------------ */

typedef struct {
  uint8_t b[4096];
  int n;
} mp_t;

static void mp_u8(mp_t *m, uint8_t v) {
  if (m->n < (int)sizeof m->b) m->b[m->n++] = v;
}
static void mp_be(mp_t *m, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--) mp_u8(m, (uint8_t)(v >> (8 * i)));
}

/* A metalayer with arbitrary values: ndim entries each (n_* may differ from ndim). */
static int make_meta(uint8_t *out, int8_t ndim, int n_shape, const int64_t *shape, int n_chunk,
                     const int32_t *chunk, int n_block, const int32_t *block, const char *dtype,
                     int32_t dtype_len_field) {
  mp_t m;
  m.n = 0;
  mp_u8(&m, 0x97);
  mp_u8(&m, 0);
  mp_u8(&m, (uint8_t)ndim);
  mp_u8(&m, (uint8_t)(0x90 + (n_shape & 15)));
  for (int i = 0; i < n_shape; i++) {
    mp_u8(&m, 0xd3);
    mp_be(&m, (uint64_t)shape[i], 8);
  }
  mp_u8(&m, (uint8_t)(0x90 + (n_chunk & 15)));
  for (int i = 0; i < n_chunk; i++) {
    mp_u8(&m, 0xd2);
    mp_be(&m, (uint32_t)chunk[i], 4);
  }
  mp_u8(&m, (uint8_t)(0x90 + (n_block & 15)));
  for (int i = 0; i < n_block; i++) {
    mp_u8(&m, 0xd2);
    mp_be(&m, (uint32_t)block[i], 4);
  }
  if (dtype) {
    mp_u8(&m, 0);
    mp_u8(&m, 0xdb);
    mp_be(&m, (uint32_t)dtype_len_field, 4);
    for (const char *p = dtype; *p; p++) mp_u8(&m, (uint8_t)*p);
  }
  memcpy(out, m.b, (size_t)m.n);
  return m.n;
}

/*
 * A super-chunk (typesize isz, chunks of `chunkbytes` bytes, nchunks of them) carrying the
 * given metalayer bytes under `name`; then b2nd_from_schunk and, through a cframe,
 * b2nd_from_cframe. Returns the from_schunk code; *cframe_rc gets from_cframe's.
 */
static int wrap_meta(const uint8_t *meta, int len, const char *name, int32_t isz,
                     int32_t chunkbytes, int nchunks, int *cframe_rc) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = isz;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = true;
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  if (!sc) return -999;
  if (blosc2_meta_add(sc, name, (uint8_t *)meta, len) < 0) return -998;
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)chunkbytes);
  b2_fill_pattern(buf, chunkbytes, 1, 3);
  for (int i = 0; i < nchunks; i++) blosc2_schunk_append_buffer(sc, buf, chunkbytes);
  free(buf);
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t cflen = blosc2_schunk_to_buffer(sc, &cf, &nf);
  *cframe_rc = -997;
  if (cflen > 0) {
    uint8_t *copy = (uint8_t *)b2_malloc((size_t)cflen);
    memcpy(copy, cf, (size_t)cflen);
    b2nd_array_t *a = NULL;
    *cframe_rc = b2nd_from_cframe(copy, cflen, true, &a);
    if (*cframe_rc == 0 && a) {
      /* whatever was accepted must be readable without a crash */
      int64_t n = a->nitems > 0 && a->nitems < 100000 ? a->nitems : 0;
      uint8_t *out = (uint8_t *)b2_malloc((size_t)(n * a->sc->typesize) + 1);
      b2nd_to_cbuffer(a, out, n * a->sc->typesize);
      free(out);
      b2nd_free(a);
    }
    free(copy);
  }
  if (nf) free(cf);
  b2nd_array_t *a = NULL;
  int rc = b2nd_from_schunk(sc, &a);
  if (rc == 0 && a) {
    b2nd_free(a);
  } else {
    blosc2_schunk_free(sc);
  }
  return rc;
}

/* ---- cases ------------------------------------------------------------------------------ */

/* Each case returns 0 when its checks pass (the child's exit status). */
typedef int (*case_fn)(void);

#define EXPECT(cond, ...)                         \
  do {                                            \
    if (!(cond)) {                                \
      fprintf(stderr, "  " __VA_ARGS__);          \
      fputc('\n', stderr);                        \
      bad++;                                      \
    }                                             \
  } while (0)

/*
 * EXPECT_CODE(rc, want): the reference must return exactly `want`. Ours must too when `want`
 * is an error; where the reference accepts an input that is out of bounds (want 0), ours may
 * also refuse it with a negative code.
 */
#ifdef BLOSC2_VARIANT_REFERENCE
#define CODE_OK(rc, want) ((rc) == (want))
#else
#define CODE_OK(rc, want) ((rc) == (want) || ((want) == 0 && (rc) < 0))
#endif
#define EXPECT_CODE(rc, want, what, ...) \
  EXPECT(CODE_OK(rc, want), what ": %d, expected %d", __VA_ARGS__, (int)(rc), (int)(want))

static int case_meta_ndim(void) {
  int bad = 0;
  uint8_t meta[4096];
  int64_t shape[20];
  int32_t chunk[20], block[20];
  for (int i = 0; i < 20; i++) {
    shape[i] = 1;
    chunk[i] = 1;
    block[i] = 1;
  }
  int cf;
  /* ndim 17 with 17 entries (msgpack fixarray markers wrap) */
  int len = make_meta(meta, 17, 17, shape, 17, chunk, 17, block, "|u1", 3);
  int rc = wrap_meta(meta, len, "b2nd", 1, 1, 1, &cf);
  EXPECT(rc == -1 && cf == -1, "ndim 17: from_schunk %d from_cframe %d", rc, cf);
  /* ndim byte 127 and -1 */
  len = make_meta(meta, 127, 2, shape, 2, chunk, 2, block, "|u1", 3);
  rc = wrap_meta(meta, len, "b2nd", 1, 1, 1, &cf);
  EXPECT(rc == -1 && cf == -1, "ndim 127: from_schunk %d from_cframe %d", rc, cf);
  len = make_meta(meta, -1, 2, shape, 2, chunk, 2, block, "|u1", 3);
  rc = wrap_meta(meta, len, "b2nd", 1, 1, 1, &cf);
  EXPECT(rc == -1 && cf == -1, "ndim -1: from_schunk %d from_cframe %d", rc, cf);
  /* ndim 9..16 are legal: a 9-d array of one item per chunk */
  len = make_meta(meta, 9, 9, shape, 9, chunk, 9, block, "|u1", 3);
  rc = wrap_meta(meta, len, "b2nd", 1, 1, 1, &cf);
  EXPECT(rc == 0 && cf == 0, "ndim 9: from_schunk %d from_cframe %d", rc, cf);
  /* ndim says 3 but only 2 entries follow: truncated/misparsed */
  len = make_meta(meta, 3, 2, shape, 2, chunk, 2, block, NULL, 0);
  rc = wrap_meta(meta, len, "b2nd", 1, 1, 1, &cf);
  EXPECT(rc == -1 && cf == -1, "ndim 3 with 2 entries: from_schunk %d from_cframe %d", rc, cf);
  return bad;
}

static int case_meta_shapes(void) {
  int bad = 0;
  uint8_t meta[4096];
  int cf, rc, len;
  int64_t s1[2] = {10, 7};
  int32_t c1[2] = {4, 4}, b1[2] = {2, 2};
  struct {
    const char *what;
    int64_t shape[2];
    int32_t chunk[2], block[2];
    int want;
  } t[] = {
      {"negative shape", {-10, 7}, {4, 4}, {2, 2}, -12},
      {"shape product overflow", {INT64_C(1) << 40, INT64_C(1) << 40}, {4, 4}, {2, 2}, -12},
      {"chunkshape 0", {10, 7}, {0, 4}, {2, 2}, -12},
      {"blockshape 0", {10, 7}, {4, 4}, {0, 2}, -12},
      {"negative chunkshape", {10, 7}, {-4, 4}, {2, 2}, -12},
      {"chunkshape product overflow", {1 << 20, 1 << 20}, {1 << 20, 1 << 20}, {2, 2}, -12},
      {"block longer than the chunk", {10, 7}, {4, 4}, {8, 2}, 0},
      {"chunk longer than the shape", {10, 7}, {40, 4}, {2, 2}, 0},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    len = make_meta(meta, 2, 2, t[i].shape, 2, t[i].chunk, 2, t[i].block, "|u1", 3);
    rc = wrap_meta(meta, len, "b2nd", 1, 16, 6, &cf);
    EXPECT_CODE(rc, t[i].want, "%s: from_schunk", t[i].what);
    EXPECT_CODE(cf, t[i].want, "%s: from_cframe", t[i].what);
  }
  /* an empty array with zero chunkshape and no chunks */
  int64_t s0[2] = {0, 7};
  int32_t c0[2] = {0, 4}, b0[2] = {0, 2};
  len = make_meta(meta, 2, 2, s0, 2, c0, 2, b0, "|u1", 3);
  rc = wrap_meta(meta, len, "b2nd", 1, 16, 0, &cf);
  EXPECT_CODE(rc, 0, "%s: from_schunk", "empty, chunkshape 0");
  EXPECT_CODE(cf, 0, "%s: from_cframe", "empty, chunkshape 0");
  (void)s1;
  (void)c1;
  (void)b1;
  return bad;
}

/* 2^61 items of 16 bytes (the reference does not return: it hangs). */
static int case_meta_nbytes_overflow(void) {
  int bad = 0;
  uint8_t meta[4096];
  int cf;
  int64_t s_ts[1] = {INT64_C(1) << 61};
  int32_t c_ts[1] = {4}, b_ts[1] = {4};
  int len = make_meta(meta, 1, 1, s_ts, 1, c_ts, 1, b_ts, "|V16", 4);
  int rc = wrap_meta(meta, len, "b2nd", 16, 64, 2, &cf);
  EXPECT(rc <= 0 && cf <= 0, "shape x typesize overflow: from_schunk %d from_cframe %d", rc, cf);
  return bad;
}

static int case_meta_dtype(void) {
  int bad = 0;
  uint8_t meta[4096];
  int cf, rc, len;
  int64_t s1[2] = {10, 7};
  int32_t c1[2] = {4, 4}, b1[2] = {2, 2};
  /* dtype length field past the buffer */
  len = make_meta(meta, 2, 2, s1, 2, c1, 2, b1, "<f8", 1000);
  rc = wrap_meta(meta, len, "b2nd", 8, 128, 6, &cf);
  EXPECT(rc == -1 && cf == -1, "dtype length past the buffer: from_schunk %d from_cframe %d", rc, cf);
  /* negative dtype length */
  len = make_meta(meta, 2, 2, s1, 2, c1, 2, b1, "<f8", -3);
  rc = wrap_meta(meta, len, "b2nd", 8, 128, 6, &cf);
  EXPECT(rc == -1 && cf == -1, "negative dtype length: from_schunk %d from_cframe %d", rc, cf);
  /* wrong dtype marker */
  len = make_meta(meta, 2, 2, s1, 2, c1, 2, b1, "<f8", 3);
  meta[len - 8] = 0xd9;
  rc = wrap_meta(meta, len, "b2nd", 8, 128, 6, &cf);
  EXPECT(rc == -1 && cf == -1, "bad dtype marker: from_schunk %d from_cframe %d", rc, cf);
  /* no dtype at all (legacy caterva layout): accepted */
  len = make_meta(meta, 2, 2, s1, 2, c1, 2, b1, NULL, 0);
  rc = wrap_meta(meta, len, "caterva", 8, 128, 6, &cf);
  EXPECT(rc == 0 && cf == 0, "caterva without dtype: from_schunk %d from_cframe %d", rc, cf);
  /* empty metalayer */
  rc = wrap_meta(meta, 1, "b2nd", 8, 128, 6, &cf);
  EXPECT(rc < 0 && cf < 0, "one-byte metalayer: from_schunk %d from_cframe %d", rc, cf);
  return bad;
}

/* Shapes that disagree with the super-chunk: the reference accepts them; reads must not crash. */
static int case_meta_inconsistent(void) {
  int bad = 0;
  uint8_t meta[4096];
  int cf, rc, len;
  int64_t s1[2] = {10, 7};
  int32_t c1[2] = {4, 4}, b1[2] = {2, 2};
  len = make_meta(meta, 2, 2, s1, 2, c1, 2, b1, "<f8", 3);
  /* 6 chunks of 128 bytes needed: 2 chunks, chunks of 64 bytes, schunk typesize 2 */
  rc = wrap_meta(meta, len, "b2nd", 8, 128, 2, &cf);
  EXPECT_CODE(rc, 0, "%s: from_schunk", "too few chunks");
  EXPECT_CODE(cf, 0, "%s: from_cframe", "too few chunks");
  rc = wrap_meta(meta, len, "b2nd", 8, 64, 6, &cf);
  EXPECT_CODE(rc, 0, "%s: from_schunk", "small chunks");
  EXPECT_CODE(cf, 0, "%s: from_cframe", "small chunks");
  rc = wrap_meta(meta, len, "b2nd", 2, 128, 6, &cf);
  EXPECT_CODE(rc, 0, "%s: from_schunk", "other typesize");
  EXPECT_CODE(cf, 0, "%s: from_cframe", "other typesize");
  return bad;
}

/* A valid array's cframe, truncated at every length and mutated byte by byte. */
static uint8_t *valid_cframe(int64_t *len) {
  b2_geom g = {3, {9, 10, 11}, {4, 4, 4}, {2, 2, 3}};
  b2_model m = b2_model_new(3, g.shape, 4, 8);
  b2nd_array_t *a = b2_from_model(&m, &g, B2_MEM_CFRAME, NULL);
  b2_model_free(&m);
  if (!a) return NULL;
  uint8_t *cf = NULL;
  bool nf = false;
  if (b2nd_to_cframe(a, &cf, len, &nf) != 0) return NULL;
  uint8_t *copy = (uint8_t *)b2_malloc((size_t)*len);
  memcpy(copy, cf, (size_t)*len);
  if (nf) free(cf);
  b2nd_free(a);
  return copy;
}

static void read_all(b2nd_array_t *a) {
  if (a->nitems <= 0 || a->nitems > 1000000 || a->sc->typesize <= 0 || a->sc->typesize > 64) return;
  uint8_t *out = (uint8_t *)b2_malloc((size_t)(a->nitems * a->sc->typesize));
  b2nd_to_cbuffer(a, out, a->nitems * a->sc->typesize);
  int64_t start[B2_MAXD] = {0}, stop[B2_MAXD], bs[B2_MAXD];
  for (int d = 0; d < a->ndim; d++) {
    stop[d] = a->shape[d] < 3 ? a->shape[d] : 3;
    bs[d] = stop[d];
  }
  b2nd_get_slice_cbuffer(a, start, stop, out, bs, a->nitems * a->sc->typesize);
  free(out);
}

static int case_truncated(void) {
  int bad = 0;
  int64_t len = 0;
  uint8_t *cf = valid_cframe(&len);
  if (!cf) return 1;
  for (int64_t cut = 0; cut < len; cut += (cut < 200 ? 1 : 7)) {
    uint8_t *p = (uint8_t *)b2_malloc((size_t)(cut ? cut : 1));
    memcpy(p, cf, (size_t)cut);
    b2nd_array_t *a = NULL;
    int rc = b2nd_from_cframe(p, cut, true, &a);
    EXPECT(rc < 0, "cframe cut at %lld of %lld accepted (%d)", (long long)cut, (long long)len, rc);
    if (rc == 0 && a) b2nd_free(a);
    free(p);
  }
  free(cf);
  return bad;
}

/* Mutations never crash; accepted results are readable. (Reference: see the case table.) */
static int case_mutated(void) {
  int64_t len = 0;
  uint8_t *cf = valid_cframe(&len);
  if (!cf) return 1;
  uint64_t x = 12345;
  for (int r = 0; r < 400; r++) {
    uint8_t *p = (uint8_t *)b2_malloc((size_t)len);
    memcpy(p, cf, (size_t)len);
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t pos = (int64_t)((x >> 33) % (uint64_t)(len < 200 ? len : 200));
    p[pos] ^= (uint8_t)(1u << ((x >> 20) & 7));
    b2nd_array_t *a = NULL;
    if (b2nd_from_cframe(p, len, true, &a) == 0 && a) {
      read_all(a);
      b2nd_free(a);
    }
    free(p);
  }
  free(cf);
  return 0;
}

static int case_truncated_file(void) {
  int bad = 0;
  int64_t len = 0;
  uint8_t *cf = valid_cframe(&len);
  if (!cf) return 1;
  char *path = b2_path("trunc.b2nd");
  for (int64_t cut = 0; cut < len; cut += 13) {
    b2_write_file(path, cf, (size_t)cut);
    b2nd_array_t *a = NULL;
    int rc = b2nd_open(path, &a);
    EXPECT(rc < 0, "file cut at %lld accepted (%d)", (long long)cut, rc);
    if (rc == 0 && a) b2nd_free(a);
    a = NULL;
    rc = b2nd_open_offset(path, &a, cut / 2);
    EXPECT(rc < 0, "file cut at %lld, offset %lld accepted (%d)", (long long)cut, (long long)(cut / 2), rc);
    if (rc == 0 && a) b2nd_free(a);
  }
  b2nd_array_t *a = NULL;
  int rc = b2nd_open_offset(path, &a, -5);
  EXPECT(rc < 0, "negative offset accepted (%d)", rc);
  free(cf);
  return bad;
}

static int case_ctx_geometry(void) {
  int bad = 0;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  struct {
    const char *what;
    int8_t ndim;
    int64_t shape[2];
    int32_t chunk[2], block[2];
  } cases[] = {
      {"blockshape 0", 2, {10, 7}, {4, 4}, {0, 2}},
      {"negative shape", 2, {-10, 7}, {4, 4}, {2, 2}},
      {"negative chunkshape", 2, {10, 7}, {-4, 4}, {2, 2}},
      {"negative blockshape", 2, {10, 7}, {4, 4}, {-2, 2}},
      {"blocksize overflow", 2, {1 << 20, 1 << 20}, {1 << 16, 1 << 16}, {1 << 16, 1 << 16}},
      {"negative ndim", -1, {10, 7}, {4, 4}, {2, 2}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    b2nd_context_t *ctx = b2nd_create_ctx(&st, cases[i].ndim, cases[i].shape, cases[i].chunk,
                                          cases[i].block, NULL, 0, NULL, 0);
    EXPECT(ctx == NULL, "create_ctx with %s accepted", cases[i].what);
    if (ctx) b2nd_free_ctx(ctx);
  }
  /* huge shapes with small chunks are fine to describe; an empty array of them too */
  int64_t huge[2] = {INT64_C(1) << 40, 0};
  int32_t c[2] = {1024, 4}, b[2] = {64, 4};
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 2, huge, c, b, NULL, 0, NULL, 0);
  EXPECT(ctx != NULL, "create_ctx with a huge but empty shape refused");
  if (ctx) {
    b2nd_array_t *a = NULL;
    int rc = b2nd_zeros(ctx, &a);
    EXPECT(rc == 0, "zeros of a huge but empty shape: %d", rc);
    if (a) b2nd_free(a);
    b2nd_free_ctx(ctx);
  }
  /* from_cbuffer whose nitems x typesize overflows */
  int64_t over[2] = {INT64_C(1) << 62, 4};
  int32_t c2[2] = {4, 4}, b2[2] = {4, 4};
  ctx = b2nd_create_ctx(&st, 2, over, c2, b2, NULL, 0, NULL, 0);
  if (ctx) {
    b2nd_array_t *a = NULL;
    uint8_t buf[128] = {0};
    int rc = b2nd_from_cbuffer(ctx, &a, buf, sizeof buf);
    EXPECT(rc < 0, "from_cbuffer of 2^64 items accepted (%d)", rc);
    b2nd_free_ctx(ctx);
  }
  return bad;
}

/* chunkshape 0 with a non-zero shape: the reference makes the context, then SIGFPE. */
static int case_ctx_chunk0(void) {
  int bad = 0;
  int64_t shape[2] = {10, 7};
  int32_t chunk[2] = {0, 4}, block[2] = {0, 2};
  for (int which = 0; which < 3; which++) {
    b2nd_context_t *ctx = b2nd_create_ctx(NULL, 2, shape, chunk, block, NULL, 0, NULL, 0);
    if (!ctx) continue;
    b2nd_array_t *a = NULL;
    int rc = which == 0 ? b2nd_zeros(ctx, &a) : which == 1 ? b2nd_empty(ctx, &a) : b2nd_full(ctx, &a, "\1");
    EXPECT(rc < 0, "array with chunkshape 0 (creation %d): %d", which, rc);
    b2nd_free_ctx(ctx);
  }
  return bad;
}

static b2nd_array_t *small_array(b2_model *m) {
  static const b2_geom g = {2, {37, 21}, {10, 8}, {4, 3}};
  *m = b2_model_new(2, g.shape, 4, 7);
  return b2_from_model(m, &g, B2_MEM_SPARSE, NULL);
}

static int case_slice_bounds(void) {
  int bad = 0;
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return 1;
  int32_t *big = (int32_t *)b2_malloc(100000 * 4);
  int64_t start[2] = {3, 5};
  struct {
    int64_t stop[2];
    int want, want_slice; /* get/set_slice_cbuffer; get_slice */
  } stops[] = {{{41, 12}, -1, 0},
               {{100, 12}, -1, 0},
               {{INT64_MAX, 12}, -12, -12},
               {{9, INT64_MAX / 2}, -12, -12}};
  for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
    int64_t bs[2] = {stops[i].stop[0] - start[0], stops[i].stop[1] - start[1]};
    if (stops[i].want == -12) { /* a buffer shape of the slice's size: see case_slice_huge */
      bs[0] = 10;
      bs[1] = 7;
    }
    long long s0 = (long long)stops[i].stop[0], s1 = (long long)stops[i].stop[1];
    int rc = b2nd_get_slice_cbuffer(a, start, stops[i].stop, big, bs, 100000 * 4);
    EXPECT_CODE(rc, stops[i].want, "get stop (%lld,%lld)", s0, s1);
    rc = b2nd_set_slice_cbuffer(big, bs, 100000 * 4, start, stops[i].stop, a);
    EXPECT_CODE(rc, stops[i].want, "set stop (%lld,%lld)", s0, s1);
    int64_t cs[2] = {4, 4};
    b2nd_context_t *ctx =
        b2nd_create_ctx(NULL, 2, cs, (int32_t[]){2, 2}, (int32_t[]){1, 1}, NULL, 0, NULL, 0);
    b2nd_array_t *s = NULL;
    /* the reference makes an array reaching past the source (reads what lies there) */
    rc = b2nd_get_slice(ctx, &s, a, start, stops[i].stop);
    EXPECT_CODE(rc, stops[i].want_slice, "get_slice stop (%lld,%lld)", s0, s1);
    if (rc == 0 && s) b2nd_free(s);
    b2nd_free_ctx(ctx);
  }
  /*
   * A stop inside the padding (shape 37, extshape 40): the reference returns 0 and reads
   * the padding; ours may as well refuse it with -12. Either way no crash.
   */
  int64_t pstop[2] = {38, 12}, pbs[2] = {35, 7};
  int rc = b2nd_get_slice_cbuffer(a, start, pstop, big, pbs, 100000 * 4);
#ifdef BLOSC2_VARIANT_REFERENCE
  EXPECT(rc == 0, "stop in the padding: %d", rc);
#else
  EXPECT(rc == 0 || rc == -12, "stop in the padding: %d", rc);
#endif
  int64_t nstart[2] = {INT64_MIN, 5}, nbs[2] = {10, 7}, nstop[2] = {9, 12};
  rc = b2nd_get_slice_cbuffer(a, nstart, nstop, big, nbs, 100000 * 4);
  EXPECT(rc < 0, "start INT64_MIN: %d", rc);
  free(big);
  b2nd_free(a);
  b2_model_free(&m);
  return bad;
}

/* A slice and buffer shape of 2^63 items (the reference does not return: it hangs). */
static int case_slice_huge(void) {
  int bad = 0;
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return 1;
  int32_t buf[64];
  int64_t start[2] = {3, 5}, stop[2] = {INT64_MAX, 12}, bs[2] = {INT64_MAX - 3, 7};
  int rc = b2nd_get_slice_cbuffer(a, start, stop, buf, bs, sizeof buf);
  EXPECT(rc < 0, "get of 2^63 items: %d", rc);
  rc = b2nd_set_slice_cbuffer(buf, bs, sizeof buf, start, stop, a);
  EXPECT(rc < 0, "set of 2^63 items: %d", rc);
  b2nd_free(a);
  b2_model_free(&m);
  return bad;
}

static int case_axes(void) {
  int bad = 0;
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return 1;
  int32_t buf[21 * 10] = {0};
  int rc;
  rc = b2nd_insert(a, buf, 21 * 4, 2, 0);
  EXPECT(rc == -12, "insert axis 2: %d", rc);
  rc = b2nd_insert(a, buf, 21 * 4, -1, 0);
  EXPECT(rc == -12, "insert axis -1: %d", rc);
  rc = b2nd_append(a, buf, 21 * 4 + 3, 0);
  EXPECT(rc == -12, "append of a partial row: %d", rc);
  rc = b2nd_delete(a, 2, 0, 1);
  EXPECT(rc == -12, "delete axis 2: %d", rc);
  rc = b2nd_delete(a, 0, 0, -1);
  EXPECT(rc == -12, "delete negative length: %d", rc);
  int64_t neg[2] = {-1, 21};
  rc = b2nd_resize(a, neg, NULL);
  EXPECT(rc < 0, "resize to a negative shape: %d", rc);
  int64_t st[2] = {50, 0}, ns[2] = {47, 21};
  rc = b2nd_resize(a, ns, st);
  EXPECT(rc == -12, "resize with a start past the end: %d", rc);
  int64_t coords[2] = {0, 37 * 21};
  rc = b2nd_get_sparse_cbuffer(a, 2, coords, buf, sizeof buf);
  EXPECT(rc == -12, "sparse coordinate past the end: %d", rc);
  bool idx[2] = {true, false};
  b2nd_array_t *v = NULL;
  rc = b2nd_squeeze_index(a, &v, idx);
  EXPECT(rc == -33, "squeeze_index of a long axis: %d", rc);
  long before = b2_failures;
  b2_matches(a, &m, "after refused shape changes");
  bad += (int)(b2_failures - before);
  /* deleting past the end: the reference deletes what it is asked to (37 -> 27 rows) */
  rc = b2nd_delete(a, 0, 30, 10);
  EXPECT_CODE(rc, 0, "%s", "delete past the end");
  if (rc == 0) EXPECT(a->shape[0] == 27, "delete past the end: shape %lld", (long long)a->shape[0]);
  b2nd_free(a);
  b2_model_free(&m);
  return bad;
}

/* Orthogonal selections with indices outside the array (the reference reads anyway). */
static int case_orthogonal_oob(void) {
  int bad = 0;
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return 1;
  int64_t s0[2] = {0, 37}, s1[2] = {1, 2};
  int64_t *sel[2] = {s0, s1};
  int64_t ss[2] = {2, 2}, bs[2] = {2, 2};
  int32_t out[4];
  int rc = b2nd_get_orthogonal_selection(a, sel, ss, out, bs, sizeof out);
  EXPECT_CODE(rc, 0, "%s", "orthogonal index past the end");
  s0[1] = -1;
  rc = b2nd_get_orthogonal_selection(a, sel, ss, out, bs, sizeof out);
  EXPECT_CODE(rc, 0, "%s", "orthogonal index -1");
  b2nd_free(a);
  b2_model_free(&m);
  return bad;
}

/* One call with a NULL argument (index k); *what names it; returns its code. */
static const char *null_names[] = {
    "zeros(NULL ctx)", "zeros(NULL array)", "from_cbuffer(NULL ctx)", "to_cbuffer(NULL)",
    "to_cbuffer(NULL buffer)", "to_cframe(NULL outputs)", "from_cframe(NULL)",
    "from_schunk(NULL)", "open(NULL)", "open_offset(NULL)", "save(NULL path)",
    "save_append(NULL path)", "get_slice_cbuffer(NULL array)", "get_slice_cbuffer(NULL start)",
    "set_slice_cbuffer(NULL buffer)", "get_sparse_cbuffer(NULL coords)",
    "get_orthogonal_selection(NULL selection)", "get_orthogonal_selection(NULL buffer)",
    "squeeze(NULL)", "insert(NULL buffer)", "delete(NULL)", "resize(NULL shape)",
    "refresh(NULL)", "print_meta(NULL)", "free(NULL)"};
static const int null_want[] = {-32, -32, -32, -32, -32, -32, -32, -32, -32, -32, -32, -12, -32,
                                -32, -32, -32, -32, -32, -32, -32, -32, -32, -32, -32, -32};
#define NNULL ((int)(sizeof null_want / sizeof null_want[0]))
static int null_call(int k) {
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return -999;
  int64_t start[2] = {0, 0}, stop[2] = {2, 2}, bs[2] = {2, 2};
  int32_t buf[4];
  b2nd_array_t *out = NULL;
  int64_t *sel[2] = {start, stop};
  b2nd_context_t *ctx =
      b2nd_create_ctx(NULL, 2, bs, (int32_t[]){2, 2}, (int32_t[]){1, 1}, NULL, 0, NULL, 0);
  int rc = -1000;
  switch (k) {
    case 0: rc = b2nd_zeros(NULL, &out); break;
    case 1: rc = b2nd_zeros(ctx, NULL); break;
    case 2: rc = b2nd_from_cbuffer(NULL, &out, buf, 16); break;
    case 3: rc = b2nd_to_cbuffer(NULL, buf, 16); break;
    case 4: rc = b2nd_to_cbuffer(a, NULL, 16); break;
    case 5: rc = b2nd_to_cframe(a, NULL, NULL, NULL); break;
    case 6: rc = b2nd_from_cframe(NULL, 100, true, &out); break;
    case 7: rc = b2nd_from_schunk(NULL, &out); break;
    case 8: rc = b2nd_open(NULL, &out); break;
    case 9: rc = b2nd_open_offset(NULL, &out, 0); break;
    case 10: rc = b2nd_save(a, NULL); break;
    case 11: rc = (int)b2nd_save_append(a, NULL); break;
    case 12: rc = b2nd_get_slice_cbuffer(NULL, start, stop, buf, bs, 16); break;
    case 13: rc = b2nd_get_slice_cbuffer(a, NULL, stop, buf, bs, 16); break;
    case 14: rc = b2nd_set_slice_cbuffer(NULL, bs, 16, start, stop, a); break;
    case 15: rc = b2nd_get_sparse_cbuffer(a, 1, NULL, buf, 16); break;
    case 16: rc = b2nd_get_orthogonal_selection(a, NULL, NULL, buf, bs, 16); break;
    case 17: rc = b2nd_get_orthogonal_selection(a, sel, bs, NULL, bs, 16); break;
    case 18: rc = b2nd_squeeze(NULL, &out); break;
    case 19: rc = b2nd_insert(a, NULL, 84, 0, 0); break;
    case 20: rc = b2nd_delete(NULL, 0, 0, 1); break;
    case 21: rc = b2nd_resize(a, NULL, NULL); break;
    case 22: rc = b2nd_refresh(NULL); break;
    case 23: rc = b2nd_print_meta(NULL); break;
    case 24: rc = b2nd_free(NULL); break;
  }
  b2nd_free_ctx(ctx);
  b2nd_free(a);
  b2_model_free(&m);
  return rc;
}
static int null_k;
static int null_child(void *arg) {
  (void)arg;
  blosc2_init();
  int rc = null_call(null_k);
  if (rc != null_want[null_k])
    fprintf(stderr, "  %s: %d (expected %d)\n", null_names[null_k], rc, null_want[null_k]);
  return rc != null_want[null_k];
}
static int case_null_args(void) {
  int bad = 0;
  for (null_k = 0; null_k < NNULL; null_k++) {
    int rc = b2_in_child(null_child, NULL, 30);
#ifdef BLOSC2_VARIANT_REFERENCE
    if (null_k == 17) { /* get_orthogonal_selection(NULL buffer): SIGSEGV in the reference */
      bad += rc >= 0;
      continue;
    }
#endif
    if (rc < 0) fprintf(stderr, "  %s: crashed (%d)\n", null_names[null_k], rc);
    bad += rc != 0;
  }
  return bad;
}

/* NULL arguments that crash the reference (SIGSEGV): ours refuses them. */
static int case_null_free_ctx(void) { return b2nd_free_ctx(NULL) > 0; }
static int null_ctx_call(int which) {
  b2_model m;
  b2nd_array_t *a = small_array(&m);
  if (!a) return 1;
  b2nd_array_t *out = NULL;
  int64_t start[2] = {0, 0}, stop[2] = {2, 2};
  int rc = which == 0 ? b2nd_copy(NULL, a, &out)
           : which == 1 ? b2nd_concatenate(NULL, a, a, 0, true, &out)
                        : b2nd_get_slice(NULL, &out, a, start, stop);
  if (rc != -32) fprintf(stderr, "  NULL ctx call %d: %d, expected -32\n", which, rc);
  b2nd_free(a);
  b2_model_free(&m);
  return rc != -32;
}
static int case_null_copy_ctx(void) { return null_ctx_call(0); }
static int case_null_concat_ctx(void) { return null_ctx_call(1); }
static int case_null_get_slice_ctx(void) { return null_ctx_call(2); }

/* ---- driver --------------------------------------------------------------------------- */

enum { RUNS_BOTH, REFERENCE_CRASHES };

static const struct {
  const char *name;
  case_fn fn;
  int kind;
} cases[] = {
    {"meta_ndim", case_meta_ndim, RUNS_BOTH},
    {"meta_shapes", case_meta_shapes, RUNS_BOTH},
    {"meta_nbytes_overflow", case_meta_nbytes_overflow, REFERENCE_CRASHES},
    {"meta_dtype", case_meta_dtype, RUNS_BOTH},
    {"meta_inconsistent", case_meta_inconsistent, RUNS_BOTH},
    {"truncated", case_truncated, RUNS_BOTH},
    {"mutated", case_mutated, RUNS_BOTH},
    {"truncated_file", case_truncated_file, RUNS_BOTH},
    {"ctx_geometry", case_ctx_geometry, RUNS_BOTH},
    {"ctx_chunk0", case_ctx_chunk0, REFERENCE_CRASHES},
    {"slice_bounds", case_slice_bounds, RUNS_BOTH},
    {"slice_huge", case_slice_huge, REFERENCE_CRASHES},
    {"axes", case_axes, RUNS_BOTH},
    {"orthogonal_oob", case_orthogonal_oob, RUNS_BOTH},
    {"null_args", case_null_args, RUNS_BOTH},
    {"null_free_ctx", case_null_free_ctx, REFERENCE_CRASHES},
    {"null_copy_ctx", case_null_copy_ctx, REFERENCE_CRASHES},
    {"null_concat_ctx", case_null_concat_ctx, REFERENCE_CRASHES},
    {"null_get_slice_ctx", case_null_get_slice_ctx, REFERENCE_CRASHES},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int run_case(void *arg) {
  int i = (int)(intptr_t)arg;
  blosc2_init();
  int bad = cases[i].fn();
  return bad > 100 ? 100 : bad;
}

int main(int argc, char **argv) {
  b2_make_tmp("hostile");
  const char *only = argc > 1 ? argv[1] : NULL;
  if (only && strcmp(only, "--list") == 0) {
    for (int i = 0; i < NCASES; i++) printf("%s\n", cases[i].name);
    return 0;
  }
  for (int i = 0; i < NCASES; i++) {
    if (only && strcmp(only, cases[i].name) != 0) continue;
    int expect_crash = 0;
#ifdef BLOSC2_VARIANT_REFERENCE
    expect_crash = cases[i].kind == REFERENCE_CRASHES;
#endif
    int rc = b2_in_child(run_case, (void *)(intptr_t)i, expect_crash ? 8 : 120);
    if (expect_crash) {
      CHECK(rc < 0, "case %s: the reference was expected to crash, returned %d", cases[i].name, rc);
      printf("case %-18s crashed as measured on the reference (%d)\n", cases[i].name, rc);
    } else {
      CHECK(rc == 0, "case %s: %s %d", cases[i].name, rc < 0 ? "crashed/timed out, signal" : "failures:",
            rc < 0 ? -rc : rc);
      printf("case %-18s %s\n", cases[i].name, rc == 0 ? "ok" : "FAILED");
    }
  }
  return b2_finish("b2nd_hostile");
}
