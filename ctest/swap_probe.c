/*
 * Swap probe: a program built against the REFERENCE headers and library that prints
 * deterministic results of chunk API calls (return codes, sizes, header fields, checksums
 * of decoded data, bytes of the fixed-format special chunks). swap_test.sh runs it once as
 * built and once with our libblosc2.so.9 swapped in (LD_LIBRARY_PATH, LD_PRELOAD); the
 * outputs must be identical. The first line names the library actually loaded and is not
 * compared. Exits non-zero if any decoded data differs from the original.
 *
 * Compressed bytes are only hashed for lz4, lz4hc, zlib and zstd (required to be identical
 * to the reference); blosclz chunks are described by their header fields.
 */
#define _GNU_SOURCE
#include <blosc2.h>
#include <dlfcn.h>

#include "test_common.h"

static int bad = 0;
static uint8_t src[1 << 20], chunk[(1 << 20) + 64], out[(1 << 20) + 64];

static void header_line(const uint8_t *c, int cb, int show_cbytes) {
  if (cb < 32) {
    printf("  header: (none)\n");
    return;
  }
  printf("  header: v=%d vlz=%d flags=0x%02x ts=%d nbytes=%d blocksize=%d cbytes=%d "
         "filters=%d,%d,%d,%d,%d,%d meta=%d udcodec=%d flags2=0x%02x b2flags=0x%02x\n",
         c[0], c[1], c[2], c[3], tc_rd32(c + 4), tc_rd32(c + 8),
         show_cbytes ? tc_rd32(c + 12) : -1, c[16], c[17],
         c[18], c[19], c[20], c[21], c[24], c[22], c[30], c[31]);
}

static void chunk_case(int codec, int filter, int32_t ts, int32_t n, int clevel, int split,
                       int kind) {
  tc_fill(src, (size_t)n, kind, (size_t)ts, 42);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  cp.splitmode = split;
  memset(cp.filters, 0, sizeof cp.filters);
  cp.filters[5] = (uint8_t)filter;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, n + 32);
  blosc2_free_ctx(c);
  printf("compress codec=%d filter=%d ts=%d n=%d clevel=%d split=%d %s -> %s\n", codec, filter,
         ts, n, clevel, split, tc_kind_name(kind), cb > 0 ? "ok" : "error");
  if (cb <= 0) {
    printf("  rc=%d\n", cb);
    bad = 1;
    return;
  }
  header_line(chunk, cb, codec != BLOSC_BLOSCLZ || cb == n + 32);
  if (codec != BLOSC_BLOSCLZ)
    printf("  cbytes=%d chunk-hash=%016llx\n", cb, (unsigned long long)tc_hash(chunk, (size_t)cb));
  int32_t nb, cbs, bs;
  int rc = blosc2_cbuffer_sizes(chunk, &nb, &cbs, &bs);
  size_t tsz;
  int flags, v, vlz;
  blosc1_cbuffer_metainfo(chunk, &tsz, &flags);
  blosc2_cbuffer_versions(chunk, &v, &vlz);
  const char *lib = blosc2_cbuffer_complib(chunk);
  printf("  sizes rc=%d nbytes=%d blocksize=%d typesize=%zu flags=0x%02x versions=%d/%d "
         "complib=%s\n", rc, nb, bs, tsz, flags, v, vlz, lib ? lib : "(null)");
  (void)cbs;
  for (int thr = 1; thr <= 2; thr++) {
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.nthreads = (int16_t)thr;
    blosc2_context *d = blosc2_create_dctx(dp);
    memset(out, 0, (size_t)n);
    rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
    int same = rc == n && memcmp(out, src, (size_t)n) == 0;
    printf("  decompress nthreads=%d rc=%d data-hash=%016llx %s\n", thr, rc,
           (unsigned long long)tc_hash(out, (size_t)n), same ? "same" : "DIFFERENT");
    if (!same) bad = 1;
    int32_t stored_ts = chunk[3];
    int nitems = n / stored_ts;
    if (nitems > 2) {
      rc = blosc2_getitem_ctx(d, chunk, cb, nitems / 3, nitems / 2, out, n);
      printf("  getitem(%d,%d) rc=%d hash=%016llx\n", nitems / 3, nitems / 2, rc,
             (unsigned long long)tc_hash(out, rc > 0 ? (size_t)rc : 0));
    }
    rc = blosc2_decompress_ctx(d, chunk, cb, out, n - 1);
    printf("  small dest rc=%d truncated rc=%d,%d\n", rc,
           blosc2_decompress_ctx(d, chunk, cb > 20 ? 20 : cb, out, n),
           blosc2_decompress_ctx(d, chunk, cb - 1, out, n));
    blosc2_free_ctx(d);
  }
  rc = blosc1_decompress(chunk, out, (size_t)n);
  printf("  blosc1_decompress rc=%d %s\n", rc,
         rc == n && memcmp(out, src, (size_t)n) == 0 ? "same" : "DIFFERENT");
}

int main(void) {
  Dl_info info;
  memset(&info, 0, sizeof info);
  dladdr((void *)&blosc2_compress, &info);
  printf("LIB %s\n", info.dli_fname ? info.dli_fname : "(unknown)");
  blosc2_init();
  printf("version %s compressors %s\n", blosc2_get_version_string(), blosc2_list_compressors());
  static const char *names[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd", "ndlz", "LZ4"};
  for (int i = 0; i < 7; i++) {
    const char *back = NULL;
    int code = blosc2_compname_to_compcode(names[i]);
    int rc = code >= 0 ? blosc2_compcode_to_compname(code, &back) : -1;
    printf("codec %s -> %d -> %d %s\n", names[i], code, rc, back ? back : "(null)");
  }
  for (int e = 0; e >= -38; e -= 7) printf("error %d: %s\n", e, blosc2_error_string(e));

  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  for (int ci = 0; ci < 5; ci++) {
    chunk_case(codecs[ci], BLOSC_SHUFFLE, 4, 1 << 20, 5, BLOSC_FORWARD_COMPAT_SPLIT, TC_FLOATS);
    chunk_case(codecs[ci], BLOSC_BITSHUFFLE, 8, 100000, 9, BLOSC_ALWAYS_SPLIT, TC_RAMP);
    chunk_case(codecs[ci], BLOSC_NOSHUFFLE, 1, 50000, 1, BLOSC_NEVER_SPLIT, TC_TEXT);
    chunk_case(codecs[ci], BLOSC_SHUFFLE, 16, 10000, 0, BLOSC_FORWARD_COMPAT_SPLIT, TC_LOWENT);
    chunk_case(codecs[ci], BLOSC_SHUFFLE, 2, 20, 5, BLOSC_FORWARD_COMPAT_SPLIT, TC_RAMP);
    chunk_case(codecs[ci], BLOSC_SHUFFLE, 4, 100000, 5, BLOSC_FORWARD_COMPAT_SPLIT, TC_ZEROS);
    if (codecs[ci] != BLOSC_BLOSCLZ)
      chunk_case(codecs[ci], BLOSC_SHUFFLE, 8, 200000, 5, BLOSC_FORWARD_COMPAT_SPLIT, TC_RANDOM);
  }

  /* Special chunks have a fixed format: print their bytes. */
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  double val = 2.5;
  int sizes[4];
  sizes[0] = blosc2_chunk_zeros(cp, 8000, chunk, 64);
  sizes[1] = blosc2_chunk_nans(cp, 8000, chunk + 64, 64);
  sizes[2] = blosc2_chunk_uninit(cp, 8000, chunk + 128, 64);
  sizes[3] = blosc2_chunk_repeatval(cp, 8000, chunk + 192, 64, &val);
  for (int k = 0; k < 4; k++) {
    printf("special %d rc=%d:", k, sizes[k]);
    for (int i = 0; i < sizes[k] && i < 64; i++) printf(" %02x", chunk[64 * k + i]);
    printf("\n");
  }
  printf("repeatval decompress rc=%d first=%g\n", blosc2_decompress(chunk + 192, sizes[3], out, 8000),
         ((double *)(void *)out)[999]);

  /* Global API. */
  blosc2_set_nthreads(2);
  blosc1_set_compressor("zstd");
  tc_fill(src, 300000, TC_FLOATS, 4, 7);
  int cb = blosc1_compress(5, BLOSC_SHUFFLE, 4, 300000, src, chunk, 300032);
  printf("global zstd compress rc=%d hash=%016llx\n", cb,
         (unsigned long long)tc_hash(chunk, cb > 0 ? (size_t)cb : 0));
  int rc = blosc2_decompress(chunk, cb, out, 300000);
  printf("global decompress rc=%d %s\n", rc, rc == 300000 && !memcmp(out, src, 300000) ? "same" : "DIFFERENT");
  if (rc != 300000) bad = 1;
  printf("getitem rc=%d\n", blosc1_getitem(chunk, 1000, 10, out));
  printf("bad params: clevel10=%d destsize16=%d compressor(bogus)=%d\n",
         blosc2_compress(10, 1, 4, src, 1000, chunk, 2000),
         blosc2_compress(5, 1, 4, src, 1000, chunk, 16), blosc1_set_compressor("bogus"));
  blosc2_destroy();
  return bad;
}
