/*
 * b2nd side-by-side benchmark (not a test): loads OUR library and the REFERENCE library
 * into one process (dlopen) and times, on a 3-D float64 array of smooth data (256 MiB by
 * default), the two libraries' runs alternating, best of N:
 *   from_cbuffer, to_cbuffer, get_slice_cbuffer of 1 item / 1 block / a box across chunks,
 *   set_slice_cbuffer of a box across chunks, get_orthogonal_selection, resize + append.
 * Prints per operation both times and the ratio reference time / our time (> 1: ours is
 * faster). An operation our library does not export is reported as such, not timed.
 *
 * usage: b2nd_bench OURS_SO REFERENCE_SO [--mb SIZE] [--reps N] [--nthreads T] [--quick]
 */
#include <b2nd.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LIB_FUNCS(X)                                                                          \
  X(blosc2_init) X(b2nd_create_ctx) X(b2nd_free_ctx) X(b2nd_from_cbuffer) X(b2nd_to_cbuffer)   \
  X(b2nd_free) X(b2nd_get_slice_cbuffer) X(b2nd_set_slice_cbuffer)                            \
  X(b2nd_get_orthogonal_selection) X(b2nd_resize) X(b2nd_append)

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
#define LOAD(name)                                                                \
  *(void **)(&lib->name) = dlsym(lib->handle, #name);                             \
  if (!lib->name) fprintf(stderr, "note: %s library lacks %s\n", lib->label, #name);
  LIB_FUNCS(LOAD)
#undef LOAD
  return lib->blosc2_init && lib->b2nd_create_ctx && lib->b2nd_from_cbuffer;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int64_t shape[3];
static int32_t chunkshape[3] = {32, 64, 256}, blockshape[3] = {8, 16, 64};
static int nthreads = 2;
static double *src, *dst;
static int64_t nitems;

static b2nd_context_t *make_ctx(lib_t *L, const int64_t *shp) {
  static blosc2_dparams dp;
  dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  cp.nthreads = (int16_t)nthreads;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  return L->b2nd_create_ctx(&st, 3, shp, chunkshape, blockshape, "<f8", 0, NULL, 0);
}

static b2nd_array_t *make_array(lib_t *L) {
  b2nd_context_t *ctx = make_ctx(L, shape);
  b2nd_array_t *a = NULL;
  if (ctx && L->b2nd_from_cbuffer(ctx, &a, src, nitems * 8) != 0) a = NULL;
  if (ctx) L->b2nd_free_ctx(ctx);
  return a;
}

/* One timed operation on library L: returns seconds, or a negative value on failure. */
typedef double (*op_fn)(lib_t *L, b2nd_array_t *a);

static double op_from(lib_t *L, b2nd_array_t *a) {
  (void)a;
  double t = now();
  b2nd_array_t *b = make_array(L);
  t = now() - t;
  if (!b) return -1;
  L->b2nd_free(b);
  return t;
}

static double op_to(lib_t *L, b2nd_array_t *a) {
  double t = now();
  int rc = L->b2nd_to_cbuffer(a, dst, nitems * 8);
  t = now() - t;
  if (rc == 0 && memcmp(dst, src, (size_t)nitems * 8) != 0) return -2;
  return rc == 0 ? t : -1;
}

/* Boxes read many times; time per call. */
static double get_boxes(lib_t *L, b2nd_array_t *a, const int64_t *box, int calls, uint64_t seed) {
  int64_t bs[3] = {box[0], box[1], box[2]};
  double t = now();
  for (int i = 0; i < calls; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t start[3], stop[3];
    for (int d = 0; d < 3; d++) {
      start[d] = (int64_t)((seed >> (10 + 15 * d)) % (uint64_t)(shape[d] - box[d] + 1));
      stop[d] = start[d] + box[d];
    }
    if (L->b2nd_get_slice_cbuffer(a, start, stop, dst, bs, bs[0] * bs[1] * bs[2] * 8) != 0) return -1;
  }
  return (now() - t) / calls;
}

static double op_item(lib_t *L, b2nd_array_t *a) {
  int64_t box[3] = {1, 1, 1};
  return get_boxes(L, a, box, 2000, 1);
}

static double op_block(lib_t *L, b2nd_array_t *a) {
  int64_t bs[3] = {blockshape[0], blockshape[1], blockshape[2]};
  uint64_t seed = 5;
  int calls = 500;
  double t = now();
  for (int i = 0; i < calls; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t start[3], stop[3];
    for (int d = 0; d < 3; d++) {
      int64_t nb = shape[d] / blockshape[d];
      start[d] = (int64_t)((seed >> (10 + 15 * d)) % (uint64_t)nb) * blockshape[d];
      stop[d] = start[d] + blockshape[d];
    }
    if (L->b2nd_get_slice_cbuffer(a, start, stop, dst, bs, bs[0] * bs[1] * bs[2] * 8) != 0) return -1;
  }
  return (now() - t) / calls;
}

static double op_box(lib_t *L, b2nd_array_t *a) {
  /* a box straddling chunk boundaries on every axis */
  int64_t start[3] = {chunkshape[0] / 2, chunkshape[1] / 2, chunkshape[2] / 2};
  int64_t stop[3] = {start[0] + chunkshape[0] * 2, start[1] + chunkshape[1], start[2] + chunkshape[2]};
  for (int d = 0; d < 3; d++)
    if (stop[d] > shape[d]) stop[d] = shape[d];
  int64_t bs[3] = {stop[0] - start[0], stop[1] - start[1], stop[2] - start[2]};
  double t = now();
  int rc = L->b2nd_get_slice_cbuffer(a, start, stop, dst, bs, bs[0] * bs[1] * bs[2] * 8);
  t = now() - t;
  if (rc != 0) return -1;
  /* the box holds what the source holds there */
  for (int64_t i = 0; i < bs[0]; i++)
    for (int64_t j = 0; j < bs[1]; j++)
      if (memcmp(dst + (i * bs[1] + j) * bs[2],
                 src + ((start[0] + i) * shape[1] + start[1] + j) * shape[2] + start[2],
                 (size_t)bs[2] * 8) != 0)
        return -2;
  return t;
}

static double op_set(lib_t *L, b2nd_array_t *a) {
  int64_t start[3] = {chunkshape[0] / 2, chunkshape[1] / 2, chunkshape[2] / 2};
  int64_t stop[3] = {start[0] + chunkshape[0], start[1] + chunkshape[1], start[2] + chunkshape[2]};
  for (int d = 0; d < 3; d++)
    if (stop[d] > shape[d]) stop[d] = shape[d];
  int64_t bs[3] = {stop[0] - start[0], stop[1] - start[1], stop[2] - start[2]};
  int64_t n = bs[0] * bs[1] * bs[2];
  for (int64_t i = 0; i < n; i++) dst[i] = (double)i * 0.001;
  double t = now();
  int rc = L->b2nd_set_slice_cbuffer(dst, bs, n * 8, start, stop, a);
  return rc == 0 ? now() - t : -1;
}

static double op_orth(lib_t *L, b2nd_array_t *a) {
  if (!L->b2nd_get_orthogonal_selection) return -3;
  int64_t sel0[40], sel1[40], sel2[40];
  int64_t *sel[3] = {sel0, sel1, sel2}, ss[3] = {40, 40, 40};
  for (int i = 0; i < 40; i++) {
    sel0[i] = (i * 7919) % shape[0];
    sel1[i] = (i * 104729) % shape[1];
    sel2[i] = (i * 1299709) % shape[2];
  }
  double t = now();
  int rc = L->b2nd_get_orthogonal_selection(a, sel, ss, dst, ss, 40 * 40 * 40 * 8);
  return rc == 0 ? now() - t : -1;
}

/* resize (grow axis 0 by one chunk) then append one chunk of rows; on a fresh array. */
static double op_resize_append(lib_t *L, b2nd_array_t *unused) {
  (void)unused;
  if (!L->b2nd_resize || !L->b2nd_append) return -3;
  b2nd_array_t *a = make_array(L);
  if (!a) return -1;
  int64_t ns[3] = {shape[0] + chunkshape[0], shape[1], shape[2]};
  int64_t rows = (int64_t)chunkshape[0] * shape[1] * shape[2];
  double t = now();
  int rc = L->b2nd_resize(a, ns, NULL);
  if (rc == 0) rc = L->b2nd_append(a, src, rows * 8, 0);
  t = now() - t;
  L->b2nd_free(a);
  return rc == 0 ? t : -1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [--mb SIZE] [--reps N] [--nthreads T] [--quick]\n", argv[0]);
    return 2;
  }
  int mb = 256, reps = 3;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--nthreads") && i + 1 < argc) nthreads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick")) mb = 32, reps = 2;
  }
  lib_t libs[2] = {{.label = "ours", .path = argv[1]}, {.label = "reference", .path = argv[2]}};
  if (!load(&libs[0]) || !load(&libs[1])) return 1;
  libs[0].blosc2_init();
  libs[1].blosc2_init();
  /* shape (n0, 256, 512) float64 with n0 a multiple of the chunk's first axis */
  shape[1] = 256;
  shape[2] = 512;
  shape[0] = ((int64_t)mb * 1024 * 1024 / 8 / (shape[1] * shape[2]) / chunkshape[0]) * chunkshape[0];
  if (shape[0] < chunkshape[0]) shape[0] = chunkshape[0];
  nitems = shape[0] * shape[1] * shape[2];
  src = malloc((size_t)nitems * 8);
  dst = malloc((size_t)nitems * 8);
  if (!src || !dst) return 1;
  for (int64_t i = 0; i < nitems; i++) {
    int64_t x = i % shape[2], y = (i / shape[2]) % shape[1], z = i / (shape[1] * shape[2]);
    src[i] = sin((double)x * 0.01) * cos((double)y * 0.02) + (double)z * 0.001;
  }
  printf("b2nd bench: shape (%lld, %lld, %lld) float64 = %.0f MiB, chunks (%d, %d, %d), blocks "
         "(%d, %d, %d), nthreads %d, best of %d\n",
         (long long)shape[0], (long long)shape[1], (long long)shape[2], nitems * 8.0 / 1048576,
         chunkshape[0], chunkshape[1], chunkshape[2], blockshape[0], blockshape[1], blockshape[2],
         nthreads, reps);
  b2nd_array_t *arr[2] = {make_array(&libs[0]), make_array(&libs[1])};
  if (!arr[0] || !arr[1]) {
    fprintf(stderr, "cannot create the arrays\n");
    return 1;
  }
  struct {
    const char *name;
    op_fn fn;
  } ops[] = {{"from_cbuffer", op_from},          {"to_cbuffer", op_to},
             {"get_slice 1 item", op_item},      {"get_slice 1 block", op_block},
             {"get_slice cross-chunk box", op_box}, {"set_slice cross-chunk box", op_set},
             {"orthogonal selection 40^3", op_orth}, {"resize + append", op_resize_append}};
  double logsum = 0;
  int nratios = 0;
  printf("%-28s %12s %12s %8s\n", "operation", "ours (ms)", "ref (ms)", "ref/ours");
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    double best[2] = {1e30, 1e30};
    int failed[2] = {0, 0};
    for (int r = 0; r < reps; r++)
      for (int j = 0; j < 2; j++) {
        int l = (r + j) % 2; /* alternate which library goes first */
        double t = ops[k].fn(&libs[l], arr[l]);
        if (t < 0) failed[l] = (int)-t;
        else if (t < best[l]) best[l] = t;
      }
    if (failed[0] || failed[1]) {
      printf("%-28s %12s %12s %8s\n", ops[k].name,
             failed[0] == 3 ? "missing" : failed[0] == 2 ? "WRONG" : failed[0] ? "error" : "",
             failed[1] == 2 ? "WRONG" : failed[1] ? "error" : "", "-");
      continue;
    }
    double ratio = best[1] / best[0];
    logsum += log(ratio);
    nratios++;
    printf("%-28s %12.3f %12.3f %8.2f\n", ops[k].name, best[0] * 1e3, best[1] * 1e3, ratio);
  }
  if (nratios) printf("geometric mean ref/ours over %d operations: %.2f\n", nratios, exp(logsum / nratios));
  libs[0].b2nd_free(arr[0]);
  libs[1].b2nd_free(arr[1]);
  free(src);
  free(dst);
  return 0;
}
