/*
 * Tuner cross test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL; the reference headers serve both) and, with each, drives the tuner plugin
 * ctest/plugins/tinytune.c (TUNER_SO) through contexts and super-chunks: registered with
 * its functions (id 200) and by name only (id 201, found through the Python package
 * `blosc2_tinytunedyn` written to a temporary directory on PYTHONPATH, as tuner wheels are
 * found). The plugin logs every call with what it sees in the context and changes the
 * parameters; both libraries must make the same calls with the same values, write the same
 * chunks, read each other's chunks, and fail the same way for unknown or failing tuners.
 *
 * usage: plugins_tuner OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO TUNER_SO
 */
#define _GNU_SOURCE
#include <blosc2.h>
#include <stdint.h>
#include <stdlib.h>

#define LIB_FUNCS(X)                                                                      \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_register_tuner) X(blosc2_create_cctx)         \
  X(blosc2_create_dctx) X(blosc2_free_ctx) X(blosc2_compress_ctx) X(blosc2_decompress_ctx) \
  X(blosc2_schunk_new) X(blosc2_schunk_free) X(blosc2_schunk_append_buffer)               \
  X(blosc2_schunk_get_chunk) X(blosc2_schunk_decompress_chunk)
#include "../cross_lib.h"
#include "tuner_common.h"

typedef struct {
  int calls;
  int fail_at;
} tt_config;

#define NSIZES 3
static const int sizes[NSIZES] = {1 << 18, 100004, 1 << 16};

static transcript_t runs[2];
static uint8_t *src;

static blosc2_cparams params(int tuner_id, void *tuner_params) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  cp.tuner_id = tuner_id;
  cp.tuner_params = tuner_params;
  return cp;
}

/* A context with the tuner compresses the three sources. */
static void with_context(lib_t *l, transcript_t *t, const char *label, int id, tt_config *cfg) {
  note(t, "== context %s\n", label);
  blosc2_context *c = l->blosc2_create_cctx(params(id, cfg));
  take_log(t);
  note(t, "create_cctx %s\n", c ? "ok" : "NULL");
  if (!c) return;
  uint8_t *out = malloc((1 << 18) + BLOSC2_MAX_OVERHEAD);
  for (int i = 0; i < NSIZES; i++) {
    int n = l->blosc2_compress_ctx(c, src, sizes[i], out, sizes[i] + BLOSC2_MAX_OVERHEAD);
    take_log(t);
    note(t, "compress %d -> %d\n", sizes[i], n);
    keep(t, out, n, i);
  }
  l->blosc2_free_ctx(c);
  take_log(t);
  free(out);
}

/* A super-chunk with the tuner takes the three sources. */
static void with_schunk(lib_t *l, transcript_t *t, const char *label, int id, tt_config *cfg) {
  note(t, "== schunk %s\n", label);
  blosc2_cparams cp = params(id, cfg);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = {.contiguous = false, .cparams = &cp, .dparams = &dp};
  blosc2_schunk *s = l->blosc2_schunk_new(&st);
  take_log(t);
  note(t, "schunk_new %s\n", s ? "ok" : "NULL");
  if (!s) return;
  for (int i = 0; i < NSIZES; i++) {
    int64_t n = l->blosc2_schunk_append_buffer(s, src, sizes[0]);
    take_log(t);
    note(t, "append -> %lld\n", (long long)n);
    if (n < 0) continue;
    uint8_t *chunk;
    bool needs_free;
    int cs = l->blosc2_schunk_get_chunk(s, n - 1, &chunk, &needs_free);
    keep(t, chunk, cs, 0);
    if (needs_free) free(chunk);
  }
  l->blosc2_schunk_free(s);
  take_log(t);
}

static void run(lib_t *l, transcript_t *t, void *plugin) {
  l->blosc2_init();
  blosc2_tuner full = {.id = 200, .name = "tinytune"};
  *(void **)&full.init = dlsym(plugin, "tt_init");
  *(void **)&full.next_blocksize = dlsym(plugin, "tt_next_blocksize");
  *(void **)&full.next_cparams = dlsym(plugin, "tt_next_cparams");
  *(void **)&full.update = dlsym(plugin, "tt_update");
  *(void **)&full.free = dlsym(plugin, "tt_free");
  blosc2_tuner byname = {.id = 201, .name = "tinytunedyn"};
  blosc2_tuner absent = {.id = 203, .name = "absenttune"};
  note(t, "register %d %d %d\n", l->blosc2_register_tuner(&full),
       l->blosc2_register_tuner(&byname), l->blosc2_register_tuner(&absent));
  tt_config cfg = {0, 0};
  with_context(l, t, "registered, no params", 200, NULL);
  with_context(l, t, "registered, params", 200, &cfg);
  cfg = (tt_config){0, 0};
  with_context(l, t, "by name, params", 201, &cfg);
  with_context(l, t, "by name, no params", 201, NULL);
  cfg = (tt_config){0, 0};
  with_schunk(l, t, "registered, params", 200, &cfg);
  with_schunk(l, t, "by name, no params", 201, NULL);
  cfg = (tt_config){0, 2};
  with_context(l, t, "next_cparams fails from the third call", 200, &cfg);
  cfg = (tt_config){0, -1};
  with_context(l, t, "init fails", 200, &cfg);
  with_context(l, t, "unregistered id", 202, NULL);
  with_context(l, t, "library not found", 203, NULL);
  l->blosc2_destroy();
}


int main(int argc, char **argv) {
  char so[4096];
  lib_t libs[2];
  void *plugin = tt_setup(argc, argv, so, libs);
  if (!plugin) return 1;
  char dir[] = "/tmp/plugins_tuner_XXXXXX";
  if (!mkdtemp(dir) || !write_package(dir, "blosc2_tinytunedyn", so)) {
    fprintf(stderr, "cannot write the Python package\n");
    return 1;
  }
  const char *old = getenv("PYTHONPATH");
  char pp[8192];
  snprintf(pp, sizeof(pp), "%s%s%s", dir, old ? ":" : "", old ? old : "");
  setenv("PYTHONPATH", pp, 1);
  src = malloc(1 << 18);
  for (int i = 0; i < (1 << 16); i++) ((float *)src)[i] = (float)((i * 7) % 1000) * 0.5f;
  for (int w = 0; w < 2; w++) {
    tt_reset();
    run(&libs[w], &runs[w], plugin);
  }
  int fail = tt_compare(runs, 10, "tuner calls");
  uint8_t *back = malloc(1 << 18);
  for (int i = 0; i < runs[0].nchunks && i < runs[1].nchunks; i++) {
    for (int w = 0; w < 2; w++) {
      lib_t *l = &libs[1 - w];
      l->blosc2_init();
      blosc2_context *d = l->blosc2_create_dctx(BLOSC2_DPARAMS_DEFAULTS);
      int want = sizes[runs[w].src_of[i]];
      int got = l->blosc2_decompress_ctx(d, runs[w].chunk[i], runs[w].csize[i], back, 1 << 18);
      l->blosc2_free_ctx(d);
      if (got != want || memcmp(back, src, (size_t)want) != 0) {
        fail = 1;
        printf("FAIL: %s decoding chunk %d of %s: %d\n", l->label, i, libs[w].label, got);
      }
    }
  }
  return tt_finish(runs, fail, dir);
}
