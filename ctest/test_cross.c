/*
 * Cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL) and checks, over codecs x filters x typesizes x sizes x clevels:
 *   - ours compresses -> the reference decompresses to the original data, and the reverse;
 *   - both decoders produce identical bytes for the same chunk;
 *   - at nthreads=1 our chunks are byte-identical to the reference's for lz4, lz4hc, zlib
 *     and zstd; for blosclz identity is reported, and our size must be within 2% of the
 *     reference's (or smaller);
 *   - our chunks are identical for nthreads 1, 2 and 4 (the reference's are not, so this
 *     is only asserted for ours).
 *
 * usage: cross OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 * Built once (not per variant) against the reference headers, which define the ABI.
 */
#include <blosc2.h>
#include <dlfcn.h>

#include "test_common.h"

typedef struct {
  const char *label, *path;
  void *handle;
  void (*init)(void);
  void (*destroy)(void);
  const char *(*version)(void);
  blosc2_context *(*create_cctx)(blosc2_cparams);
  blosc2_context *(*create_dctx)(blosc2_dparams);
  void (*free_ctx)(blosc2_context *);
  int (*compress_ctx)(blosc2_context *, const void *, int32_t, void *, int32_t);
  int (*decompress_ctx)(blosc2_context *, const void *, int32_t, void *, int32_t);
  int (*getitem_ctx)(blosc2_context *, const void *, int32_t, int, int, void *, int32_t);
  int (*blosc1_decompress)(const void *, void *, size_t);
} lib_t;

static int load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s library %s: %s\n", lib->label, lib->path, dlerror());
    return 0;
  }
  int ok = 1;
#define SYM(field, name)                                                              \
  do {                                                                                \
    *(void **)(&lib->field) = dlsym(lib->handle, name);                               \
    if (!lib->field) {                                                                \
      fprintf(stderr, "%s library %s does not export %s\n", lib->label, lib->path, name); \
      ok = 0;                                                                         \
    }                                                                                 \
  } while (0)
  SYM(init, "blosc2_init");
  SYM(destroy, "blosc2_destroy");
  SYM(version, "blosc2_get_version_string");
  SYM(create_cctx, "blosc2_create_cctx");
  SYM(create_dctx, "blosc2_create_dctx");
  SYM(free_ctx, "blosc2_free_ctx");
  SYM(compress_ctx, "blosc2_compress_ctx");
  SYM(decompress_ctx, "blosc2_decompress_ctx");
  SYM(getitem_ctx, "blosc2_getitem_ctx");
  SYM(blosc1_decompress, "blosc1_decompress");
#undef SYM
  return ok;
}

static lib_t ours = {"ours", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
static lib_t ref = {"reference", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
static const char *codec_names[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
enum { F_NONE, F_SHUFFLE, F_BITSHUFFLE, F_DELTA_SHUFFLE, NFILTERS };
static const char *filter_names[] = {"none", "shuffle", "bitshuffle", "delta+shuffle"};
static const int32_t typesizes[] = {1, 2, 3, 4, 7, 8, 16, 255, 300};

/* Per-codec statistics of the identity / size comparison at nthreads=1. */
static long st_cases[5], st_identical[5];
static double st_ours_bytes[5], st_ref_bytes[5];

static uint8_t *g_src, *g_a, *g_b, *g_c, *g_d1, *g_d2;

static int compress(const lib_t *lib, blosc2_cparams cp, int32_t n, uint8_t *dest) {
  blosc2_context *c = lib->create_cctx(cp);
  if (!c) return -1000;
  int rc = lib->compress_ctx(c, g_src, n, dest, n + BLOSC2_MAX_OVERHEAD);
  lib->free_ctx(c);
  return rc;
}

static int decompress(const lib_t *lib, const uint8_t *chunk, int32_t cbytes, uint8_t *dest,
                      int32_t n, int nthreads) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  blosc2_context *d = lib->create_dctx(dp);
  if (!d) return -1000;
  int rc = lib->decompress_ctx(d, chunk, cbytes, dest, n);
  lib->free_ctx(d);
  return rc;
}

/* Trailing bytes of a DELTA chunk the reference encoder leaves unwritten (see roundtrip). */
static int32_t delta_tail(int filt, int32_t ts, int32_t n) {
  if (filt != F_DELTA_SHUFFLE || ts <= 1 || ts > 255) return 0;
  int32_t eff = (ts == 2 || ts == 4 || ts == 8) ? ts : (ts % 8 == 0 ? 8 : 1);
  return n % eff;
}

static void one_case(int ci, int filt, int32_t ts, int32_t n, int clevel, int split, int kind,
                     int thread_identity) {
  char ctx[200];
  snprintf(ctx, sizeof ctx, "%s %s ts=%d n=%d cl=%d split=%d %s", codec_names[ci],
           filter_names[filt], ts, n, clevel, split, tc_kind_name(kind));
  tc_fill(g_src, (size_t)n, kind, (size_t)ts, (uint64_t)n + (uint64_t)clevel);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codecs[ci];
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  cp.splitmode = split;
  memset(cp.filters, 0, sizeof cp.filters);
  if (filt == F_DELTA_SHUFFLE) cp.filters[4] = BLOSC_DELTA;
  cp.filters[5] = (uint8_t)(filt == F_NONE ? 0 : filt == F_BITSHUFFLE ? BLOSC_BITSHUFFLE
                                                                      : BLOSC_SHUFFLE);
  cp.nthreads = 1;
  int ca = compress(&ours, cp, n, g_a);
  int cb = compress(&ref, cp, n, g_b);
  CHECK(ca > 0, "ours compress returned %d [%s]", ca, ctx);
  CHECK(cb > 0, "reference compress returned %d [%s]", cb, ctx);
  if (ca <= 0 || cb <= 0) return;
  int32_t tail = delta_tail(filt, ts, n);

  /* ours -> reference */
  memset(g_d1, 0xA5, (size_t)n + 16);
  int rc = decompress(&ref, g_a, ca, g_d1, n, 1 + (n & 1));
  CHECK_EQ(rc, n, "reference decompressing ours %s", ctx);
  CHECK(memcmp(g_d1, g_src, (size_t)n) == 0, "reference decodes ours wrongly [%s]", ctx);
  /* reference -> ours, and both decoders agree byte for byte on the reference chunk */
  memset(g_d1, 0xA5, (size_t)n + 16);
  memset(g_d2, 0x5A, (size_t)n + 16);
  rc = decompress(&ours, g_b, cb, g_d1, n, 1 + ((n >> 1) & 1));
  CHECK_EQ(rc, n, "ours decompressing the reference's %s", ctx);
  CHECK(memcmp(g_d1, g_src, (size_t)(n - tail)) == 0, "ours decodes the reference wrongly [%s]",
        ctx);
  CHECK_EQ(decompress(&ref, g_b, cb, g_d2, n, 1), n, "%s", ctx);
  CHECK(memcmp(g_d1, g_d2, (size_t)n) == 0, "decoders disagree on the reference chunk [%s]", ctx);
  if (n > 0 && n % 5 == 0) {
    CHECK_EQ(ref.blosc1_decompress(g_a, g_d2, (size_t)n), n, "blosc1 ref<-ours %s", ctx);
    CHECK_EQ(ours.blosc1_decompress(g_b, g_d1, (size_t)n), n, "blosc1 ours<-ref %s", ctx);
  }

  /* Identity at nthreads=1 (not meaningful where the reference writes scratch bytes). */
  if (tail == 0) {
    int identical = ca == cb && memcmp(g_a, g_b, (size_t)ca) == 0;
    st_cases[ci]++;
    st_identical[ci] += identical;
    st_ours_bytes[ci] += ca;
    st_ref_bytes[ci] += cb;
    if (codecs[ci] == BLOSC_BLOSCLZ) {
      CHECK(ca <= cb + cb / 50 + 2, "blosclz: ours %d bytes vs reference %d (> 2%%) [%s]", ca, cb,
            ctx);
    } else {
      CHECK(identical, "compressed bytes differ from the reference (%d vs %d) [%s]", ca, cb, ctx);
    }
  }

  /* Ours: the same bytes whatever the thread count. */
  if (thread_identity) {
    for (int thr = 2; thr <= 4; thr += 2) {
      cp.nthreads = (int16_t)thr;
      int cc = compress(&ours, cp, n, g_c);
      CHECK(cc == ca && memcmp(g_c, g_a, (size_t)ca) == 0,
            "ours: nthreads=%d output differs from nthreads=1 [%s]", thr, ctx);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO\n", argv[0]);
    return 2;
  }
  ours.path = argv[1];
  ref.path = argv[2];
  if (!load(&ours) || !load(&ref)) {
    printf("cross: cannot load both libraries\n");
    return 1;
  }
  if (ours.handle == ref.handle)
    fprintf(stderr, "warning: both paths resolve to the same loaded library\n");
  ours.init();
  ref.init();
  printf("ours %s (%s), reference %s (%s)\n", ours.version(), ours.path, ref.version(), ref.path);

  size_t cap = 4u << 20;
  g_src = tc_malloc(cap);
  g_a = tc_malloc(cap + 64);
  g_b = tc_malloc(cap + 64);
  g_c = tc_malloc(cap + 64);
  g_d1 = tc_malloc(cap + 64);
  g_d2 = tc_malloc(cap + 64);
  long cases = 0;
  for (int ci = 0; ci < 5; ci++)
    for (int filt = 0; filt < NFILTERS; filt++)
      for (int ti = 0; ti < 9; ti++) {
        int32_t ts = typesizes[ti];
        int32_t sizes[] = {0, 1, ts - 1, 1024, 10007, 1 << 20};
        for (int si = 0; si < 6; si++) {
          if (si == 2 && ts <= 2) continue;
          if (si == 5 && (ts == 2 || ts == 3 || ts == 7 || ts == 255)) continue; /* keep it quick */
          static const int clevels[] = {0, 1, 5, 9};
          int ncl = si == 5 ? 1 : 4;
          for (int k = 0; k < ncl; k++) {
            int clevel = si == 5 ? (int)(1 + cases % 9) : clevels[k];
            int split = 1 + (int)(cases % 4);
            int kind = (int)(cases % TC_NKINDS);
            one_case(ci, filt, ts, sizes[si], clevel, split, kind, si >= 4);
            cases++;
          }
        }
      }
  /* Larger multi-block chunks, default split mode, 4 MB. */
  for (int ci = 0; ci < 5; ci++) {
    one_case(ci, F_SHUFFLE, 4, 4 << 20, 5, BLOSC_FORWARD_COMPAT_SPLIT, TC_FLOATS, 1);
    one_case(ci, F_BITSHUFFLE, 8, 4 << 20, 9, BLOSC_FORWARD_COMPAT_SPLIT, TC_RAMP, 1);
    cases += 2;
  }

  printf("%-8s %8s %10s %14s %14s %8s\n", "codec", "cases", "identical", "ours bytes",
         "ref bytes", "ratio");
  for (int ci = 0; ci < 5; ci++)
    printf("%-8s %8ld %10ld %14.0f %14.0f %8.4f\n", codec_names[ci], st_cases[ci],
           st_identical[ci], st_ours_bytes[ci], st_ref_bytes[ci],
           st_ref_bytes[ci] > 0 ? st_ours_bytes[ci] / st_ref_bytes[ci] : 0.0);
  printf("blosclz byte-identical to the reference: %s\n",
         st_identical[0] == st_cases[0] ? "yes" : "no (size compared instead)");
  printf("cross: %ld cases\n", cases);
  ours.destroy();
  ref.destroy();
  free(g_src);
  free(g_a);
  free(g_b);
  free(g_c);
  free(g_d1);
  free(g_d2);
  return tc_finish("cross");
}
