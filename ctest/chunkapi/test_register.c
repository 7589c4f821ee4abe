/*
 * Registration of user codecs, filters and tuners, and the built-in plugin filters.
 *   - id ranges and name rules of blosc2_register_codec (-8), _filter and _tuner (-1);
 *   - name <-> code lookups with registered names; blosc2_get_complib_info of a user codec;
 *   - a user codec (byte-pair RLE with the meta XORed in) used to compress and decompress:
 *     header bytes (versionlz = codec version, flags 0xd5 / 0xc5 split, byte 22 = compcode,
 *     byte 23 = compcode_meta), what the callbacks receive (lengths, meta, cparams/dparams
 *     contents, `chunk` = the uncompressed source for the encoder and the chunk for the
 *     decoder), error propagation (-3, unknown codec -7);
 *   - a user filter (XOR with its meta): header bytes, callback arguments, errors
 *     (forward != 0 -> -18, backward < 0 -> decompress -1);
 *   - create_cctx rejects filter ids 5..31 and 37..159 (NULL); unregistered ids >= 160 fail
 *     at compress (-18); plugin filters 32..36 and TRUNC_PREC with meta 0 -> -18;
 *   - BYTEDELTA (35, meta != 0) round trips; INT_TRUNC (36): meta m < 0 clears |m| low bits,
 *     m > 0 keeps the m high bits of each (8 * typesize)-bit integer; m = 0, m > bits and
 *     typesize 3 -> -18.
 * Expected values were measured on the reference c-blosc2 3.3.5.
 */
#include "ca_common.h"

#include <blosc2.h>
#include <blosc2/filters-registry.h>

#define N 10000

typedef struct {
  int32_t inlen, outlen;
  uint8_t meta;
  int have_params;
  blosc2_cparams cp;
  blosc2_dparams dp;
  const void *chunk;
} call_t;

static call_t g_enc[64], g_dec[64];
static int g_nenc, g_ndec, g_enc_rc, g_dec_rc;

/* Byte-pair RLE: (count, byte ^ meta). Returns 0 when it does not fit (stored raw). */
static int rle_encode(const uint8_t *in, int32_t inlen, uint8_t *out, int32_t outlen, uint8_t meta,
                      blosc2_cparams *cparams, const void *chunk) {
  if (g_nenc < 64) {
    call_t *c = &g_enc[g_nenc];
    c->inlen = inlen;
    c->outlen = outlen;
    c->meta = meta;
    c->have_params = cparams != NULL;
    if (cparams) c->cp = *cparams;
    c->chunk = chunk;
  }
  g_nenc++;
  if (g_enc_rc) return g_enc_rc;
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
  if (g_ndec < 64) {
    call_t *c = &g_dec[g_ndec];
    c->inlen = inlen;
    c->outlen = outlen;
    c->meta = meta;
    c->have_params = dparams != NULL;
    if (dparams) c->dp = *dparams;
    c->chunk = chunk;
  }
  g_ndec++;
  if (g_dec_rc) return g_dec_rc;
  int32_t o = 0;
  for (int32_t i = 0; i + 1 < inlen; i += 2) {
    if (o + in[i] > outlen) return -1;
    memset(out + o, in[i + 1] ^ meta, in[i]);
    o += in[i];
  }
  return o;
}

static int g_nfwd, g_nbwd, g_fwd_rc, g_bwd_rc;
static call_t g_fwd[16], g_bwd[16];
static uint8_t g_fwd_id, g_bwd_id;

static int xor_forward(const uint8_t *src, uint8_t *dest, int32_t size, uint8_t meta,
                       blosc2_cparams *cparams, uint8_t id) {
  if (g_nfwd < 16) {
    g_fwd[g_nfwd].inlen = size;
    g_fwd[g_nfwd].meta = meta;
    g_fwd[g_nfwd].have_params = cparams != NULL;
    if (cparams) g_fwd[g_nfwd].cp = *cparams;
  }
  g_nfwd++;
  g_fwd_id = id;
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return g_fwd_rc;
}

static int xor_backward(const uint8_t *src, uint8_t *dest, int32_t size, uint8_t meta,
                        blosc2_dparams *dparams, uint8_t id) {
  if (g_nbwd < 16) {
    g_bwd[g_nbwd].inlen = size;
    g_bwd[g_nbwd].meta = meta;
    g_bwd[g_nbwd].have_params = dparams != NULL;
    if (dparams) g_bwd[g_nbwd].dp = *dparams;
  }
  g_nbwd++;
  g_bwd_id = id;
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return g_bwd_rc;
}

static uint8_t g_src[N], g_chunk[N + 2000], g_out[N];

static void test_codec_registration(void) {
  blosc2_codec codec;
  memset(&codec, 0, sizeof codec);
  codec.compcode = 200;
  codec.compname = "myrle";
  codec.complib = 7;
  codec.version = 3;
  codec.encoder = rle_encode;
  codec.decoder = rle_decode;
  blosc2_codec c2 = codec;
  static const int bad_ids[] = {0, 5, 6, 31, 32, 40, 159};
  for (int i = 0; i < 7; i++) {
    c2.compcode = (uint8_t)bad_ids[i];
    CHECK_EQ(blosc2_register_codec(&c2), -8, "codec id %d", bad_ids[i]);
  }
  CHECK_EQ(blosc2_register_codec(&codec), 0, "codec 200");
  CHECK_EQ(blosc2_register_codec(&codec), 0, "codec 200 again");
  c2 = codec;
  c2.compname = "other";
  CHECK_EQ(blosc2_register_codec(&c2), -8, "codec 200 with another name");
  c2 = codec;
  c2.compcode = 201;
  CHECK_EQ(blosc2_register_codec(&c2), 0, "codec 201 with the same name");
  c2.compcode = 160;
  c2.compname = "c160";
  CHECK_EQ(blosc2_register_codec(&c2), 0, "codec 160");
  c2.compcode = 255;
  c2.compname = "c255";
  CHECK_EQ(blosc2_register_codec(&c2), 0, "codec 255");

  const char *name = NULL;
  CHECK_EQ(blosc2_compcode_to_compname(200, &name), 200, "compcode_to_compname 200");
  CHECK(name && strcmp(name, "myrle") == 0, "name of 200: %s", name ? name : "(null)");
  name = NULL;
  CHECK_EQ(blosc2_compcode_to_compname(201, &name), 201, "compcode_to_compname 201");
  CHECK(name && strcmp(name, "myrle") == 0, "name of 201: %s", name ? name : "(null)");
  name = "x";
  CHECK_EQ(blosc2_compcode_to_compname(202, &name), -1, "compcode_to_compname 202");
  CHECK(name == NULL, "name of 202 not NULL");
  CHECK_EQ(blosc2_compcode_to_compname(32, &name), 32, "compcode_to_compname 32");
  CHECK(name && strcmp(name, "ndlz") == 0, "name of 32: %s", name ? name : "(null)");
  CHECK_EQ(blosc2_compname_to_compcode("myrle"), 200, "myrle");
  CHECK_EQ(blosc2_compname_to_compcode("c255"), 255, "c255");
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), 32, "ndlz");
  CHECK_EQ(blosc2_compname_to_compcode("zfp_acc"), 33, "zfp_acc");
  CHECK_EQ(blosc2_compname_to_compcode("openhtj2k"), 36, "openhtj2k");
  CHECK_EQ(blosc2_compname_to_compcode("htj2k"), 40, "htj2k");
  CHECK_EQ(blosc2_compname_to_compcode("MYRLE"), -1, "names are case-sensitive");
  CHECK(strcmp(blosc2_list_compressors(), "blosclz,lz4,lz4hc,zlib,zstd") == 0, "list %s",
        blosc2_list_compressors());
  char *lib = NULL, *ver = NULL;
  CHECK_EQ(blosc2_get_complib_info("myrle", &lib, &ver), 7, "complib_info myrle");
  CHECK(lib && ver && strcmp(lib, "myrle") == 0 && strcmp(ver, "unknown") == 0,
        "complib_info strings %s %s", lib ? lib : "(null)", ver ? ver : "(null)");
  free(lib);
  free(ver);
  const char *before = blosc1_get_compressor();
  CHECK_EQ(blosc1_set_compressor("myrle"), -7, "set_compressor myrle");
  CHECK(strcmp(blosc1_get_compressor(), before) == 0, "global compressor unchanged");
}

static void check_codec_calls(const char *what, int cb, int split) {
  /* Blocks of 4000, 4000, 2000 bytes; split: typesize 4 streams per full block. */
  int want = split ? 9 : 3;
  CHECK_EQ(g_nenc, want, "%s encoder calls", what);
  for (int i = 0; i < g_nenc && i < want; i++) {
    call_t *c = &g_enc[i];
    int32_t len = split ? (i < 8 ? 1000 : 2000) : (i < 2 ? 4000 : 2000);
    CHECK_EQ(c->inlen, len, "%s enc %d inlen", what, i);
    CHECK_EQ(c->outlen, len, "%s enc %d outlen", what, i);
    CHECK_EQ(c->meta, 0x5a, "%s enc %d meta", what, i);
    CHECK(c->have_params, "%s enc %d cparams NULL", what, i);
    CHECK(c->cp.compcode == 200 && c->cp.compcode_meta == 0x5a && c->cp.clevel == 7 &&
              c->cp.typesize == 4 && c->cp.nthreads == 1 && c->cp.blocksize == 4000 &&
              c->cp.splitmode == (split ? BLOSC_ALWAYS_SPLIT : BLOSC_FORWARD_COMPAT_SPLIT) &&
              c->cp.filters[5] == BLOSC_SHUFFLE && c->cp.use_dict == 0,
          "%s enc %d cparams: compcode %d meta %d clevel %d ts %d nthreads %d bs %d split %d", what,
          i, c->cp.compcode, c->cp.compcode_meta, c->cp.clevel, c->cp.typesize, c->cp.nthreads,
          c->cp.blocksize, c->cp.splitmode);
    CHECK(c->chunk == g_src, "%s enc %d chunk is not the source", what, i);
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  g_ndec = 0;
  memset(g_out, 0, N);
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "%s decompress", what);
  CHECK_BYTES(g_out, g_src, N, "%s data", what);
  CHECK_EQ(g_ndec, want, "%s decoder calls", what);
  for (int i = 0; i < g_ndec && i < want; i++) {
    call_t *c = &g_dec[i];
    CHECK_EQ(c->outlen, split ? (i < 8 ? 1000 : 2000) : (i < 2 ? 4000 : 2000), "%s dec %d outlen",
             what, i);
    CHECK(c->inlen > 0 && c->inlen < c->outlen, "%s dec %d inlen %d", what, i, c->inlen);
    CHECK_EQ(c->meta, 0x5a, "%s dec %d meta", what, i);
    CHECK(c->have_params && c->dp.nthreads == 1 && c->dp.typesize == 4, "%s dec %d dparams", what,
          i);
    CHECK(c->chunk == g_chunk, "%s dec %d chunk", what, i);
  }
  g_ndec = 0;
  CHECK_EQ(blosc2_getitem_ctx(d, g_chunk, cb, 1200, 5, g_out, N), 20, "%s getitem", what);
  CHECK_BYTES(g_out, g_src + 4800, 20, "%s getitem data", what);
  CHECK_EQ(g_ndec, split ? 4 : 1, "%s getitem decoder calls", what);
  CHECK_EQ(blosc2_decompress(g_chunk, cb, g_out, N), N, "%s global decompress", what);
  CHECK_BYTES(g_out, g_src, N, "%s global data", what);
  blosc2_free_ctx(d);
}

static void test_user_codec(void) {
  for (int i = 0; i < N; i++) g_src[i] = (uint8_t)(i / 100);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = 200;
  cp.compcode_meta = 0x5a;
  cp.typesize = 4;
  cp.blocksize = 4000;
  cp.clevel = 7;
  blosc2_context *c = blosc2_create_cctx(cp);
  g_nenc = 0;
  int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 32 && cb < N, "user codec compress -> %d", cb);
  static const uint8_t want[32] = {0x05, 0x03, 0xd5, 0x04, 0x10, 0x27, 0, 0, 0xa0, 0x0f, 0,
                                   0,    0,    0,    0,    0,    0,    0, 0, 0,    0,    0x01,
                                   200,  0x5a, 0,    0,    0,    0,    0, 0, 0,    0};
  uint8_t w[32];
  memcpy(w, want, 32);
  tc_wr32(w + 12, cb);
  CHECK_BYTES(g_chunk, w, 32, "user codec header");
  CHECK(blosc2_cbuffer_complib(g_chunk) == NULL, "complib of a user-codec chunk");
  check_codec_calls("user codec", cb, 0);
  blosc2_free_ctx(c);
  /* Forced split: one encoder call per stream; flags 0xc5. */
  cp.splitmode = BLOSC_ALWAYS_SPLIT;
  c = blosc2_create_cctx(cp);
  g_nenc = 0;
  cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 32, "split user codec -> %d", cb);
  CHECK_EQ(g_chunk[2], 0xc5, "split flags");
  check_codec_calls("split user codec", cb, 1);
  /* Incompressible data: the encoder returns 0, streams are stored raw. */
  tc_fill(g_src, N, TC_RANDOM, 1, 1);
  cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  CHECK(cb > N, "random with the user codec -> %d", cb);
  CHECK_EQ(blosc2_decompress(g_chunk, cb, g_out, N), N, "random decompress");
  CHECK_BYTES(g_out, g_src, N, "random data");
  blosc2_free_ctx(c);
  /* Errors. */
  for (int i = 0; i < N; i++) g_src[i] = (uint8_t)(i / 100);
  cp.splitmode = BLOSC_FORWARD_COMPAT_SPLIT;
  c = blosc2_create_cctx(cp);
  g_enc_rc = -5;
  CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk), -3, "failing encoder");
  g_enc_rc = 0;
  cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  g_dec_rc = -5;
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), -3, "failing decoder");
  g_dec_rc = 5;
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), -3, "short decoder");
  g_dec_rc = 0;
  g_chunk[22] = 230;
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), -7, "unregistered udcodec");
  CHECK_EQ(blosc2_getitem_ctx(d, g_chunk, cb, 0, 1, g_out, N), -7, "unregistered udcodec getitem");
  g_chunk[22] = 200;
  g_chunk[2] = (uint8_t)((g_chunk[2] & 0x1f) | (5 << 5));
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), -7, "format 5");
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
  /* Unregistered / unknown codes fail at compress (the context is created). */
  static const int unknown[] = {6, 31, 210};
  for (int i = 0; i < 3; i++) {
    cp.compcode = (uint8_t)unknown[i];
    c = blosc2_create_cctx(cp);
    CHECK(c != NULL, "context for codec %d", unknown[i]);
    CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk), -7, "codec %d", unknown[i]);
    blosc2_free_ctx(c);
  }
  /* Once a codec with complib 6 (BLOSC_UDCODEC_LIB) is registered, blosc2_cbuffer_complib
   * names every user-codec chunk after it, whatever its byte 22. */
  blosc2_codec c6;
  memset(&c6, 0, sizeof c6);
  c6.compcode = 220;
  c6.compname = "lib6";
  c6.complib = 6;
  c6.version = 1;
  c6.encoder = rle_encode;
  c6.decoder = rle_decode;
  CHECK_EQ(blosc2_register_codec(&c6), 0, "codec 220 complib 6");
  cp.compcode = 200;
  c = blosc2_create_cctx(cp);
  cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  const char *lib = cb > 0 ? blosc2_cbuffer_complib(g_chunk) : NULL;
  CHECK(lib && strcmp(lib, "lib6") == 0, "complib of a codec-200 chunk: %s", lib ? lib : "(null)");
  blosc2_free_ctx(c);
}

static void test_filters(void) {
  blosc2_filter f;
  memset(&f, 0, sizeof f);
  f.id = 200;
  f.name = "myxor";
  f.version = 1;
  f.forward = xor_forward;
  f.backward = xor_backward;
  blosc2_filter f2 = f;
  static const int bad_ids[] = {0, 5, 31, 32, 35, 36, 159};
  for (int i = 0; i < 7; i++) {
    f2.id = (uint8_t)bad_ids[i];
    CHECK_EQ(blosc2_register_filter(&f2), -1, "filter id %d", bad_ids[i]);
  }
  CHECK_EQ(blosc2_register_filter(&f), 0, "filter 200");
  CHECK_EQ(blosc2_register_filter(&f), 0, "filter 200 again");
  f2 = f;
  f2.name = "other";
  CHECK_EQ(blosc2_register_filter(&f2), -1, "filter 200 with another name");
  f2 = f;
  f2.id = 201;
  CHECK_EQ(blosc2_register_filter(&f2), 0, "filter 201 with the same name");
  f2.id = 160;
  f2.name = "f160";
  CHECK_EQ(blosc2_register_filter(&f2), 0, "filter 160");
  f2.id = 255;
  f2.name = "f255";
  CHECK_EQ(blosc2_register_filter(&f2), 0, "filter 255");

  tc_fill(g_src, N, TC_RAMP, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 4000;
  cp.filters[2] = 200;
  cp.filters_meta[2] = 0x33;
  blosc2_context *c = blosc2_create_cctx(cp);
  g_nfwd = 0;
  int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
  REQUIRE(cb > 32, "user filter compress -> %d", cb);
  CHECK(g_chunk[2] == 0x05 && g_chunk[18] == 200 && g_chunk[21] == BLOSC_SHUFFLE &&
            g_chunk[26] == 0x33,
        "user filter header %02x %d %d %02x", g_chunk[2], g_chunk[18], g_chunk[21], g_chunk[26]);
  CHECK_EQ(g_nfwd, 3, "forward calls");
  CHECK_EQ(g_fwd_id, 200, "forward id");
  for (int i = 0; i < g_nfwd && i < 3; i++) {
    CHECK_EQ(g_fwd[i].inlen, i < 2 ? 4000 : 2000, "forward %d size", i);
    CHECK_EQ(g_fwd[i].meta, 0x33, "forward %d meta", i);
    CHECK(g_fwd[i].have_params && g_fwd[i].cp.typesize == 4 && g_fwd[i].cp.blocksize == 4000 &&
              g_fwd[i].cp.filters[2] == 200 && g_fwd[i].cp.filters_meta[2] == 0x33,
          "forward %d cparams", i);
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  g_nbwd = 0;
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "user filter decompress");
  CHECK_BYTES(g_out, g_src, N, "user filter data");
  CHECK_EQ(g_nbwd, 3, "backward calls");
  CHECK_EQ(g_bwd_id, 200, "backward id");
  for (int i = 0; i < g_nbwd && i < 3; i++) {
    CHECK_EQ(g_bwd[i].inlen, i < 2 ? 4000 : 2000, "backward %d size", i);
    CHECK_EQ(g_bwd[i].meta, 0x33, "backward %d meta", i);
    CHECK(g_bwd[i].have_params && g_bwd[i].dp.nthreads == 1 && g_bwd[i].dp.typesize == 4,
          "backward %d dparams", i);
  }
  g_bwd_rc = -1;
  CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), -1, "failing backward");
  g_bwd_rc = 0;
  g_fwd_rc = -1;
  CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk), -18, "failing forward");
  g_fwd_rc = 3;
  CHECK_EQ(blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk), -18, "forward returning 3");
  g_fwd_rc = 0;
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);

  /* Filter ids at context creation and at compress time (default cparams, typesize 8). */
  for (int id = 0; id < 256; id++) {
    blosc2_cparams q = BLOSC2_CPARAMS_DEFAULTS;
    q.filters[0] = (uint8_t)id;
    c = blosc2_create_cctx(q);
    int rejected = (id >= 5 && id <= 31) || (id >= 37 && id <= 159);
    CHECK(rejected ? c == NULL : c != NULL, "create_cctx with filter %d: %s", id,
          c ? "ctx" : "NULL");
    if (!c) continue;
    int rc = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
    int registered = id == 200 || id == 201 || id == 160 || id == 255;
    int fails = id == 4 || (id >= 32 && id <= 36) || (id >= 160 && !registered);
    if (fails)
      CHECK_EQ(rc, -18, "compress with filter %d", id);
    else
      CHECK(rc > 0, "compress with filter %d -> %d", id, rc);
    blosc2_free_ctx(c);
  }
}

static void test_tuners(void) {
  blosc2_tuner t;
  memset(&t, 0, sizeof t);
  t.name = "tt";
  static const int bad_ids[] = {0, 1, 31, 32, 159};
  for (int i = 0; i < 5; i++) {
    t.id = bad_ids[i];
    CHECK_EQ(blosc2_register_tuner(&t), -1, "tuner id %d", bad_ids[i]);
  }
  t.id = 200;
  CHECK_EQ(blosc2_register_tuner(&t), 0, "tuner 200");
  CHECK_EQ(blosc2_register_tuner(&t), 0, "tuner 200 again");
  t.name = "tt2";
  CHECK_EQ(blosc2_register_tuner(&t), -1, "tuner 200 with another name");
  t.id = 201;
  t.name = "tt";
  CHECK_EQ(blosc2_register_tuner(&t), 0, "tuner 201 with the same name");
  t.id = 160;
  t.name = "t160";
  CHECK_EQ(blosc2_register_tuner(&t), 0, "tuner 160");
}

/* INT_TRUNC expectation: the kept bits of each little-endian integer of `ts` bytes. */
static void int_trunc_expect(const uint8_t *src, uint8_t *dst, int32_t n, int ts, int meta) {
  int bits = 8 * ts, zero = meta < 0 ? -meta : bits - meta;
  for (int32_t i = 0; i + ts <= n; i += ts) {
    for (int b = 0; b < ts; b++) {
      int lo = 8 * b;
      uint8_t mask = zero >= lo + 8 ? 0 : zero <= lo ? 0xff : (uint8_t)(0xff << (zero - lo));
      dst[i + b] = src[i + b] & mask;
    }
  }
}

static void test_plugin_filters(void) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  /* BYTEDELTA after SHUFFLE, meta != 0. */
  static const int typesizes[] = {1, 2, 4, 8, 16};
  for (int k = 0; k < 5; k++) {
    for (int meta = 0; meta <= 8; meta += 4) {
      int ts = typesizes[k];
      tc_fill(g_src, N, TC_FLOATS, (size_t)ts, 2);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = ts;
      cp.compcode = BLOSC_LZ4;
      memset(cp.filters, 0, sizeof cp.filters);
      cp.filters[4] = BLOSC_SHUFFLE;
      cp.filters[5] = BLOSC_FILTER_BYTEDELTA;
      cp.filters_meta[5] = (uint8_t)meta;
      blosc2_context *c = blosc2_create_cctx(cp);
      int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
      blosc2_free_ctx(c);
      if (meta == 0) {
        CHECK_EQ(cb, -18, "bytedelta ts %d meta 0", ts);
        continue;
      }
      REQUIRE(cb > 32, "bytedelta ts %d meta %d -> %d", ts, meta, cb);
      CHECK(g_chunk[20] == BLOSC_SHUFFLE && g_chunk[21] == 35 && g_chunk[29] == meta,
            "bytedelta header %d %d %d", g_chunk[20], g_chunk[21], g_chunk[29]);
      CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "bytedelta ts %d meta %d", ts,
               meta);
      CHECK_BYTES(g_out, g_src, N, "bytedelta ts %d meta %d data", ts, meta);
    }
  }
  /* INT_TRUNC on random signed integers. */
  static uint8_t want[N];
  static const int metas[] = {-12, -3, 1, 4, 8, 13, 16, 20, 31, 32, 63};
  for (int k = 0; k < 4; k++) {
    int ts = typesizes[k];
    for (size_t m = 0; m < sizeof metas / sizeof metas[0]; m++) {
      int meta = metas[m];
      if (meta > 8 * ts || -meta > 8 * ts) continue;
      tc_fill(g_src, N, TC_RANDOM, (size_t)ts, (uint64_t)m);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = ts;
      cp.compcode = BLOSC_ZSTD;
      memset(cp.filters, 0, sizeof cp.filters);
      cp.filters[4] = BLOSC_FILTER_INT_TRUNC;
      cp.filters_meta[4] = (uint8_t)(int8_t)meta;
      cp.filters[5] = BLOSC_SHUFFLE;
      blosc2_context *c = blosc2_create_cctx(cp);
      int cb = blosc2_compress_ctx(c, g_src, N, g_chunk, sizeof g_chunk);
      blosc2_free_ctx(c);
      REQUIRE(cb > 0, "int_trunc ts %d meta %d -> %d", ts, meta, cb);
      CHECK_EQ(blosc2_decompress_ctx(d, g_chunk, cb, g_out, N), N, "int_trunc ts %d meta %d", ts,
               meta);
      int_trunc_expect(g_src, want, N, ts, meta);
      CHECK_BYTES(g_out, want, N, "int_trunc ts %d meta %d data", ts, meta);
    }
  }
  static const struct {
    int ts, meta;
  } bad[] = {{4, 0}, {4, 40}, {2, 17}, {3, 8}, {8, 0}, {1, -12}, {2, -17}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = bad[i].ts;
    memset(cp.filters, 0, sizeof cp.filters);
    cp.filters[5] = BLOSC_FILTER_INT_TRUNC;
    cp.filters_meta[5] = (uint8_t)(int8_t)bad[i].meta;
    blosc2_context *c = blosc2_create_cctx(cp);
    CHECK_EQ(blosc2_compress_ctx(c, g_src, 9000, g_chunk, sizeof g_chunk), -18,
             "int_trunc ts %d meta %d", bad[i].ts, bad[i].meta);
    blosc2_free_ctx(c);
  }
  blosc2_free_ctx(d);
}

int main(void) {
  blosc2_init();
  test_codec_registration();
  test_user_codec();
  test_filters();
  test_tuners();
  test_plugin_filters();
  blosc2_destroy();
  return tc_finish("chunkapi_register (" CA_VARIANT ")");
}
