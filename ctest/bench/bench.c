/*
 * Side-by-side chunk benchmark: OUR library and the REFERENCE library loaded into one
 * process (dlopen), the two libraries' runs alternating run by run. The matrix is
 * 5 codecs x clevel 1/5/9 x filters (none, shuffle, bitshuffle, delta+shuffle) x data
 * (arange-i32, arange-i64, sin-f64, random, text, zeros) x nthreads 1 and 2, with 4 MiB
 * chunks and --mb MiB of data per case. By default one clevel per (codec, filter, data)
 * is taken, rotating through 1/5/9 (240 cases); --full runs all three (720 cases).
 *
 * The two libraries swap their output buffers before every run, so that neither keeps the
 * buffer whose pages happen to be slower to copy from or into; each decompresses the
 * chunks it wrote last, or either buffer when both wrote the same chunks.
 *
 * Each case is timed best of --reps, both by wall clock and by process CPU time; the
 * output gives one line per case (speed ratios ours/reference, > 1 means ours is faster,
 * and the compression ratios of both, which must be equal), then geometric means per
 * operation x nthreads, per codec, and the worst cases.
 *
 * Every case also times a memcpy baseline, interleaved with the libraries' runs: the same
 * number of uncompressed bytes copied between two buffers of those sizes, split over the
 * same number of threads. The list of cases below 0.95 at the end gives, for each, both
 * libraries' time divided by that baseline's: a case where ours is within 10 % of memcpy
 * (<= 1.10) is bound by memory bandwidth.
 *
 * usage: bench OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--codec NAME] [--full]
 *              [--threads T] [--quick] [--filter NAME] [--data NAME] [--clevel L]
 *              [--case CODEC/FILTER/DATA/LL[/tT]]... [--recheck R]
 *
 * --codec, --filter, --data, --clevel and --threads each narrow the matrix to one value
 * (--clevel picks that clevel for every case, instead of the rotation). --case (repeatable)
 * runs just the cases named as the lists print them, e.g. --case blosclz/none/i64-ramp/L5/t1
 * (without /tT: both thread counts).
 *
 * --recheck R measures every case below 0.95 (by CPU or wall time) R more times after the
 * matrix, and judges it on each library's best time over all its runs: on a noisy machine a
 * single run of a case can be off by 20 %. The geometric means come from the first pass
 * only (a recheck of the slow cases alone would bias them).
 */
#include <blosc2.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "../test_common.h"

#define LIB_FUNCS(X) \
  X(blosc2_init)     \
  X(blosc2_create_cctx) \
  X(blosc2_create_dctx) \
  X(blosc2_free_ctx) \
  X(blosc2_compress_ctx) \
  X(blosc2_decompress_ctx)
#include "../cross_lib.h"

#define CHUNK (4 * 1024 * 1024)
#define NCODECS 5
#define NFILTERS 4
#define NDATA 6
#define MAXCASES (NCODECS * NFILTERS * NDATA * 3 * 2)

static const int codecs[NCODECS] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB,
                                    BLOSC_ZSTD};
static const char *codec_names[NCODECS] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
static const char *filter_names[NFILTERS] = {"none", "shuffle", "bitshuf", "dlt+shuf"};
static const char *data_names[NDATA] = {"i32-ramp", "i64-ramp", "f64-sin",
                                        "random", "text", "zeros"};
static const int data_kind[NDATA] = {TC_RAMP, TC_RAMP, TC_FLOATS, TC_RANDOM, TC_TEXT, TC_ZEROS};
static const int data_typesize[NDATA] = {4, 8, 8, 4, 1, 8};
static const int clevels[3] = {1, 5, 9};

typedef struct {
  double wall, cpu;
} span_t;

static double clock_of(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static span_t start(void) {
  span_t s = {clock_of(CLOCK_MONOTONIC), clock_of(CLOCK_PROCESS_CPUTIME_ID)};
  return s;
}

static span_t stop(span_t s) {
  span_t e = {clock_of(CLOCK_MONOTONIC) - s.wall, clock_of(CLOCK_PROCESS_CPUTIME_ID) - s.cpu};
  return e;
}

static void keep_best(span_t *best, span_t t) {
  if (t.wall < best->wall) best->wall = t.wall;
  if (t.cpu < best->cpu) best->cpu = t.cpu;
}

/* Compressed chunks: nchunks slots of CHUNK + BLOSC2_MAX_OVERHEAD bytes, and their sizes. */
typedef struct {
  uint8_t *comp;
  int32_t *csize;
} store_t;

/* One library's contexts and the store it compresses into and decompresses from. */
typedef struct {
  const lib_t *lib;
  blosc2_context *c, *d;
  store_t *st;
  span_t best_c, best_d;
  int64_t cbytes;
  int failed;
} run_t;

static uint8_t *g_src, *g_dec;
static int g_nchunks;
/* Two stores, which the libraries swap before every run: copies out of or into one buffer
 * can be steadily slower than with another (where its pages happen to lie), and a
 * library that kept one buffer throughout would carry that into memory-bound cases. */
static store_t g_stores[2];

static uint8_t *slot(run_t *r, int i) {
  return r->st->comp + (size_t)i * (CHUNK + BLOSC2_MAX_OVERHEAD);
}

/* Whether both stores hold the same chunks (then either library may decompress either). */
static int stores_equal(void) {
  size_t sizes = (size_t)g_nchunks * sizeof(int32_t);
  if (memcmp(g_stores[0].csize, g_stores[1].csize, sizes) != 0) return 0;
  for (int i = 0; i < g_nchunks; i++) {
    size_t at = (size_t)i * (CHUNK + BLOSC2_MAX_OVERHEAD);
    if (memcmp(g_stores[0].comp + at, g_stores[1].comp + at, (size_t)g_stores[0].csize[i]))
      return 0;
  }
  return 1;
}

static void swap_stores(run_t runs[2]) {
  store_t *t = runs[0].st;
  runs[0].st = runs[1].st;
  runs[1].st = t;
}

static void time_compress(run_t *r) {
  int64_t total = 0;
  span_t s = start();
  for (int i = 0; i < g_nchunks; i++) {
    int rc = r->lib->blosc2_compress_ctx(r->c, g_src + (size_t)i * CHUNK, CHUNK, slot(r, i),
                                         CHUNK + BLOSC2_MAX_OVERHEAD);
    if (rc <= 0) {
      r->failed = 1;
      return;
    }
    r->st->csize[i] = rc;
    total += rc;
  }
  keep_best(&r->best_c, stop(s));
  r->cbytes = total;
}

static void time_decompress(run_t *r) {
  span_t s = start();
  for (int i = 0; i < g_nchunks; i++) {
    int rc = r->lib->blosc2_decompress_ctx(r->d, slot(r, i), r->st->csize[i],
                                           g_dec + (size_t)i * CHUNK, CHUNK);
    if (rc != CHUNK) {
      r->failed = 1;
      return;
    }
  }
  span_t t = stop(s);
  if (memcmp(g_src, g_dec, (size_t)g_nchunks * CHUNK) != 0) {
    fprintf(stderr, "%s: decoded data differs\n", r->lib->label);
    r->failed = 1;
    return;
  }
  keep_best(&r->best_d, t);
}

typedef struct {
  int codec, filter, data, clevel, nthreads;
  span_t c[2], d[2]; /* [ours|reference] best times */
  span_t copy;       /* best time of the memcpy baseline */
  int64_t cbytes[2];
  int ok;
} case_t;

/* One thread's share of the memcpy baseline. */
typedef struct {
  size_t from, len;
} piece_t;

/* Copies one thread's share, one memcpy call per chunk at most (as the libraries' calls). */
static void *copy_piece(void *arg) {
  const piece_t *p = arg;
  for (size_t at = p->from; at < p->from + p->len; at += CHUNK) {
    size_t len = p->from + p->len - at < CHUNK ? p->from + p->len - at : CHUNK;
    memcpy(g_dec + at, g_src + at, len);
  }
  return NULL;
}

/* Copies the case's uncompressed bytes from the source to the output buffer, split in
 * nthreads contiguous pieces copied by as many threads (the caller copies the first). */
static void time_memcpy(span_t *best, int nthreads) {
  size_t n = (size_t)g_nchunks * CHUNK;
  piece_t pieces[2];
  pthread_t th;
  int helpers = nthreads > 1;
  size_t half = helpers ? n / 2 : n;
  pieces[0] = (piece_t){0, half};
  pieces[1] = (piece_t){half, n - half};
  span_t s = start();
  if (helpers && pthread_create(&th, NULL, copy_piece, &pieces[1]) != 0) helpers = 0;
  copy_piece(&pieces[0]);
  if (helpers) pthread_join(th, NULL);
  else if (nthreads > 1) copy_piece(&pieces[1]);
  keep_best(best, stop(s));
}

static void run_case(const lib_t *libs[2], run_t runs[2], case_t *k, int reps) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codecs[k->codec];
  cp.clevel = (uint8_t)k->clevel;
  cp.typesize = data_typesize[k->data];
  cp.nthreads = (int16_t)k->nthreads;
  for (int f = 0; f < BLOSC2_MAX_FILTERS; f++) cp.filters[f] = BLOSC_NOFILTER;
  switch (k->filter) {
    case 1: cp.filters[5] = BLOSC_SHUFFLE; break;
    case 2: cp.filters[5] = BLOSC_BITSHUFFLE; break;
    case 3: cp.filters[4] = BLOSC_DELTA; cp.filters[5] = BLOSC_SHUFFLE; break;
    default: break;
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = cp.nthreads;
  const span_t never = {1e30, 1e30};
  for (int l = 0; l < 2; l++) {
    run_t *r = &runs[l];
    r->lib = libs[l];
    r->c = libs[l]->blosc2_create_cctx(cp);
    r->d = libs[l]->blosc2_create_dctx(dp);
    r->best_c = r->best_d = never;
    r->cbytes = 0;
    r->failed = !r->c || !r->d;
  }
  k->copy = never;
  /* Which library goes first alternates from run to run (and from case to case), so that
   * neither always runs right after the memcpy baseline or the other's output check. */
  static int turn;
  for (int i = 0; i < reps; i++, turn++) {
    swap_stores(runs);
    for (int j = 0; j < 2; j++)
      if (!runs[(turn + j) % 2].failed) time_compress(&runs[(turn + j) % 2]);
    time_memcpy(&k->copy, k->nthreads);
  }
  /* Each library decompresses the chunks it wrote last, unless both wrote the same. */
  int swap = !runs[0].failed && !runs[1].failed && stores_equal();
  for (int i = 0; i < reps; i++, turn++) {
    if (swap) swap_stores(runs);
    for (int j = 0; j < 2; j++)
      if (!runs[(turn + j) % 2].failed) time_decompress(&runs[(turn + j) % 2]);
    time_memcpy(&k->copy, k->nthreads);
  }
  k->ok = 1;
  for (int l = 0; l < 2; l++) {
    run_t *r = &runs[l];
    if (r->c) r->lib->blosc2_free_ctx(r->c);
    if (r->d) r->lib->blosc2_free_ctx(r->d);
    k->c[l] = r->best_c;
    k->d[l] = r->best_d;
    k->cbytes[l] = r->cbytes;
    if (r->failed) k->ok = 0;
  }
}

/* ours / reference speed ratio of a case: by CPU time (cpu != 0) or wall time. */
static double ratio(const span_t t[2], int cpu) {
  return cpu ? t[1].cpu / t[0].cpu : t[1].wall / t[0].wall;
}

typedef struct {
  double logsum;
  int n;
} gm_t;

static void gm_add(gm_t *g, double x) {
  g->logsum += log(x);
  g->n++;
}

static double gm(const gm_t *g) { return g->n ? exp(g->logsum / g->n) : 0.0; }

static case_t g_cases[MAXCASES];
static int g_ncases;

static int by_ratio_op, by_ratio_cpu;
static int cmp_cases(const void *a, const void *b) {
  const case_t *x = a, *y = b;
  double rx = ratio(by_ratio_op ? x->d : x->c, by_ratio_cpu);
  double ry = ratio(by_ratio_op ? y->d : y->c, by_ratio_cpu);
  return (rx > ry) - (rx < ry);
}

static void summary(int cpu) {
  const char *what = cpu ? "CPU time" : "wall time";
  gm_t all[2][2] = {{{0, 0}, {0, 0}}, {{0, 0}, {0, 0}}};
  gm_t per_codec[NCODECS][2] = {{{0, 0}, {0, 0}}};
  for (int i = 0; i < g_ncases; i++) {
    case_t *k = &g_cases[i];
    if (!k->ok) continue;
    gm_add(&all[0][k->nthreads - 1], ratio(k->c, cpu));
    gm_add(&all[1][k->nthreads - 1], ratio(k->d, cpu));
    gm_add(&per_codec[k->codec][0], ratio(k->c, cpu));
    gm_add(&per_codec[k->codec][1], ratio(k->d, cpu));
  }
  printf("\ngeometric means of speed ratios ours/reference by %s (> 1: ours faster)\n", what);
  printf("  %-10s %12s %12s\n", "", "nthreads=1", "nthreads=2");
  for (int op = 0; op < 2; op++)
    printf("  %-10s %7.3f (%3d) %7.3f (%3d)\n", op ? "decompress" : "compress", gm(&all[op][0]),
           all[op][0].n, gm(&all[op][1]), all[op][1].n);
  printf("  per codec (compress / decompress):");
  for (int c = 0; c < NCODECS; c++)
    printf(" %s %.3f/%.3f", codec_names[c], gm(&per_codec[c][0]), gm(&per_codec[c][1]));
  printf("\n");
  static case_t sorted[MAXCASES];
  int n = 0;
  for (int i = 0; i < g_ncases; i++)
    if (g_cases[i].ok) sorted[n++] = g_cases[i];
  for (int op = 0; op < 2; op++) {
    by_ratio_op = op;
    by_ratio_cpu = cpu;
    qsort(sorted, (size_t)n, sizeof(case_t), cmp_cases);
    int below = 0;
    for (int i = 0; i < n; i++)
      if (ratio(op ? sorted[i].d : sorted[i].c, cpu) < 0.95) below++;
    printf("  %s: %d case(s) below 0.95; worst:", op ? "decompress" : "compress", below);
    for (int i = 0; i < n && i < 6; i++) {
      case_t *k = &sorted[i];
      printf(" %s/%s/%s/L%d/t%d=%.2f", codec_names[k->codec], filter_names[k->filter],
             data_names[k->data], k->clevel, k->nthreads, ratio(op ? k->d : k->c, cpu));
    }
    printf("\n");
  }
}

/* Prints the cases below 0.95 by CPU time with both libraries' time over the memcpy
 * baseline's, and whether each is memory-bound (ours within 10 % of memcpy). */
static void below_list(void) {
  int below = 0, bound = 0;
  printf("\ncases below 0.95 by CPU time (x/memcpy: CPU time over that of copying the same "
         "bytes with the same threads;\nmemory-bound: ours within 10 %% of memcpy)\n");
  printf("  %-10s %-32s %8s %11s %10s  %s\n", "", "case", "ours/ref", "ours/memcpy",
         "ref/memcpy", "verdict");
  for (int op = 0; op < 2; op++)
    for (int i = 0; i < g_ncases; i++) {
      const case_t *k = &g_cases[i];
      const span_t *t = op ? k->d : k->c;
      if (!k->ok || ratio(t, 1) >= 0.95) continue;
      char name[64];
      snprintf(name, sizeof name, "%s/%s/%s/L%d/t%d", codec_names[k->codec],
               filter_names[k->filter], data_names[k->data], k->clevel, k->nthreads);
      double o = t[0].cpu / k->copy.cpu, r = t[1].cpu / k->copy.cpu;
      int mem = o <= 1.10;
      below++;
      bound += mem;
      printf("  %-10s %-32s %8.2f %11.2f %10.2f  %s\n", op ? "decompress" : "compress", name,
             ratio(t, 1), o, r, mem ? "memory-bound" : "BELOW");
    }
  printf("  %d case(s) below 0.95: %d memory-bound, %d not\n", below, bound, below - bound);
}

/* Whether either operation of a case is below 0.95 by CPU or wall time. */
static int is_below(const case_t *k) {
  for (int cpu = 0; cpu < 2; cpu++)
    if (ratio(k->c, cpu) < 0.95 || ratio(k->d, cpu) < 0.95) return 1;
  return 0;
}

/* Measures the cases below 0.95 `rounds` more times, each library keeping its best times
 * over all runs, and lists them before and after. */
static void recheck(const lib_t *libs[2], run_t runs[2], int reps, int rounds) {
  size_t n = (size_t)g_nchunks * CHUNK;
  int before = 0, after = 0;
  printf("\nrecheck: cases below 0.95 measured %d more time(s), best of all runs (CPU time "
         "compress, decompress; first pass -> all runs)\n", rounds);
  for (int i = 0; i < g_ncases; i++) {
    case_t *k = &g_cases[i];
    if (!k->ok || !is_below(k)) continue;
    before++;
    double c0 = ratio(k->c, 1), d0 = ratio(k->d, 1);
    tc_fill(g_src, n, data_kind[k->data], (size_t)data_typesize[k->data], 1);
    for (int r = 0; r < rounds && k->ok; r++) {
      case_t again = *k;
      run_case(libs, runs, &again, reps);
      k->ok = again.ok;
      for (int l = 0; l < 2; l++) {
        keep_best(&k->c[l], again.c[l]);
        keep_best(&k->d[l], again.d[l]);
      }
      keep_best(&k->copy, again.copy);
    }
    int still = k->ok && is_below(k);
    after += still;
    printf("  %s/%s/%s/L%d/t%d  %.2f %.2f -> %.2f %.2f (wall %.2f %.2f)%s\n",
           codec_names[k->codec], filter_names[k->filter], data_names[k->data], k->clevel,
           k->nthreads, c0, d0, ratio(k->c, 1), ratio(k->d, 1), ratio(k->c, 0),
           ratio(k->d, 0), still ? "  BELOW" : "");
  }
  printf("  %d case(s) below 0.95 in the first pass, %d after the recheck\n", before, after);
}

#define MAXSPECS 64

/* Whether the case matches one of the --case specs (all cases when there is none). */
static int wanted(const char *const *specs, int nspecs, int ci, int fi, int di, int clevel,
                  int thr) {
  if (!nspecs) return 1;
  char name[64];
  int n = snprintf(name, sizeof name, "%s/%s/%s/L%d", codec_names[ci], filter_names[fi],
                   data_names[di], clevel);
  snprintf(name + n, sizeof name - (size_t)n, "/t%d", thr);
  for (int i = 0; i < nspecs; i++) {
    size_t len = strlen(specs[i]);
    if (!strcmp(specs[i], name) || (len == (size_t)n && !strncmp(specs[i], name, len)))
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr,
            "usage: %s OURS_SO REFERENCE_SO [--reps N] [--mb SIZE] [--codec NAME] [--full] "
            "[--threads T] [--quick] [--filter NAME] [--data NAME] [--clevel L] "
            "[--case CODEC/FILTER/DATA/LL[/tT]]... [--recheck R]\n",
            argv[0]);
    return 2;
  }
  lib_t ours = {.label = "ours", .path = argv[1]};
  lib_t ref = {.label = "reference", .path = argv[2]};
  int reps = 3, full = 0, only_threads = 0, only_clevel = 0, rounds = 0;
  const char *only_codec = NULL, *only_filter = NULL, *only_data = NULL;
  const char *specs[MAXSPECS];
  int nspecs = 0;
  double mb = 64;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = atof(argv[++i]);
    else if (!strcmp(argv[i], "--codec") && i + 1 < argc) only_codec = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) only_threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--filter") && i + 1 < argc) only_filter = argv[++i];
    else if (!strcmp(argv[i], "--data") && i + 1 < argc) only_data = argv[++i];
    else if (!strcmp(argv[i], "--clevel") && i + 1 < argc) only_clevel = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--case") && i + 1 < argc && nspecs < MAXSPECS)
      specs[nspecs++] = argv[++i];
    else if (!strcmp(argv[i], "--recheck") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--full")) full = 1;
    else if (!strcmp(argv[i], "--quick")) {
      reps = 1;
      mb = 8;
    } else {
      fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!cross_load(&ours) || !cross_load(&ref)) return 1;
  ours.blosc2_init();
  ref.blosc2_init();
  g_nchunks = (int)(mb * 1024 * 1024 / CHUNK);
  if (g_nchunks < 1) g_nchunks = 1;
  size_t n = (size_t)g_nchunks * CHUNK;
  g_src = tc_malloc(n);
  g_dec = tc_malloc(n);
  run_t runs[2];
  for (int l = 0; l < 2; l++) {
    g_stores[l].comp = tc_malloc((size_t)g_nchunks * (CHUNK + BLOSC2_MAX_OVERHEAD));
    g_stores[l].csize = tc_malloc((size_t)g_nchunks * sizeof(int32_t));
    memset(g_stores[l].comp, 0, (size_t)g_nchunks * (CHUNK + BLOSC2_MAX_OVERHEAD));
    runs[l].st = &g_stores[l];
  }
  memset(g_dec, 0, n); /* no first-touch page faults inside a timed run */
  const lib_t *libs[2] = {&ours, &ref};

  printf("blosc2 chunk benchmark: %d chunks of 4 MiB per case, best of %d, %s clevels\n",
         g_nchunks, reps, full ? "all" : "rotating");
  printf("%-8s %-8s %-8s %2s %3s | %7s %7s | %7s %7s | %8s %8s\n", "codec", "filter", "data",
         "L", "thr", "c wall", "c cpu", "d wall", "d cpu", "ratio o", "ratio r");
  for (int di = 0; di < NDATA; di++) {
    if (only_data && strcmp(only_data, data_names[di]) != 0) continue;
    tc_fill(g_src, n, data_kind[di], (size_t)data_typesize[di], 1);
    for (int ci = 0; ci < NCODECS; ci++) {
      if (only_codec && strcmp(only_codec, codec_names[ci]) != 0) continue;
      for (int fi = 0; fi < NFILTERS; fi++)
        for (int li = 0; li < 3; li++) {
          if (only_filter && strcmp(only_filter, filter_names[fi]) != 0) continue;
          if (only_clevel ? clevels[li] != only_clevel
                          : !full && !nspecs && li != (ci + fi + di) % 3)
            continue;
          for (int thr = 1; thr <= 2; thr++) {
            if (only_threads && thr != only_threads) continue;
            if (!wanted(specs, nspecs, ci, fi, di, clevels[li], thr)) continue;
            case_t *k = &g_cases[g_ncases++];
            *k = (case_t){.codec = ci, .filter = fi, .data = di, .clevel = clevels[li],
                          .nthreads = thr};
            run_case(libs, runs, k, reps);
            if (!k->ok) {
              printf("%-8s %-8s %-8s %2d %3d | FAILED\n", codec_names[ci], filter_names[fi],
                     data_names[di], k->clevel, thr);
              continue;
            }
            printf("%-8s %-8s %-8s %2d %3d | %7.2f %7.2f | %7.2f %7.2f | %8.2f %8.2f%s\n",
                   codec_names[ci], filter_names[fi], data_names[di], k->clevel, thr,
                   ratio(k->c, 0), ratio(k->c, 1), ratio(k->d, 0), ratio(k->d, 1),
                   (double)n / (double)k->cbytes[0], (double)n / (double)k->cbytes[1],
                   k->cbytes[0] != k->cbytes[1] ? "  SIZE DIFFERS" : "");
            fflush(stdout);
          }
        }
    }
  }
  summary(1);
  summary(0);
  below_list();
  if (rounds > 0) recheck(libs, runs, reps, rounds);
  free(g_src);
  free(g_dec);
  for (int l = 0; l < 2; l++) {
    free(g_stores[l].comp);
    free(g_stores[l].csize);
  }
  return 0;
}
