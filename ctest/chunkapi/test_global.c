/*
 * Global state (BEHAVIOUR.md §1, §9) and blosc2_getitem_bytes_ctx. The program starts without
 * blosc2_init on purpose:
 *   - before init: blosc2_free_resources -1, plugin names unknown, no IO backends, contexts
 *     work for the built-in codecs, plugin codecs (-7) and filters (-18) do not; a codec
 *     registered before init is wiped by init;
 *   - which global calls initialise the library (free_resources then 0) and which do not
 *     (blosc2_getitem, blosc1_getitem);
 *   - init / destroy are idempotent; the global settings (compressor, nthreads) and the codec
 *     table survive destroy + init; contexts created before keep working;
 *   - global setter quirks (set_nthreads return values, set_compressor("bogus"));
 *   - getitem_bytes_ctx offsets and errors.
 * Expected values were measured on the reference c-blosc2 3.3.5.
 */
#include "ca_common.h"

#include <blosc2.h>
#include <blosc2/codecs-registry.h>
#include <blosc2/filters-registry.h>

#define N 10000

static uint8_t g_src[N], g_chunk[N + 1000], g_out[N];

/* Calls a function after blosc2_destroy and reports whether it initialised the library. */
#define INITS(call, want_init, what)                                                 \
  do {                                                                               \
    blosc2_destroy();                                                                \
    CHECK_EQ(blosc2_free_resources(), -1, "%s: not initialised before", what);       \
    call;                                                                            \
    CHECK_EQ(blosc2_free_resources(), (want_init) ? 0 : -1, "%s initialises", what); \
  } while (0)

static void test_before_init(void) {
  CHECK_EQ(blosc2_free_resources(), -1, "free_resources before init");
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), -1, "ndlz before init");
  CHECK_EQ(blosc2_compname_to_compcode("zstd"), BLOSC_ZSTD, "zstd before init");
  const char *name = "x";
  CHECK_EQ(blosc2_compcode_to_compname(BLOSC_CODEC_NDLZ, &name), -1, "compcode 32 before init");
  CHECK(name == NULL, "name of 32 before init");
  CHECK(blosc2_get_io_cb(0) == NULL, "io backend 0 before init");
  CHECK_EQ(blosc2_free_resources(), -1, "still not initialised");

  tc_fill(g_src, N, TC_RAMP, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.compcode = BLOSC_ZSTD;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  CHECK(cb > 32, "compress_ctx before init -> %d", cb);
  blosc2_free_ctx(c);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "decompress_ctx before init");
  CHECK_BYTES(g_out, g_src, N, "data before init");
  blosc2_free_ctx(d);
  CHECK_EQ(blosc2_getitem(g_chunk, cb, 5, 5, g_out, N), 20, "getitem before init");
  CHECK_BYTES(g_out, g_src + 20, 20, "getitem data before init");
  cp.compcode = BLOSC_CODEC_NDLZ;
  c = blosc2_create_cctx(cp);
  CHECK(c != NULL, "ndlz context before init");
  CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk + 5000, 6000), -7, "ndlz before init");
  blosc2_free_ctx(c);
  cp.compcode = BLOSC_LZ4;
  cp.filters[0] = BLOSC_FILTER_BYTEDELTA;
  cp.filters_meta[0] = 4;
  c = blosc2_create_cctx(cp);
  CHECK(c != NULL, "bytedelta context before init");
  CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk + 5000, 6000), -18, "bytedelta before init");
  blosc2_free_ctx(c);
  CHECK_EQ(blosc2_free_resources(), -1, "contexts do not initialise");

  blosc2_codec codec;
  memset(&codec, 0, sizeof codec);
  codec.compcode = 200;
  codec.compname = "early";
  CHECK_EQ(blosc2_register_codec(&codec), 0, "register before init");
  CHECK_EQ(blosc2_compname_to_compcode("early"), 200, "registered before init");
  CHECK_EQ(blosc2_get_nthreads(), 1, "get_nthreads (initialises)");
  CHECK_EQ(blosc2_free_resources(), 0, "initialised by get_nthreads");
  CHECK_EQ(blosc2_compname_to_compcode("early"), -1, "init wipes earlier registrations");
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), BLOSC_CODEC_NDLZ, "ndlz after init");
  CHECK(blosc2_get_io_cb(0) != NULL, "io backend 0 after init");
}

static void test_auto_init(void) {
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 32, "global compress");
  INITS(blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk), 1,
        "blosc2_compress");
  INITS(blosc1_compress(5, BLOSC_SHUFFLE, 4, N, g_src, g_chunk, sizeof g_chunk), 1,
        "blosc1_compress");
  INITS(blosc2_decompress(g_chunk, cb, g_out, N), 1, "blosc2_decompress");
  INITS(blosc1_decompress(g_chunk, g_out, N), 1, "blosc1_decompress");
  INITS(blosc2_getitem(g_chunk, cb, 5, 5, g_out, N), 0, "blosc2_getitem");
  INITS(blosc1_getitem(g_chunk, 5, 5, g_out), 0, "blosc1_getitem");
  INITS(blosc1_set_compressor("blosclz"), 1, "blosc1_set_compressor");
  INITS(blosc1_get_compressor(), 1, "blosc1_get_compressor");
  INITS(blosc1_get_blocksize(), 1, "blosc1_get_blocksize");
  INITS(blosc1_set_blocksize(0), 1, "blosc1_set_blocksize");
  INITS(blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT), 1, "blosc1_set_splitmode");
  INITS(blosc2_set_delta(0), 1, "blosc2_set_delta");
  INITS(blosc2_set_nthreads(1), 1, "blosc2_set_nthreads");
  INITS(blosc2_get_nthreads(), 1, "blosc2_get_nthreads");
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  INITS(blosc2_free_ctx(blosc2_create_cctx(cp)), 0, "create_cctx");
  INITS(blosc2_cbuffer_sizes(g_chunk, NULL, NULL, NULL), 0, "cbuffer_sizes");
}

static void test_idempotence_and_persistence(void) {
  blosc2_init();
  blosc2_init();
  CHECK_EQ(blosc2_free_resources(), 0, "init twice");
  CHECK_EQ(blosc2_free_resources(), 0, "free_resources twice");
  blosc2_destroy();
  blosc2_destroy();
  CHECK_EQ(blosc2_free_resources(), -1, "destroy twice");
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), BLOSC_CODEC_NDLZ, "codec table after destroy");
  blosc2_init();
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  CHECK_EQ(blosc2_set_nthreads(3), 1, "set_nthreads returns the previous value");
  CHECK_EQ(blosc1_set_compressor("lz4"), BLOSC_LZ4, "set_compressor lz4");
  blosc2_destroy();
  blosc2_init();
  CHECK_EQ(blosc2_get_nthreads(), 3, "nthreads survives destroy + init");
  const char *comp = blosc1_get_compressor();
  CHECK(comp && strcmp(comp, "lz4") == 0, "compressor survives destroy + init: %s",
        comp ? comp : "(null)");
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  CHECK(cb > 32 && g_chunk[22] == BLOSC_LZ4, "global compress after destroy + init");
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "dctx from before destroy");
  CHECK_BYTES(g_out, g_src, N, "dctx from before destroy: data");
  blosc2_free_ctx(d);
  /* Setter quirks. */
  CHECK_EQ(blosc2_set_nthreads(0), -12, "set_nthreads 0");
  CHECK_EQ(blosc2_set_nthreads(-1), -12, "set_nthreads -1");
  CHECK_EQ(blosc2_get_nthreads(), 3, "nthreads unchanged by bad values");
  CHECK_EQ(blosc2_set_nthreads(1), 3, "set_nthreads 1");
  CHECK_EQ(blosc1_set_compressor("ndlz"), -7, "set_compressor plugin");
  comp = blosc1_get_compressor();
  CHECK(comp && strcmp(comp, "lz4") == 0, "plugin name keeps the compressor");
  CHECK_EQ(blosc1_set_compressor("bogus"), -1, "set_compressor bogus");
  CHECK(blosc1_get_compressor() == NULL, "bogus compressor stored");
  CHECK_EQ(blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk), -7,
           "compress with the bogus compressor");
  CHECK_EQ(blosc1_set_compressor("blosclz"), BLOSC_BLOSCLZ, "set_compressor blosclz");
  CHECK(blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk) > 0,
        "compress again");
}

static void test_getitem_bytes(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  static const struct {
    int32_t start, nbytes;
    int rc;
  } cases[] = {{0, 8, 8},     {4, 8, 8},       {2, 8, -12},  {-4, 8, -12},    {9996, 4, 4},
               {10000, 0, 0}, {10004, 4, -12}, {0, -4, -12}, {0, 10001, -12}, {0, 6, -12},
               {0, N, N},     {20000, 0, 0},   {4, N, -12}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memset(g_out, 0xee, N);
    int rc = blosc2_getitem_bytes_ctx(d, g_chunk, cb, cases[i].start, cases[i].nbytes, g_out, N);
    CHECK_EQ(rc, cases[i].rc, "getitem_bytes(%d, %d)", cases[i].start, cases[i].nbytes);
    if (rc > 0)
      CHECK_BYTES(g_out, g_src + cases[i].start, rc, "getitem_bytes(%d, %d) data", cases[i].start,
                  cases[i].nbytes);
  }
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, g_chunk, cb, 0, 8, g_out, 4), -6,
           "getitem_bytes destsize 4");
  CHECK_EQ(blosc2_getitem_bytes_ctx(c, g_chunk, cb, 0, 8, g_out, 100), 8,
           "getitem_bytes with a cctx");
  /* DELTA chunks: the reference decodes items outside block 0 without the reference block
   * (right size, wrong data); ours must return the data. */
  blosc2_cparams dc = cp;
  dc.filters[4] = BLOSC_DELTA;
  dc.blocksize = 2000;
  blosc2_context *cd = blosc2_create_cctx(dc);
  int dcb = blosc2_compress_ctx(cd, g_src, N, g_chunk, sizeof g_chunk);
  blosc2_free_ctx(cd);
  static const int dstarts[] = {0, 100, 499, 500, 1500, 2490};
  for (int i = 0; i < 6; i++) {
    int rc = blosc2_getitem_ctx(d, g_chunk, dcb, dstarts[i], 10, g_out, N);
    CHECK_EQ(rc, 40, "delta getitem(%d, 10)", dstarts[i]);
#ifdef BLOSC2_VARIANT_REFERENCE
    if (dstarts[i] + 10 <= 500)
      CHECK_BYTES(g_out, g_src + 4 * dstarts[i], 40, "delta getitem(%d)", dstarts[i]);
#else
    CHECK_BYTES(g_out, g_src + 4 * dstarts[i], 40, "delta getitem(%d)", dstarts[i]);
#endif
  }
  /* typesize 300 is stored as 1: any byte range. */
  cp.typesize = 300;
  blosc2_free_ctx(c);
  c = blosc2_create_cctx(cp);
  cb = blosc2_compress_ctx(c, g_src, 9000, g_chunk, sizeof g_chunk);
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, g_chunk, cb, 3, 5, g_out, 100), 5,
           "ts 300 getitem_bytes(3, 5)");
  CHECK_BYTES(g_out, g_src + 3, 5, "ts 300 getitem_bytes data");
  /* Memcpy'ed and special chunks. */
  cp.typesize = 4;
  cp.clevel = 0;
  blosc2_free_ctx(c);
  c = blosc2_create_cctx(cp);
  cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, g_chunk, cb, 400, 40, g_out, 100), 40,
           "memcpy getitem_bytes");
  CHECK_BYTES(g_out, g_src + 400, 40, "memcpy getitem_bytes data");
  cb = blosc2_chunk_zeros(cp, N, g_chunk, 64);
  memset(g_out, 1, 40);
  CHECK_EQ(blosc2_getitem_bytes_ctx(d, g_chunk, cb, 400, 40, g_out, 100), 40,
           "zeros getitem_bytes");
  CHECK_FILLED(g_out, 0, 40, "zeros getitem_bytes data");
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
}

int main(void) {
  test_before_init();
  test_auto_init();
  test_idempotence_and_persistence();
  test_getitem_bytes();
  blosc2_destroy();
  return tc_finish("chunkapi_global (" CA_VARIANT ")");
}
