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
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIB_FUNCS(X)                                                                      \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_register_tuner) X(blosc2_create_cctx)         \
  X(blosc2_create_dctx) X(blosc2_free_ctx) X(blosc2_compress_ctx) X(blosc2_decompress_ctx) \
  X(blosc2_schunk_new) X(blosc2_schunk_free) X(blosc2_schunk_append_buffer)               \
  X(blosc2_schunk_get_chunk) X(blosc2_schunk_decompress_chunk)
#include "../cross_lib.h"

typedef struct {
  int calls;
  int fail_at;
} tt_config;

#define NSIZES 3
#define MAXCHUNKS 16
static const int sizes[NSIZES] = {1 << 18, 100004, 1 << 16};

typedef struct {
  char text[1 << 17];
  size_t len;
  uint8_t *chunk[MAXCHUNKS];
  int csize[MAXCHUNKS];
  int src_of[MAXCHUNKS];
  int nchunks;
} transcript_t;

static transcript_t runs[2];
static uint8_t *src;
static const char *(*tt_log)(void);
static void (*tt_reset)(void);

static void note(transcript_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->text + t->len, sizeof(t->text) - t->len, fmt, ap);
  va_end(ap);
  if (n > 0 && t->len + (size_t)n < sizeof(t->text)) t->len += (size_t)n;
}

/* Moves what the plugin logged so far into the transcript. */
static void take_log(transcript_t *t) {
  note(t, "%s", tt_log());
  tt_reset();
}

static void keep(transcript_t *t, const uint8_t *chunk, int size, int which) {
  if (t->nchunks >= MAXCHUNKS || size <= 0) return;
  t->chunk[t->nchunks] = malloc((size_t)size);
  memcpy(t->chunk[t->nchunks], chunk, (size_t)size);
  t->csize[t->nchunks] = size;
  t->src_of[t->nchunks] = which;
  t->nchunks++;
}

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

/* Writes the Python package that tells where the plugin library is. */
static int make_package(const char *dir, const char *so) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/blosc2_tinytunedyn", dir);
  if (mkdir(path, 0700) != 0) return 0;
  snprintf(path, sizeof(path), "%s/blosc2_tinytunedyn/__init__.py", dir);
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  fprintf(f, "def print_libpath():\n    print(%c%s%c, end='')\n", '"', so, '"');
  return fclose(f) == 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO TUNER_SO\n", argv[0]);
    return 2;
  }
  char so[4096];
  if (!realpath(argv[3], so)) {
    fprintf(stderr, "no tuner plugin at %s\n", argv[3]);
    return 1;
  }
  char dir[] = "/tmp/plugins_tuner_XXXXXX";
  if (!mkdtemp(dir) || !make_package(dir, so)) {
    fprintf(stderr, "cannot write the Python package\n");
    return 1;
  }
  const char *old = getenv("PYTHONPATH");
  char pp[8192];
  snprintf(pp, sizeof(pp), "%s%s%s", dir, old ? ":" : "", old ? old : "");
  setenv("PYTHONPATH", pp, 1);
  void *plugin = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    fprintf(stderr, "cannot load %s: %s\n", so, dlerror());
    return 1;
  }
  *(void **)&tt_log = dlsym(plugin, "tt_log");
  *(void **)&tt_reset = dlsym(plugin, "tt_reset");
  lib_t libs[2] = {{.label = "ours", .path = argv[1]}, {.label = "reference", .path = argv[2]}};
  if (!tt_log || !tt_reset || !cross_load(&libs[0]) || !cross_load(&libs[1])) return 1;
  src = malloc(1 << 18);
  for (int i = 0; i < (1 << 16); i++) ((float *)src)[i] = (float)((i * 7) % 1000) * 0.5f;
  for (int w = 0; w < 2; w++) {
    tt_reset();
    run(&libs[w], &runs[w], plugin);
  }
  int fail = 0;
  if (strcmp(runs[0].text, runs[1].text) != 0) {
    fail = 1;
    printf("FAIL: the tuner calls differ\n--- ours\n%s--- reference\n%s", runs[0].text,
           runs[1].text);
  }
  if (runs[0].nchunks != runs[1].nchunks || runs[0].nchunks < 10) {
    fail = 1;
    printf("FAIL: chunks written: ours %d, reference %d\n", runs[0].nchunks, runs[1].nchunks);
  }
  uint8_t *back = malloc(1 << 18);
  for (int i = 0; i < runs[0].nchunks && i < runs[1].nchunks; i++) {
    if (runs[0].csize[i] != runs[1].csize[i] ||
        memcmp(runs[0].chunk[i], runs[1].chunk[i], (size_t)runs[0].csize[i]) != 0) {
      fail = 1;
      printf("FAIL: chunk %d differs (%d vs %d bytes)\n", i, runs[0].csize[i], runs[1].csize[i]);
    }
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
  printf("%s", runs[0].text);
  printf("%d chunks compared; %s\n", runs[0].nchunks, fail ? "FAILED" : "OK");
  char cmd[8300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return fail;
}
