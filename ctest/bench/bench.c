/*
 * Side-by-side benchmark: loads OUR library and the REFERENCE library into one process
 * (dlopen) and measures compression and decompression throughput (MB/s, best of N runs, the
 * two libraries' runs alternating) over codecs x filters (none, shuffle, bitshuffle) x typesizes (4, 8) x nthreads (1, 2)
 * on realistic data (smooth floats, integer ramps, text, random). Prints one line per case
 * with the ratio ours/reference and the geometric mean of the ratios per
 * (compress|decompress) x nthreads.
 *
 * usage: bench OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--clevel L] [--codec NAME] [--quick]
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

static uint8_t *g_src, *g_dec;

/* One library's contexts and compressed buffer for the case being measured. */
typedef struct {
  const lib_t *lib;
  blosc2_context *c, *d;
  uint8_t *comp;
  double best_c, best_d;
  int cbytes, failed;
} run_t;

static void time_compress(run_t *r, int32_t n) {
  double t0 = now();
  r->cbytes = r->lib->compress_ctx(r->c, g_src, n, r->comp, n + BLOSC2_MAX_OVERHEAD);
  double t1 = now();
  if (r->cbytes <= 0) r->failed = 1;
  else if (t1 - t0 < r->best_c) r->best_c = t1 - t0;
}

static void time_decompress(run_t *r, int32_t n) {
  double t0 = now();
  int rc = r->lib->decompress_ctx(r->d, r->comp, r->cbytes, g_dec, n);
  double t1 = now();
  if (rc != n || memcmp(g_src, g_dec, (size_t)n) != 0) {
    fprintf(stderr, "%s: decoded data differs\n", r->lib->label);
    r->failed = 1;
  } else if (t1 - t0 < r->best_d) {
    r->best_d = t1 - t0;
  }
}

/* Best-of-reps compression and decompression speeds of both libraries, their runs
 * alternating so that both see the same machine conditions; -1 speeds on error. */
static void measure(const lib_t *libs[2], uint8_t *comp[2], blosc2_cparams cp, int32_t n,
                    int reps, result_t out[2]) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = cp.nthreads;
  run_t runs[2];
  for (int k = 0; k < 2; k++) {
    run_t r = {libs[k], libs[k]->create_cctx(cp), libs[k]->create_dctx(dp), comp[k], 1e30, 1e30,
               0, 0};
    r.failed = !r.c || !r.d;
    runs[k] = r;
  }
  for (int i = 0; i < reps; i++)
    for (int k = 0; k < 2; k++)
      if (!runs[k].failed) time_compress(&runs[k], n);
  for (int i = 0; i < reps; i++)
    for (int k = 0; k < 2; k++)
      if (!runs[k].failed) time_decompress(&runs[k], n);
  for (int k = 0; k < 2; k++) {
    run_t *r = &runs[k];
    if (r->c) r->lib->free_ctx(r->c);
    if (r->d) r->lib->free_ctx(r->d);
    out[k].cbytes = r->cbytes;
    out[k].cspeed = r->failed || r->best_c >= 1e30 ? -1 : n / r->best_c / 1e6;
    out[k].dspeed = r->failed || r->best_d >= 1e30 ? -1 : n / r->best_d / 1e6;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--clevel L] [--codec NAME] [--quick]\n",
            argv[0]);
    return 2;
  }
  lib_t ours = {"ours", argv[1], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  lib_t ref = {"reference", argv[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  int reps = 3, clevel = 5;
  const char *only_codec = NULL;
  double mb = 8;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = atof(argv[++i]);
    else if (!strcmp(argv[i], "--clevel") && i + 1 < argc) clevel = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--codec") && i + 1 < argc) only_codec = argv[++i];
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
  uint8_t *comp[2] = {tc_malloc((size_t)n + 64), tc_malloc((size_t)n + 64)};
  const lib_t *libs[2] = {&ours, &ref};
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
        if (!only_codec || !strcmp(only_codec, codec_names[ci]))
        for (int fi = 0; fi < 3; fi++)
          for (int thr = 1; thr <= 2; thr++) {
            blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
            cp.compcode = (uint8_t)codecs[ci];
            cp.clevel = (uint8_t)clevel;
            cp.typesize = ts;
            cp.nthreads = (int16_t)thr;
            cp.filters[5] = (uint8_t)filters[fi];
            result_t res[2];
            measure(libs, comp, cp, n, reps, res);
            result_t o = res[0], r = res[1];
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
  free(comp[0]);
  free(comp[1]);
  free(g_dec);
  return 0;
}
