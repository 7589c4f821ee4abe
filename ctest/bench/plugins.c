/*
 * Side-by-side benchmark of the N-dimensional plugins: OUR library and the REFERENCE one
 * loaded into one process (dlopen), each compressing and decompressing the same chunks
 * through a super-chunk carrying a b2nd metalayer, nthreads=1, alternating libraries run by
 * run; best of the runs. Prints MB/s of both and ours / reference (above 1: ours faster).
 *
 * usage: plugins_bench OURS_SO REFERENCE_SO [REPS [CASE_SUBSTRING]]
 */
#define _GNU_SOURCE
#include "pl_common.h"

#include <dlfcn.h>
#include <time.h>

#define LIB_FUNCS(X)                                                                     \
  X(blosc2_init) X(blosc2_create_cctx) X(blosc2_create_dctx) X(blosc2_free_ctx)          \
  X(blosc2_compress_ctx) X(blosc2_decompress_ctx) X(blosc2_schunk_new)                  \
  X(blosc2_schunk_free) X(blosc2_meta_add)

typedef struct {
  const char *path;
  void *handle;
#define FIELD(name) __typeof__(name) *name;
  LIB_FUNCS(FIELD)
#undef FIELD
} lib_t;

static int load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s: %s\n", lib->path, dlerror());
    return 0;
  }
#define LOAD(name) *(void **)(&lib->name) = dlsym(lib->handle, #name); if (!lib->name) return 0;
  LIB_FUNCS(LOAD)
#undef LOAD
  return 1;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
  const char *name;
  uint8_t compcode, meta, filter, fmeta;
  int typesize;
  geom_t g;
  int kind;
} bcase_t;

/* Best compression and decompression seconds of `reps` runs over `nchunks` chunks. */
static void measure(lib_t *l, const bcase_t *c, uint8_t *src, int32_t n, int nchunks, double *tc, double *td, int *csize) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = c->compcode;
  cp.compcode_meta = c->meta;
  cp.typesize = c->typesize;
  cp.nthreads = 1;
  cp.blocksize = (int32_t)(pl_items(c->g.block, c->g.ndim) * c->typesize);
  if (c->filter) {
    cp.filters[0] = c->filter;
    cp.filters_meta[0] = c->fmeta;
    cp.filters[1] = BLOSC_SHUFFLE;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
  } else {
    cp.filters[BLOSC2_MAX_FILTERS - 1] = c->typesize > 1 && c->compcode == BLOSC_CODEC_NDLZ ? BLOSC_SHUFFLE : BLOSC_NOFILTER;
    cp.splitmode = c->compcode == BLOSC_CODEC_NDLZ ? BLOSC_ALWAYS_SPLIT : BLOSC_NEVER_SPLIT;
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  blosc2_schunk *sc = l->blosc2_schunk_new(&st);
  uint8_t meta[256];
  int len = pl_meta(&c->g, c->typesize, meta);
  l->blosc2_meta_add(sc, "b2nd", meta, len);
  blosc2_cparams c2 = cp;
  c2.schunk = sc;
  blosc2_dparams d2 = dp;
  d2.schunk = sc;
  blosc2_context *cc = l->blosc2_create_cctx(c2), *dc = l->blosc2_create_dctx(d2);
  int32_t room = n + BLOSC2_MAX_OVERHEAD;
  uint8_t *chunk = malloc(room), *out = malloc(n);
  double t0 = now();
  int s = 0;
  for (int i = 0; i < nchunks; i++) s = l->blosc2_compress_ctx(cc, src, n, chunk, room);
  double t1 = now();
  for (int i = 0; i < nchunks; i++) l->blosc2_decompress_ctx(dc, chunk, s, out, n);
  double t2 = now();
  if (t1 - t0 < *tc) *tc = t1 - t0;
  if (t2 - t1 < *td) *td = t2 - t1;
  *csize = s;
  free(chunk);
  free(out);
  l->blosc2_free_ctx(cc);
  l->blosc2_free_ctx(dc);
  l->blosc2_schunk_free(sc);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [REPS]\n", argv[0]);
    return 2;
  }
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  lib_t libs[2] = {{.path = argv[1]}, {.path = argv[2]}};
  if (!load(&libs[0]) || !load(&libs[1])) return 1;
  libs[0].blosc2_init();
  libs[1].blosc2_init();
  const bcase_t cases[] = {
    {"ndlz 4x4 u1 2-D", BLOSC_CODEC_NDLZ, 4, 0, 0, 1, {2, {512, 512}, {128, 128}}, 2},
    {"ndlz 8x8 u1 2-D", BLOSC_CODEC_NDLZ, 8, 0, 0, 1, {2, {512, 512}, {128, 128}}, 2},
    {"ndlz 8x8 i4 shuffled", BLOSC_CODEC_NDLZ, 8, 0, 0, 4, {2, {256, 256}, {64, 128}}, 0},
    {"zfp acc 1e-3 f4 3-D", BLOSC_CODEC_ZFP_FIXED_ACCURACY, (uint8_t)-3, 0, 0, 4, {3, {64, 64, 64}, {16, 16, 32}}, 0},
    {"zfp prec 20 f8 2-D", BLOSC_CODEC_ZFP_FIXED_PRECISION, 20, 0, 0, 8, {2, {256, 256}, {64, 64}}, 0},
    {"zfp rate 37% f4 3-D", BLOSC_CODEC_ZFP_FIXED_RATE, 37, 0, 0, 4, {3, {64, 64, 64}, {16, 16, 32}}, 0},
    {"ndcell 4 f8 2-D zstd", BLOSC_ZSTD, 0, BLOSC_FILTER_NDCELL, 4, 8, {2, {256, 256}, {64, 64}}, 0},
    {"ndmean 4 f4 3-D lz4", BLOSC_LZ4, 0, BLOSC_FILTER_NDMEAN, 4, 4, {3, {64, 64, 64}, {16, 16, 32}}, 0},
  };
  int ncases = (int)(sizeof cases / sizeof cases[0]);
  double gc = 0, gd = 0;
  printf("%-24s %8s %10s %10s %7s %10s %10s %7s\n", "case", "cbytes", "c ours", "c ref", "c x", "d ours", "d ref", "d x");
  for (int k = 0; k < ncases; k++) {
    const bcase_t *c = &cases[k];
    if (argc > 4 && !strstr(c->name, argv[4])) continue;
    int64_t nitems = pl_items(c->g.chunk, c->g.ndim);
    int32_t n = (int32_t)(nitems * c->typesize);
    uint8_t *src = malloc(n);
    pl_fill(src, nitems, c->typesize, c->kind);
    int nchunks = (int)(64.0 * 1024 * 1024 / n) + 1;
    double tc[2] = {1e9, 1e9}, td[2] = {1e9, 1e9};
    int cs[2];
    for (int r = 0; r < reps; r++)
      for (int w = 0; w < 2; w++) measure(&libs[(r + w) % 2], c, src, n, nchunks, &tc[(r + w) % 2], &td[(r + w) % 2], &cs[(r + w) % 2]);
    double mb = (double)n * nchunks / 1e6;
    double xc = tc[1] / tc[0], xd = td[1] / td[0];
    gc += log(xc);
    gd += log(xd);
    printf("%-24s %8d %10.1f %10.1f %7.3f %10.1f %10.1f %7.3f%s\n", c->name, cs[0], mb / tc[0], mb / tc[1], xc,
           mb / td[0], mb / td[1], xd, cs[0] == cs[1] ? "" : "  (sizes differ!)");
    free(src);
  }
  int run = 0;
  for (int k = 0; k < ncases; k++) run += argc <= 4 || strstr(cases[k].name, argv[4]) != NULL;
  printf("geomean ours/reference: compress %.3f, decompress %.3f\n", exp(gc / run), exp(gd / run));
  return 0;
}
