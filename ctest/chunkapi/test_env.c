/*
 * Environment variables read by the chunk API (BEHAVIOUR.md §8): BLOSC_CLEVEL, _SHUFFLE,
 * _DELTA, _TYPESIZE, _COMPRESSOR, _BLOCKSIZE, _NTHREADS, _SPLITMODE, _NOLOCK,
 * _BLOSC1_COMPAT. Each is set with setenv, one at a time, and its effect checked on the
 * header written by blosc2_compress (global API, after resetting the global settings) and by
 * blosc2_compress_ctx with a context created while it is set, plus what persists in the
 * global settings after it is unset. Input: 400000 bytes of float32 samples, clevel 5,
 * SHUFFLE, typesize 4; baseline header 05 01 05 04, blocksize 262144, filters 0 0 0 0 0 1.
 * Expected values were measured on the reference c-blosc2 3.3.5.
 */
#include "ca_common.h"

#include <blosc2.h>

#define N 400000

static uint8_t g_src[N], g_chunk[N + 64], g_out[N];

static const char *k_vars[] = {"BLOSC_CLEVEL",        "BLOSC_SHUFFLE",    "BLOSC_DELTA",
                               "BLOSC_TYPESIZE",      "BLOSC_COMPRESSOR", "BLOSC_BLOCKSIZE",
                               "BLOSC_NTHREADS",      "BLOSC_SPLITMODE",  "BLOSC_NOLOCK",
                               "BLOSC_BLOSC1_COMPAT", "BLOSC_TRACE",      "BLOSC_INFO"};

static void reset_globals(void) {
  blosc1_set_compressor("blosclz");
  blosc2_set_delta(0);
  blosc1_set_blocksize(0);
  blosc2_set_nthreads(1);
  blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT);
}

/* Expected outcome of one compression. rc: 1 = success (check fields), else the code. */
typedef struct {
  int rc;
  uint8_t flags, ts;
  int32_t blocksize;
  uint8_t delta, shuffle, codec;
} expect_t;

#define OK(flags, ts, bs, delta, shuffle, codec) {1, flags, ts, bs, delta, shuffle, codec}
/* BLOSC_BLOCKSIZE=1001 with typesize 4: the blocks use 1000. The reference's header still
 * says 1001, and it then cannot decode its own chunk; ours says 1000 and decodes it. */
#ifdef BLOSC2_VARIANT_OURS
#define SPLIT_ITEMS_BS 1000
#else
#define SPLIT_ITEMS_BS 1001
#endif
#define BASE OK(0x05, 4, 262144, 0, 1, 0)
#define ERR(code) {code, 0, 0, 0, 0, 0, 0}

static void check_chunk(const char *what, int rc, const expect_t *e) {
  if (e->rc != 1) {
    CHECK_EQ(rc, e->rc, "%s", what);
    return;
  }
  REQUIRE(rc > 32, "%s -> %d", what, rc);
  CHECK_EQ(g_chunk[0], 5, "%s version", what);
  CHECK_EQ(g_chunk[2], e->flags, "%s flags", what);
  CHECK_EQ(g_chunk[3], e->ts, "%s typesize", what);
  CHECK_EQ(ca_nbytes(g_chunk), N, "%s nbytes", what);
  CHECK_EQ(ca_blocksize(g_chunk), e->blocksize, "%s blocksize", what);
  CHECK_EQ(ca_cbytes(g_chunk), rc, "%s cbytes", what);
  CHECK(g_chunk[16] == 0 && g_chunk[17] == 0 && g_chunk[18] == 0 && g_chunk[19] == 0,
        "%s filters 0-3", what);
  CHECK_EQ(g_chunk[20], e->delta, "%s filter slot 4", what);
  CHECK_EQ(g_chunk[21], e->shuffle, "%s filter slot 5", what);
  CHECK_EQ(g_chunk[22], e->codec, "%s udcodec", what);
  CHECK_EQ(g_chunk[31], 0, "%s blosc2 flags", what);
  if (e->flags & 0x02) CHECK_EQ(rc, N + 32, "%s memcpy size", what);
  /* The global decompressor reads it back unless the blocksize is not a multiple of ts, or
   * BLOSC_NTHREADS is not a valid thread count (-12). */
  const char *nt = getenv("BLOSC_NTHREADS");
  if (nt && atoi(nt) <= 0) {
    CHECK_EQ(blosc2_decompress(g_chunk, rc, g_out, N), -12, "%s decompress", what);
  } else if (e->blocksize % 4 == 0) {
    memset(g_out, 0, N);
    CHECK_EQ(blosc2_decompress(g_chunk, rc, g_out, N), N, "%s decompress", what);
    CHECK_BYTES(g_out, g_src, N, "%s data", what);
  } else {
    CHECK_EQ(blosc2_decompress(g_chunk, rc, g_out, N), -3, "%s decompress", what);
  }
}

typedef struct {
  const char *var, *value;
  expect_t global, ctx;
  int ctx_null;
  /* Context parameters reported by blosc2_ctx_get_cparams (-1: not checked). */
  int compcode, clevel, typesize, nthreads, blocksize, splitmode;
  /* Global settings after unsetting (NULL / -1: defaults expected). */
  const char *compressor_after;
  int delta_after, blocksize_after, nthreads_after;
} case_t;

static const case_t k_cases[] = {
    {NULL, NULL, BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_CLEVEL", "9", OK(0x05, 4, N, 0, 1, 0), OK(0x05, 4, N, 0, 1, 0), 0, 0, 9, 4, 1, N, 4,
     NULL, 0, 0, 1},
    {"BLOSC_CLEVEL", "0", OK(0x07, 4, 8192, 0, 1, 0), OK(0x07, 4, 8192, 0, 1, 0), 0, 0, 0, 4, 1,
     8192, 4, NULL, 0, 0, 1},
    {"BLOSC_CLEVEL", "abc", OK(0x07, 4, 8192, 0, 1, 0), OK(0x07, 4, 8192, 0, 1, 0), 0, 0, 0, 4, 1,
     8192, 4, NULL, 0, 0, 1},
    {"BLOSC_CLEVEL", "12", ERR(-8), ERR(-8), 0, 0, 12, 4, 1, -1, 4, NULL, 0, 0, 1},
    {"BLOSC_CLEVEL", "-1", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_SHUFFLE", "NOSHUFFLE", OK(0x15, 4, 131072, 0, 0, 0), OK(0x15, 4, 131072, 0, 0, 0), 0, 0,
     5, 4, 1, 131072, 4, NULL, 0, 0, 1},
    {"BLOSC_SHUFFLE", "BITSHUFFLE", OK(0x15, 4, 131072, 0, 2, 0), OK(0x15, 4, 131072, 0, 2, 0), 0,
     0, 5, 4, 1, 131072, 4, NULL, 0, 0, 1},
    {"BLOSC_SHUFFLE", "bitshuffle", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_SHUFFLE", "SHUFFLE", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_DELTA", "1", OK(0x0d, 4, 262144, 3, 1, 0), OK(0x0d, 4, 262144, 3, 1, 0), 0, 0, 5, 4, 1,
     262144, 4, NULL, 1, 0, 1},
    {"BLOSC_DELTA", "0", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_DELTA", "yes", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_TYPESIZE", "8", OK(0x05, 8, N, 0, 1, 0), OK(0x05, 8, N, 0, 1, 0), 0, 0, 5, 8, 1, N, 4,
     NULL, 0, 0, 1},
    {"BLOSC_TYPESIZE", "300", OK(0x05, 1, 130800, 0, 1, 0), OK(0x05, 1, 130800, 0, 1, 0), 0, 0, 5,
     1, 1, 130800, 4, NULL, 0, 0, 1},
    {"BLOSC_TYPESIZE", "0", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_TYPESIZE", "x", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_COMPRESSOR", "lz4", OK(0x25, 4, 262144, 0, 1, 1), OK(0x25, 4, 262144, 0, 1, 1), 0, 1, 5,
     4, 1, 262144, 4, "lz4", 0, 0, 1},
    {"BLOSC_COMPRESSOR", "zstd", OK(0x85, 4, 262144, 0, 1, 5), OK(0x85, 4, 262144, 0, 1, 5), 0, 5,
     5, 4, 1, 262144, 4, "zstd", 0, 0, 1},
    {"BLOSC_COMPRESSOR", "LZ4", ERR(-7), ERR(-7), 0, 255, 5, 4, 1, -1, 4, "", 0, 0, 1},
    {"BLOSC_COMPRESSOR", "ndlz", BASE, ERR(0), 1, -1, -1, -1, -1, -1, -1, NULL, 0, 0, 1},
    {"BLOSC_BLOCKSIZE", "16384", OK(0x05, 4, 16384, 0, 1, 0), OK(0x05, 4, 16384, 0, 1, 0), 0, 0, 5,
     4, 1, 16384, 4, NULL, 0, 16384, 1},
    {"BLOSC_BLOCKSIZE", "1001", OK(0x05, 4, SPLIT_ITEMS_BS, 0, 1, 0),
     OK(0x05, 4, SPLIT_ITEMS_BS, 0, 1, 0), 0, 0, 5, 4, 1, 1000, 4, NULL, 0, 1001, 1},
    {"BLOSC_BLOCKSIZE", "0", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_NTHREADS", "3", BASE, BASE, 0, 0, 5, 4, 3, 262144, 4, NULL, 0, 0, 3},
    {"BLOSC_NTHREADS", "-2", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_SPLITMODE", "NEVER", OK(0x15, 4, 131072, 0, 1, 0), OK(0x15, 4, 131072, 0, 1, 0), 0, 0,
     5, 4, 1, 131072, 2, NULL, 0, 0, 1},
    {"BLOSC_SPLITMODE", "ALWAYS", BASE, BASE, 0, 0, 5, 4, 1, 262144, 1, NULL, 0, 0, 1},
    {"BLOSC_SPLITMODE", "AUTO", BASE, BASE, 0, 0, 5, 4, 1, 262144, 3, NULL, 0, 0, 1},
    {"BLOSC_SPLITMODE", "FORWARD_COMPAT", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_SPLITMODE", "bogus", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
    {"BLOSC_NOLOCK", "1", BASE, BASE, 0, 0, 5, 4, 1, 262144, 4, NULL, 0, 0, 1},
};

static void run_case(const case_t *k) {
  char what[96];
  snprintf(what, sizeof what, "%s=%s", k->var ? k->var : "(none)", k->value ? k->value : "");
  reset_globals();
  if (k->var) setenv(k->var, k->value, 1);
  char label[128];
  snprintf(label, sizeof label, "%s global", what);
  int rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  check_chunk(label, rc, &k->global);
  if (k->var) setenv(k->var, k->value, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  snprintf(label, sizeof label, "%s context", what);
  if (k->ctx_null) {
    CHECK(c == NULL, "%s: context created", label);
  } else if (c == NULL) {
    CHECK(0, "%s: NULL context", label);
  } else {
    rc = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
    check_chunk(label, rc, &k->ctx);
    blosc2_cparams got;
    memset(&got, 0, sizeof got);
    blosc2_ctx_get_cparams(c, &got);
    CHECK_EQ(got.compcode, k->compcode, "%s compcode", label);
    CHECK_EQ(got.clevel, k->clevel, "%s clevel", label);
    CHECK_EQ(got.typesize, k->typesize, "%s typesize", label);
    CHECK_EQ(got.nthreads, k->nthreads, "%s nthreads", label);
    if (k->blocksize >= 0) CHECK_EQ(got.blocksize, k->blocksize, "%s blocksize", label);
    CHECK_EQ(got.splitmode, k->splitmode, "%s splitmode", label);
    blosc2_free_ctx(c);
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  blosc2_dparams gotd;
  blosc2_ctx_get_dparams(d, &gotd);
  CHECK_EQ(gotd.nthreads, k->nthreads >= 0 ? k->nthreads : 1, "%s dctx nthreads", what);
  blosc2_free_ctx(d);
  if (k->var) unsetenv(k->var);
  /* What persists in the global settings. */
  const char *comp = blosc1_get_compressor();
  if (k->compressor_after && !k->compressor_after[0])
    CHECK(comp == NULL, "%s: compressor after is %s", what, comp);
  else
    CHECK(comp && strcmp(comp, k->compressor_after ? k->compressor_after : "blosclz") == 0,
          "%s: compressor after is %s", what, comp ? comp : "(null)");
  CHECK_EQ(blosc1_get_blocksize(), k->blocksize_after, "%s: blocksize after", what);
  CHECK_EQ(blosc2_get_nthreads(), k->nthreads_after, "%s: nthreads after", what);
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  if (rc > 32) CHECK_EQ(g_chunk[20], k->delta_after ? 3 : 0, "%s: delta after", what);
}

/* BLOSC_NTHREADS as read by the decompressors. */
static void test_decompress_nthreads(void) {
  reset_globals();
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 0, "compress");
  static const struct {
    const char *value;
    int global_rc, dctx_nthreads;
  } cases[] = {{"0", -12, 1}, {"-1", -12, 1}, {"abc", -12, 1}, {"40000", -12, -1}, {"2", N, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    blosc2_set_nthreads(1);
    setenv("BLOSC_NTHREADS", cases[i].value, 1);
    int rc = blosc2_decompress(g_chunk, cb, g_out, N);
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    blosc2_context *d = blosc2_create_dctx(dp);
    blosc2_dparams got;
    blosc2_ctx_get_dparams(d, &got);
    int rc2 = blosc2_decompress_ctx(d, g_chunk, cb, g_out, N);
    blosc2_free_ctx(d);
    unsetenv("BLOSC_NTHREADS");
    CHECK_EQ(rc, cases[i].global_rc, "BLOSC_NTHREADS=%s global decompress", cases[i].value);
    if (cases[i].dctx_nthreads > 0)
      CHECK_EQ(got.nthreads, cases[i].dctx_nthreads, "BLOSC_NTHREADS=%s dctx", cases[i].value);
    CHECK_EQ(rc2, N, "BLOSC_NTHREADS=%s decompress_ctx", cases[i].value);
    if (rc > 0) CHECK_EQ(blosc2_get_nthreads(), 2, "BLOSC_NTHREADS=%s persists", cases[i].value);
  }
  blosc2_set_nthreads(1);
}

/* BLOSC_BLOSC1_COMPAT: 16-byte header from the global API only. */
static void test_blosc1_compat(void) {
  reset_globals();
  int plain = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  static const char *values[] = {"1", ""};
  for (int v = 0; v < 2; v++) {
    setenv("BLOSC_BLOSC1_COMPAT", values[v], 1);
    int rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
    unsetenv("BLOSC_BLOSC1_COMPAT");
    REQUIRE(rc > 16, "compat '%s' -> %d", values[v], rc);
    static const uint8_t want[12] = {0x05, 0x01, 0x01, 0x04, 0x80, 0x1a,
                                     0x06, 0x00, 0x00, 0x00, 0x04, 0x00};
    CHECK_BYTES(g_chunk, want, 12, "compat '%s' header", values[v]);
    CHECK_EQ(ca_cbytes(g_chunk), rc, "compat '%s' cbytes", values[v]);
    CHECK_EQ(rc, plain - 16, "compat '%s' is 16 bytes shorter", values[v]);
    memset(g_out, 0, N);
    CHECK_EQ(blosc2_decompress(g_chunk, rc, g_out, N), N, "compat '%s' decompress", values[v]);
    CHECK_BYTES(g_out, g_src, N, "compat '%s' data", values[v]);
    CHECK_EQ(blosc1_decompress(g_chunk, g_out, N), N, "compat '%s' blosc1_decompress", values[v]);
  }
  setenv("BLOSC_BLOSC1_COMPAT", "1", 1);
  int rc = blosc2_compress(0, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  CHECK_EQ(rc, N + 16, "compat clevel 0");
  CHECK_EQ(g_chunk[2], 0x02, "compat clevel 0 flags");
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, 20, g_chunk, sizeof g_chunk);
  static const uint8_t small[16] = {0x05, 0x01, 0x02, 0x04, 0x14, 0, 0, 0,
                                    0x14, 0,    0,    0,    0x24, 0, 0, 0};
  CHECK_EQ(rc, 36, "compat 20 bytes");
  CHECK_BYTES(g_chunk, small, 16, "compat 20 bytes header");
  CHECK_BYTES(g_chunk + 16, g_src, 20, "compat 20 bytes data");
  CHECK_EQ(blosc1_compress(5, BLOSC_SHUFFLE, 4, N, g_src, g_chunk, sizeof g_chunk), plain - 16,
           "compat blosc1_compress");
  /* Zeros: no special chunk in the 16-byte format. */
  static uint8_t zeros[1000];
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, zeros, 1000, g_chunk, sizeof g_chunk);
  CHECK(rc > 16 && g_chunk[2] == 0x01, "compat zeros -> %d flags %02x", rc, g_chunk[2]);
  memset(g_out, 1, 1000);
  CHECK_EQ(blosc2_decompress(g_chunk, rc, g_out, 1000), 1000, "compat zeros decompress");
  CHECK_FILLED(g_out, 0, 1000, "compat zeros data");
  /* With NOLOCK, or through a context: the normal 32-byte format. */
  setenv("BLOSC_NOLOCK", "1", 1);
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, zeros, 1000, g_chunk, sizeof g_chunk);
  unsetenv("BLOSC_NOLOCK");
  CHECK(rc == 32 && g_chunk[31] == 0x10, "compat + nolock zeros -> %d", rc);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  rc = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  CHECK_EQ(rc, plain, "compat does not affect contexts");
  CHECK_EQ(g_chunk[2], 0x05, "compat context flags");
  blosc2_free_ctx(c);
  unsetenv("BLOSC_BLOSC1_COMPAT");
}

/* BLOSC_NOLOCK with decompression, and the global delta / blocksize flags persisting. */
static void test_misc(void) {
  reset_globals();
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  setenv("BLOSC_NOLOCK", "1", 1);
  memset(g_out, 0, N);
  CHECK_EQ(blosc2_decompress(g_chunk, cb, g_out, N), N, "nolock decompress");
  CHECK_BYTES(g_out, g_src, N, "nolock data");
  unsetenv("BLOSC_NOLOCK");
  /* The environment overrides the arguments of blosc2_compress. */
  setenv("BLOSC_SHUFFLE", "SHUFFLE", 1);
  cb = blosc2_compress(5, BLOSC_NOSHUFFLE, 4, g_src, N, g_chunk, sizeof g_chunk);
  CHECK(cb > 0 && g_chunk[21] == BLOSC_SHUFFLE, "SHUFFLE over doshuffle 0: slot 5 = %d",
        g_chunk[21]);
  cb = blosc2_compress(5, BLOSC_NOSHUFFLE, 1, g_src, N, g_chunk, sizeof g_chunk);
  CHECK(cb > 0 && g_chunk[21] == 0, "SHUFFLE with typesize 1: slot 5 = %d", g_chunk[21]);
  unsetenv("BLOSC_SHUFFLE");
  setenv("BLOSC_CLEVEL", "1", 1);
  cb = blosc1_compress(9, BLOSC_SHUFFLE, 4, N, g_src, g_chunk, sizeof g_chunk);
  CHECK(cb > 0 && ca_blocksize(g_chunk) == 131072, "CLEVEL=1 over clevel 9: blocksize %d",
        ca_blocksize(g_chunk));
  unsetenv("BLOSC_CLEVEL");
  reset_globals();
}

int main(void) {
  for (size_t i = 0; i < sizeof k_vars / sizeof k_vars[0]; i++) unsetenv(k_vars[i]);
  tc_fill(g_src, N, TC_FLOATS, 4, 1);
  blosc2_init();
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) run_case(&k_cases[i]);
  test_decompress_nthreads();
  test_blosc1_compat();
  test_misc();
  blosc2_destroy();
  return tc_finish("chunkapi_env (" CA_VARIANT ")");
}
