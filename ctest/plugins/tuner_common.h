/*
 * What the two tuner cross tests (test_tuner.c, test_tuner_env.c) share: the transcript of
 * one library's run (what the tuner plugin ctest/plugins/tinytune.c logged, what the test
 * noted, the chunks written), the plugin's log functions, the Python package through which
 * a library finds the plugin, the command line `PROG OURS_SO REFERENCE_SO TUNER_SO` and the
 * comparison of the two runs. Include after ../cross_lib.h.
 */
#ifndef BLOSC2_PLUGINS_TUNER_COMMON_H
#define BLOSC2_PLUGINS_TUNER_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TT_MAXCHUNKS 32

typedef struct {
  char text[1 << 17];
  size_t len;
  uint8_t *chunk[TT_MAXCHUNKS];
  int csize[TT_MAXCHUNKS];
  int src_of[TT_MAXCHUNKS];
  int nchunks;
} transcript_t;

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

/* Keeps a copy of a chunk made from source `which`. */
static void keep(transcript_t *t, const uint8_t *chunk, int size, int which) {
  if (t->nchunks >= TT_MAXCHUNKS || size <= 0) return;
  t->chunk[t->nchunks] = malloc((size_t)size);
  memcpy(t->chunk[t->nchunks], chunk, (size_t)size);
  t->csize[t->nchunks] = size;
  t->src_of[t->nchunks] = which;
  t->nchunks++;
}

/* Writes the Python package `pkg` in `dir` whose print_libpath() prints `so`. */
static int write_package(const char *dir, const char *pkg, const char *so) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, pkg);
  if (mkdir(path, 0700) != 0) return 0;
  snprintf(path, sizeof(path), "%s/%s/__init__.py", dir, pkg);
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  fprintf(f, "def print_libpath():\n    print(%c%s%c, end='')\n", '"', so, '"');
  return fclose(f) == 0;
}

/* Checks the command line, puts the tuner plugin's absolute path in `so` (4096 bytes),
 * opens it for its log functions and loads both libraries. Returns the plugin's handle,
 * or NULL after saying what went wrong. */
static void *tt_setup(int argc, char **argv, char *so, lib_t *libs) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO TUNER_SO\n", argv[0]);
    return NULL;
  }
  if (!realpath(argv[3], so)) {
    fprintf(stderr, "no tuner plugin at %s\n", argv[3]);
    return NULL;
  }
  void *plugin = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    fprintf(stderr, "cannot load %s: %s\n", so, dlerror());
    return NULL;
  }
  *(void **)&tt_log = dlsym(plugin, "tt_log");
  *(void **)&tt_reset = dlsym(plugin, "tt_reset");
  libs[0] = (lib_t){.label = "ours", .path = argv[1]};
  libs[1] = (lib_t){.label = "reference", .path = argv[2]};
  if (!tt_log || !tt_reset || !cross_load(&libs[0]) || !cross_load(&libs[1])) return NULL;
  return plugin;
}

/* Compares the two runs: the same transcript, at least `min_chunks` chunks each, the
 * same bytes chunk by chunk. Returns 1 on any difference (printed). */
static int tt_compare(const transcript_t *runs, int min_chunks, const char *what) {
  int fail = 0;
  if (strcmp(runs[0].text, runs[1].text) != 0) {
    fail = 1;
    printf("FAIL: the %s differ\n--- ours\n%s--- reference\n%s", what, runs[0].text,
           runs[1].text);
  }
  if (runs[0].nchunks != runs[1].nchunks || runs[0].nchunks < min_chunks) {
    fail = 1;
    printf("FAIL: chunks written: ours %d, reference %d\n", runs[0].nchunks, runs[1].nchunks);
  }
  for (int i = 0; i < runs[0].nchunks && i < runs[1].nchunks; i++) {
    if (runs[0].csize[i] != runs[1].csize[i] ||
        memcmp(runs[0].chunk[i], runs[1].chunk[i], (size_t)runs[0].csize[i]) != 0) {
      fail = 1;
      printf("FAIL: chunk %d differs (%d vs %d bytes)\n", i, runs[0].csize[i], runs[1].csize[i]);
    }
  }
  return fail;
}

/* Prints the transcript and the verdict, removes the temporary directory `dir`. */
static int tt_finish(const transcript_t *runs, int fail, const char *dir) {
  printf("%s", runs[0].text);
  printf("%d chunks compared; %s\n", runs[0].nchunks, fail ? "FAILED" : "OK");
  char cmd[4200];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return fail;
}

#endif
