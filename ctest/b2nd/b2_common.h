/*
 * Helpers shared by the b2nd C tests of blosc2-oxide: check accounting, a scratch
 * directory, a plain C model of an N-dimensional array (flat C-order bytes, slices and shape
 * changes written as loops over every index), array factories for the storage kinds, and a
 * child-process runner so that a crash counts as a failure instead of ending the test.
 *
 * Header-only; include it before any system header. The same sources build against our
 * headers/library (BLOSC2_VARIANT_OURS) and the reference's (BLOSC2_VARIANT_REFERENCE).
 * Programs that dlopen the libraries define B2_NO_LIBRARY and use only the library-free part.
 */
#ifndef BLOSC2_B2ND_B2_COMMON_H
#define BLOSC2_B2ND_B2_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <b2nd.h>

#include "../test_common.h"

/* ---- check accounting, allocation and files: ../test_common.h's, under this header's names */
#define b2_failures tc_failures
#define b2_checks tc_checks
#define b2_fail tc_fail
#define b2_finish tc_finish
#define b2_malloc tc_malloc
#define b2_exists tc_exists
#define b2_file_size tc_file_size
#define b2_read_file tc_read_file
#define b2_write_file tc_write_file

static double b2_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- scratch directory ---------------------------------------------------------------- */

static char b2_tmp_root[512];

static int b2_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void b2_rm_rf(const char *path) { nftw(path, b2_rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

static pid_t b2_tmp_owner = 0;
static void b2_cleanup_tmp(void) {
  if (b2_tmp_root[0] && getpid() == b2_tmp_owner) b2_rm_rf(b2_tmp_root);
}

/* Create a private scratch directory (removed at exit) for test `name`. */
static void b2_make_tmp(const char *name) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  snprintf(b2_tmp_root, sizeof b2_tmp_root, "%s/b2nd-%s-XXXXXX", base, name);
  if (!mkdtemp(b2_tmp_root)) {
    fprintf(stderr, "mkdtemp(%s): %s\n", b2_tmp_root, strerror(errno));
    exit(2);
  }
  b2_tmp_owner = getpid();
  atexit(b2_cleanup_tmp);
}

/* Path of `leaf` inside the scratch directory (static rotating buffers). */
static char *b2_path(const char *leaf) {
  static char bufs[8][640];
  static int next = 0;
  char *b = bufs[next++ & 7];
  snprintf(b, sizeof bufs[0], "%s/%s", b2_tmp_root, leaf);
  return b;
}

/* ---- child processes ------------------------------------------------------------------ */

/*
 * Run fn(arg) in a child process; returns fn's exit value (0..255) or -signal when the child
 * was killed by a signal (a crash), -1000 when it ran longer than `timeout` seconds.
 */
static int b2_in_child(int (*fn)(void *), void *arg, int timeout) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -2000;
  if (pid == 0) {
    alarm((unsigned)timeout);
    int rc = fn(arg);
    fflush(stdout);
    _exit(rc & 0xff);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGALRM ? -1000 : -WTERMSIG(status);
  return WEXITSTATUS(status);
}

/* ---- the model: an N-d array as flat C-order bytes ------------------------------------ */

#define B2_MAXD B2ND_MAX_DIM

typedef struct {
  int8_t ndim;
  int64_t shape[B2_MAXD];
  int32_t itemsize;
  uint8_t *data;    /* nitems * itemsize bytes, C order */
  uint8_t *defined; /* NULL, or one flag per item: 0 = content unspecified (not compared) */
} b2_model;

static int64_t b2_prod(const int64_t *v, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= v[i];
  return p;
}

static int64_t b2_model_nitems(const b2_model *m) { return b2_prod(m->shape, m->ndim); }
static int64_t b2_model_nbytes(const b2_model *m) { return b2_model_nitems(m) * m->itemsize; }

/* Byte b of the item with flat index i in a pattern identified by seed. */
static uint8_t b2_pattern(int64_t i, int32_t b, uint32_t seed) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ULL + (uint64_t)b * 0xBF58476D1CE4E5B9ULL + seed;
  x ^= x >> 29;
  /* mostly small, so the data compresses a little */
  return (uint8_t)((b == 0) ? (uint8_t)(i + seed) : (uint8_t)((x >> 40) & 3));
}

static void b2_fill_pattern(uint8_t *buf, int64_t nitems, int32_t itemsize, uint32_t seed) {
  for (int64_t i = 0; i < nitems; i++)
    for (int32_t b = 0; b < itemsize; b++) buf[i * itemsize + b] = b2_pattern(i, b, seed);
}

/* New model of the given shape filled with a pattern (seed) or zeros (seed == 0). */
static b2_model b2_model_new(int8_t ndim, const int64_t *shape, int32_t itemsize, uint32_t seed) {
  b2_model m;
  memset(&m, 0, sizeof m);
  m.ndim = ndim;
  for (int i = 0; i < ndim; i++) m.shape[i] = shape[i];
  m.itemsize = itemsize;
  int64_t n = b2_model_nbytes(&m);
  m.data = (uint8_t *)b2_malloc((size_t)n);
  if (seed)
    b2_fill_pattern(m.data, b2_model_nitems(&m), itemsize, seed);
  else
    memset(m.data, 0, (size_t)n);
  return m;
}

static void b2_model_free(b2_model *m) {
  free(m->data);
  free(m->defined);
  m->data = NULL;
  m->defined = NULL;
}

/* Advance an odometer idx over the box [lo, hi) (C order); returns 0 when done. */
static int b2_next_index(int n, int64_t *idx, const int64_t *lo, const int64_t *hi) {
  for (int d = n - 1; d >= 0; d--) {
    if (++idx[d] < hi[d]) return 1;
    idx[d] = lo[d];
  }
  return 0;
}

static int b2_box_empty(int n, const int64_t *lo, const int64_t *hi) {
  for (int d = 0; d < n; d++)
    if (hi[d] <= lo[d]) return 1;
  return 0;
}

/* Flat offset of idx in an array of `shape` (C order). */
static int64_t b2_flat(int n, const int64_t *shape, const int64_t *idx) {
  int64_t f = 0;
  for (int d = 0; d < n; d++) f = f * shape[d] + idx[d];
  return f;
}

/* Copy the box [start, stop) of the model into out (C order of the box). */
static void b2_model_get(const b2_model *m, const int64_t *start, const int64_t *stop,
                         uint8_t *out) {
  if (b2_box_empty(m->ndim, start, stop)) return;
  int64_t idx[B2_MAXD];
  for (int d = 0; d < m->ndim; d++) idx[d] = start[d];
  int64_t k = 0;
  do {
    memcpy(out + k * m->itemsize, m->data + b2_flat(m->ndim, m->shape, idx) * m->itemsize,
           (size_t)m->itemsize);
    k++;
  } while (b2_next_index(m->ndim, idx, start, stop));
}

/* Write the box [start, stop) of the model from src (C order of the box). */
static void b2_model_set(b2_model *m, const int64_t *start, const int64_t *stop,
                         const uint8_t *src) {
  if (b2_box_empty(m->ndim, start, stop)) return;
  int64_t idx[B2_MAXD];
  for (int d = 0; d < m->ndim; d++) idx[d] = start[d];
  int64_t k = 0;
  do {
    int64_t f = b2_flat(m->ndim, m->shape, idx);
    memcpy(m->data + f * m->itemsize, src + k * m->itemsize, (size_t)m->itemsize);
    if (m->defined) m->defined[f] = 1;
    k++;
  } while (b2_next_index(m->ndim, idx, start, stop));
}

/*
 * Reshape the model to new_shape: items whose index (minus `shift` on each axis) lies in
 * the old array keep their value, the others become `fill` (itemsize bytes; NULL = content
 * unspecified, as after a resize: the reference exposes stale padding there).
 * shift[d] > 0 inserts shift[d] new items before position `at[d]` of axis d; shift[d] < 0
 * deletes -shift[d] items starting at at[d].
 */
static void b2_model_reshape(b2_model *m, const int64_t *new_shape, const int64_t *at,
                             const int64_t *shift, const uint8_t *fill) {
  b2_model r = b2_model_new(m->ndim, new_shape, m->itemsize, 0);
  int64_t nn = b2_model_nitems(&r);
  r.defined = (uint8_t *)b2_malloc((size_t)nn);
  memset(r.defined, 1, (size_t)nn);
  if (nn > 0) {
    int64_t idx[B2_MAXD], lo[B2_MAXD], old[B2_MAXD];
    for (int d = 0; d < m->ndim; d++) idx[d] = lo[d] = 0;
    do {
      int inside = 1;
      for (int d = 0; d < m->ndim; d++) {
        int64_t i = idx[d];
        if (shift[d] > 0 && i >= at[d]) {
          if (i < at[d] + shift[d]) inside = 0;
          i -= shift[d];
        } else if (shift[d] < 0 && i >= at[d]) {
          i -= shift[d];
        }
        if (i >= m->shape[d]) inside = 0;
        old[d] = i;
      }
      int64_t f = b2_flat(r.ndim, r.shape, idx);
      uint8_t *dst = r.data + f * r.itemsize;
      if (inside) {
        int64_t of = b2_flat(m->ndim, m->shape, old);
        memcpy(dst, m->data + of * m->itemsize, (size_t)m->itemsize);
        if (m->defined) r.defined[f] = m->defined[of];
      } else if (fill) {
        memcpy(dst, fill, (size_t)m->itemsize);
      } else {
        r.defined[f] = 0;
      }
    } while (b2_next_index(r.ndim, idx, lo, r.shape));
  }
  b2_model_free(m);
  *m = r;
}

/* Index of the first differing item between two buffers, -1 if equal. */
static int64_t b2_first_diff(const uint8_t *a, const uint8_t *b, int64_t nitems, int32_t isz) {
  for (int64_t i = 0; i < nitems; i++)
    if (memcmp(a + i * isz, b + i * isz, (size_t)isz) != 0) return i;
  return -1;
}

/* Like b2_first_diff between a buffer and the model, skipping its unspecified items. */
static int64_t b2_model_diff(const b2_model *m, const uint8_t *buf) {
  int64_t n = b2_model_nitems(m);
  for (int64_t i = 0; i < n; i++) {
    if (m->defined && !m->defined[i]) continue;
    if (memcmp(buf + i * m->itemsize, m->data + i * m->itemsize, (size_t)m->itemsize) != 0) return i;
  }
  return -1;
}

static const char *b2_shape_str(int n, const int64_t *s) {
  static char bufs[4][200];
  static int next = 0;
  char *b = bufs[next++ & 3];
  int k = snprintf(b, 200, "(");
  for (int i = 0; i < n && k < 180; i++) k += snprintf(b + k, (size_t)(200 - k), i ? ",%lld" : "%lld", (long long)s[i]);
  snprintf(b + k, (size_t)(200 - k), ")");
  return b;
}

/* Shape, chunkshape and blockshape of an array. */
typedef struct {
  int8_t ndim;
  int64_t shape[B2_MAXD];
  int32_t chunk[B2_MAXD];
  int32_t block[B2_MAXD];
} b2_geom;

#ifndef B2_NO_LIBRARY
/* ---- arrays under test ---------------------------------------------------------------- */

/* Storage kinds: in memory sparse / contiguous, on disk contiguous (file) / sparse (dir). */
enum { B2_MEM_SPARSE, B2_MEM_CFRAME, B2_FILE_CFRAME, B2_DIR_SFRAME, B2_NKINDS };
static const char *const b2_kind_names[] __attribute__((unused)) = {"mem-sparse", "mem-cframe",
                                                                   "file-cframe", "dir-sframe"};

/*
 * Context for geometry g, item size isz, storage kind (on-disk kinds at b2_path(leaf)).
 * b2nd_create_ctx copies the storage and cparams but keeps the dparams and urlpath pointers
 * (the reference does so), so those live in a ring of static slots.
 */
static b2nd_context_t *b2_ctx(const b2_geom *g, int32_t isz, int kind, const char *leaf,
                              int nthreads) {
  static blosc2_dparams dps[16];
  static char paths[16][640];
  static int slot = 0;
  int k = slot++ & 15;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = isz;
  cp.nthreads = (int16_t)nthreads;
  blosc2_dparams *dp = &dps[k];
  *dp = BLOSC2_DPARAMS_DEFAULTS;
  dp->nthreads = (int16_t)nthreads;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = dp;
  st.contiguous = kind == B2_MEM_CFRAME || kind == B2_FILE_CFRAME;
  st.urlpath = NULL;
  if (kind == B2_FILE_CFRAME || kind == B2_DIR_SFRAME) {
    snprintf(paths[k], sizeof paths[k], "%s", b2_path(leaf));
    st.urlpath = paths[k];
  }
  if (st.urlpath) blosc2_remove_urlpath(st.urlpath);
  return b2nd_create_ctx(&st, g->ndim, g->shape, g->chunk, g->block, NULL, 0, NULL, 0);
}

/* Array from a model (from_cbuffer); NULL on failure. */
static b2nd_array_t *b2_from_model(const b2_model *m, const b2_geom *g, int kind,
                                   const char *leaf) {
  b2nd_context_t *ctx = b2_ctx(g, m->itemsize, kind, leaf, 1);
  if (!ctx) return NULL;
  b2nd_array_t *a = NULL;
  int rc = b2nd_from_cbuffer(ctx, &a, m->data, b2_model_nbytes(m));
  b2nd_free_ctx(ctx);
  return rc == 0 ? a : NULL;
}

/*
 * Compare the whole array with the model (shape, ndim, nitems, to_cbuffer content); counts
 * checks and failures; returns 1 when equal.
 */
static int b2_matches(const b2nd_array_t *a, const b2_model *m, const char *what) {
  int before = (int)b2_failures;
  CHECK_EQ(a->ndim, m->ndim, "%s: ndim", what);
  if (a->ndim != m->ndim) return 0;
  for (int d = 0; d < m->ndim; d++) CHECK_EQ(a->shape[d], m->shape[d], "%s: shape[%d]", what, d);
  CHECK_EQ(a->nitems, b2_model_nitems(m), "%s: nitems", what);
  CHECK_EQ(a->sc->typesize, m->itemsize, "%s: typesize", what);
  if ((int)b2_failures != before) return 0;
  int64_t nb = b2_model_nbytes(m);
  uint8_t *buf = (uint8_t *)b2_malloc((size_t)nb + 1);
  int rc = b2nd_to_cbuffer(a, buf, nb);
  CHECK_EQ(rc, 0, "%s: to_cbuffer", what);
  if (rc == 0) {
    int64_t k = b2_model_diff(m, buf);
    CHECK(k < 0, "%s: item %lld differs from the model (shape %s)", what, (long long)k,
          b2_shape_str(m->ndim, m->shape));
  }
  free(buf);
  return (int)b2_failures == before;
}
#endif /* B2_NO_LIBRARY */

#endif /* BLOSC2_B2ND_B2_COMMON_H */
