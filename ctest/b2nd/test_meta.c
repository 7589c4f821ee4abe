/*
 * b2nd metadata: the fields of b2nd_array_t read directly (shape, chunkshape, blockshape,
 * extshape, extchunkshape, item counts, strides, sc, ndim, dtype, dtype_format), the "b2nd"
 * metalayer bytes (against b2nd_serialize_meta and the layout measured on the reference),
 * serialize/deserialize round trips, dtype strings (default, long structured ones) and
 * formats, user metalayers given to create_ctx, and b2nd_print_meta's text on stdout.
 */
#include "b2_common.h"

#include <fcntl.h>

static int64_t prod_from(const int64_t *v, int from, int n) {
  int64_t p = 1;
  for (int i = from; i < n; i++) p *= v[i];
  return p;
}

static void test_fields(void) {
  static const b2_geom geoms[] = {
      {2, {10, 7}, {4, 4}, {2, 2}},
      {3, {13, 10, 11}, {5, 4, 6}, {2, 4, 3}},
      {4, {6, 7, 5, 4}, {3, 4, 2, 4}, {2, 2, 1, 3}},
      {1, {100}, {30}, {7}},
  };
  for (int gi = 0; gi < 4; gi++) {
    const b2_geom *g = &geoms[gi];
    char w[64];
    snprintf(w, sizeof w, "fields geom %d", gi);
    b2nd_context_t *ctx = b2_ctx(g, 8, B2_MEM_SPARSE, NULL, 1);
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_zeros(ctx, &a), 0, "%s zeros", w);
    b2nd_free_ctx(ctx);
    if (!a) continue;
    int n = g->ndim;
    int64_t shape[B2_MAXD], chunk[B2_MAXD], block[B2_MAXD], extc[B2_MAXD], bpc[B2_MAXD];
    for (int d = 0; d < n; d++) {
      shape[d] = g->shape[d];
      chunk[d] = g->chunk[d];
      block[d] = g->block[d];
      extc[d] = a->extchunkshape[d];
      bpc[d] = extc[d] / block[d];
    }
    for (int d = 0; d < n; d++) {
      CHECK_EQ(a->item_array_strides[d], prod_from(shape, d + 1, n), "%s item_array_strides[%d]", w, d);
      CHECK_EQ(a->item_chunk_strides[d], prod_from(chunk, d + 1, n), "%s item_chunk_strides[%d]", w, d);
      CHECK_EQ(a->item_extchunk_strides[d], prod_from(extc, d + 1, n), "%s item_extchunk_strides[%d]", w, d);
      CHECK_EQ(a->item_block_strides[d], prod_from(block, d + 1, n), "%s item_block_strides[%d]", w, d);
      CHECK_EQ(a->block_chunk_strides[d], prod_from(bpc, d + 1, n), "%s block_chunk_strides[%d]", w, d);
    }
    CHECK(a->sc != NULL && a->sc->nmetalayers >= 1, "%s: no metalayer", w);
    CHECK(a->sc && strcmp(a->sc->metalayers[0]->name, "b2nd") == 0, "%s: metalayer 0 is %s", w,
          a->sc ? a->sc->metalayers[0]->name : "?");
    CHECK_EQ(a->dtype_format, 0, "%s dtype_format", w);
    CHECK(a->dtype && strcmp(a->dtype, "|S8") == 0, "%s: default dtype %s", w, a->dtype ? a->dtype : "(null)");
    b2nd_free(a);
  }
}

/* The b2nd metalayer: bytes equal serialize_meta's, layout as measured. */
static void test_metalayer(void) {
  b2_geom g = {2, {10, 7}, {4, 4}, {2, 2}};
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 2, g.shape, g.chunk, g.block, "<f8", 0, NULL, 0);
  REQUIRE(ctx != NULL, "metalayer ctx");
  b2nd_array_t *a = NULL;
  CHECK_EQ(b2nd_zeros(ctx, &a), 0, "metalayer zeros");
  b2nd_free_ctx(ctx);
  if (!a) return;
  CHECK(a->dtype && strcmp(a->dtype, "<f8") == 0, "dtype %s", a->dtype ? a->dtype : "(null)");
  uint8_t *content = NULL;
  int32_t clen = 0;
  CHECK_EQ(blosc2_meta_get(a->sc, "b2nd", &content, &clen), 0, "meta_get b2nd");
  uint8_t *smeta = NULL;
  int slen = b2nd_serialize_meta(2, g.shape, g.chunk, g.block, "<f8", 0, &smeta);
  CHECK_EQ(slen, 53, "serialize_meta length");
  CHECK_EQ(clen, slen, "metalayer length");
  if (content && smeta && clen == slen) {
    CHECK(memcmp(content, smeta, (size_t)slen) == 0, "metalayer bytes differ from serialize_meta");
    static const uint8_t head[] = {0x97, 0x00, 0x02, 0x92, 0xd3};
    CHECK(memcmp(content, head, 5) == 0, "metalayer head %02x %02x %02x %02x %02x", content[0],
          content[1], content[2], content[3], content[4]);
    /* shape[0] = 10 as big-endian int64 after the d3 marker */
    CHECK(content[12] == 10 && content[13] == 0xd3 && content[21] == 7, "metalayer shape bytes");
    CHECK(content[22] == 0x92 && content[23] == 0xd2, "metalayer chunkshape marker");
    CHECK(content[slen - 9] == 0 && content[slen - 8] == 0xdb && content[slen - 4] == 3 &&
              memcmp(content + slen - 3, "<f8", 3) == 0,
          "metalayer dtype tail");
    int8_t ndim = 0, fmt = 9;
    int64_t shape[B2ND_MAX_DIM];
    int32_t chunk[B2ND_MAX_DIM], block[B2ND_MAX_DIM];
    char *dtype = NULL;
    int rc = b2nd_deserialize_meta(content, clen, &ndim, shape, chunk, block, &dtype, &fmt);
    CHECK_EQ(rc, clen, "deserialize_meta consumed");
    CHECK_EQ(ndim, 2, "deserialized ndim");
    CHECK(shape[0] == 10 && shape[1] == 7 && chunk[0] == 4 && chunk[1] == 4 && block[0] == 2 &&
              block[1] == 2,
          "deserialized shapes");
    CHECK(dtype && strcmp(dtype, "<f8") == 0 && fmt == 0, "deserialized dtype");
    free(dtype);
    /* the inline twin agrees */
    dtype = NULL;
    int rc2 = b2nd_deserialize_meta_inline(content, clen, &ndim, shape, chunk, block, &dtype, &fmt);
    CHECK_EQ(rc2, rc, "inline deserialize");
    free(dtype);
    /* truncated metadata is refused */
    for (int32_t cut = 0; cut < clen; cut += 5) {
      dtype = NULL;
      rc = b2nd_deserialize_meta(content, cut, &ndim, shape, chunk, block, &dtype, &fmt);
      CHECK(rc < 0, "deserialize of %d bytes returned %d", cut, rc);
      free(dtype);
    }
  }
  free(content);
  free(smeta);
  /* serialize with a NULL dtype uses "|u1" */
  smeta = NULL;
  slen = b2nd_serialize_meta(2, g.shape, g.chunk, g.block, NULL, 0, &smeta);
  CHECK(slen > 0 && smeta && memcmp(smeta + slen - 3, "|u1", 3) == 0, "serialize NULL dtype");
  free(smeta);
  b2nd_free(a);
}

/* Long (structured) dtype strings, dtype_format, user metalayers. */
static void test_dtypes(void) {
  char longd[600];
  int k = snprintf(longd, sizeof longd, "[");
  for (int i = 0; i < 40 && k < 560; i++) k += snprintf(longd + k, sizeof longd - (size_t)k, "('f%d', '<i8'), ", i);
  snprintf(longd + k, sizeof longd - (size_t)k, "]");
  b2_geom g = {2, {6, 4}, {3, 2}, {3, 1}};
  uint8_t mcontent[3] = {1, 2, 3};
  blosc2_metalayer ml = {"user", mcontent, 3};
  for (int kind = 0; kind < B2_NKINDS; kind++) {
    char w[64];
    snprintf(w, sizeof w, "dtype %s", b2_kind_names[kind]);
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 320;
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.cparams = &cp;
    st.contiguous = kind == B2_MEM_CFRAME || kind == B2_FILE_CFRAME;
    static char path[700];
    snprintf(path, sizeof path, "%s", b2_path("dtype.b2nd"));
    st.urlpath = kind >= B2_FILE_CFRAME ? path : NULL;
    blosc2_remove_urlpath(path);
    b2nd_context_t *ctx = b2nd_create_ctx(&st, 2, g.shape, g.chunk, g.block, longd, 3, &ml, 1);
    REQUIRE(ctx != NULL, "%s ctx", w);
    b2_model m = b2_model_new(2, g.shape, 320, 17);
    b2nd_array_t *a = NULL;
    CHECK_EQ(b2nd_from_cbuffer(ctx, &a, m.data, b2_model_nbytes(&m)), 0, "%s from_cbuffer", w);
    b2nd_free_ctx(ctx);
    if (a) {
      CHECK(a->dtype && strcmp(a->dtype, longd) == 0, "%s: dtype", w);
      CHECK_EQ(a->dtype_format, 3, "%s dtype_format", w);
      CHECK_EQ(a->sc->nmetalayers, 2, "%s nmetalayers", w);
      uint8_t *c = NULL;
      int32_t clen = 0;
      CHECK(blosc2_meta_get(a->sc, "user", &c, &clen) >= 0 && clen == 3 && c && memcmp(c, mcontent, 3) == 0,
            "%s: user metalayer", w);
      free(c);
      uint8_t *cf = NULL;
      int64_t len = 0;
      bool nf = false;
      CHECK_EQ(b2nd_to_cframe(a, &cf, &len, &nf), 0, "%s to_cframe", w);
      b2nd_array_t *b = NULL;
      if (cf) CHECK_EQ(b2nd_from_cframe(cf, len, true, &b), 0, "%s from_cframe", w);
      if (b) {
        CHECK(b->dtype && strcmp(b->dtype, longd) == 0, "%s: dtype after cframe", w);
        CHECK_EQ(b->dtype_format, 3, "%s dtype_format after cframe", w);
        /*
         * The reference's to_cframe of an array that is not an in-memory cframe writes
         * typesize 1 for this 320-byte item (its frame copy keeps one byte of typesize);
         * the item bytes survive. Ours keeps the typesize.
         */
#ifdef BLOSC2_VARIANT_REFERENCE
        CHECK_EQ(b->sc->typesize, kind == B2_MEM_CFRAME ? 320 : 1, "%s typesize after cframe", w);
        b->sc->typesize = 320;
#else
        CHECK_EQ(b->sc->typesize, 320, "%s typesize after cframe", w);
#endif
        b2_matches(b, &m, w);
        b2nd_free(b);
      }
      if (nf) free(cf);
      if (kind >= B2_FILE_CFRAME) {
        b = NULL;
        CHECK_EQ(b2nd_open(path, &b), 0, "%s open", w);
        if (b) {
          CHECK(b->dtype && strcmp(b->dtype, longd) == 0, "%s: dtype reopened", w);
          CHECK_EQ(b->sc->nmetalayers, 2, "%s nmetalayers reopened", w);
          b2nd_free(b);
        }
      }
      b2nd_free(a);
    }
    b2_model_free(&m);
  }
}

/* Capture what fn writes on stdout (fd 1). */
static char *capture_stdout(int (*fn)(const b2nd_array_t *), const b2nd_array_t *a, int *rc) {
  char *path = b2_path("stdout.txt");
  fflush(stdout);
  int saved = dup(1);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 1);
  close(fd);
  *rc = fn(a);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  int64_t len = 0;
  uint8_t *b = b2_read_file(path, &len);
  char *s = (char *)b2_malloc((size_t)len + 1);
  if (b) memcpy(s, b, (size_t)len);
  s[b ? len : 0] = 0;
  free(b);
  return s;
}

static void test_print_meta(void) {
  b2_geom g = {2, {10, 7}, {4, 4}, {2, 2}};
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 2, g.shape, g.chunk, g.block, "<f8", 0, NULL, 0);
  b2nd_array_t *a = NULL;
  CHECK_EQ(b2nd_zeros(ctx, &a), 0, "print_meta zeros");
  b2nd_free_ctx(ctx);
  if (!a) return;
  int rc = 0;
  char *out = capture_stdout(b2nd_print_meta, a, &rc);
  CHECK_EQ(rc, 0, "print_meta");
  static const char want[] = "b2nd metalayer parameters:\n Ndim:       2\n shape:      10, 7\n"
                             " chunkshape: 4, 4\n dtype: <f8\n blockshape: 2, 2\n";
  CHECK(strcmp(out, want) == 0, "print_meta printed [%s]", out);
  free(out);
  b2nd_free(a);
  /* a 3-d one */
  b2_geom g3 = {3, {5, 6, 7}, {2, 3, 4}, {1, 3, 2}};
  ctx = b2_ctx(&g3, 2, B2_MEM_SPARSE, NULL, 1);
  a = NULL;
  CHECK_EQ(b2nd_zeros(ctx, &a), 0, "print_meta 3-d zeros");
  b2nd_free_ctx(ctx);
  if (!a) return;
  out = capture_stdout(b2nd_print_meta, a, &rc);
  static const char want3[] = "b2nd metalayer parameters:\n Ndim:       3\n shape:      5, 6, 7\n"
                              " chunkshape: 2, 3, 4\n dtype: |S2\n blockshape: 1, 3, 2\n";
  CHECK(strcmp(out, want3) == 0, "print_meta 3-d printed [%s]", out);
  free(out);
  b2nd_free(a);
}

int main(void) {
  blosc2_init();
  b2_make_tmp("meta");
  test_fields();
  test_metalayer();
  test_dtypes();
  test_print_meta();
  blosc2_destroy();
  return b2_finish("b2nd_meta");
}
