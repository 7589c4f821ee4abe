/*
 * Chunk-API swap probe: prefilter / postfilter / maskout, registration of codecs, filters and
 * tuners, plugin filters and environment variables (see swap_probe.h).
 */
#include "swap_probe.h"

static const uint8_t *g_src, *g_chunkp;
static uint8_t *g_dest;
static int32_t g_n;

/* Where a pointer handed to a callback points, relative to the known buffers. */
static void where(char *buf, size_t len, const void *p, const uint8_t *ttmp, size_t tn) {
  const uint8_t *q = p;
  if (q >= g_src && q < g_src + g_n)
    snprintf(buf, len, "src+%ld", (long)(q - g_src));
  else if (q >= g_dest && q <= g_dest + g_n)
    snprintf(buf, len, "dest+%ld", (long)(q - g_dest));
  else if (q >= g_chunkp && q <= g_chunkp + g_n + 64)
    snprintf(buf, len, "chunk+%ld", (long)(q - g_chunkp));
  else if (ttmp && q >= ttmp && q <= ttmp + tn)
    snprintf(buf, len, "ttmp+%ld/%zu", (long)(q - ttmp), tn / 4);
  else
    snprintf(buf, len, "other");
}

static int g_rc, g_quiet;

static int prefilter(blosc2_prefilter_params *p) {
  char in[48], out[48];
  where(in, sizeof in, p->input, p->ttmp, p->ttmp_nbytes);
  where(out, sizeof out, p->output, p->ttmp, p->ttmp_nbytes);
  printf(
      "  pre nblock=%d size=%d ts=%d offset=%d nchunk=%lld tid=%d ttmp_nbytes=%zu in=%s out=%s "
      "disposable=%d user_data=%s\n",
      p->nblock, p->output_size, p->output_typesize, p->output_offset, (long long)p->nchunk, p->tid,
      p->ttmp_nbytes, in, out, p->output_is_disposable, p->user_data == &g_rc ? "ok" : "other");
  for (int32_t i = 0; i < p->output_size; i++) p->output[i] = (uint8_t)(p->input[i] + 1);
  return g_rc;
}

static int postfilter(blosc2_postfilter_params *p) {
  char in[48], out[48];
  where(in, sizeof in, p->input, p->ttmp, p->ttmp_nbytes);
  where(out, sizeof out, p->output, p->ttmp, p->ttmp_nbytes);
  printf(
      "  post nblock=%d size=%d ts=%d offset=%d nchunk=%lld tid=%d ttmp_nbytes=%zu in=%s out=%s\n",
      p->nblock, p->size, p->typesize, p->offset, (long long)p->nchunk, p->tid, p->ttmp_nbytes, in,
      out);
  for (int32_t i = 0; i < p->size; i++) p->output[i] = (uint8_t)(p->input[i] * 2);
  return g_rc;
}

static void filter_case(const char *what, int32_t n, int ts, int clevel, int bs, bool disposable) {
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64),
          *out = tc_malloc((size_t)n);
  tc_fill(src, (size_t)n, TC_RAMP, (size_t)ts, 1);
  g_src = src;
  g_chunkp = chunk;
  g_dest = out;
  g_n = n;
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  pp.user_data = &g_rc;
  pp.output_is_disposable = disposable;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = ts;
  cp.compcode = BLOSC_LZ4;
  cp.clevel = (uint8_t)clevel;
  cp.blocksize = bs;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  printf("filters %s:\n", what);
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
  blosc2_free_ctx(c);
  printf("  compress=%d flags=%02x b31=%02x\n", cb, cb > 0 ? chunk[2] : 0, cb > 0 ? chunk[31] : 0);
  blosc2_postfilter_params qp;
  memset(&qp, 0, sizeof qp);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.postfilter = postfilter;
  dp.postparams = &qp;
  blosc2_context *d = blosc2_create_dctx(dp);
  int rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
  sp_hash("  decompress", out, rc > 0 ? n : rc);
  blosc2_free_ctx(d);
  d = blosc2_create_dctx(dp);
  int first = n > 2 * (bs ? bs : n) ? (bs - 8) / (ts > 255 ? 1 : ts) : 1;
  rc = blosc2_getitem_ctx(d, chunk, cb, first, 4, out, n);
  sp_hash("  getitem", out, rc);
  g_rc = -5;
  printf("  failing postfilter: decompress=%d getitem=%d\n",
         blosc2_decompress_ctx(d, chunk, cb, out, n),
         blosc2_getitem_ctx(d, chunk, cb, 0, 1, out, n));
  blosc2_free_ctx(d);
  c = blosc2_create_cctx(cp);
  printf("  failing prefilter: compress=%d\n", blosc2_compress_ctx(c, src, n, chunk, n + 64));
  g_rc = 0;
  blosc2_free_ctx(c);
  free(src);
  free(chunk);
  free(out);
}

/* A super-chunk created with a prefilter and a postfilter runs them on its own chunks and
 * tells them the chunk number. */
static void schunk_case(void) {
  int32_t n = 8000;
  uint8_t *src = tc_malloc((size_t)n), *out = tc_malloc((size_t)n);
  tc_fill(src, (size_t)n, TC_RAMP, 4, 5);
  g_src = src;
  g_chunkp = NULL;
  g_dest = out;
  g_n = n;
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  pp.user_data = &g_rc;
  blosc2_postfilter_params qp;
  memset(&qp, 0, sizeof qp);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 4000;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.postfilter = postfilter;
  dp.postparams = &qp;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  printf("filters schunk:\n");
  blosc2_schunk *s = blosc2_schunk_new(&st);
  for (int k = 0; k < 2; k++) printf("  append=%lld\n", (long long)blosc2_schunk_append_buffer(s, src, n));
  for (int k = 1; k >= 0; k--) {
    int rc = blosc2_schunk_decompress_chunk(s, k, out, n);
    sp_hash("  decompress_chunk", out, rc > 0 ? n : rc);
  }
  blosc2_schunk_free(s);
  free(src);
  free(out);
}

void sp_filters(void) {
  filter_case("1 block", 100000, 4, 5, 0, false);
  filter_case("10 blocks", 10000, 4, 5, 1000, false);
  filter_case("ts 1", 10000, 1, 5, 1000, false);
  filter_case("ts 300", 10000, 300, 5, 0, false);
  filter_case("memcpy", 10000, 4, 0, 3000, false);
  filter_case("20 bytes", 20, 4, 5, 0, false);
  filter_case("disposable", 4000, 4, 5, 1000, true);
  schunk_case();

  /* Maskout. */
  int32_t n = 8000;
  uint8_t src[8000], chunk[8200], out[8000];
  tc_fill(src, (size_t)n, TC_RAMP, 4, 3);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 2000;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, sizeof chunk);
  blosc2_free_ctx(c);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  bool m[4] = {false, true, false, true};
  int r[6];
  r[0] = blosc2_set_maskout(d, m, 4);
  memset(out, 0xee, sizeof out);
  r[1] = blosc2_decompress_ctx(d, chunk, cb, out, n);
  sp_hash("maskout decompress", out, n);
  r[2] = blosc2_decompress_ctx(d, chunk, cb, out, n);
  sp_hash("maskout consumed", out, n);
  r[3] = blosc2_set_maskout(d, m, 3);
  r[4] = blosc2_decompress_ctx(d, chunk, cb, out, n);
  blosc2_set_maskout(d, m, 4);
  r[5] = blosc2_getitem_ctx(d, chunk, cb, 10, 10, out, n);
  memset(out, 0xee, sizeof out);
  blosc2_decompress_ctx(d, chunk, cb, out, n);
  sp_hash("maskout after getitem", out, n);
  printf("maskout codes:");
  for (int i = 0; i < 6; i++) printf(" %d", r[i]);
  printf("\n");
  blosc2_free_ctx(d);
}

/* ---- registration ----------------------------------------------------------------------- */

static int rle_encode(const uint8_t *in, int32_t inlen, uint8_t *out, int32_t outlen, uint8_t meta,
                      blosc2_cparams *cparams, const void *chunk) {
  printf(
      "  encoder inlen=%d outlen=%d meta=%d compcode=%d compcode_meta=%d clevel=%d ts=%d bs=%d "
      "split=%d chunk=%s\n",
      inlen, outlen, meta, cparams->compcode, cparams->compcode_meta, cparams->clevel,
      cparams->typesize, cparams->blocksize, cparams->splitmode, chunk == g_src ? "src" : "other");
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
  printf("  decoder inlen=%d outlen=%d meta=%d nthreads=%d ts=%d chunk=%s\n", inlen, outlen, meta,
         dparams->nthreads, dparams->typesize, chunk == g_chunkp ? "chunk" : "other");
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
  if (!g_quiet)
    printf("  forward size=%d meta=%d id=%d ts=%d\n", size, meta, id, cparams->typesize);
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return 0;
}

static int xor_backward(const uint8_t *src, uint8_t *dest, int32_t size, uint8_t meta,
                        blosc2_dparams *dparams, uint8_t id) {
  printf("  backward size=%d meta=%d id=%d ts=%d\n", size, meta, id, dparams->typesize);
  for (int32_t i = 0; i < size; i++) dest[i] = src[i] ^ meta;
  return 0;
}

void sp_register(void) {
  blosc2_codec codec;
  memset(&codec, 0, sizeof codec);
  codec.compname = "swaprle";
  codec.complib = 7;
  codec.version = 3;
  codec.encoder = rle_encode;
  codec.decoder = rle_decode;
  printf("register codec:");
  static const int ids[] = {0, 32, 159, 200, 200, 160, 255};
  for (int i = 0; i < 7; i++) {
    codec.compcode = (uint8_t)ids[i];
    printf(" %d->%d", ids[i], blosc2_register_codec(&codec));
  }
  codec.compcode = 200;
  codec.compname = "other";
  printf(" 200/other->%d\n", blosc2_register_codec(&codec));
  const char *name = NULL;
  int rc = blosc2_compcode_to_compname(200, &name);
  char *lib = NULL, *ver = NULL;
  int info = blosc2_get_complib_info("swaprle", &lib, &ver);
  printf("names: 200->%d %s; swaprle->%d; complib_info=%d %s %s; set_compressor=%d\n", rc,
         name ? name : "(null)", blosc2_compname_to_compcode("swaprle"), info, lib ? lib : "(null)",
         ver ? ver : "(null)", blosc1_set_compressor("swaprle"));
  free(lib);
  free(ver);

  static uint8_t src[10000], chunk[12000], out[10000];
  for (int i = 0; i < 10000; i++) src[i] = (uint8_t)(i / 100);
  g_src = src;
  g_chunkp = chunk;
  g_dest = out;
  g_n = 10000;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = 200;
  cp.compcode_meta = 0x5a;
  cp.typesize = 4;
  cp.blocksize = 4000;
  cp.clevel = 7;
  printf("user codec:\n");
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk);
  blosc2_free_ctx(c);
  sp_hash("  chunk", chunk, cb);
  const char *complib = blosc2_cbuffer_complib(chunk);
  printf("  complib=%s\n", complib ? complib : "(null)");
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  sp_roundtrip("  decompress", blosc2_decompress_ctx(d, chunk, cb, out, 10000), out, src, 10000);
  chunk[22] = 230;
  printf("  unknown udcodec: %d\n", blosc2_decompress_ctx(d, chunk, cb, out, 10000));

  blosc2_filter filter;
  memset(&filter, 0, sizeof filter);
  filter.name = "swapxor";
  filter.version = 1;
  filter.forward = xor_forward;
  filter.backward = xor_backward;
  printf("register filter:");
  static const int fids[] = {0, 5, 35, 159, 210, 210};
  for (int i = 0; i < 6; i++) {
    filter.id = (uint8_t)fids[i];
    printf(" %d->%d", fids[i], blosc2_register_filter(&filter));
  }
  blosc2_tuner tuner;
  memset(&tuner, 0, sizeof tuner);
  tuner.name = "swaptuner";
  printf("\nregister tuner:");
  static const int tids[] = {0, 32, 159, 200, 200};
  for (int i = 0; i < 5; i++) {
    tuner.id = tids[i];
    printf(" %d->%d", tids[i], blosc2_register_tuner(&tuner));
  }
  printf("\nuser filter:\n");
  tc_fill(src, 10000, TC_RAMP, 4, 1);
  cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.compcode = BLOSC_LZ4;
  cp.blocksize = 4000;
  cp.filters[2] = 210;
  cp.filters_meta[2] = 0x33;
  c = blosc2_create_cctx(cp);
  cb = blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk);
  blosc2_free_ctx(c);
  sp_hash("  chunk", chunk, cb);
  sp_roundtrip("  decompress", blosc2_decompress_ctx(d, chunk, cb, out, 10000), out, src, 10000);

  g_quiet = 1;
  printf("filter ids: create_cctx NULL for");
  for (int id = 0; id < 256; id++) {
    blosc2_cparams q = BLOSC2_CPARAMS_DEFAULTS;
    q.filters[0] = (uint8_t)id;
    blosc2_context *x = blosc2_create_cctx(q);
    if (!x) {
      printf(" %d", id);
      continue;
    }
    if (blosc2_compress_ctx(x, src, 10000, chunk, sizeof chunk) == -18) printf(" [%d:-18]", id);
    blosc2_free_ctx(x);
  }
  printf("\n");
  g_quiet = 0;

  static const struct {
    int filter, meta, ts, codec;
  } plugins[] = {{35, 4, 4, BLOSC_LZ4},   {35, 8, 8, BLOSC_ZSTD}, {35, 0, 4, BLOSC_LZ4},
                 {36, -5, 4, BLOSC_ZSTD}, {36, 12, 8, BLOSC_LZ4}, {36, 0, 4, BLOSC_LZ4}};
  for (size_t i = 0; i < sizeof plugins / sizeof plugins[0]; i++) {
    tc_fill(src, 10000, TC_FLOATS, (size_t)plugins[i].ts, 5);
    cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = plugins[i].ts;
    cp.compcode = (uint8_t)plugins[i].codec;
    memset(cp.filters, 0, sizeof cp.filters);
    cp.filters[4] = BLOSC_SHUFFLE;
    cp.filters[5] = (uint8_t)plugins[i].filter;
    cp.filters_meta[5] = (uint8_t)(int8_t)plugins[i].meta;
    c = blosc2_create_cctx(cp);
    cb = blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk);
    blosc2_free_ctx(c);
    char label[64];
    snprintf(label, sizeof label, "plugin filter %d meta %d ts %d", plugins[i].filter,
             plugins[i].meta, plugins[i].ts);
    sp_hash(label, chunk, cb);
    rc = cb > 0 ? blosc2_decompress_ctx(d, chunk, cb, out, 10000) : cb;
    sp_hash("  decoded", out, rc > 0 ? 10000 : rc);
  }
  blosc2_free_ctx(d);
}

/* ---- environment variables ---------------------------------------------------------------- */

static void env_line(const char *what, int rc, const uint8_t *chunk) {
  printf("env %s: rc>0=%d", what, rc > 0);
  if (rc <= 0) {
    printf(" rc=%d\n", rc);
    return;
  }
  printf(" hdr");
  for (int i = 0; i < 32; i++)
    if (i < 12 || i >= 16) printf(" %02x", chunk[i]);
  printf("\n");
}

void sp_env(void) {
  static const char *cases[][2] = {{"BLOSC_CLEVEL", "9"},          {"BLOSC_CLEVEL", "0"},
                                   {"BLOSC_CLEVEL", "abc"},        {"BLOSC_CLEVEL", "12"},
                                   {"BLOSC_SHUFFLE", "NOSHUFFLE"}, {"BLOSC_SHUFFLE", "BITSHUFFLE"},
                                   {"BLOSC_DELTA", "1"},           {"BLOSC_TYPESIZE", "8"},
                                   {"BLOSC_TYPESIZE", "300"},      {"BLOSC_COMPRESSOR", "lz4"},
                                   {"BLOSC_COMPRESSOR", "LZ4"},    {"BLOSC_COMPRESSOR", "ndlz"},
                                   {"BLOSC_BLOCKSIZE", "16384"},   {"BLOSC_NTHREADS", "3"},
                                   {"BLOSC_SPLITMODE", "NEVER"},   {"BLOSC_SPLITMODE", "ALWAYS"},
                                   {"BLOSC_NOLOCK", "1"}};
  int32_t n = 400000;
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64);
  tc_fill(src, (size_t)n, TC_FLOATS, 4, 1);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    blosc1_set_compressor("blosclz");
    blosc2_set_delta(0);
    blosc1_set_blocksize(0);
    blosc2_set_nthreads(1);
    blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT);
    setenv(cases[i][0], cases[i][1], 1);
    char what[80];
    snprintf(what, sizeof what, "%s=%s global", cases[i][0], cases[i][1]);
    env_line(what, blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 64), chunk);
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    blosc2_context *c = blosc2_create_cctx(cp);
    snprintf(what, sizeof what, "%s=%s context", cases[i][0], cases[i][1]);
    if (c) {
      env_line(what, blosc2_compress_ctx(c, src, n, chunk, n + 64), chunk);
      blosc2_cparams got;
      blosc2_ctx_get_cparams(c, &got);
      printf("  ctx compcode=%d clevel=%d ts=%d nthreads=%d split=%d\n", got.compcode, got.clevel,
             got.typesize, got.nthreads, got.splitmode);
      blosc2_free_ctx(c);
    } else {
      printf("env %s: NULL\n", what);
    }
    unsetenv(cases[i][0]);
    const char *comp = blosc1_get_compressor();
    printf("  after: compressor=%s blocksize=%d nthreads=%d\n", comp ? comp : "(null)",
           blosc1_get_blocksize(), blosc2_get_nthreads());
  }
  blosc1_set_compressor("blosclz");
  blosc2_set_nthreads(1);
  blosc1_set_blocksize(0);
  blosc2_set_delta(0);
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 64);
  static const char *nthreads[] = {"0", "abc", "2"};
  uint8_t *out = tc_malloc((size_t)n);
  for (int i = 0; i < 3; i++) {
    setenv("BLOSC_NTHREADS", nthreads[i], 1);
    int rc = blosc2_decompress(chunk, cb, out, n);
    unsetenv("BLOSC_NTHREADS");
    printf("env BLOSC_NTHREADS=%s decompress=%d nthreads after=%d\n", nthreads[i], rc,
           blosc2_get_nthreads());
    blosc2_set_nthreads(1);
  }
  setenv("BLOSC_BLOSC1_COMPAT", "1", 1);
  int rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 64);
  printf("env BLOSC1_COMPAT: rc=plain-16:%d", rc == cb - 16);
  ca_hexline(" hdr:", chunk, 12);
  rc = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, 20, chunk, n + 64);
  printf("env BLOSC1_COMPAT 20 bytes rc=%d", rc);
  ca_hexline(":", chunk, rc > 0 ? rc : 0);
  unsetenv("BLOSC_BLOSC1_COMPAT");
  free(src);
  free(chunk);
  free(out);
}
