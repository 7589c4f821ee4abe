/*
 * Header/info functions, global setters and getters, defaults, error strings, timing and
 * the standalone shuffle kernels, with the values documented for c-blosc2 3.3.5
 * (shared/reference/API.md and BEHAVIOUR.md: measured header bytes, blocksizes, flags).
 */
#include <blosc2.h>
#include <time.h>

#include "test_common.h"

static uint8_t src[1 << 22], chunk[(1 << 22) + 64], out[(1 << 22) + 64];

static int compress_with(int codec, int clevel, int32_t ts, int split, int filter, int32_t n,
                         const void *data, void *dest, int32_t destsize) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  cp.splitmode = split;
  memset(cp.filters, 0, sizeof cp.filters);
  cp.filters[5] = (uint8_t)filter;
  blosc2_context *c = blosc2_create_cctx(cp);
  int rc = blosc2_compress_ctx(c, data, n, dest, destsize);
  blosc2_free_ctx(c);
  return rc;
}

static void check_names_and_versions(void) {
  CHECK(strcmp(blosc2_get_version_string(), "3.3.5") == 0, "version string %s",
        blosc2_get_version_string());
  CHECK(strcmp(blosc2_list_compressors(), "blosclz,lz4,lz4hc,zlib,zstd") == 0,
        "list_compressors %s", blosc2_list_compressors());
  static const char *names[] = {"blosclz", "lz4", "lz4hc", NULL, "zlib", "zstd"};
  for (int code = 0; code <= 5; code++) {
    const char *name = (const char *)"sentinel";
    int rc = blosc2_compcode_to_compname(code, &name);
    if (names[code]) {
      CHECK_EQ(rc, code, "compcode %d", code);
      CHECK(name && strcmp(name, names[code]) == 0, "compname of %d", code);
      CHECK_EQ(blosc2_compname_to_compcode(names[code]), code, "%s", names[code]);
    } else {
      CHECK_EQ(rc, -1, "compcode %d", code);
      CHECK(name == NULL, "compname of unassigned code %d not NULL", code);
    }
  }
  const char *name = "x";
  CHECK_EQ(blosc2_compcode_to_compname(6, &name), -1, "%s", "code 6");
  CHECK_EQ(blosc2_compcode_to_compname(255, &name), -1, "%s", "code 255");
  CHECK_EQ(blosc2_compname_to_compcode("LZ4"), -1, "%s", "names are case-sensitive");
  CHECK_EQ(blosc2_compname_to_compcode("bogus"), -1, "%s", "bogus");
  CHECK_EQ(blosc2_compname_to_compcode(""), -1, "%s", "empty");
  /* Plugin codecs registered by blosc2_init. */
  static const char *plugins[] = {"ndlz", "zfp_acc", "zfp_prec", "zfp_rate", "openhtj2k",
                                  "grok", "openzl", "j2k", "htj2k"};
  for (int i = 0; i < 9; i++) {
    CHECK_EQ(blosc2_compname_to_compcode(plugins[i]), 32 + i, "%s", plugins[i]);
    const char *pn = NULL;
    CHECK_EQ(blosc2_compcode_to_compname(32 + i, &pn), 32 + i, "%s", plugins[i]);
    CHECK(pn && strcmp(pn, plugins[i]) == 0, "plugin name %d", 32 + i);
  }

  static const struct {
    const char *name, *lib, *version;
    int code;
  } libs[] = {{"blosclz", "BloscLZ", "2.5.3", 0}, {"lz4", "LZ4", "1.10.0", 1},
              {"lz4hc", "LZ4", "1.10.0", 1},      {"zlib", "Zlib", "2.3.3", 3},
              {"zstd", "Zstd", "1.5.7", 4}};
  for (int i = 0; i < 5; i++) {
    char *lib = NULL, *ver = NULL;
    int rc = blosc2_get_complib_info(libs[i].name, &lib, &ver);
    CHECK_EQ(rc, libs[i].code, "complib of %s", libs[i].name);
    CHECK(lib && strcmp(lib, libs[i].lib) == 0, "complib name of %s: %s", libs[i].name,
          lib ? lib : "(null)");
#ifdef BLOSC2_VARIANT_REFERENCE
    CHECK(ver && strcmp(ver, libs[i].version) == 0, "complib version of %s: %s", libs[i].name,
          ver ? ver : "(null)");
#else
    /* Our bundled codec versions may differ from the reference's: require "X.Y.Z", except
     * for BloscLZ whose version names the format we implement. */
    int a, b, c;
    CHECK(ver && sscanf(ver, "%d.%d.%d", &a, &b, &c) == 3, "complib version of %s: %s",
          libs[i].name, ver ? ver : "(null)");
    if (i == 0) CHECK(ver && strcmp(ver, "2.5.3") == 0, "BloscLZ version %s", ver ? ver : "");
#endif
    free(lib);
    free(ver);
  }
}

static void check_error_strings(void) {
  static const char *texts[] = {"Unknown error",
                                "Generic failure",
                                "Bad stream",
                                "Invalid data",
                                "Memory alloc/realloc failure",
                                "Not enough space to read",
                                "Not enough space to write",
                                "Codec not supported",
                                "Invalid parameter supplied to codec",
                                "Codec dictionary error",
                                "Version not supported",
                                "Invalid value in header",
                                "Invalid parameter supplied to function",
                                "File read failure",
                                "File write failure",
                                "File open failure",
                                "Not found",
                                "Bad run length encoding",
                                "Filter pipeline error",
                                "Chunk insert failure",
                                "Chunk append failure",
                                "Chunk update failure",
                                "Sizes larger than 2gb not supported",
                                "Super-chunk copy failure",
                                "Wrong type for frame",
                                "File truncate failure",
                                "Thread or thread context creation failure",
                                "Postfilter failure",
                                "Special frame failure",
                                "Special super-chunk failure",
                                "IO plugin error",
                                "Remove file failure",
                                "Pointer is null",
                                "Invalid index",
                                "Metalayer has not been found",
                                "Maximum buffersize exceeded",
                                "Tuner failure",
                                "Frame lock failure"};
  for (int i = 0; i <= 37; i++) {
    const char *s = blosc2_error_string(-i);
    CHECK(s && strcmp(s, texts[i]) == 0, "error_string(%d) = %s", -i, s ? s : "(null)");
  }
  int others[] = {1, 5, -38, -100, 1000000, -2147483647};
  for (int i = 0; i < 6; i++) {
    const char *s = blosc2_error_string(others[i]);
    CHECK(s && strcmp(s, "Unknown error") == 0, "error_string(%d)", others[i]);
  }
}

static void check_defaults(void) {
  blosc2_cparams c = blosc2_get_blosc2_cparams_defaults();
  blosc2_cparams hc = BLOSC2_CPARAMS_DEFAULTS;
  CHECK(c.compcode == 0 && c.compcode_meta == 0 && c.clevel == 5 && c.use_dict == 0 &&
            c.typesize == 8 && c.nthreads == 1 && c.blocksize == 0 && c.splitmode == 4 &&
            c.schunk == NULL && c.prefilter == NULL && c.preparams == NULL &&
            c.tuner_params == NULL && c.tuner_id == 0 && c.instr_codec == false &&
            c.codec_params == NULL,
        "%s", "cparams defaults scalars");
  for (int i = 0; i < 6; i++) {
    CHECK_EQ(c.filters[i], i == 5 ? BLOSC_SHUFFLE : 0, "filters[%d]", i);
    CHECK_EQ(c.filters_meta[i], 0, "filters_meta[%d]", i);
    CHECK(c.filter_params[i] == NULL, "filter_params[%d]", i);
    CHECK_EQ(hc.filters[i], c.filters[i], "header filters[%d]", i);
  }
  CHECK(hc.compcode == c.compcode && hc.clevel == c.clevel && hc.typesize == c.typesize &&
            hc.nthreads == c.nthreads && hc.splitmode == c.splitmode,
        "%s", "header and library cparams defaults differ");
  blosc2_dparams d = blosc2_get_blosc2_dparams_defaults();
  CHECK(d.nthreads == 1 && d.schunk == NULL && d.postfilter == NULL && d.postparams == NULL &&
            d.typesize == 8,
        "%s", "dparams defaults");
  blosc2_storage s = blosc2_get_blosc2_storage_defaults();
  CHECK(!s.contiguous && !s.urlpath && !s.cparams && !s.dparams && !s.io, "%s",
        "storage defaults");
  blosc2_io io = blosc2_get_blosc2_io_defaults();
  CHECK(io.id == BLOSC2_IO_FILESYSTEM && io.name && strcmp(io.name, "filesystem") == 0 &&
            io.params == NULL,
        "%s", "io defaults");
  blosc2_stdio_mmap m = blosc2_get_blosc2_stdio_mmap_defaults();
  CHECK(m.mode && strcmp(m.mode, "r") == 0 && m.initial_mapping_size == ((int64_t)1 << 30) &&
            !m.needs_free && m.addr == NULL && m.urlpath == NULL && m.file_size == 0 &&
            m.mapping_size == 0 && !m.is_memory_only && m.file == NULL && m.fd == -1 &&
            m.access_flags == -1 && m.map_flags == -1,
        "%s", "mmap defaults");
}

static void check_global_setters(void) {
  blosc2_init();
  CHECK_EQ(blosc2_free_resources(), 0, "%s", "free_resources after init");
  int16_t prev = blosc2_set_nthreads(3);
  CHECK_EQ(prev, 1, "%s", "initial nthreads");
  CHECK_EQ(blosc2_get_nthreads(), 3, "%s", "get_nthreads");
  CHECK_EQ(blosc2_set_nthreads(0), BLOSC2_ERROR_INVALID_PARAM, "%s", "nthreads 0");
  CHECK_EQ(blosc2_set_nthreads(-2), BLOSC2_ERROR_INVALID_PARAM, "%s", "nthreads -2");
  CHECK_EQ(blosc2_get_nthreads(), 3, "%s", "unchanged after invalid");
  CHECK_EQ(blosc2_set_nthreads(1), 3, "%s", "previous value returned");

  CHECK(strcmp(blosc1_get_compressor(), "blosclz") == 0, "%s", "default compressor");
  CHECK_EQ(blosc1_set_compressor("zstd"), BLOSC_ZSTD, "%s", "set zstd");
  CHECK(strcmp(blosc1_get_compressor(), "zstd") == 0, "%s", "get zstd");
  CHECK_EQ(blosc1_set_compressor("ndlz"), BLOSC2_ERROR_CODEC_SUPPORT, "%s", "plugin");
  CHECK(strcmp(blosc1_get_compressor(), "zstd") == 0, "%s", "plugin keeps previous");
  CHECK_EQ(blosc1_set_compressor("bogus"), -1, "%s", "bogus");
  CHECK(blosc1_get_compressor() == NULL, "%s", "bogus compressor stored as -1");
  tc_fill(src, 10000, TC_RAMP, 4, 1);
  CHECK_EQ(blosc2_compress(5, 1, 4, src, 10000, chunk, 10032), BLOSC2_ERROR_CODEC_SUPPORT, "%s",
           "compress with compressor -1");
  CHECK_EQ(blosc1_set_compressor("lz4"), BLOSC_LZ4, "%s", "set lz4");
  int cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK(cb > 0 && (chunk[2] >> 5) == BLOSC_LZ4_FORMAT, "lz4 format bits, flags 0x%02x", chunk[2]);

  CHECK_EQ(blosc1_get_blocksize(), 0, "%s", "default blocksize");
  blosc1_set_blocksize(4096);
  CHECK_EQ(blosc1_get_blocksize(), 4096, "%s", "blocksize set");
  cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK_EQ(tc_rd32(chunk + 8), 4096, "%s", "forced blocksize in header");
  blosc1_set_blocksize(0);

  blosc2_set_delta(1);
  cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK_EQ(chunk[BLOSC2_CHUNK_FILTER_CODES + 4], BLOSC_DELTA, "%s", "delta in slot 4");
  CHECK((chunk[2] & BLOSC_DODELTA) != 0, "delta flag, flags 0x%02x", chunk[2]);
  blosc2_set_delta(0);
  cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK_EQ(chunk[BLOSC2_CHUNK_FILTER_CODES + 4], 0, "%s", "delta off");
  /* doshuffle values other than 0/1/2 mean no filter (measured 7 -> flags 0x15 blosclz). */
  blosc1_set_compressor("blosclz");
  cb = blosc2_compress(5, 7, 4, src, 10000, chunk, 10032);
  CHECK(cb > 0, "doshuffle 7: %d", cb);
  for (int i = 0; i < 6; i++) CHECK_EQ(chunk[16 + i], 0, "doshuffle 7 filter %d", i);
  CHECK_EQ(chunk[2] & ~BLOSC_MEMCPYED, 0x15, "%s", "doshuffle 7 flags");
  /* Shuffle is dropped for typesize 1. */
  cb = blosc2_compress(5, 1, 1, src, 10000, chunk, 10032);
  CHECK_EQ(chunk[16 + 5], 0, "%s", "shuffle dropped for typesize 1");

  blosc1_set_splitmode(BLOSC_NEVER_SPLIT);
  cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK_EQ(chunk[2] & 0x10, 0x10, "%s", "NEVER split sets the no-split bit");
  blosc1_set_splitmode(BLOSC_ALWAYS_SPLIT);
  cb = blosc2_compress(5, 1, 4, src, 10000, chunk, 10032);
  CHECK_EQ(chunk[2] & 0x10, 0, "%s", "ALWAYS split clears the no-split bit");
  blosc1_set_splitmode(BLOSC_FORWARD_COMPAT_SPLIT);

  blosc2_destroy();
  CHECK_EQ(blosc2_free_resources(), -1, "%s", "free_resources when not initialised");
  /* Global calls re-initialise after destroy. */
  CHECK_EQ(blosc2_get_nthreads(), 1, "%s", "nthreads after re-init");
  CHECK(strcmp(blosc1_get_compressor(), "blosclz") == 0, "%s", "compressor after re-init");
  blosc2_init();
}

static void check_cbuffer_info(void) {
  tc_fill(src, 40000, TC_FLOATS, 4, 1);
  int cb = compress_with(BLOSC_ZSTD, 5, 4, 4, BLOSC_SHUFFLE, 40000, src, chunk, 40032);
  CHECK(cb > 0, "compress %d", cb);
  size_t nb = 0, cbs = 0, bs = 0, ts = 0;
  int flags = -1;
  blosc1_cbuffer_sizes(chunk, &nb, &cbs, &bs);
  CHECK(nb == 40000 && cbs == (size_t)cb && bs == 40000, "blosc1_cbuffer_sizes %zu %zu %zu", nb,
        cbs, bs);
  blosc1_cbuffer_metainfo(chunk, &ts, &flags);
  CHECK(ts == 4 && flags == chunk[2] && flags == 0x85, "metainfo ts=%zu flags=0x%x", ts, flags);
  size_t vnb = 1;
  CHECK_EQ(blosc1_cbuffer_validate(chunk, (size_t)cb, &vnb), 0, "%s", "validate");
  CHECK_EQ(vnb, 40000, "%s", "validate nbytes");
  CHECK_EQ(blosc1_cbuffer_validate(chunk, (size_t)cb - 1, &vnb), BLOSC2_ERROR_INVALID_HEADER,
           "%s", "validate cbytes mismatch");
  CHECK_EQ(vnb, 0, "%s", "validate failure zeroes nbytes");
  CHECK_EQ(blosc1_cbuffer_validate(chunk, 15, &vnb), BLOSC2_ERROR_WRITE_BUFFER, "%s",
           "validate cbytes < 16");
  int32_t n2, c2, b2;
  CHECK_EQ(blosc2_cbuffer_sizes(chunk, &n2, &c2, &b2), 0, "%s", "cbuffer_sizes");
  CHECK(n2 == 40000 && c2 == cb && b2 == 40000, "%s", "blosc2_cbuffer_sizes values");
  CHECK_EQ(blosc2_cbuffer_sizes(chunk, NULL, NULL, NULL), 0, "%s", "NULL out-pointers");
  int v = -1, vlz = -1;
  blosc2_cbuffer_versions(chunk, &v, &vlz);
  CHECK(v == 5 && vlz == 1, "versions %d %d", v, vlz);
  static const char *complibs[] = {"BloscLZ", "LZ4", "LZ4", "Zlib", "Zstd"};
  static const int codes[] = {0, 1, 2, 4, 5};
  for (int i = 0; i < 5; i++) {
    cb = compress_with(codes[i], 5, 4, 4, BLOSC_SHUFFLE, 40000, src, chunk, 40032);
    const char *cl = blosc2_cbuffer_complib(chunk);
    CHECK(cl && strcmp(cl, complibs[i]) == 0, "complib of codec %d: %s", codes[i],
          cl ? cl : "(null)");
  }
  /* Invalid header: zeros and NULL. */
  uint8_t bad[32];
  memset(bad, 0, sizeof bad);
  nb = cbs = bs = 7;
  blosc1_cbuffer_sizes(bad, &nb, &cbs, &bs);
  CHECK(nb == 0 && cbs == 0 && bs == 0, "%s", "invalid header sizes are 0");
  ts = 7;
  flags = 7;
  blosc1_cbuffer_metainfo(bad, &ts, &flags);
  CHECK(ts == 0 && flags == 0, "%s", "invalid header metainfo is 0");
  n2 = c2 = b2 = 7;
  CHECK_EQ(blosc2_cbuffer_sizes(bad, &n2, &c2, &b2), BLOSC2_ERROR_INVALID_HEADER, "%s",
           "invalid header");
  CHECK(n2 == 0 && c2 == 0 && b2 == 0, "%s", "invalid header blosc2 sizes are 0");
  v = vlz = 7;
  blosc2_cbuffer_versions(bad, &v, &vlz);
  CHECK(v == 0 && vlz == 0, "%s", "invalid header versions are 0");
  CHECK(blosc2_cbuffer_complib(bad) == NULL, "%s", "invalid header complib");
}

/* BEHAVIOUR.md §3 table: automatic blocksize and flags byte. */
static void check_blocksizes(void) {
  static const struct {
    int32_t nbytes;
    int codec, clevel, ts, split, filter;
    int32_t blocksize;
    int flags;
  } rows[] = {
      {15, BLOSC_BLOSCLZ, 5, 16, 4, 1, 1, 0x07},
      {100, BLOSC_BLOSCLZ, 5, 8, 4, 1, 96, 0x15},
      {1000, BLOSC_BLOSCLZ, 5, 8, 4, 1, 1000, 0x05},
      {32768, BLOSC_ZSTD, 5, 4, 4, 1, 32768, 0x85},
      {100000, BLOSC_BLOSCLZ, 5, 4, 4, 1, 100000, 0x05},
      {100000, BLOSC_LZ4, 1, 8, 4, 0, 16384, 0x35},
      {262144, BLOSC_BLOSCLZ, 1, 2, 4, 1, 65536, 0x05},
      {1 << 20, BLOSC_BLOSCLZ, 0, 4, 4, 1, 8192, 0x07},
      {1 << 20, BLOSC_ZSTD, 0, 4, 4, 1, 16384, 0x07},
      {1 << 20, BLOSC_BLOSCLZ, 5, 4, 4, 1, 262144, 0x05},
      {1 << 20, BLOSC_BLOSCLZ, 5, 4, 2, 1, 131072, 0x15},
      {1 << 20, BLOSC_BLOSCLZ, 5, 17, 4, 1, 131070, 0x15},
      {1 << 20, BLOSC_BLOSCLZ, 5, 256, 4, 1, 131072, 0x05},
      {1 << 20, BLOSC_BLOSCLZ, 9, 8, 4, 1, 1048576, 0x05},
      {1 << 20, BLOSC_LZ4, 5, 4, 4, 2, 131072, 0x35},
      {1 << 20, BLOSC_LZ4HC, 5, 4, 4, 1, 262144, 0x35},
      {1 << 20, BLOSC_ZSTD, 5, 4, 4, 1, 262144, 0x85},
      {1 << 20, BLOSC_ZSTD, 1, 16, 4, 1, 524288, 0x85},
      {4 << 20, BLOSC_ZSTD, 9, 8, 2, 1, 1048576, 0x95},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    int32_t n = rows[i].nbytes;
    tc_fill(src, (size_t)n, TC_RAMP, (size_t)rows[i].ts, 3);
    int cb = compress_with(rows[i].codec, rows[i].clevel, rows[i].ts, rows[i].split,
                           rows[i].filter, n, src, chunk, n + 32);
    CHECK(cb > 0, "row %zu compress %d", i, cb);
    CHECK_EQ(tc_rd32(chunk + 8), rows[i].blocksize, "blocksize row %zu", i);
    CHECK_EQ(chunk[2], rows[i].flags, "flags row %zu", i);
    CHECK_EQ(blosc2_decompress(chunk, cb, out, n), n, "row %zu", i);
    CHECK(memcmp(out, src, (size_t)n) == 0, "row %zu data", i);
  }
  /* ctx_get_cparams reports the blocksize computed by the last compression. */
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  tc_fill(src, 1 << 20, TC_RAMP, 4, 3);
  blosc2_compress_ctx(c, src, 1 << 20, chunk, (1 << 20) + 32);
  blosc2_cparams got;
  memset(&got, 0, sizeof got);
  CHECK_EQ(blosc2_ctx_get_cparams(c, &got), 0, "%s", "ctx_get_cparams");
  CHECK_EQ(got.blocksize, 262144, "%s", "computed blocksize reported");
  CHECK(got.typesize == 4 && got.clevel == 5 && got.compcode == 0 && got.splitmode == 4,
        "%s", "ctx_get_cparams values");
  blosc2_free_ctx(c);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 2;
  c = blosc2_create_dctx(dp);
  blosc2_dparams gotd;
  memset(&gotd, 0x55, sizeof gotd);
  CHECK_EQ(blosc2_ctx_get_dparams(c, &gotd), 0, "%s", "ctx_get_dparams");
  CHECK(gotd.nthreads == 2 && gotd.typesize == 0 && gotd.schunk == NULL, "%s",
        "ctx_get_dparams of a new dctx (typesize 0)");
  blosc2_free_ctx(c);
}

static const uint8_t *hex_bytes(const char *hex, uint8_t *buf, size_t *len) {
  size_t n = 0;
  unsigned v;
  while (*hex && sscanf(hex, "%2x", &v) == 1) {
    buf[n++] = (uint8_t)v;
    hex += 2;
    while (*hex == ' ') hex++;
  }
  *len = n;
  return buf;
}

static void expect_bytes(const uint8_t *got, int gotlen, const char *hex, const char *what) {
  uint8_t want[64];
  size_t n;
  hex_bytes(hex, want, &n);
  CHECK(gotlen >= (int)n && memcmp(got, want, n) == 0, "bytes of %s", what);
}

/* BEHAVIOUR.md §5/§6: special chunks, memcpyed chunks and destination sizes. */
static void check_measured_chunks(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  int rc = blosc2_chunk_zeros(cp, 8000, chunk, 64);
  CHECK_EQ(rc, 32, "%s", "chunk_zeros");
  expect_bytes(chunk, rc,
               "05 01 05 08 40 1f 00 00 40 1f 00 00 20 00 00 00 "
               "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 10",
               "zeros chunk");
  rc = blosc2_chunk_nans(cp, 8000, chunk, 64);
  CHECK_EQ(rc, 32, "%s", "chunk_nans");
  CHECK_EQ(chunk[31], 0x20, "%s", "nans flag");
  rc = blosc2_chunk_uninit(cp, 8000, chunk, 64);
  CHECK_EQ(rc, 32, "%s", "chunk_uninit");
  CHECK_EQ(chunk[31], 0x40, "%s", "uninit flag");
  memset(out, 0x33, 8000);
  CHECK_EQ(blosc2_decompress(chunk, 32, out, 8000), 8000, "%s", "uninit decompress");
  CHECK(out[0] == 0x33 && out[7999] == 0x33, "%s", "uninit leaves destination untouched");
  double val = 3.25;
  rc = blosc2_chunk_repeatval(cp, 8000, chunk, 64, &val);
  CHECK_EQ(rc, 40, "%s", "chunk_repeatval");
  expect_bytes(chunk, rc,
               "05 01 05 08 40 1f 00 00 40 1f 00 00 28 00 00 00 "
               "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 30 00 00 00 00 00 00 0a 40",
               "repeatval chunk");
  CHECK_EQ(blosc2_chunk_zeros(cp, 8000, chunk, 31), BLOSC2_ERROR_DATA, "%s", "zeros small dest");
  CHECK_EQ(blosc2_chunk_nans(cp, 8001, chunk, 64), BLOSC2_ERROR_DATA, "%s", "nans misaligned");

  /* §6: 20-byte input is memcpyed. */
  for (int i = 0; i < 20; i++) src[i] = (uint8_t)i;
  rc = compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 20, src, chunk, 100);
  CHECK_EQ(rc, 52, "%s", "20-byte input");
  expect_bytes(chunk, rc,
               "05 01 07 04 14 00 00 00 14 00 00 00 34 00 00 00 00 00 00 00 00 01",
               "20-byte memcpy chunk");
  CHECK(memcmp(chunk + 32, src, 20) == 0, "%s", "memcpy payload");
  rc = compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 0, src, chunk, 100);
  CHECK_EQ(rc, 32, "%s", "empty input");
  expect_bytes(chunk, rc, "05 01 07 04 00 00 00 00 01 00 00 00 20 00 00 00", "empty chunk");
  CHECK_EQ(compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 0, src, chunk, 31),
           BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, "%s", "destsize < 32");
  CHECK_EQ(compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 1000, src, chunk, 20),
           BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, "%s", "destsize < 32");
  /* Runs and zero detection. */
  memset(src, 7, 100000);
  rc = compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 100000, src, chunk, 100032);
  CHECK_EQ(rc, 56, "%s", "100000 bytes of 0x07");
  memset(src, 0, 100000);
  rc = compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 100000, src, chunk, 100032);
  CHECK_EQ(rc, 32, "%s", "100000 zero bytes");
  expect_bytes(chunk, rc,
               "05 01 05 04 a0 86 01 00 a0 86 01 00 20 00 00 00 "
               "00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 10",
               "zero-detected chunk");
  /* Random data: does not fit below nbytes + 32 (returns 0), memcpy at exactly that. */
  tc_fill(src, 4000, TC_RANDOM, 4, 77);
  CHECK_EQ(compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 4000, src, chunk, 4031), 0, "%s",
           "random 4000 into 4031");
  rc = compress_with(BLOSC_BLOSCLZ, 5, 4, 4, BLOSC_SHUFFLE, 4000, src, chunk, 4032);
  CHECK_EQ(rc, 4032, "%s", "random 4000 into 4032");
  CHECK_EQ(chunk[2] & 0x02, 0x02, "%s", "late memcpy flag");
  CHECK_EQ(blosc2_decompress(chunk, rc, out, 4000), 4000, "%s", "late memcpy decode");
  CHECK(memcmp(out, src, 4000) == 0, "%s", "late memcpy data");
  /* Decompression into a too small destination. */
  tc_fill(src, 4000, TC_TEXT, 4, 5);
  rc = compress_with(BLOSC_LZ4, 5, 4, 4, BLOSC_SHUFFLE, 4000, src, chunk, 4032);
  memset(out, 0xEE, 4000);
  CHECK_EQ(blosc2_decompress(chunk, rc, out, 3999), BLOSC2_ERROR_WRITE_BUFFER, "%s",
           "dest too small");
  CHECK(out[0] == 0xEE && out[3998] == 0xEE, "%s", "dest untouched when too small");
}

/* Independent definitions of byte shuffle and bit shuffle. */
static void ref_shuffle(int32_t ts, int32_t n, const uint8_t *s, uint8_t *d) {
  int32_t nel = n / ts;
  for (int32_t i = 0; i < nel; i++)
    for (int32_t j = 0; j < ts; j++) d[(size_t)j * nel + i] = s[(size_t)i * ts + j];
  memcpy(d + (size_t)nel * ts, s + (size_t)nel * ts, (size_t)(n - nel * ts));
}

static void ref_bitshuffle(int32_t ts, int32_t n, const uint8_t *s, uint8_t *d) {
  int32_t nel = (n / ts) / 8 * 8; /* only whole groups of 8 elements are bit-transposed */
  memset(d, 0, (size_t)nel * ts);
  for (int32_t i = 0; i < nel; i++)
    for (int32_t j = 0; j < ts; j++)
      for (int k = 0; k < 8; k++) {
        int bit = (s[(size_t)i * ts + j] >> k) & 1;
        size_t row = (size_t)j * 8 + (size_t)k;
        d[row * (size_t)(nel / 8) + (size_t)i / 8] |= (uint8_t)(bit << (i % 8));
      }
  memcpy(d + (size_t)nel * ts, s + (size_t)nel * ts, (size_t)(n - nel * ts));
}

static void check_shuffle_kernels(void) {
  static const int32_t tss[] = {1, 2, 3, 4, 7, 8, 16, 17, 255, 256};
  static const int32_t sizes[] = {0, 1, 15, 64, 1000, 4096, 65536 + 13};
  uint8_t *exp = tc_malloc(70000);
  for (int ti = 0; ti < 10; ti++)
    for (int si = 0; si < 7; si++) {
      int32_t ts = tss[ti], n = sizes[si];
      tc_fill(src, (size_t)n, TC_RANDOM, 1, (uint64_t)(ts * 1000 + n));
      ref_shuffle(ts, n, src, exp);
      CHECK_EQ(blosc2_shuffle(ts, n, src, chunk), n, "shuffle ts=%d n=%d", ts, n);
      CHECK(memcmp(chunk, exp, (size_t)n) == 0, "shuffle bytes ts=%d n=%d", ts, n);
      CHECK_EQ(blosc2_unshuffle(ts, n, chunk, out), n, "unshuffle ts=%d n=%d", ts, n);
      CHECK(memcmp(out, src, (size_t)n) == 0, "unshuffle bytes ts=%d n=%d", ts, n);
      ref_bitshuffle(ts, n, src, exp);
      CHECK_EQ(blosc2_bitshuffle(ts, n, src, chunk), n, "bitshuffle ts=%d n=%d", ts, n);
      CHECK(memcmp(chunk, exp, (size_t)n) == 0, "bitshuffle bytes ts=%d n=%d", ts, n);
      CHECK_EQ(blosc2_bitunshuffle(ts, n, chunk, out), n, "bitunshuffle ts=%d n=%d", ts, n);
      CHECK(memcmp(out, src, (size_t)n) == 0, "bitunshuffle bytes ts=%d n=%d", ts, n);
    }
  free(exp);
  CHECK_EQ(blosc2_shuffle(0, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "shuffle ts 0");
  CHECK_EQ(blosc2_shuffle(257, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "ts 257");
  CHECK_EQ(blosc2_unshuffle(257, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "ts 257");
  CHECK_EQ(blosc2_shuffle(4, -1, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "negative size");
  CHECK_EQ(blosc2_bitshuffle(257, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "ts 257");
  /* Measured: bitunshuffle rejects a negative size with -1 (not -12) and takes typesizes
   * above 256: whole groups of 8 elements are transposed, the elements after them copied. */
  CHECK_EQ(blosc2_bitunshuffle(4, -8, src, chunk), BLOSC2_ERROR_FAILURE, "%s", "negative");
  {
    static uint8_t in[3000], res[3000];
    for (int i = 0; i < 3000; i++) in[i] = (uint8_t)(i * 7 + i / 13);
    CHECK_EQ(blosc2_bitunshuffle(1000, 3000, in, res), 3000, "%s", "bitunshuffle ts 1000");
    CHECK(memcmp(in, res, 3000) == 0, "%s", "bitunshuffle ts 1000: 3 elements copied");
    memset(res, 0xee, sizeof res);
    CHECK_EQ(blosc2_bitunshuffle(300, 3000, in, res), 3000, "%s", "bitunshuffle ts 300");
    CHECK(memcmp(in + 2400, res + 2400, 600) == 0, "%s", "bitunshuffle ts 300: tail copied");
    CHECK(memcmp(in, res, 2400) != 0, "%s", "bitunshuffle ts 300: 8 elements transposed");
  }
  CHECK_EQ(blosc2_bitshuffle(4, -8, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "negative");
  CHECK_EQ(blosc2_unshuffle(0, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "ts 0");
#ifdef BLOSC2_VARIANT_OURS
  /* typesize 0 divides by zero in the reference (BEHAVIOUR §14); ours must reject it. */
  CHECK_EQ(blosc2_bitshuffle(0, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "bit ts 0");
  CHECK_EQ(blosc2_bitunshuffle(0, 64, src, chunk), BLOSC2_ERROR_INVALID_PARAM, "%s", "bit ts 0");
#endif
}

static void check_timing(void) {
  blosc_timestamp_t a, b;
  a.tv_sec = 10;
  a.tv_nsec = 500;
  b.tv_sec = 12;
  b.tv_nsec = 700;
  CHECK(blosc_elapsed_nsecs(a, b) == 2e9 + 200.0, "elapsed_nsecs %f", blosc_elapsed_nsecs(a, b));
  CHECK(fabs(blosc_elapsed_secs(a, b) - 2.0000002) < 1e-12, "elapsed_secs %.10f",
        blosc_elapsed_secs(a, b));
  CHECK(blosc_elapsed_nsecs(b, a) == -(2e9 + 200.0), "%s", "negative elapsed");
  blosc_set_timestamp(&a);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  blosc_set_timestamp(&b);
  CHECK(blosc_elapsed_nsecs(a, b) >= 0, "%s", "monotonic timestamps");
  CHECK(a.tv_sec <= now.tv_sec && now.tv_sec <= b.tv_sec, "%s", "CLOCK_MONOTONIC timestamps");
}

int main(void) {
  /* Before blosc2_init: contexts work for built-in codecs, plugins are not registered. */
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), -1, "%s", "ndlz before init");
  CHECK_EQ(blosc2_compname_to_compcode("zstd"), BLOSC_ZSTD, "%s", "zstd before init");
  tc_fill(src, 5000, TC_TEXT, 1, 2);
  int cb = compress_with(BLOSC_ZSTD, 5, 1, 4, 0, 5000, src, chunk, 5032);
  CHECK(cb > 32 && cb < 5000, "compress before init: %d", cb);
  blosc2_init();
  check_names_and_versions();
  check_error_strings();
  check_defaults();
  check_global_setters();
  check_cbuffer_info();
  check_blocksizes();
  check_measured_chunks();
  check_shuffle_kernels();
  check_timing();
  blosc2_destroy();
  return tc_finish("info");
}
