/*
 * Side-by-side benchmark: loads OUR library and the REFERENCE library into one process
 * (dlopen) and measures compression and decompression throughput (MB/s, best of N runs)
 * over codecs x filters (none, shuffle, bitshuffle) x typesizes (4, 8) x nthreads (1, 2)
 * on realistic data (smooth floats, integer ramps, text, random). Prints one line per case
 * with the ratio ours/reference and the geometric mean of the ratios per
 * (compress|decompress) x nthreads.
 *
 * usage: bench OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--clevel L] [--quick]
 */
#include <blosc2.h>
#include <dlfcn.h>
#include <time.h>

#include "../test_common.h"

typedef struct {
  const char *label, *path;
  void *handle;
  void (*init)(void);
  blosc2_context *(*create_cctx)(blosc2_cparams);
  blosc2_context *(*create_dctx)(blosc2_dparams);
  void (*free_ctx)(blosc2_context *);
  int (*compress_ctx)(blosc2_context *, const void *, int32_t, void *, int32_t);
  int (*decompress_ctx)(blosc2_context *, const void *, int32_t, void *, int32_t);
} lib_t;

static int load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s: %s\n", lib->path, dlerror());
    return 0;
  }
  int ok = 1;
#define SYM(field, name)                                                      \
  do {                                                                        \
    *(void **)(&lib->field) = dlsym(lib->handle, name);                       \
    if (!lib->field) {                                                        \
      fprintf(stderr, "%s (%s) does not export %s\n", lib->label, lib->path, name); \
      ok = 0;                                                                 \
    }                                                                         \
  } while (0)
  SYM(init, "blosc2_init");
  SYM(create_cctx, "blosc2_create_cctx");
  SYM(create_dctx, "blosc2_create_dctx");
  SYM(free_ctx, "blosc2_free_ctx");
  SYM(compress_ctx, "blosc2_compress_ctx");
  SYM(decompress_ctx, "blosc2_decompress_ctx");
#undef SYM
  return ok;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  double cspeed, dspeed; /* MB/s */
  int cbytes;
} result_t;

static uint8_t *g_src, *g_comp, *g_dec;

/* Best-of-reps compression and decompression speeds of one library; -1 speeds on error. */
static result_t measure(const lib_t *lib, blosc2_cparams cp, int32_t n, int reps) {
  result_t r = {-1, -1, 0};
  blosc2_context *c = lib->create_cctx(cp);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = cp.nthreads;
  blosc2_context *d = lib->create_dctx(dp);
  if (!c || !d) return r;
  double best_c = 1e30, best_d = 1e30;
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    r.cbytes = lib->compress_ctx(c, g_src, n, g_comp, n + BLOSC2_MAX_OVERHEAD);
    double t1 = now();
    if (r.cbytes <= 0) break;
    if (t1 - t0 < best_c) best_c = t1 - t0;
  }
  if (r.cbytes > 0) {
    for (int i = 0; i < reps; i++) {
      double t0 = now();
      int rc = lib->decompress_ctx(d, g_comp, r.cbytes, g_dec, n);
      double t1 = now();
      if (rc != n) {
        best_d = 1e30;
        break;
      }
      if (t1 - t0 < best_d) best_d = t1 - t0;
    }
    if (memcmp(g_src, g_dec, (size_t)n) != 0) {
      fprintf(stderr, "%s: decoded data differs\n", lib->label);
      best_d = 1e30;
    }
  }
  lib->free_ctx(c);
  lib->free_ctx(d);
  if (best_c < 1e30) r.cspeed = n / best_c / 1e6;
  if (best_d < 1e30) r.dspeed = n / best_d / 1e6;
  return r;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--clevel L] [--quick]\n",
            argv[0]);
    return 2;
  }
  lib_t ours = {"ours", argv[1], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  lib_t ref = {"reference", argv[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  int reps = 3, clevel = 5;
  double mb = 8;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = atof(argv[++i]);
    else if (!strcmp(argv[i], "--clevel") && i + 1 < argc) clevel = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick")) {
      reps = 1;
      mb = 1;
    } else {
      fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!load(&ours) || !load(&ref)) return 1;
  ours.init();
  ref.init();
  int32_t n = (int32_t)(mb * 1024 * 1024);
  n -= n % 8;
  g_src = tc_malloc((size_t)n);
  g_comp = tc_malloc((size_t)n + 64);
  g_dec = tc_malloc((size_t)n);

  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  static const char *codec_names[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
  static const int filters[] = {BLOSC_NOSHUFFLE, BLOSC_SHUFFLE, BLOSC_BITSHUFFLE};
  static const char *filter_names[] = {"none", "shuffle", "bitshuf"};
  static const int kinds[] = {TC_FLOATS, TC_RAMP, TC_TEXT, TC_RANDOM};
  double logsum[2][2] = {{0, 0}, {0, 0}}; /* [compress|decompress][nthreads-1] */
  int count[2][2] = {{0, 0}, {0, 0}};

  printf("blosc2 benchmark: %.1f MB per case, clevel %d, best of %d\n", n / 1048576.0, clevel,
         reps);
  printf("%-8s %-8s %2s %3s %-7s | %9s %9s %6s | %9s %9s %6s | %7s %7s\n", "codec", "filter",
         "ts", "thr", "data", "c ours", "c ref", "c x", "d ours", "d ref", "d x", "ratio o",
         "ratio r");
  for (int ki = 0; ki < 4; ki++)
    for (int ts = 4; ts <= 8; ts += 4) {
      tc_fill(g_src, (size_t)n, kinds[ki], (size_t)ts, 1);
      for (int ci = 0; ci < 5; ci++)
        for (int fi = 0; fi < 3; fi++)
          for (int thr = 1; thr <= 2; thr++) {
            blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
            cp.compcode = (uint8_t)codecs[ci];
            cp.clevel = (uint8_t)clevel;
            cp.typesize = ts;
            cp.nthreads = (int16_t)thr;
            cp.filters[5] = (uint8_t)filters[fi];
            result_t o = measure(&ours, cp, n, reps);
            result_t r = measure(&ref, cp, n, reps);
            double cx = (o.cspeed > 0 && r.cspeed > 0) ? o.cspeed / r.cspeed : 0;
            double dx = (o.dspeed > 0 && r.dspeed > 0) ? o.dspeed / r.dspeed : 0;
            if (cx > 0) {
              logsum[0][thr - 1] += log(cx);
              count[0][thr - 1]++;
            }
            if (dx > 0) {
              logsum[1][thr - 1] += log(dx);
              count[1][thr - 1]++;
            }
            printf("%-8s %-8s %2d %3d %-7s | %9.0f %9.0f %6.2f | %9.0f %9.0f %6.2f | %7.2f %7.2f\n",
                   codec_names[ci], filter_names[fi], ts, thr, tc_kind_name(kinds[ki]), o.cspeed,
                   r.cspeed, cx, o.dspeed, r.dspeed, dx,
                   o.cbytes > 0 ? (double)n / o.cbytes : 0.0,
                   r.cbytes > 0 ? (double)n / r.cbytes : 0.0);
            fflush(stdout);
          }
    }
  printf("\ngeometric mean of speed ratios ours/reference (>1 means ours is faster):\n");
  for (int op = 0; op < 2; op++)
    for (int thr = 1; thr <= 2; thr++)
      printf("  %-10s nthreads=%d: %.3f  (%d cases)\n", op ? "decompress" : "compress", thr,
             count[op][thr - 1] ? exp(logsum[op][thr - 1] / count[op][thr - 1]) : 0.0,
             count[op][thr - 1]);
  free(g_src);
  free(g_comp);
  free(g_dec);
  return 0;
}
