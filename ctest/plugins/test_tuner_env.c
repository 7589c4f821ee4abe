/*
 * BTUNE_TRADEOFF cross test: loads OUR library and the REFERENCE library into one process
 * (dlopen, RTLD_LOCAL; the reference headers serve both) and, with each, checks what the
 * environment variable BTUNE_TRADEOFF does: set to anything (even empty), new super-chunks
 * (blosc2_schunk_new, blosc2_schunk_copy, b2nd arrays) use tuner 32 (btune) whatever their
 * cparams say; contexts made directly and super-chunks opened from frames do not. btune is
 * the tuner plugin ctest/plugins/tinytune.c (TUNER_SO), found as the real one is: through a
 * Python package `blosc2_btune` written to a temporary directory on PYTHONPATH. Without
 * btune installed (PYTHONPATH naming an empty directory) the super-chunks are not made. Both
 * libraries must make the same tuner calls with the same values, give the same results,
 * write the same chunks and read each other's.
 *
 * usage: plugins_tuner_env OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO TUNER_SO
 */
#define _GNU_SOURCE
#include <b2nd.h>
#include <blosc2.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#define LIB_FUNCS(X)                                                                      \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_create_dctx)            \
  X(blosc2_free_ctx) X(blosc2_compress_ctx) X(blosc2_decompress_ctx) X(blosc2_schunk_new)  \
  X(blosc2_schunk_free) X(blosc2_schunk_copy) X(blosc2_schunk_append_buffer)              \
  X(blosc2_schunk_get_chunk) X(blosc2_schunk_get_cparams) X(blosc2_schunk_to_buffer)      \
  X(blosc2_schunk_from_buffer) X(b2nd_create_ctx) X(b2nd_free_ctx) X(b2nd_from_cbuffer)   \
  X(b2nd_zeros) X(b2nd_free) X(blosc2_remove_urlpath)
#include "../cross_lib.h"
#include "tuner_common.h"

#define NBYTES (1 << 16)

static transcript_t runs[2];
static uint8_t *src;
static char pkg_ok[64], pkg_missing[64], frame_path[96];

/* Appends every chunk of `s` (all made from `src`) to the transcript's chunks. */
static void keep_chunks(lib_t *l, transcript_t *t, blosc2_schunk *s) {
  for (int64_t i = 0; i < s->nchunks && t->nchunks < TT_MAXCHUNKS; i++) {
    uint8_t *chunk;
    bool needs_free;
    int cs = l->blosc2_schunk_get_chunk(s, i, &chunk, &needs_free);
    keep(t, chunk, cs, 0);
    if (needs_free) free(chunk);
  }
}

static blosc2_cparams params(void *tuner_params) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  cp.tuner_params = tuner_params;
  return cp;
}

/* The tuner id a super-chunk reports (its storage and blosc2_schunk_get_cparams). */
static void tuner_of(lib_t *l, transcript_t *t, blosc2_schunk *s) {
  blosc2_cparams *cp = NULL;
  int rc = l->blosc2_schunk_get_cparams(s, &cp);
  note(t, "tuner_id storage=%d get_cparams=%d (rc %d)\n", s->storage->cparams->tuner_id,
       cp ? cp->tuner_id : -1, rc);
  free(cp);
}

/* A new super-chunk takes three buffers; returns it (or NULL). */
static blosc2_schunk *fill(lib_t *l, transcript_t *t, const char *label, void *tuner_params) {
  note(t, "== schunk_new %s\n", label);
  blosc2_cparams cp = params(tuner_params);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = {.contiguous = true, .cparams = &cp, .dparams = &dp};
  blosc2_schunk *s = l->blosc2_schunk_new(&st);
  take_log(t);
  note(t, "schunk_new %s; caller's tuner_id still %d\n", s ? "ok" : "NULL", cp.tuner_id);
  if (!s) return NULL;
  tuner_of(l, t, s);
  for (int i = 0; i < 3; i++) {
    int64_t n = l->blosc2_schunk_append_buffer(s, src + i * 4096, NBYTES);
    take_log(t);
    note(t, "append -> %lld\n", (long long)n);
  }
  return s;
}

/* A frame file: when the super-chunk cannot be made, nothing is left at its path. */
static void file_frame(lib_t *l, transcript_t *t) {
  blosc2_cparams cp = params(NULL);
  blosc2_storage st = {.contiguous = true, .urlpath = frame_path, .cparams = &cp};
  l->blosc2_remove_urlpath(frame_path);
  blosc2_schunk *s = l->blosc2_schunk_new(&st);
  take_log(t);
  struct stat sb;
  note(t, "file schunk_new %s; path %s\n", s ? "ok" : "NULL",
       stat(frame_path, &sb) == 0 ? "exists" : "absent");
  if (s) l->blosc2_schunk_free(s);
  take_log(t);
  l->blosc2_remove_urlpath(frame_path);
}

/* Frees a super-chunk, logging the tuner's calls. */
static void drop(lib_t *l, transcript_t *t, blosc2_schunk *s) {
  if (!s) return;
  keep_chunks(l, t, s);
  l->blosc2_schunk_free(s);
  take_log(t);
}

/* A context made directly compresses one buffer. */
static void direct_context(lib_t *l, transcript_t *t) {
  note(t, "== create_cctx\n");
  blosc2_context *c = l->blosc2_create_cctx(params(NULL));
  take_log(t);
  note(t, "create_cctx %s\n", c ? "ok" : "NULL");
  if (!c) return;
  uint8_t *out = malloc(NBYTES + BLOSC2_MAX_OVERHEAD);
  int n = l->blosc2_compress_ctx(c, src, NBYTES, out, NBYTES + BLOSC2_MAX_OVERHEAD);
  take_log(t);
  note(t, "compress -> %d\n", n);
  l->blosc2_free_ctx(c);
  take_log(t);
  free(out);
}

/* b2nd arrays: zeros and one from a buffer. */
static void arrays(lib_t *l, transcript_t *t) {
  note(t, "== b2nd\n");
  blosc2_cparams cp = params(NULL);
  blosc2_storage st = {.contiguous = false, .cparams = &cp};
  int64_t shape[2] = {128, 128};
  int32_t chunkshape[2] = {64, 64}, blockshape[2] = {32, 32};
  b2nd_context_t *ctx = l->b2nd_create_ctx(&st, 2, shape, chunkshape, blockshape, NULL, 0, NULL, 0);
  take_log(t);
  if (!ctx) {
    note(t, "b2nd_create_ctx NULL\n");
    return;
  }
  b2nd_array_t *a = NULL;
  int rc = l->b2nd_zeros(ctx, &a);
  take_log(t);
  note(t, "b2nd_zeros -> %d\n", rc);
  if (rc >= 0) {
    l->b2nd_free(a);
    take_log(t);
  }
  a = NULL;
  rc = l->b2nd_from_cbuffer(ctx, &a, src, NBYTES);
  take_log(t);
  note(t, "b2nd_from_cbuffer -> %d\n", rc);
  if (rc >= 0) {
    tuner_of(l, t, a->sc);
    keep_chunks(l, t, a->sc);
    l->b2nd_free(a);
    take_log(t);
  }
  l->b2nd_free_ctx(ctx);
  take_log(t);
}

static void use_package(const char *dir) { setenv("PYTHONPATH", dir, 1); }

/* A copy of the untuned super-chunk `s` (its chunks copied as they are, the parameters
 * being the same) takes one more buffer. */
static void copy_of(lib_t *l, transcript_t *t, blosc2_schunk *s) {
  note(t, "== schunk_copy\n");
  blosc2_cparams cp = params(NULL);
  blosc2_storage st = {.contiguous = false, .cparams = &cp};
  blosc2_schunk *c = l->blosc2_schunk_copy(s, &st);
  take_log(t);
  note(t, "schunk_copy %s\n", c ? "ok" : "NULL");
  if (!c) return;
  tuner_of(l, t, c);
  int64_t n = l->blosc2_schunk_append_buffer(c, src, NBYTES);
  take_log(t);
  note(t, "append -> %lld\n", (long long)n);
  drop(l, t, c);
}

/* A super-chunk opened from the frame of the tuned super-chunk `s` takes one more buffer. */
static void reopened(lib_t *l, transcript_t *t, blosc2_schunk *s) {
  note(t, "== schunk_from_buffer\n");
  uint8_t *frame;
  bool needs_free;
  int64_t len = l->blosc2_schunk_to_buffer(s, &frame, &needs_free);
  blosc2_schunk *o = len > 0 ? l->blosc2_schunk_from_buffer(frame, len, true) : NULL;
  take_log(t);
  note(t, "schunk_from_buffer %s\n", o ? "ok" : "NULL");
  if (o) {
    tuner_of(l, t, o);
    int64_t n = l->blosc2_schunk_append_buffer(o, src, NBYTES);
    take_log(t);
    note(t, "append -> %lld\n", (long long)n);
    drop(l, t, o);
  }
  if (needs_free) free(frame);
}

static void run(lib_t *l, transcript_t *t) {
  l->blosc2_init();
  tt_reset();
  use_package(pkg_ok);
  unsetenv("BTUNE_TRADEOFF");
  note(t, "### BTUNE_TRADEOFF unset\n");
  blosc2_schunk *plain = fill(l, t, "defaults", NULL);

  setenv("BTUNE_TRADEOFF", "0.5", 1);
  use_package(pkg_missing);
  note(t, "### BTUNE_TRADEOFF=0.5, btune not installed\n");
  drop(l, t, fill(l, t, "defaults", NULL));
  file_frame(l, t);
  if (plain) copy_of(l, t, plain);
  arrays(l, t);
  direct_context(l, t);

  use_package(pkg_ok);
  note(t, "### BTUNE_TRADEOFF=0.5, btune installed\n");
  blosc2_schunk *s = fill(l, t, "defaults", NULL);
  if (s) reopened(l, t, s);
  drop(l, t, s);
  if (plain) copy_of(l, t, plain);
  int config[2] = {0, 0};
  drop(l, t, fill(l, t, "with tuner_params", config));
  arrays(l, t);
  direct_context(l, t);

  setenv("BTUNE_TRADEOFF", "", 1);
  note(t, "### BTUNE_TRADEOFF empty\n");
  drop(l, t, fill(l, t, "defaults", NULL));
  unsetenv("BTUNE_TRADEOFF");
  drop(l, t, plain);
  l->blosc2_destroy();
}

/* Makes the directory `root`/`sub` (its path put in `dir`) and, when `so` is given, the
 * package `blosc2_btune` in it, printing the plugin's path; without it btune is absent. */
static int make_package(const char *root, const char *sub, const char *so, char *dir) {
  snprintf(dir, 64, "%s/%s", root, sub);
  if (mkdir(dir, 0700) != 0) return 0;
  return !so || write_package(dir, "blosc2_btune", so);
}

int main(int argc, char **argv) {
  char so[4096];
  lib_t libs[2];
  if (!tt_setup(argc, argv, so, libs)) return 1;
  char root[] = "/tmp/plugins_tuner_env_XXXXXX";
  if (!mkdtemp(root)) return 1;
  snprintf(frame_path, sizeof frame_path, "%s/frame.b2frame", root);
  if (!make_package(root, "ok", so, pkg_ok) ||
      !make_package(root, "missing", NULL, pkg_missing)) {
    fprintf(stderr, "cannot write the Python packages\n");
    return 1;
  }
  src = malloc(NBYTES + 3 * 4096 * 4);
  for (int i = 0; i < NBYTES / 4 + 3 * 4096; i++) ((float *)src)[i] = (float)((i * 7) % 1000) * 0.5f;
  for (int w = 0; w < 2; w++) run(&libs[w], &runs[w]);
  int fail = tt_compare(runs, 12, "transcripts");
  /* The tuner must have been used through each constructor. */
  const char *want[] = {"schunk_new ok; caller's tuner_id still 0\ntuner_id storage=32",
                        "schunk_copy ok\ntuner_id storage=32", "b2nd_from_cbuffer -> 0\ntuner_id storage=32",
                        "init BTUNE_TRADEOFF=0.5", "init BTUNE_TRADEOFF=: own config"};
  for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
    if (!strstr(runs[0].text, want[i])) {
      fail = 1;
      printf("FAIL: ours never logged \"%s\"\n", want[i]);
    }
  }
  /* Each chunk decodes to the same bytes through both libraries. */
  uint8_t *back[2] = {malloc(NBYTES), malloc(NBYTES)};
  for (int i = 0; i < runs[0].nchunks && i < runs[1].nchunks; i++) {
    for (int w = 0; w < 2; w++) {
      int got[2];
      for (int r = 0; r < 2; r++) {
        lib_t *l = &libs[r];
        l->blosc2_init();
        blosc2_context *d = l->blosc2_create_dctx(BLOSC2_DPARAMS_DEFAULTS);
        got[r] = l->blosc2_decompress_ctx(d, runs[w].chunk[i], runs[w].csize[i], back[r], NBYTES);
        l->blosc2_free_ctx(d);
        l->blosc2_destroy();
      }
      if (got[0] <= 0 || got[0] != got[1] || memcmp(back[0], back[1], (size_t)got[0]) != 0) {
        fail = 1;
        printf("FAIL: chunk %d of %s decodes to %d bytes by ours, %d by the reference\n", i,
               libs[w].label, got[0], got[1]);
      }
    }
  }
  return tt_finish(runs, fail, root);
}
