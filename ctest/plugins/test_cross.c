/*
 * Plugin cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL; the reference headers serve both) and, for NDLZ, ZFP (three modes), NDCELL
 * and NDMEAN over 1-D to 4-D geometries and typesizes, compresses the same data on a
 * super-chunk with the same b2nd metalayer in both at nthreads=1: the chunks must be
 * byte-identical, and each library must decode the other's chunk to the same bytes.
 *
 * usage: plugins_cross OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 */
#define _GNU_SOURCE
#include "pl_common.h"

#include <dlfcn.h>

#define LIB_FUNCS(X)                                                                     \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_create_dctx)           \
  X(blosc2_free_ctx) X(blosc2_compress_ctx) X(blosc2_decompress_ctx) X(blosc2_schunk_new) \
  X(blosc2_schunk_free) X(blosc2_meta_add)

typedef struct {
  const char *label, *path;
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
  int ok = 1;
#define LOAD(name)                                                  \
  *(void **)(&lib->name) = dlsym(lib->handle, #name);               \
  if (!lib->name) {                                                 \
    fprintf(stderr, "%s does not export %s\n", lib->path, #name);   \
    ok = 0;                                                         \
  }
  LIB_FUNCS(LOAD)
#undef LOAD
  return ok;
}

static long failures = 0, checks = 0, identical = 0;

typedef struct {
  blosc2_schunk *sc;
  blosc2_context *cctx, *dctx;
  blosc2_cparams cp;
  blosc2_dparams dp;
} side_t;

static int side_open(lib_t *l, side_t *s, blosc2_cparams cp, const geom_t *g) {
  s->cp = cp;
  s->cp.nthreads = 1;
  s->cp.blocksize = (int32_t)(pl_items(g->block, g->ndim) * cp.typesize);
  s->dp = (blosc2_dparams)BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &s->cp;
  st.dparams = &s->dp;
  s->sc = l->blosc2_schunk_new(&st);
  uint8_t meta[256];
  int len = pl_meta(g, cp.typesize, meta);
  if (!s->sc || l->blosc2_meta_add(s->sc, "b2nd", meta, len) < 0) return 0;
  blosc2_cparams c = s->cp;
  c.schunk = s->sc;
  blosc2_dparams d = s->dp;
  d.schunk = s->sc;
  s->cctx = l->blosc2_create_cctx(c);
  s->dctx = l->blosc2_create_dctx(d);
  return s->cctx && s->dctx;
}

static void side_close(lib_t *l, side_t *s) {
  l->blosc2_free_ctx(s->cctx);
  l->blosc2_free_ctx(s->dctx);
  l->blosc2_schunk_free(s->sc);
}

static void one(lib_t *ours, lib_t *ref, const char *what, blosc2_cparams cp, const geom_t *g, int kind) {
  side_t o, r;
  checks++;
  if (!side_open(ours, &o, cp, g) || !side_open(ref, &r, cp, g)) {
    failures++;
    fprintf(stderr, "FAIL %s: set-up\n", what);
    return;
  }
  int64_t nitems = pl_items(g->chunk, g->ndim);
  int32_t n = (int32_t)(nitems * cp.typesize);
  int32_t room = n + BLOSC2_MAX_OVERHEAD + 4096;
  uint8_t *src = malloc(n), *co = malloc(room), *cr = malloc(room), *d1 = malloc(n), *d2 = malloc(n);
  pl_fill(src, nitems, cp.typesize, kind);
  int so = ours->blosc2_compress_ctx(o.cctx, src, n, co, room);
  int sr = ref->blosc2_compress_ctx(r.cctx, src, n, cr, room);
  if (so != sr || (so > 0 && memcmp(co, cr, so) != 0)) {
    failures++;
    fprintf(stderr, "FAIL %s: ours %d bytes, reference %d bytes, or different bytes\n", what, so, sr);
  } else if (so > 0) {
    identical++;
    /* Each decodes the other's chunk (identical, so both chunks at once). */
    int a = ours->blosc2_decompress_ctx(o.dctx, cr, sr, d1, n);
    int b = ref->blosc2_decompress_ctx(r.dctx, co, so, d2, n);
    checks++;
    if (a != b || (a == n && memcmp(d1, d2, n) != 0)) {
      failures++;
      fprintf(stderr, "FAIL %s: ours decodes %d, reference decodes %d, or bytes differ\n", what, a, b);
    }
  }
  free(src); free(co); free(cr); free(d1); free(d2);
  side_close(ours, &o);
  side_close(ref, &r);
}

static const geom_t geoms[] = {
  {1, {4000}, {1000}}, {1, {1200}, {400}}, {2, {64, 64}, {32, 32}}, {2, {60, 50}, {30, 25}},
  {2, {80, 96}, {40, 48}}, {2, {32, 34}, {16, 17}}, {3, {16, 16, 16}, {8, 8, 8}},
  {3, {20, 16, 20}, {10, 8, 10}}, {4, {8, 8, 8, 8}, {4, 4, 4, 4}}, {4, {8, 12, 8, 6}, {4, 6, 4, 6}},
  /* Larger 2-D blocks: NDLZ streams below and above 64 KiB. */
  {2, {256, 256}, {128, 128}}, {2, {512, 300}, {256, 260}},
};
#define NGEOMS (int)(sizeof(geoms) / sizeof(geoms[0]))

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO\n", argv[0]);
    return 2;
  }
  lib_t ours = {.label = "ours", .path = argv[1]}, ref = {.label = "reference", .path = argv[2]};
  if (!load(&ours) || !load(&ref)) return 1;
  ours.blosc2_init();
  ref.blosc2_init();
  char what[200];
  for (int gi = 0; gi < NGEOMS; gi++) {
    const geom_t *g = &geoms[gi];
    for (int kind = 0; kind < 3; kind++) {
      for (int meta = 4; meta <= 8 && g->ndim == 2; meta += 4) {
        for (int ts = 1; ts <= 4; ts *= 2) {
          blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
          cp.compcode = BLOSC_CODEC_NDLZ;
          cp.compcode_meta = (uint8_t)meta;
          cp.typesize = ts;
          cp.splitmode = BLOSC_ALWAYS_SPLIT;
          cp.filters[BLOSC2_MAX_FILTERS - 1] = ts > 1 ? BLOSC_SHUFFLE : BLOSC_NOFILTER;
          snprintf(what, sizeof what, "ndlz%d ts%d geom%d kind%d", meta, ts, gi, kind);
          one(&ours, &ref, what, cp, g, kind);
        }
      }
      for (int ts = 4; ts <= 8; ts += 4) {
        int codes[3] = {BLOSC_CODEC_ZFP_FIXED_ACCURACY, BLOSC_CODEC_ZFP_FIXED_PRECISION, BLOSC_CODEC_ZFP_FIXED_RATE};
        uint8_t metas[3][2] = {{(uint8_t)-3, (uint8_t)-6}, {12, 25}, {37, 50}};
        for (int z = 0; z < 3; z++) {
          for (int m = 0; m < 2; m++) {
            blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
            cp.compcode = (uint8_t)codes[z];
            cp.compcode_meta = metas[z][m];
            cp.typesize = ts;
            cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
            cp.splitmode = BLOSC_NEVER_SPLIT;
            snprintf(what, sizeof what, "zfp%d/%d ts%d geom%d kind%d", codes[z], metas[z][m], ts, gi, kind);
            one(&ours, &ref, what, cp, g, kind);
          }
        }
      }
      /* Split blocks hand ZFP streams of one byte per item: typesizes it does not take. */
      for (int ts = 1; ts <= 8; ts *= 2) {
        for (int z = 0; z < 3; z++) {
          blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
          cp.compcode = (uint8_t)(BLOSC_CODEC_ZFP_FIXED_ACCURACY + z);
          cp.compcode_meta = z == 0 ? (uint8_t)-3 : z == 1 ? 12 : 37;
          cp.typesize = ts;
          cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_SHUFFLE;
          cp.splitmode = BLOSC_ALWAYS_SPLIT;
          snprintf(what, sizeof what, "zfp%d split ts%d geom%d kind%d", cp.compcode, ts, gi, kind);
          one(&ours, &ref, what, cp, g, kind);
        }
        for (int meta = 2; meta <= 4; meta++) {
          for (int f = 0; f < 2; f++) {
            blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
            cp.compcode = f ? BLOSC_LZ4 : BLOSC_ZSTD;
            cp.typesize = ts;
            cp.filters[0] = f ? BLOSC_FILTER_NDMEAN : BLOSC_FILTER_NDCELL;
            cp.filters_meta[0] = (uint8_t)meta;
            cp.filters[1] = BLOSC_SHUFFLE;
            cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOFILTER;
            snprintf(what, sizeof what, "%s%d ts%d geom%d kind%d", f ? "ndmean" : "ndcell", meta, ts, gi, kind);
            one(&ours, &ref, what, cp, g, kind);
          }
        }
      }
    }
  }
  printf("%ld checks, %ld byte-identical chunks, %ld failures\n", checks, identical, failures);
  return failures != 0 || identical < 500;
}
