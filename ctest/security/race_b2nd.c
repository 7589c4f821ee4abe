/*
 * Race check of the b2nd paths, run under ThreadSanitizer by tools/tsan.sh (not a CTest
 * test: the reference c-blosc2 does not support a writer and readers on one file through
 * different handles).
 *   1. Arrays with nthreads 2 (the library's own thread pools): in memory, in a frame file
 *      and in a sparse-frame directory, two threads each with arrays of their own create
 *      them from buffers, set and get slices, copy slices into new arrays, serialise them to
 *      a contiguous frame and read that back.
 *   2. Several handles on one array (a frame file, then a sparse-frame directory): a writer
 *      thread with its own handle rewrites whole chunks while three reader threads, each
 *      with its own handle, read chunk-sized slices. With BLOSC_LOCKING=1 (every operation
 *      under the advisory lock) a slice a reader gets must be one of the versions the writer
 *      wrote of that chunk; without it a contiguous frame is rewritten in place under the
 *      readers, and slices mixing two versions are counted (torn reads, no failure).
 *   3. Views: two threads, each with an in-memory array of its own (nthreads 2), write
 *      through the array and its squeezed view and read through the squeezed and the
 *      expanded views; the views are freed before or after their source.
 *   4. Chunks of 512 KiB, whose blocks a write gathers from the caller's buffer on the
 *      array's thread pool: two threads, each with an in-memory array of its own
 *      (nthreads 2), create it from a buffer, overwrite a box across its chunks and read
 *      the whole array back.
 * usage: [BLOSC_LOCKING=1] race_b2nd DIR [SECONDS]   (default 2 s per part; DIR holds the files)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <b2nd.h>
#include <blosc2.h>

/* An array of NCH chunks of 32 x 64 int32 items, blocks of 8 x 64. */
enum { NCH = 8, ROWS = 32, COLS = 64, ITEMS = ROWS * COLS, NREADERS = 3 };
#define CHUNK_BYTES ((int64_t)sizeof(int32_t) * ITEMS)

#include "race_common.h"

static long g_rounds, g_view_ops, g_big_rounds;

/* Parameters of a 3-D array NCH x ROWS x COLS (kind 0 in memory, 1 frame file, 2 sparse
 * directory at urlpath). */
static b2nd_context_t *new_ctx(const char *urlpath, int kind, int16_t nthreads) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = nthreads;
  cp.clevel = 5;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = nthreads;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = kind == 1;
  st.urlpath = kind == 0 ? NULL : (char *)urlpath;
  st.cparams = &cp;
  st.dparams = &dp;
  if (kind != 0) blosc2_remove_urlpath(urlpath);
  int64_t shape[3] = {NCH, ROWS, COLS};
  int32_t chunkshape[3] = {1, ROWS, COLS};
  int32_t blockshape[3] = {1, 8, COLS};
  return b2nd_create_ctx(&st, 3, shape, chunkshape, blockshape, "<i4", DTYPE_NUMPY_FORMAT,
                         NULL, 0);
}

/* The whole array with chunk n at version v + n % 2. */
static void fill_all(int32_t *all, int32_t v) {
  for (int64_t n = 0; n < NCH; n++) fill(all + n * ITEMS, n, v + (int32_t)(n % 2));
}

static int check_all(const int32_t *all, int32_t v) {
  int bad = 0;
  for (int64_t n = 0; n < NCH; n++) bad += version_of(all + n * ITEMS, n) != v + n % 2;
  return bad;
}

static int set_chunk(b2nd_array_t *a, int64_t n, const int32_t *buf) {
  int64_t start[3] = {n, 0, 0}, stop[3] = {n + 1, ROWS, COLS}, bshape[3] = {1, ROWS, COLS};
  return b2nd_set_slice_cbuffer(buf, bshape, CHUNK_BYTES, start, stop, a);
}

static int get_chunk(const b2nd_array_t *a, int64_t n, int32_t *buf) {
  int64_t start[3] = {n, 0, 0}, stop[3] = {n + 1, ROWS, COLS}, bshape[3] = {1, ROWS, COLS};
  return b2nd_get_slice_cbuffer(a, start, stop, buf, bshape, CHUNK_BYTES);
}

/* ---- part 1: arrays with their own thread pools ---------------------------------- */

static void *pooled(void *arg) {
  int id = (int)(intptr_t)arg;
  char path[512];
  int32_t *all = malloc(CHUNK_BYTES * NCH), *out = malloc(CHUNK_BYTES * NCH);
  double deadline = now() + g_seconds;
  long rounds = 0;
  for (int32_t round = 0; now() < deadline || round < 3; round++, rounds++) {
    int kind = round % 3;
    snprintf(path, sizeof path, "%s/pooled_%d.b2nd", g_dir, id);
    b2nd_context_t *ctx = new_ctx(path, kind, 2);
    CHECK(ctx != NULL, id, round);
    if (!ctx) break;
    fill_all(all, round);
    b2nd_array_t *a = NULL;
    CHECK(b2nd_from_cbuffer(ctx, &a, all, CHUNK_BYTES * NCH) == 0, kind, round);
    if (!a) {
      b2nd_free_ctx(ctx);
      break;
    }
    CHECK(b2nd_to_cbuffer(a, out, CHUNK_BYTES * NCH) == 0, kind, round);
    CHECK(check_all(out, round) == 0, kind, round);
    /* chunk 3 rewritten, read back as a slice */
    fill(all + 3 * ITEMS, 3, round + 7);
    CHECK(set_chunk(a, 3, all + 3 * ITEMS) == 0, kind, round);
    CHECK(get_chunk(a, 3, out) == 0 && version_of(out, 3) == round + 7, kind, round);
    /* a slice across chunks 2..5, into a buffer and into a new in-memory array */
    int64_t start[3] = {2, 0, 0}, stop[3] = {6, ROWS, COLS}, bshape[3] = {4, ROWS, COLS};
    CHECK(b2nd_get_slice_cbuffer(a, start, stop, out, bshape, 4 * CHUNK_BYTES) == 0, kind,
          round);
    CHECK(memcmp(out, all + 2 * ITEMS, 4 * CHUNK_BYTES) == 0, kind, round);
    b2nd_context_t *mctx = new_ctx(NULL, 0, 2);
    b2nd_array_t *s = NULL;
    CHECK(mctx && b2nd_get_slice(mctx, &s, a, start, stop) == 0, kind, round);
    if (s) {
      memset(out, 0, 4 * CHUNK_BYTES);
      CHECK(b2nd_to_cbuffer(s, out, 4 * CHUNK_BYTES) == 0, kind, round);
      CHECK(memcmp(out, all + 2 * ITEMS, 4 * CHUNK_BYTES) == 0, kind, round);
      b2nd_free(s);
    }
    b2nd_free_ctx(mctx);
    /* through a contiguous frame and back */
    uint8_t *cframe = NULL;
    int64_t clen = 0;
    bool needs_free = false;
    CHECK(b2nd_to_cframe(a, &cframe, &clen, &needs_free) == 0 && clen > 0, kind, round);
    b2nd_array_t *c = NULL;
    if (cframe && clen > 0) {
      CHECK(b2nd_from_cframe(cframe, clen, true, &c) == 0, kind, round);
      if (c) {
        memset(out, 0, CHUNK_BYTES * NCH);
        CHECK(b2nd_to_cbuffer(c, out, CHUNK_BYTES * NCH) == 0, kind, round);
        CHECK(memcmp(out, all, CHUNK_BYTES * NCH) == 0, kind, round);
        b2nd_free(c);
      }
    }
    if (cframe && needs_free) free(cframe);
    b2nd_free(a);
    b2nd_free_ctx(ctx);
    if (kind != 0) blosc2_remove_urlpath(path);
  }
  count(&g_rounds, rounds);
  free(all);
  free(out);
  return NULL;
}

/* ---- part 2: several handles on one array -------------------------------------- */

static const char *g_shared;

static void *writer(void *arg) {
  (void)arg;
  b2nd_array_t *a = NULL;
  CHECK(b2nd_open(g_shared, &a) == 0, 0, 0);
  if (!a) return NULL;
  int32_t *buf = malloc(CHUNK_BYTES);
  long writes = 0;
  for (int32_t v = 1; !atomic_load(&g_stop); v++) {
    int64_t n = v % NCH;
    fill(buf, n, v);
    int rc = set_chunk(a, n, buf);
    CHECK(rc == 0, rc, v);
    if (rc != 0) break;
    writes++;
  }
  count(&g_writes, writes);
  free(buf);
  b2nd_free(a);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  b2nd_array_t *a = NULL;
  CHECK(b2nd_open(g_shared, &a) == 0, 0, 0);
  if (!a) return NULL;
  int32_t *out = malloc(CHUNK_BYTES);
  long reads = 0, refused = 0, torn = 0;
  for (int64_t k = 0; !atomic_load(&g_stop); k++) {
    int64_t n = k % NCH;
    if (get_chunk(a, n, out) == 0) {
      CHECK(!g_locking || version_of(out, n) >= 0, n, k);
      torn += version_of(out, n) < 0;
      reads++;
    } else {
      refused++;
    }
  }
  count(&g_reads, reads);
  count(&g_refused, refused);
  count(&g_torn, torn);
  free(out);
  b2nd_free(a);
  return NULL;
}

static void shared_array(int kind) {
  char path[512];
  snprintf(path, sizeof path, "%s/shared_%s.b2nd", g_dir, kind == 1 ? "frame" : "sparse");
  g_shared = path;
  b2nd_context_t *ctx = new_ctx(path, kind, 1);
  CHECK(ctx != NULL, kind, 0);
  if (!ctx) return;
  int32_t *all = malloc(CHUNK_BYTES * NCH);
  for (int64_t n = 0; n < NCH; n++) fill(all + n * ITEMS, n, 0);
  b2nd_array_t *a = NULL;
  CHECK(b2nd_from_cbuffer(ctx, &a, all, CHUNK_BYTES * NCH) == 0, kind, 0);
  free(all);
  b2nd_free(a);
  b2nd_free_ctx(ctx);
  atomic_store(&g_stop, 0);
  pthread_t w, r[NREADERS];
  pthread_create(&w, NULL, writer, NULL);
  for (int i = 0; i < NREADERS; i++) pthread_create(&r[i], NULL, reader, NULL);
  double deadline = now() + g_seconds;
  while (now() < deadline) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  atomic_store(&g_stop, 1);
  pthread_join(w, NULL);
  for (int i = 0; i < NREADERS; i++) pthread_join(r[i], NULL);
  printf("shared %s%s: %ld chunk rewrites, %ld reads (%ld torn), %ld refused reads\n",
         kind == 1 ? "frame file" : "sparse directory", g_locking ? " (locking)" : "", g_writes,
         g_reads, g_torn, g_refused);
  g_writes = g_reads = g_refused = g_torn = 0;
  blosc2_remove_urlpath(path);
}

/* ---- part 3: views --------------------------------------------------------------- */

/* Chunk n of a view of NCH x ROWS x COLS with extra axes of length one. */
static int view_chunk(const b2nd_array_t *v, int64_t n, int32_t *buf, bool set) {
  int64_t start[B2ND_MAX_DIM], stop[B2ND_MAX_DIM], bshape[B2ND_MAX_DIM];
  int at = 0;
  for (int d = 0; d < v->ndim; d++) {
    int64_t len = v->shape[d];
    start[d] = 0;
    stop[d] = len;
    if (len == NCH && at == 0) {
      start[d] = n;
      stop[d] = n + 1;
      at = 1;
    }
    bshape[d] = stop[d] - start[d];
  }
  if (set)
    return b2nd_set_slice_cbuffer(buf, bshape, CHUNK_BYTES, start, stop, (b2nd_array_t *)v);
  return b2nd_get_slice_cbuffer(v, start, stop, buf, bshape, CHUNK_BYTES);
}

static void *views(void *arg) {
  (void)arg;
  int32_t *all = malloc(CHUNK_BYTES * NCH), *buf = malloc(CHUNK_BYTES);
  double deadline = now() + g_seconds;
  long ops = 0;
  for (int32_t round = 0; now() < deadline || round < 3; round++) {
    b2nd_context_t *ctx = new_ctx(NULL, 0, 2);
    fill_all(all, round);
    b2nd_array_t *a = NULL;
    CHECK(ctx && b2nd_from_cbuffer(ctx, &a, all, CHUNK_BYTES * NCH) == 0, round, 0);
    b2nd_free_ctx(ctx);
    if (!a) break;
    /* the source with an axis of length one inserted, then squeezed back */
    b2nd_array_t *e = NULL, *s = NULL;
    bool axis[4] = {false, true, false, false};
    CHECK(b2nd_expand_dims(a, &e, axis, 4) == 0 && e && e->ndim == 4, round, 0);
    CHECK(e && b2nd_squeeze(e, &s) == 0 && s && s->ndim == 3, round, 0);
    for (int64_t n = 0; n < NCH && e && s; n++) {
      int32_t v = round + 100 + (int32_t)n;
      fill(buf, n, v);
      b2nd_array_t *to = (n % 2) ? s : a; /* through the squeezed view or the source */
      CHECK(view_chunk(to, n, buf, true) == 0, n, round);
      memset(buf, 0, CHUNK_BYTES);
      CHECK(view_chunk(e, n, buf, false) == 0 && version_of(buf, n) == v, n, round);
      memset(buf, 0, CHUNK_BYTES);
      CHECK(view_chunk(a, n, buf, false) == 0 && version_of(buf, n) == v, n, round);
      ops += 3;
    }
    if (round % 2) {
      b2nd_free(a);
      b2nd_free(s);
      b2nd_free(e);
    } else {
      b2nd_free(s);
      b2nd_free(e);
      b2nd_free(a);
    }
  }
  count(&g_view_ops, ops);
  free(all);
  free(buf);
  return NULL;
}

/* ---- part 4: chunks large enough to be gathered on the pool -------------------------- */

/* Shape 4 x 256 x 256 int32 in chunks of 2 x 256 x 256 (512 KiB), blocks of 1 x 32 x 64
 * (not the chunks' C order, so every write gathers them). */
enum { BIG0 = 4, BIG1 = 256, BIG2 = 256, BIG_ITEMS = BIG0 * BIG1 * BIG2 };

static void *big_chunks(void *arg) {
  int id = (int)(intptr_t)arg;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 2;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 2;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  int64_t shape[3] = {BIG0, BIG1, BIG2};
  int32_t chunkshape[3] = {2, BIG1, BIG2}, blockshape[3] = {1, 32, 64};
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 3, shape, chunkshape, blockshape, "<i4",
                                        DTYPE_NUMPY_FORMAT, NULL, 0);
  CHECK(ctx != NULL, id, 0);
  int32_t *all = malloc(4 * (size_t)BIG_ITEMS), *out = malloc(4 * (size_t)BIG_ITEMS);
  int64_t start[3] = {1, 10, 20}, stop[3] = {3, 200, 250};
  int64_t bshape[3] = {stop[0] - start[0], stop[1] - start[1], stop[2] - start[2]};
  int64_t boxn = bshape[0] * bshape[1] * bshape[2];
  int32_t *box = malloc(4 * (size_t)boxn);
  double deadline = now() + g_seconds;
  long rounds = 0;
  for (int32_t round = 0; ctx && (now() < deadline || round < 2); round++, rounds++) {
    for (int64_t i = 0; i < BIG_ITEMS; i++) all[i] = (int32_t)(i * 7 + round);
    for (int64_t i = 0; i < boxn; i++) box[i] = (int32_t)(-i - round);
    b2nd_array_t *a = NULL;
    CHECK(b2nd_from_cbuffer(ctx, &a, all, 4 * (int64_t)BIG_ITEMS) == 0, id, round);
    if (!a) break;
    CHECK(b2nd_set_slice_cbuffer(box, bshape, 4 * boxn, start, stop, a) == 0, id, round);
    for (int64_t i = 0; i < bshape[0]; i++)
      for (int64_t j = 0; j < bshape[1]; j++)
        memcpy(all + ((start[0] + i) * BIG1 + start[1] + j) * BIG2 + start[2],
               box + (i * bshape[1] + j) * bshape[2], 4 * (size_t)bshape[2]);
    CHECK(b2nd_to_cbuffer(a, out, 4 * (int64_t)BIG_ITEMS) == 0, id, round);
    CHECK(memcmp(out, all, 4 * (size_t)BIG_ITEMS) == 0, id, round);
    b2nd_free(a);
  }
  count(&g_big_rounds, rounds);
  if (ctx) b2nd_free_ctx(ctx);
  free(all);
  free(out);
  free(box);
  return NULL;
}

int main(int argc, char **argv) {
  if (!race_args(argc, argv)) return 2;
  blosc2_init();
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, pooled, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("pooled arrays: %ld rounds\n", g_rounds);
  shared_array(1);
  shared_array(2);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, views, NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("views: %ld slice operations\n", g_view_ops);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, big_chunks, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("large chunks gathered on the pool: %ld rounds\n", g_big_rounds);
  blosc2_destroy();
  printf("race_b2nd: %ld failures\n", g_failures);
  return g_failures ? 1 : 0;
}
