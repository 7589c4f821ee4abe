/*
 * Chunk-API cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL; the reference headers define the ABI for both) and, in both directions, has
 * one library write and the other read:
 *   - special-value chunks (zeros, NaN, uninit, repeated value; typesizes 1..300): identical
 *     bytes, identical decoding;
 *   - VL-block chunks (codecs, typesizes, filters, dictionaries): the other library decodes
 *     every block, single blocks and the concatenation; bytes identical except for blosclz;
 *   - dictionary chunks (lz4, lz4hc, zstd): decoded by the other; identical bytes;
 *   - BYTEDELTA and INT_TRUNC chunks (lz4 / zstd): identical bytes and decoding;
 *   - a user codec and a user filter registered in both libraries: identical chunks, decoded
 *     by the other.
 * usage: chunkapi_cross OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 * (for development the reference may be given twice)
 */
#include "ca_common.h"

#include <blosc2.h>
#include <blosc2/filters-registry.h>

#define LIB_FUNCS(X)                                                                               \
  X(blosc2_init)                                                                                   \
  X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_create_dctx) X(blosc2_free_ctx)                 \
      X(blosc2_compress_ctx) X(blosc2_decompress_ctx) X(blosc2_getitem_ctx) X(blosc2_chunk_zeros)  \
          X(blosc2_chunk_nans) X(blosc2_chunk_uninit) X(blosc2_chunk_repeatval)                    \
              X(blosc2_vlcompress_ctx) X(blosc2_vldecompress_ctx) X(blosc2_vldecompress_block_ctx) \
                  X(blosc2_vlchunk_get_nblocks) X(blosc2_register_codec) X(blosc2_register_filter) \
                      X(blosc2_decompress)

#include "../cross_lib.h"

static lib_t g_libs[2];
#define MAXN (1 << 20)
static uint8_t *g_src, *g_a, *g_b, *g_da, *g_db;

static int compress_with(const lib_t *l, blosc2_cparams cp, const void *src, int32_t n,
                         uint8_t *dest) {
  blosc2_context *c = l->blosc2_create_cctx(cp);
  if (!c) return -1000;
  int rc = l->blosc2_compress_ctx(c, src, n, dest, n + BLOSC2_MAX_OVERHEAD);
  l->blosc2_free_ctx(c);
  return rc;
}

static int decompress_with(const lib_t *l, const uint8_t *chunk, int32_t cb, uint8_t *dest,
                           int32_t n) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = l->blosc2_create_dctx(dp);
  if (!d) return -1000;
  int rc = l->blosc2_decompress_ctx(d, chunk, cb, dest, n);
  l->blosc2_free_ctx(d);
  return rc;
}

/* ---- special chunks -------------------------------------------------------------------- */

static void test_special(void) {
  static const int32_t typesizes[] = {1, 3, 4, 8, 16, 300};
  uint8_t val[300];
  for (int i = 0; i < 300; i++) val[i] = (uint8_t)(i * 13 + 5);
  for (size_t t = 0; t < sizeof typesizes / sizeof typesizes[0]; t++) {
    int32_t ts = typesizes[t], n = ts * 1000;
    for (int kind = 0; kind < 4; kind++) {
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = ts;
      int cb[2];
      uint8_t *chunk[2] = {g_a, g_b};
      for (int l = 0; l < 2; l++) {
        const lib_t *w = &g_libs[l];
        cb[l] = kind == 0   ? w->blosc2_chunk_zeros(cp, n, chunk[l], 4096)
                : kind == 1 ? w->blosc2_chunk_nans(cp, n, chunk[l], 4096)
                : kind == 2 ? w->blosc2_chunk_uninit(cp, n, chunk[l], 4096)
                            : w->blosc2_chunk_repeatval(cp, n, chunk[l], 4096, val);
      }
      CHECK_EQ(cb[0], cb[1], "special kind %d ts %d size", kind, ts);
      if (cb[0] != cb[1] || cb[0] <= 0) continue;
      CHECK_BYTES(g_a, g_b, cb[0], "special kind %d ts %d bytes", kind, ts);
      /* Each library reads the other's chunk like its own. */
      for (int w = 0; w < 2; w++) {
        const lib_t *r = &g_libs[1 - w];
        memset(g_da, 0xab, (size_t)n);
        memset(g_db, 0xab, (size_t)n);
        int own = decompress_with(&g_libs[w], chunk[w], cb[w], g_da, n);
        int other = decompress_with(r, chunk[w], cb[w], g_db, n);
        CHECK_EQ(other, own, "special kind %d ts %d: %s reads %s's chunk", kind, ts, r->label,
                 g_libs[w].label);
        CHECK_BYTES(g_db, g_da, n, "special kind %d ts %d decoded by %s", kind, ts, r->label);
      }
    }
  }
}

/* ---- VL chunks ------------------------------------------------------------------------- */

static void test_vl(void) {
  enum { MAXB = 24 };
  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  static const int typesizes[] = {1, 2, 4, 8, 3};
  for (int trial = 0; trial < 40; trial++) {
    tc_seed((uint64_t)trial * 7 + 3);
    int nb = 1 + (int)tc_rand_below(MAXB), ts = typesizes[tc_rand_below(5)];
    int codec = codecs[tc_rand_below(5)];
    const void *srcs[MAXB];
    int32_t sz[MAXB], pos = 0;
    for (int b = 0; b < nb; b++) {
      sz[b] = 1 + (int32_t)tc_rand_below(tc_rand_below(2) ? 20000 : 64);
      tc_fill(g_src + pos, (size_t)sz[b], (int)tc_rand_below(TC_NKINDS), (size_t)ts,
              (uint64_t)trial * 50 + (uint64_t)b);
      srcs[b] = g_src + pos;
      pos += sz[b];
    }
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = ts;
    cp.compcode = (uint8_t)codec;
    cp.clevel = (uint8_t)(1 + tc_rand_below(9));
    cp.splitmode = 1 + (int)tc_rand_below(4);
    cp.filters[5] = (uint8_t)tc_rand_below(3);
    cp.use_dict = (codec == BLOSC_ZSTD || codec == BLOSC_LZ4) && tc_rand_below(3) == 0;
    char what[128];
    snprintf(what, sizeof what, "vl trial %d nb=%d ts=%d codec=%d clevel=%d filter=%d dict=%d",
             trial, nb, ts, codec, cp.clevel, cp.filters[5], cp.use_dict);
    uint8_t *chunk[2] = {g_a, g_b};
    int cb[2];
    for (int l = 0; l < 2; l++) {
      blosc2_context *c = g_libs[l].blosc2_create_cctx(cp);
      cb[l] = g_libs[l].blosc2_vlcompress_ctx(c, srcs, sz, nb, chunk[l], pos + 4096);
      g_libs[l].blosc2_free_ctx(c);
      CHECK(cb[l] > 32, "%s: %s compress -> %d", what, g_libs[l].label, cb[l]);
    }
    if (cb[0] <= 32 || cb[1] <= 32) continue;
    if (codec != BLOSC_BLOSCLZ) {
      CHECK_EQ(cb[0], cb[1], "%s size", what);
      if (cb[0] == cb[1]) CHECK_BYTES(g_a, g_b, cb[0], "%s bytes", what);
    }
    for (int w = 0; w < 2; w++) {
      const lib_t *r = &g_libs[1 - w];
      blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
      blosc2_context *d = r->blosc2_create_dctx(dp);
      int32_t got_nb = -1;
      CHECK_EQ(r->blosc2_vlchunk_get_nblocks(chunk[w], cb[w], &got_nb), 0, "%s nblocks", what);
      CHECK_EQ(got_nb, nb, "%s: %s counts %s's blocks", what, r->label, g_libs[w].label);
      void *dests[MAXB];
      int32_t dsz[MAXB];
      int rc = r->blosc2_vldecompress_ctx(d, chunk[w], cb[w], dests, dsz, MAXB);
      CHECK_EQ(rc, nb, "%s: %s vldecompresses %s's chunk", what, r->label, g_libs[w].label);
      for (int b = 0; b < rc; b++) {
        CHECK(dsz[b] == sz[b] && memcmp(dests[b], srcs[b], (size_t)sz[b]) == 0, "%s block %d by %s",
              what, b, r->label);
        free(dests[b]);
      }
      int b = (int)tc_rand_below((uint32_t)nb);
      uint8_t *p = NULL;
      int32_t psz = 0;
      rc = r->blosc2_vldecompress_block_ctx(d, chunk[w], cb[w], b, &p, &psz);
      CHECK(rc == sz[b] && p && memcmp(p, srcs[b], (size_t)sz[b]) == 0, "%s single block %d by %s",
            what, b, r->label);
      free(p);
      rc = r->blosc2_decompress_ctx(d, chunk[w], cb[w], g_da, pos);
      CHECK(rc == pos && memcmp(g_da, g_src, (size_t)pos) == 0, "%s concatenation by %s -> %d",
            what, r->label, rc);
      r->blosc2_free_ctx(d);
    }
  }
}

/* ---- dictionary chunks ----------------------------------------------------------------- */

static void test_dict(void) {
  static const int codecs[] = {BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZSTD};
  int32_t n = 256 * 1024;
  for (int k = 0; k < 3; k++) {
    for (int kind = 0; kind < 2; kind++) {
      tc_fill(g_src, (size_t)n, kind ? TC_FLOATS : TC_TEXT, 4, 11);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = 4;
      cp.compcode = (uint8_t)codecs[k];
      cp.use_dict = 1;
      cp.blocksize = 32768;
      int ca = compress_with(&g_libs[0], cp, g_src, n, g_a);
      int cb = compress_with(&g_libs[1], cp, g_src, n, g_b);
      CHECK(ca > 0 && cb > 0, "dict codec %d kind %d -> %d / %d", codecs[k], kind, ca, cb);
      if (ca <= 0 || cb <= 0) continue;
      CHECK_EQ(g_a[31] & 1, 1, "dict codec %d kind %d: dictionary used", codecs[k], kind);
      CHECK_EQ(ca, cb, "dict codec %d kind %d size", codecs[k], kind);
      if (ca == cb) CHECK_BYTES(g_a, g_b, ca, "dict codec %d kind %d bytes", codecs[k], kind);
      uint8_t *chunk[2] = {g_a, g_b};
      int cbs[2] = {ca, cb};
      for (int w = 0; w < 2; w++) {
        const lib_t *r = &g_libs[1 - w];
        memset(g_da, 0, (size_t)n);
        CHECK_EQ(decompress_with(r, chunk[w], cbs[w], g_da, n), n, "dict codec %d: %s reads %s's",
                 codecs[k], r->label, g_libs[w].label);
        CHECK_BYTES(g_da, g_src, n, "dict codec %d kind %d decoded by %s", codecs[k], kind,
                    r->label);
      }
    }
  }
}

/* ---- plugin filters -------------------------------------------------------------------- */

static void test_plugin_filters(void) {
  static const struct {
    int filter, meta, ts, codec;
  } cases[] = {
      {BLOSC_FILTER_BYTEDELTA, 4, 4, BLOSC_LZ4},   {BLOSC_FILTER_BYTEDELTA, 8, 8, BLOSC_ZSTD},
      {BLOSC_FILTER_BYTEDELTA, 2, 2, BLOSC_LZ4HC}, {BLOSC_FILTER_BYTEDELTA, 1, 4, BLOSC_ZSTD},
      {BLOSC_FILTER_INT_TRUNC, -5, 4, BLOSC_ZSTD}, {BLOSC_FILTER_INT_TRUNC, 12, 8, BLOSC_LZ4},
      {BLOSC_FILTER_INT_TRUNC, 10, 2, BLOSC_ZSTD}, {BLOSC_FILTER_INT_TRUNC, -3, 1, BLOSC_LZ4}};
  int32_t n = 300000;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int kind = 0; kind < 3; kind++) {
      static const int kinds[] = {TC_FLOATS, TC_RAMP, TC_RANDOM};
      tc_fill(g_src, (size_t)n, kinds[kind], (size_t)cases[i].ts, 21);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = cases[i].ts;
      cp.compcode = (uint8_t)cases[i].codec;
      memset(cp.filters, 0, sizeof cp.filters);
      cp.filters[4] = BLOSC_SHUFFLE;
      cp.filters[5] = (uint8_t)cases[i].filter;
      cp.filters_meta[5] = (uint8_t)(int8_t)cases[i].meta;
      int ca = compress_with(&g_libs[0], cp, g_src, n, g_a);
      int cb = compress_with(&g_libs[1], cp, g_src, n, g_b);
      CHECK(ca > 0 && cb > 0, "filter %d meta %d ts %d kind %d -> %d / %d", cases[i].filter,
            cases[i].meta, cases[i].ts, kind, ca, cb);
      if (ca <= 0 || cb <= 0) continue;
      CHECK_EQ(ca, cb, "filter %d meta %d ts %d kind %d size", cases[i].filter, cases[i].meta,
               cases[i].ts, kind);
      if (ca == cb)
        CHECK_BYTES(g_a, g_b, ca, "filter %d meta %d ts %d kind %d bytes", cases[i].filter,
                    cases[i].meta, cases[i].ts, kind);
      int ra = decompress_with(&g_libs[1], g_a, ca, g_da, n);
      int rb = decompress_with(&g_libs[1], g_b, cb, g_db, n);
      CHECK(ra == n && rb == n, "filter %d decode by %s", cases[i].filter, g_libs[1].label);
      CHECK_BYTES(g_da, g_db, n, "filter %d meta %d: %s decodes both chunks alike", cases[i].filter,
                  cases[i].meta, g_libs[1].label);
      ra = decompress_with(&g_libs[0], g_b, cb, g_da, n);
      CHECK(ra == n, "filter %d decode by %s", cases[i].filter, g_libs[0].label);
      CHECK_BYTES(g_da, g_db, n, "filter %d meta %d: %s decodes like %s", cases[i].filter,
                  cases[i].meta, g_libs[0].label, g_libs[1].label);
    }
  }
}

/* ---- user codec and filter ------------------------------------------------------------- */

static int rle_encode(const uint8_t *in, int32_t inlen, uint8_t *out, int32_t outlen, uint8_t meta,
                      blosc2_cparams *cparams, const void *chunk) {
  (void)cparams;
  (void)chunk;
  int32_t o = 0;
  for (int32_t i = 0; i < inlen;) {
    int32_t j = i;
    while (j < inlen && j - i < 255 && in[j] == in[i]) j++;
    if (o + 2 > outlen) return 0;
    out[o++] = (uint8_t)(j - i);
    out[o++] = in[i] ^ meta;
    i = j;
  }
  return o;
}

static int rle_decode(const uint8_t *in, int32_t inlen, uint8_t *out, int32_t outlen, uint8_t meta,
                      blosc2_dparams *dparams, const void *chunk) {
  (void)dparams;
  (void)chunk;
  int32_t o = 0;
  for (int32_t i = 0; i + 1 < inlen; i += 2) {
    if (o + in[i] > outlen) return -1;
    memset(out + o, in[i + 1] ^ meta, in[i]);
    o += in[i];
  }
  return o;
}

static int xor_forward(const uint8_t *src, uint8_t *dest, int32_t size, uint8_t meta,
                       blosc2_cparams *cparams, uint8_t id) {
  (void)cparams;
  (void)id;
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return 0;
}

static int xor_backward(const uint8_t *src, uint8_t *dest, int32_t size, uint8_t meta,
                        blosc2_dparams *dparams, uint8_t id) {
  (void)dparams;
  (void)id;
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return 0;
}

static void test_user_plugins(void) {
  blosc2_codec codec;
  memset(&codec, 0, sizeof codec);
  codec.compcode = 200;
  codec.compname = "crossrle";
  codec.complib = 7;
  codec.version = 2;
  codec.encoder = rle_encode;
  codec.decoder = rle_decode;
  blosc2_filter filter;
  memset(&filter, 0, sizeof filter);
  filter.id = 210;
  filter.name = "crossxor";
  filter.version = 1;
  filter.forward = xor_forward;
  filter.backward = xor_backward;
  for (int l = 0; l < 2; l++) {
    CHECK_EQ(g_libs[l].blosc2_register_codec(&codec), 0, "%s registers the codec", g_libs[l].label);
    CHECK_EQ(g_libs[l].blosc2_register_filter(&filter), 0, "%s registers the filter",
             g_libs[l].label);
  }
  int32_t n = 100000;
  for (int32_t i = 0; i < n; i++) g_src[i] = (uint8_t)(i / 300);
  for (int variant = 0; variant < 2; variant++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    cp.compcode = variant == 0 ? 200 : BLOSC_LZ4;
    cp.compcode_meta = 0x21;
    cp.blocksize = 16384;
    if (variant == 1) {
      cp.filters[2] = 210;
      cp.filters_meta[2] = 0x5c;
    }
    int ca = compress_with(&g_libs[0], cp, g_src, n, g_a);
    int cb = compress_with(&g_libs[1], cp, g_src, n, g_b);
    CHECK(ca > 0 && cb > 0, "user plugin %d -> %d / %d", variant, ca, cb);
    if (ca <= 0 || cb <= 0) continue;
    CHECK_EQ(ca, cb, "user plugin %d size", variant);
    if (ca == cb) CHECK_BYTES(g_a, g_b, ca, "user plugin %d bytes", variant);
    uint8_t *chunk[2] = {g_a, g_b};
    int cbs[2] = {ca, cb};
    for (int w = 0; w < 2; w++) {
      const lib_t *r = &g_libs[1 - w];
      memset(g_da, 0, (size_t)n);
      CHECK_EQ(decompress_with(r, chunk[w], cbs[w], g_da, n), n, "user plugin %d: %s reads %s's",
               variant, r->label, g_libs[w].label);
      CHECK_BYTES(g_da, g_src, n, "user plugin %d decoded by %s", variant, r->label);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO\n", argv[0]);
    return 2;
  }
  g_libs[0].label = "ours";
  g_libs[0].path = argv[1];
  g_libs[1].label = "reference";
  g_libs[1].path = argv[2];
  if (!cross_load(&g_libs[0]) || !cross_load(&g_libs[1])) return 1;
  g_libs[0].blosc2_init();
  g_libs[1].blosc2_init();
  g_src = tc_malloc(MAXN);
  g_a = tc_malloc(MAXN + 4096);
  g_b = tc_malloc(MAXN + 4096);
  g_da = tc_malloc(MAXN);
  g_db = tc_malloc(MAXN);
  test_special();
  test_vl();
  test_dict();
  test_plugin_filters();
  test_user_plugins();
  free(g_src);
  free(g_a);
  free(g_b);
  free(g_da);
  free(g_db);
  g_libs[0].blosc2_destroy();
  g_libs[1].blosc2_destroy();
  return tc_finish("chunkapi_cross");
}
