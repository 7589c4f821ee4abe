/*
 * Side-by-side benchmark of frames / super-chunks: loads OUR library and the REFERENCE
 * library into one process (dlopen, RTLD_LOCAL) and times, for each, best of N runs:
 *   append_buffer   10 000 chunks appended (compressing) to a file-backed cframe
 *   append_chunk    10 000 precompressed chunks appended to a file-backed cframe
 *   append_sframe   10 000 chunks appended to an sframe directory
 *   slices          random get_slice_buffer reads (1 item .. 3 chunks) on the 10 000-chunk
 *                   cframe file, opened fresh
 *   open_3000       blosc2_schunk_open of a 3 000-chunk cframe file + one chunk read
 *   from_buffer     blosc2_schunk_from_buffer (no copy) of a 3 000-chunk in-memory cframe
 *   decompress_all  decompress every chunk of the 3 000-chunk cframe file in order
 * and prints the times and the ratio ours/reference (< 1 means ours is faster), plus the
 * geometric mean of the ratios.
 *
 * usage: frames_bench OURS_SO REFERENCE_SO [--reps N] [--quick]
 * (for development the reference may be given twice)
 */
#define FC_NO_LIBRARY
#include "fc_common.h"

#include <dlfcn.h>
#include <math.h>

#define LIB_FUNCS(X)                                                                         \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_free_ctx)                  \
  X(blosc2_compress_ctx) X(blosc2_schunk_new) X(blosc2_schunk_free) X(blosc2_schunk_open)    \
  X(blosc2_schunk_append_buffer) X(blosc2_schunk_append_chunk) X(blosc2_schunk_to_buffer)    \
  X(blosc2_schunk_from_buffer) X(blosc2_schunk_decompress_chunk)                             \
  X(blosc2_schunk_get_slice_buffer) X(blosc2_remove_urlpath)

typedef struct {
  const char *label, *path;
  void *handle;
#define FIELD(name) __typeof__(name) *name;
  LIB_FUNCS(FIELD)
#undef FIELD
} lib_t;

static int load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s: %s\n", lib->path, dlerror());
    return 0;
  }
  int ok = 1;
#define LOAD(name)                                                             \
  *(void **)(&lib->name) = dlsym(lib->handle, #name);                          \
  if (!lib->name) {                                                            \
    fprintf(stderr, "%s (%s) does not export %s\n", lib->label, lib->path, #name); \
    ok = 0;                                                                    \
  }
  LIB_FUNCS(LOAD)
#undef LOAD
  return ok;
}

#define ITEMS 2048 /* int32 per chunk: 8 KiB chunks */

static int g_nchunks = 10000, g_nsmall = 3000, g_nslices = 20000, g_nopen = 30;
static int32_t *g_data;

static blosc2_cparams bench_cparams(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  return cp;
}

static blosc2_schunk *new_frame(lib_t *L, const char *path, int contiguous) {
  blosc2_cparams cp = bench_cparams();
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = contiguous;
  st.urlpath = (char *)path;
  st.cparams = &cp;
  if (path) L->blosc2_remove_urlpath(path);
  return L->blosc2_schunk_new(&st);
}

static void fill_chunk(int i) { fc_fill_i32(g_data, ITEMS, (int64_t)i * ITEMS, 0); }

/* Each returns seconds, or -1 on failure. */
static double run_append_buffer(lib_t *L, const char *path, int contiguous, int n) {
  blosc2_schunk *sc = new_frame(L, path, contiguous);
  if (!sc) return -1;
  double t0 = fc_now();
  for (int i = 0; i < n; i++) {
    fill_chunk(i);
    if (L->blosc2_schunk_append_buffer(sc, g_data, ITEMS * 4) != i + 1) {
      L->blosc2_schunk_free(sc);
      return -1;
    }
  }
  L->blosc2_schunk_free(sc);
  return fc_now() - t0;
}

static uint8_t **g_chunks;
static int32_t *g_csizes;

static double run_append_chunk(lib_t *L, const char *path, int n) {
  blosc2_schunk *sc = new_frame(L, path, 1);
  if (!sc) return -1;
  double t0 = fc_now();
  for (int i = 0; i < n; i++)
    if (L->blosc2_schunk_append_chunk(sc, g_chunks[i % 64], true) != i + 1) {
      L->blosc2_schunk_free(sc);
      return -1;
    }
  L->blosc2_schunk_free(sc);
  return fc_now() - t0;
}

static double run_slices(lib_t *L, const char *path, int nchunks, int nslices) {
  blosc2_schunk *sc = L->blosc2_schunk_open(path);
  if (!sc) return -1;
  int64_t nitems = (int64_t)nchunks * ITEMS;
  int32_t *out = (int32_t *)fc_malloc((size_t)ITEMS * 3 * 4);
  fc_seed(12345);
  double t0 = fc_now();
  for (int s = 0; s < nslices; s++) {
    int64_t len = 1 + (int64_t)fc_below(ITEMS * 3);
    int64_t start = (int64_t)(fc_rand64() % (uint64_t)(nitems - len));
    if (L->blosc2_schunk_get_slice_buffer(sc, start, start + len, out) != 0) {
      free(out);
      L->blosc2_schunk_free(sc);
      return -1;
    }
  }
  double t = fc_now() - t0;
  /* spot check */
  fc_fill_i32(g_data, ITEMS, (int64_t)7 * ITEMS, 0);
  int ok = L->blosc2_schunk_get_slice_buffer(sc, 7 * ITEMS, 8 * ITEMS, out) == 0 &&
           memcmp(out, g_data, ITEMS * 4) == 0;
  free(out);
  L->blosc2_schunk_free(sc);
  return ok ? t : -1;
}

static double run_open(lib_t *L, const char *path, int nopen) {
  double t0 = fc_now();
  for (int i = 0; i < nopen; i++) {
    blosc2_schunk *sc = L->blosc2_schunk_open(path);
    if (!sc || L->blosc2_schunk_decompress_chunk(sc, sc->nchunks / 2, g_data, ITEMS * 4) !=
                   ITEMS * 4) {
      if (sc) L->blosc2_schunk_free(sc);
      return -1;
    }
    L->blosc2_schunk_free(sc);
  }
  return (fc_now() - t0) / nopen;
}

static double run_from_buffer(lib_t *L, const uint8_t *frame, int64_t len, int nopen) {
  double total = 0;
  for (int i = 0; i < nopen; i++) {
    uint8_t *copy = (uint8_t *)fc_malloc((size_t)len);
    memcpy(copy, frame, (size_t)len);
    double t0 = fc_now();
    blosc2_schunk *sc = L->blosc2_schunk_from_buffer(copy, len, false);
    if (!sc || L->blosc2_schunk_decompress_chunk(sc, 5, g_data, ITEMS * 4) != ITEMS * 4) {
      if (sc) L->blosc2_schunk_free(sc);
      else free(copy);
      return -1;
    }
    total += fc_now() - t0;
    L->blosc2_schunk_free(sc);
  }
  return total / nopen;
}

static double run_decompress_all(lib_t *L, const char *path) {
  blosc2_schunk *sc = L->blosc2_schunk_open(path);
  if (!sc) return -1;
  double t0 = fc_now();
  for (int64_t i = 0; i < sc->nchunks; i++)
    if (L->blosc2_schunk_decompress_chunk(sc, i, g_data, ITEMS * 4) != ITEMS * 4) {
      L->blosc2_schunk_free(sc);
      return -1;
    }
  double t = fc_now() - t0;
  L->blosc2_schunk_free(sc);
  return t;
}

/* Build the 3 000-chunk frames (file and memory) with library L. */
static int build_small(lib_t *L, const char *path, uint8_t **mem, int64_t *mlen) {
  if (run_append_buffer(L, path, 1, g_nsmall) < 0) return 0;
  blosc2_schunk *sc = new_frame(L, NULL, 1);
  if (!sc) return 0;
  for (int i = 0; i < g_nsmall; i++) {
    fill_chunk(i);
    if (L->blosc2_schunk_append_buffer(sc, g_data, ITEMS * 4) != i + 1) return 0;
  }
  uint8_t *cf = NULL;
  bool nf = false;
  *mlen = L->blosc2_schunk_to_buffer(sc, &cf, &nf);
  *mem = (uint8_t *)fc_malloc((size_t)*mlen);
  memcpy(*mem, cf, (size_t)*mlen);
  if (nf) free(cf);
  L->blosc2_schunk_free(sc);
  return *mlen > 0;
}

static double g_log_sum = 0;
static int g_nratios = 0;

static void report(const char *name, const char *unit, double scale, double o, double r) {
  if (o < 0 || r < 0) {
    printf("%-16s %12s %12s   (failed: ours %s, reference %s)\n", name, "-", "-",
           o < 0 ? "error" : "ok", r < 0 ? "error" : "ok");
    return;
  }
  double ratio = o / r;
  g_log_sum += log(ratio);
  g_nratios++;
  printf("%-16s %10.3f %s %10.3f %s   %6.3f\n", name, o * scale, unit, r * scale, unit, ratio);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [--reps N] [--quick]\n", argv[0]);
    return 2;
  }
  int reps = 3;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--quick") == 0) {
      g_nchunks = 2000;
      g_nsmall = 600;
      g_nslices = 4000;
      g_nopen = 10;
      reps = 1;
    }
  }
  static lib_t libs[2];
  libs[0].label = "ours";
  libs[0].path = argv[1];
  libs[1].label = "reference";
  libs[1].path = argv[2];
  if (!load(&libs[0]) || !load(&libs[1])) return 2;
  if (libs[0].handle == libs[1].handle)
    printf("note: both paths name the same library instance (development mode)\n");
  libs[0].blosc2_init();
  libs[1].blosc2_init();
  fc_make_tmp("bench");
  g_data = (int32_t *)fc_malloc(ITEMS * 4);
  g_chunks = (uint8_t **)fc_malloc(64 * sizeof *g_chunks);
  g_csizes = (int32_t *)fc_malloc(64 * sizeof *g_csizes);
  {
    blosc2_context *c = libs[1].blosc2_create_cctx(bench_cparams());
    for (int i = 0; i < 64; i++) {
      fill_chunk(i);
      g_chunks[i] = (uint8_t *)fc_malloc(ITEMS * 4 + BLOSC2_MAX_OVERHEAD);
      g_csizes[i] = libs[1].blosc2_compress_ctx(c, g_data, ITEMS * 4, g_chunks[i],
                                                ITEMS * 4 + BLOSC2_MAX_OVERHEAD);
    }
    libs[1].blosc2_free_ctx(c);
  }
  printf("frames benchmark: %d chunks of %d bytes, best of %d; ratio = ours/reference\n",
         g_nchunks, ITEMS * 4, reps);
  printf("%-16s %15s %15s   %6s\n", "case", "ours", "reference", "ratio");

  double best[7][2];
  for (int c = 0; c < 7; c++) best[c][0] = best[c][1] = 1e30;
  const char *big[2] = {fc_path("ours-big.b2frame"), fc_path("ref-big.b2frame")};
  const char *dirs[2] = {fc_path("ours-dir.b2"), fc_path("ref-dir.b2")};
  const char *small[2] = {fc_path("ours-3000.b2frame"), fc_path("ref-3000.b2frame")};
  const char *scratch[2] = {fc_path("ours-scratch.b2frame"), fc_path("ref-scratch.b2frame")};
  uint8_t *mem[2] = {NULL, NULL};
  int64_t mlen[2] = {0, 0};
  for (int l = 0; l < 2; l++)
    if (!build_small(&libs[l], small[l], &mem[l], &mlen[l])) best[4][l] = best[5][l] = -1;
  for (int r = 0; r < reps; r++) {
    for (int l = 0; l < 2; l++) {
      lib_t *L = &libs[l];
      double t;
#define KEEP(c, expr) \
  t = (expr);         \
  if (best[c][l] >= 0) best[c][l] = t < 0 ? -1 : (t < best[c][l] ? t : best[c][l]);
      KEEP(0, run_append_buffer(L, big[l], 1, g_nchunks));
      KEEP(1, run_append_chunk(L, scratch[l], g_nchunks));
      KEEP(2, run_append_buffer(L, dirs[l], 0, g_nchunks));
      KEEP(3, run_slices(L, big[l], g_nchunks, g_nslices));
      if (best[4][l] >= 0) {
        KEEP(4, run_open(L, small[l], g_nopen));
        KEEP(5, run_from_buffer(L, mem[l], mlen[l], g_nopen));
        KEEP(6, run_decompress_all(L, small[l]));
      }
#undef KEEP
    }
  }
  char name[64];
  snprintf(name, sizeof name, "append_buffer");
  report(name, "s ", 1, best[0][0], best[0][1]);
  report("append_chunk", "s ", 1, best[1][0], best[1][1]);
  report("append_sframe", "s ", 1, best[2][0], best[2][1]);
  report("slices", "s ", 1, best[3][0], best[3][1]);
  report("open_3000", "ms", 1e3, best[4][0], best[4][1]);
  report("from_buffer", "ms", 1e3, best[5][0], best[5][1]);
  report("decompress_all", "ms", 1e3, best[6][0], best[6][1]);
  if (g_nratios) printf("geometric mean of ratios: %.3f\n", exp(g_log_sum / g_nratios));
  for (int i = 0; i < 64; i++) free(g_chunks[i]);
  free(g_chunks);
  free(g_csizes);
  free(mem[0]);
  free(mem[1]);
  free(g_data);
  libs[0].blosc2_destroy();
  libs[1].blosc2_destroy();
  return 0;
}
