/*
 * Chunk-API swap probe: special-value chunks, VL-block chunks, dictionaries, instrumentation
 * and getitem_bytes (see swap_probe.h).
 */
#include "swap_probe.h"

static uint8_t g_chunk[(1 << 20) + BLOSC2_MAX_OVERHEAD], g_out[1 << 20], g_src[1 << 20];

void sp_special(void) {
  static const int32_t typesizes[] = {1, 3, 4, 8, 16, 300};
  uint8_t val[300];
  for (int i = 0; i < 300; i++) val[i] = (uint8_t)(i * 7 + 1);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  for (size_t t = 0; t < sizeof typesizes / sizeof typesizes[0]; t++) {
    int32_t ts = typesizes[t], n = ts * 100;
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = ts;
    for (int kind = 0; kind < 4; kind++) {
      int cb = kind == 0   ? blosc2_chunk_zeros(cp, n, g_chunk, 4096)
               : kind == 1 ? blosc2_chunk_nans(cp, n, g_chunk, 4096)
               : kind == 2 ? blosc2_chunk_uninit(cp, n, g_chunk, 4096)
                           : blosc2_chunk_repeatval(cp, n, g_chunk, 4096, val);
      char label[64];
      snprintf(label, sizeof label, "special kind=%d ts=%d", kind, ts);
      sp_hash(label, g_chunk, cb);
      if (cb > 0) ca_hexline("  header:", g_chunk, 32);
      memset(g_out, 0xab, (size_t)n);
      int rc = blosc2_decompress_ctx(d, g_chunk, cb, g_out, n);
      sp_hash("  decompress", g_out, rc > 0 ? n : rc);
      memset(g_out, 0xab, 64);
      int start = ts > 255 ? 300 : 3, nitems = ts > 255 ? 300 : 5;
      rc = blosc2_getitem_ctx(d, g_chunk, cb, start, nitems, g_out, n);
      sp_hash("  getitem", g_out, rc);
      printf("  errors: dest-1=%d srcsize31=%d nitems0=%d past-end=%d\n",
             blosc2_decompress_ctx(d, g_chunk, cb, g_out, n - 1),
             blosc2_decompress_ctx(d, g_chunk, 31, g_out, n),
             blosc2_getitem_ctx(d, g_chunk, cb, n + 5, 0, g_out, n),
             blosc2_getitem_ctx(d, g_chunk, cb, n / (ts > 255 ? 1 : ts) - 1, 2, g_out, n));
    }
  }
  blosc2_free_ctx(d);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  double v = 3.25;
  blosc2_cparams bad = cp;
  bad.clevel = 10;
  blosc2_cparams big_ts = cp;
  big_ts.typesize = BLOSC2_MAXTYPESIZE + 1;
  blosc2_cparams bad_filter = cp;
  bad_filter.filters[0] = 7;
  int r[10];
  r[0] = blosc2_chunk_zeros(cp, 8000, g_chunk, 31);
  r[1] = blosc2_chunk_repeatval(cp, 8000, g_chunk, 39, &v);
  r[2] = blosc2_chunk_nans(cp, 8001, g_chunk, 64);
  r[3] = blosc2_chunk_uninit(cp, BLOSC2_MAX_BUFFERSIZE + 1, g_chunk, 64);
  r[4] = blosc2_chunk_repeatval(bad, 8000, g_chunk, 64, &v);
  r[5] = blosc2_chunk_zeros(big_ts, 0, g_chunk, 64);
  r[6] = blosc2_chunk_zeros(big_ts, 8000, g_chunk, 64);
  r[7] = blosc2_chunk_zeros(bad_filter, 8000, g_chunk, 64);
  r[8] = blosc2_chunk_zeros(cp, 0, g_chunk, 64);
  r[9] = blosc2_chunk_zeros(cp, 2147483608, g_chunk, 64);
  printf("special errors:");
  for (int i = 0; i < 10; i++) printf(" %d", r[i]);
  printf("\n");
  /* Automatic zero detection. */
  memset(g_src, 0, 100000);
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, g_src, 100000, g_chunk, sizeof g_chunk);
  ca_hexline("zero detection:", g_chunk, cb > 0 && cb <= 64 ? cb : 0);
  memset(g_src, 7, 100000);
  cb = blosc2_compress_ctx(c, g_src, 100000, g_chunk, sizeof g_chunk);
  ca_hexline("run chunk:", g_chunk, cb > 0 && cb <= 64 ? cb : 0);
  blosc2_free_ctx(c);
}

void sp_vlchunks(void) {
  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  enum { MAXB = 32 };
  const void *srcs[MAXB];
  int32_t sz[MAXB];
  for (int trial = 0; trial < 25; trial++) {
    tc_seed((uint64_t)trial + 100);
    int nb = 1 + (int)tc_rand_below(MAXB), ts = 1 << tc_rand_below(4), codec = codecs[trial % 5];
    int32_t pos = 0;
    for (int b = 0; b < nb; b++) {
      sz[b] = 1 + (int32_t)tc_rand_below(tc_rand_below(2) ? 8000 : 50);
      tc_fill(g_src + pos, (size_t)sz[b], (int)tc_rand_below(TC_NKINDS), (size_t)ts,
              (uint64_t)trial + (uint64_t)b);
      srcs[b] = g_src + pos;
      pos += sz[b];
    }
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = ts;
    cp.compcode = (uint8_t)codec;
    cp.clevel = (uint8_t)(1 + trial % 9);
    cp.filters[5] = (uint8_t)(trial % 3);
    cp.use_dict = codec == BLOSC_ZSTD && trial % 2;
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_vlcompress_ctx(c, srcs, sz, nb, g_chunk, pos + 4096);
    blosc2_free_ctx(c);
    printf("vl trial %d nb=%d ts=%d codec=%d: cb>32=%d", trial, nb, ts, codec, cb > 32);
    if (codec != BLOSC_BLOSCLZ)
      printf(" chunk %d %016llx", cb,
             (unsigned long long)tc_hash(g_chunk, (size_t)(cb > 0 ? cb : 0)));
    printf("\n");
    if (cb <= 32) {
      sp_bad = 1;
      continue;
    }
    printf(
        "  header: version=%d versionlz=%d flags=%02x ts=%d nbytes=%d nblocks=%d filters=%d,%d "
        "udcodec=%d flags2=%02x b31=%02x\n",
        g_chunk[0], g_chunk[1], g_chunk[2], g_chunk[3], ca_nbytes(g_chunk), ca_blocksize(g_chunk),
        g_chunk[20], g_chunk[21], g_chunk[22], g_chunk[30], g_chunk[31]);
    int32_t nblocks = -1;
    int rc = blosc2_vlchunk_get_nblocks(g_chunk, cb, &nblocks);
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    blosc2_context *d = blosc2_create_dctx(dp);
    void *dests[MAXB];
    int32_t dsz[MAXB];
    int nd = blosc2_vldecompress_ctx(d, g_chunk, cb, dests, dsz, MAXB);
    int same = nd == nb;
    for (int b = 0; b < nd; b++) {
      same = same && dsz[b] == sz[b] && memcmp(dests[b], srcs[b], (size_t)sz[b]) == 0;
      free(dests[b]);
    }
    printf("  nblocks rc=%d n=%d vldecompress=%d %s\n", rc, nblocks, nd,
           same ? "same" : "DIFFERENT");
    if (!same) sp_bad = 1;
    uint8_t *p = NULL;
    int32_t psz = 0;
    rc = blosc2_vldecompress_block_ctx(d, g_chunk, cb, nb - 1, &p, &psz);
    sp_roundtrip("  last block", rc, p, srcs[nb - 1], sz[nb - 1]);
    free(p);
    sp_roundtrip("  concatenation", blosc2_decompress_ctx(d, g_chunk, cb, g_out, pos), g_out, g_src,
                 pos);
    printf("  getitem=%d block -1=%d block nb=%d maxblocks-1=%d small dest=%d\n",
           blosc2_getitem_ctx(d, g_chunk, cb, 0, 1, g_out, 100),
           blosc2_vldecompress_block_ctx(d, g_chunk, cb, -1, &p, &psz),
           blosc2_vldecompress_block_ctx(d, g_chunk, cb, nb, &p, &psz),
           nb > 1 ? blosc2_vldecompress_ctx(d, g_chunk, cb, dests, dsz, nb - 1) : -12,
           blosc2_decompress_ctx(d, g_chunk, cb, g_out, pos - 1));
    blosc2_free_ctx(d);
  }
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  blosc2_context *c = blosc2_create_cctx(cp);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  const int32_t zero[2] = {10, 0}, huge[2] = {1 << 30, 1 << 30};
  int r[8];
  r[0] = blosc2_vlcompress_ctx(d, srcs, sz, 2, g_chunk, 4096);
  r[1] = blosc2_vlcompress_ctx(c, srcs, sz, 0, g_chunk, 4096);
  r[2] = blosc2_vlcompress_ctx(c, srcs, zero, 2, g_chunk, 4096);
  r[3] = blosc2_vlcompress_ctx(c, NULL, sz, 2, g_chunk, 4096);
  r[4] = blosc2_vlcompress_ctx(c, srcs, sz, 2, g_chunk, 31);
  r[5] = blosc2_vlcompress_ctx(c, srcs, huge, 2, g_chunk, 4096);
  int cb = blosc2_compress_ctx(c, g_src, 1000, g_chunk, 2000);
  int32_t nb = -7;
  r[6] = blosc2_vlchunk_get_nblocks(g_chunk, cb, &nb);
  r[7] = blosc2_vlchunk_get_nblocks(g_chunk, 15, &nb);
  printf("vl errors:");
  for (int i = 0; i < 8; i++) printf(" %d", r[i]);
  printf(" nb=%d\n", nb);
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
}

void sp_dict(void) {
  static const int codecs[] = {BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZSTD};
  int32_t n = 1 << 20;
  for (int k = 0; k < 3; k++) {
    for (int kind = 0; kind < 2; kind++) {
      tc_fill(g_src, (size_t)n, kind ? TC_FLOATS : TC_TEXT, 4, 3);
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.compcode = (uint8_t)codecs[k];
      cp.use_dict = 1;
      cp.typesize = 4;
      blosc2_context *c = blosc2_create_cctx(cp);
      int small = blosc2_compress_ctx(c, g_src, n, g_chunk, n + 31);
      int cb = blosc2_compress_ctx(c, g_src, n, g_chunk, n + 32);
      blosc2_free_ctx(c);
      printf("dict codec=%d kind=%d: dest n+31 -> %d; flags=%02x b31=%02x dictsize=%d\n", codecs[k],
             kind, small, g_chunk[2], g_chunk[31], tc_rd32(g_chunk + 48));
      sp_hash("  chunk", g_chunk, cb);
      blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
      dp.nthreads = 3;
      blosc2_context *d = blosc2_create_dctx(dp);
      sp_roundtrip("  decompress", blosc2_decompress_ctx(d, g_chunk, cb, g_out, n), g_out, g_src,
                   n);
      int rc = blosc2_getitem_ctx(d, g_chunk, cb, 100000, 1000, g_out, n);
      sp_roundtrip("  getitem after decompress", rc, g_out, g_src + 400000, 4000);
      blosc2_free_ctx(d);
    }
  }
  tc_fill(g_src, (size_t)n, TC_TEXT, 1, 3);
  static const int32_t sizes[] = {1000, 5000, 10000, 100000};
  for (int i = 0; i < 4; i++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = BLOSC_ZSTD;
    cp.use_dict = 1;
    cp.typesize = 1;
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_compress_ctx(c, g_src, sizes[i], g_chunk, n);
    blosc2_free_ctx(c);
    printf("dict zstd n=%d: cb=%d b31=%02x\n", sizes[i], cb, g_chunk[31]);
  }
  int r[3];
  for (int k = 0; k < 3; k++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = (uint8_t)(k == 0 ? BLOSC_BLOSCLZ : BLOSC_ZLIB);
    cp.use_dict = 1;
    cp.clevel = (uint8_t)(k == 2 ? 0 : 5);
    blosc2_context *c = blosc2_create_cctx(cp);
    r[k] = blosc2_compress_ctx(c, g_src, 10000, g_chunk, n);
    blosc2_free_ctx(c);
  }
  printf("dict errors: blosclz=%d zlib=%d zlib-clevel0=%d\n", r[0], r[1], r[2]);
}

void sp_instr(void) {
  static const struct {
    int32_t n;
    int ts, codec, split, bs, kind;
  } cases[] = {{100000, 4, BLOSC_LZ4, 4, 0, TC_FLOATS},   {1000000, 4, BLOSC_ZSTD, 4, 0, TC_FLOATS},
               {10003, 4, BLOSC_LZ4, 4, 1000, TC_FLOATS}, {100000, 4, BLOSC_LZ4HC, 2, 0, TC_RANDOM},
               {100000, 4, BLOSC_LZ4, 4, 0, TC_ZEROS},    {100000, 4, BLOSC_LZ4, 4, 0, TC_CONST}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_fill(g_src, (size_t)cases[i].n, cases[i].kind, (size_t)cases[i].ts, 1);
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = cases[i].ts;
    cp.compcode = (uint8_t)cases[i].codec;
    cp.splitmode = cases[i].split;
    cp.blocksize = cases[i].bs;
    cp.instr_codec = true;
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_compress_ctx(c, g_src, cases[i].n, g_chunk, cases[i].n + 100000);
    blosc2_free_ctx(c);
    printf("instr case %zu: cb=%d nbytes=%d blocksize=%d flags=%02x b31=%02x\n", i, cb,
           ca_nbytes(g_chunk), ca_blocksize(g_chunk), g_chunk[2], g_chunk[31]);
    int rc = blosc2_decompress(g_chunk, cb, g_out, sizeof g_out);
    printf("  decompress=%d records:", rc);
    for (int r = 0; r < rc / 16 && r < 16; r++) {
      blosc2_instr rec;
      memcpy(&rec, g_out + 16 * r, sizeof rec);
      printf(" %.6g/%d", rec.cratio, rec.flags[0]);
    }
    printf("\n");
  }
}

void sp_getitem_bytes(void) {
  tc_fill(g_src, 10000, TC_RAMP, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, g_src, 10000, g_chunk, sizeof g_chunk);
  blosc2_free_ctx(c);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  static const int32_t cases[][2] = {{0, 8},     {4, 8},     {2, 8},  {-4, 8},    {9996, 4},
                                     {10000, 0}, {10004, 4}, {0, -4}, {0, 10001}, {0, 6}};
  printf("getitem_bytes:");
  for (int i = 0; i < 10; i++) {
    int rc = blosc2_getitem_bytes_ctx(d, g_chunk, cb, cases[i][0], cases[i][1], g_out, 10000);
    int same = rc <= 0 || memcmp(g_out, g_src + cases[i][0], (size_t)rc) == 0;
    printf(" %d%s", rc, same ? "" : "!");
    if (!same) sp_bad = 1;
  }
  printf(" dest4=%d\n", blosc2_getitem_bytes_ctx(d, g_chunk, cb, 0, 8, g_out, 4));
  blosc2_free_ctx(d);
}
