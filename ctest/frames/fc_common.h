/*
 * Helpers shared by the frame / super-chunk tests of blosc2-oxide: check accounting, a
 * seeded PRNG, data generators, scratch directories and super-chunk factories for the four
 * storage kinds (sparse in memory, contiguous in memory, contiguous file, sparse directory).
 *
 * Header-only: every test program includes it once. The same sources build against our
 * headers/library (BLOSC2_VARIANT_OURS) and the reference c-blosc2 (BLOSC2_VARIANT_REFERENCE).
 * The cross, hostile-driver and benchmark programs include it too, but only use the parts
 * that do not call the library (FC_NO_LIBRARY). Include it before any system header.
 */
#ifndef BLOSC2_FRAMES_FC_COMMON_H
#define BLOSC2_FRAMES_FC_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <blosc2.h>

#ifndef TC_MAX_PRINTED
#define TC_MAX_PRINTED 80
#endif
#include "../test_common.h"

/* ---- check accounting, allocation and files: ../test_common.h's, under this header's names */
#define fc_failures tc_failures
#define fc_checks tc_checks
#define fc_fail tc_fail
#define fc_finish tc_finish
#define fc_malloc tc_malloc
#define fc_exists tc_exists
#define fc_file_size tc_file_size
#define fc_read_file tc_read_file
#define fc_write_file tc_write_file

/* ---- PRNG and data -------------------------------------------------------------------- */

static uint64_t fc_rng = 0x2545F4914F6CDD1DULL;
static void fc_seed(uint64_t s) { fc_rng = s ? s : 0x2545F4914F6CDD1DULL; }
static uint64_t fc_rand64(void) {
  uint64_t x = fc_rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  fc_rng = x;
  return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t fc_below(uint32_t n) { return n ? (uint32_t)(fc_rand64() % n) : 0; }

/* Deterministic, moderately compressible content: item i of chunk `tag` as int32 values. */
static void fc_fill_i32(int32_t *buf, int64_t nitems, int64_t first_item, int32_t tag) {
  for (int64_t i = 0; i < nitems; i++) {
    int64_t g = first_item + i;
    buf[i] = (int32_t)(g * 7 + tag * 1000003 + ((g >> 5) & 3));
  }
}

/* Bytes that depend on (seed, position): compressible but not trivial. */
static void fc_fill_bytes(uint8_t *buf, size_t n, uint32_t seed) {
  uint32_t x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; i++) {
    if ((i & 15) == 0) x = x * 1103515245u + 12345u;
    buf[i] = (uint8_t)((i / 16) + (x >> 24) % 4 + seed);
  }
}

static double fc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- byte access ---------------------------------------------------------------------- */

static int32_t fc_rd32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24));
}
static int64_t fc_rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return (int64_t)v;
}
/* Big-endian (msgpack) integers. */
static uint32_t fc_rd32be(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static uint64_t fc_rd64be(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
  return v;
}

/* ---- files and scratch directories ---------------------------------------------------- */

static char fc_tmp_root[512];

static int fc_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void fc_rm_rf(const char *path) { nftw(path, fc_rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

static void fc_cleanup_tmp(void) {
  if (fc_tmp_root[0]) fc_rm_rf(fc_tmp_root);
}

/* Create a private scratch directory (removed at exit) for test `name`. */
static void fc_make_tmp(const char *name) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  snprintf(fc_tmp_root, sizeof fc_tmp_root, "%s/b2frames-%s-XXXXXX", base, name);
  if (!mkdtemp(fc_tmp_root)) {
    fprintf(stderr, "mkdtemp(%s): %s\n", fc_tmp_root, strerror(errno));
    exit(2);
  }
  atexit(fc_cleanup_tmp);
}

/* Path of `leaf` inside the scratch directory (static rotating buffers). */
static char *fc_path(const char *leaf) {
  static char bufs[8][640];
  static int next = 0;
  char *b = bufs[next++ & 7];
  snprintf(b, sizeof bufs[0], "%s/%s", fc_tmp_root, leaf);
  return b;
}

static int fc_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
#ifndef FC_NO_LIBRARY
/* ---- storage kinds -------------------------------------------------------------------- */

enum { FC_SPARSE_MEM, FC_CFRAME_MEM, FC_CFRAME_FILE, FC_SFRAME_DIR, FC_NKINDS };
static const char *const fc_kind_names[] __attribute__((unused)) = {"sparse-mem", "cframe-mem",
                                                                   "cframe-file", "sframe-dir"};

static int fc_kind_contiguous(int kind) { return kind == FC_CFRAME_MEM || kind == FC_CFRAME_FILE; }
static int fc_kind_on_disk(int kind) { return kind == FC_CFRAME_FILE || kind == FC_SFRAME_DIR; }
static int fc_kind_has_frame(int kind) { return kind != FC_SPARSE_MEM; }

/* Default cparams used throughout: int32 items, blosclz clevel 5, shuffle, one thread. */
static blosc2_cparams fc_cparams(int32_t typesize) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = typesize;
  cp.nthreads = 1;
  return cp;
}

/*
 * New schunk of the given kind; on-disk kinds live at fc_path(leaf). cparams may be NULL
 * (defaults with typesize 4). Returns NULL on failure.
 */
static blosc2_schunk *fc_new_schunk(int kind, const char *leaf, blosc2_cparams *cparams) {
  blosc2_cparams cp = fc_cparams(4);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = cparams ? cparams : &cp;
  st.dparams = &dp;
  st.contiguous = fc_kind_contiguous(kind);
  st.urlpath = fc_kind_on_disk(kind) ? fc_path(leaf) : NULL;
  if (st.urlpath) blosc2_remove_urlpath(st.urlpath);
  return blosc2_schunk_new(&st);
}

/* Compress `nbytes` of src into a new malloc'ed chunk with cparams; NULL on failure. */
static uint8_t *fc_make_chunk(blosc2_cparams cp, const void *src, int32_t nbytes,
                              int32_t *cbytes) {
  blosc2_context *c = blosc2_create_cctx(cp);
  if (!c) return NULL;
  uint8_t *dest = (uint8_t *)fc_malloc((size_t)nbytes + BLOSC2_MAX_OVERHEAD);
  int rc = blosc2_compress_ctx(c, src, nbytes, dest, nbytes + BLOSC2_MAX_OVERHEAD);
  blosc2_free_ctx(c);
  if (rc <= 0) {
    free(dest);
    return NULL;
  }
  if (cbytes) *cbytes = rc;
  return dest;
}

/* Decompress chunk n of schunk and compare with the expected int32 content. */
static int fc_chunk_matches(blosc2_schunk *sc, int64_t n, const int32_t *want, int32_t nitems) {
  int32_t *got = (int32_t *)fc_malloc((size_t)nitems * 4 + 64);
  int rc = blosc2_schunk_decompress_chunk(sc, n, got, nitems * 4);
  int ok = rc == nitems * 4 && memcmp(got, want, (size_t)nitems * 4) == 0;
  free(got);
  return ok;
}

#endif /* FC_NO_LIBRARY */

#endif /* BLOSC2_FRAMES_FC_COMMON_H */
