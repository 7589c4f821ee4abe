/*
 * Race check of the super-chunk and frame paths, run under ThreadSanitizer by tools/tsan.sh
 * (not a CTest test: the reference c-blosc2 does not support a writer and readers on one
 * file through different handles).
 *   1. Super-chunks with nthreads 2 (the library's own thread pools): in memory, as an
 *      in-memory frame and as a frame file, two threads each with a super-chunk of their
 *      own append, decompress, get and set slices, and serialise to a buffer.
 *   2. Several handles on one frame file (contiguous, then sparse): a writer thread with
 *      its own handle updates and appends chunks while three reader threads, each with its
 *      own handle, decompress chunks and read slices. With BLOSC_LOCKING=1 (every operation
 *      under the advisory lock) a chunk a reader gets whole must be one of the versions the
 *      writer wrote of it; without it a contiguous frame is rewritten in place under the
 *      readers, and chunks mixing two versions are counted (torn reads, no failure).
 * usage: [BLOSC_LOCKING=1] race_frames DIR [SECONDS]   (default 2 s per part)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <blosc2.h>

enum { ITEMS = 4096, NCHUNKS = 8, NREADERS = 3 };

#include "race_common.h"

static blosc2_schunk *new_schunk(const char *urlpath, bool contiguous, int16_t nthreads) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = nthreads;
  cp.clevel = 5;
  cp.blocksize = 2048; /* several blocks per chunk, so the pools split the work */
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = nthreads;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = contiguous;
  st.urlpath = (char *)urlpath;
  st.cparams = &cp;
  st.dparams = &dp;
  if (urlpath) blosc2_remove_urlpath(urlpath);
  return blosc2_schunk_new(&st);
}

/* ---- part 1: super-chunks with their own thread pools ---------------------------- */

static void *pooled(void *arg) {
  int id = (int)(intptr_t)arg;
  char path[512];
  int32_t *buf = malloc(sizeof(int32_t) * ITEMS), *out = malloc(sizeof(int32_t) * ITEMS);
  double deadline = now() + g_seconds;
  for (int round = 0; now() < deadline || round < 3; round++) {
    int kind = round % 3;
    snprintf(path, sizeof path, "%s/pooled_%d.b2frame", g_dir, id);
    blosc2_schunk *sc = new_schunk(kind == 2 ? path : NULL, kind != 0, 2);
    CHECK(sc != NULL, id, round);
    if (!sc) break;
    for (int64_t n = 0; n < NCHUNKS; n++) {
      fill(buf, n, round);
      CHECK(blosc2_schunk_append_buffer(sc, buf, sizeof(int32_t) * ITEMS) == n + 1, n, round);
    }
    for (int64_t n = 0; n < NCHUNKS; n++) {
      int rc = blosc2_schunk_decompress_chunk(sc, n, out, sizeof(int32_t) * ITEMS);
      CHECK(rc == (int)sizeof(int32_t) * ITEMS && version_of(out, n) == round, rc, n);
    }
    fill(buf, 3, round + 1);
    CHECK(blosc2_schunk_set_slice_buffer(sc, 3 * ITEMS, 4 * ITEMS, buf) == 0, round, 0);
    CHECK(blosc2_schunk_get_slice_buffer(sc, 3 * ITEMS, 4 * ITEMS, out) == 0, round, 0);
    CHECK(version_of(out, 3) == round + 1, version_of(out, 3), round);
    uint8_t *frame;
    bool needs_free;
    int64_t len = blosc2_schunk_to_buffer(sc, &frame, &needs_free);
    CHECK(len > 0, len, round);
    if (len > 0 && needs_free) free(frame);
    blosc2_schunk_free(sc);
    if (kind == 2) blosc2_remove_urlpath(path);
  }
  free(buf);
  free(out);
  return NULL;
}

/* ---- part 2: several handles on one file --------------------------------------- */

static const char *g_shared;

static void *writer(void *arg) {
  (void)arg;
  blosc2_schunk *sc = blosc2_schunk_open(g_shared);
  CHECK(sc != NULL, 0, 0);
  if (!sc) return NULL;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 2048;
  blosc2_context *cctx = blosc2_create_cctx(cp);
  int32_t *buf = malloc(sizeof(int32_t) * ITEMS);
  uint8_t *chunk = malloc(sizeof(int32_t) * ITEMS + BLOSC2_MAX_OVERHEAD);
  for (int32_t v = 1; !atomic_load(&g_stop); v++) {
    int64_t n = v % NCHUNKS;
    fill(buf, n, v);
    int csize = blosc2_compress_ctx(cctx, buf, sizeof(int32_t) * ITEMS, chunk,
                                    sizeof(int32_t) * ITEMS + BLOSC2_MAX_OVERHEAD);
    CHECK(csize > 0, csize, v);
    if (csize <= 0) break;
    int64_t rc = blosc2_schunk_update_chunk(sc, n, chunk, true);
    CHECK(rc == NCHUNKS, rc, v);
    pthread_mutex_lock(&g_mu);
    g_writes++;
    pthread_mutex_unlock(&g_mu);
  }
  blosc2_free_ctx(cctx);
  free(buf);
  free(chunk);
  blosc2_schunk_free(sc);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  blosc2_schunk *sc = blosc2_schunk_open(g_shared);
  CHECK(sc != NULL, 0, 0);
  if (!sc) return NULL;
  int32_t *out = malloc(sizeof(int32_t) * ITEMS);
  long reads = 0, refused = 0, torn = 0;
  for (int64_t k = 0; !atomic_load(&g_stop); k++) {
    int64_t n = k % NCHUNKS;
    int rc = (k & 1) ? blosc2_schunk_decompress_chunk(sc, n, out, sizeof(int32_t) * ITEMS)
                     : blosc2_schunk_get_slice_buffer(sc, n * ITEMS, (n + 1) * ITEMS, out);
    if ((k & 1) ? rc == (int)sizeof(int32_t) * ITEMS : rc == 0) {
      CHECK(!g_locking || version_of(out, n) >= 0, n, k);
      torn += version_of(out, n) < 0;
      reads++;
    } else {
      refused++;
    }
  }
  pthread_mutex_lock(&g_mu);
  g_reads += reads;
  g_refused += refused;
  g_torn += torn;
  pthread_mutex_unlock(&g_mu);
  free(out);
  blosc2_schunk_free(sc);
  return NULL;
}

static void shared_file(bool contiguous) {
  char path[512];
  snprintf(path, sizeof path, "%s/shared.%s", g_dir, contiguous ? "b2frame" : "b2sframe");
  g_shared = path;
  blosc2_schunk *sc = new_schunk(path, contiguous, 1);
  CHECK(sc != NULL, contiguous, 0);
  if (!sc) return;
  int32_t *buf = malloc(sizeof(int32_t) * ITEMS);
  for (int64_t n = 0; n < NCHUNKS; n++) {
    fill(buf, n, 0);
    CHECK(blosc2_schunk_append_buffer(sc, buf, sizeof(int32_t) * ITEMS) == n + 1, n, 0);
  }
  free(buf);
  blosc2_schunk_free(sc);
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
  printf("shared %s file%s: %ld updates, %ld whole reads (%ld torn), %ld refused reads\n",
         contiguous ? "contiguous" : "sparse", g_locking ? " (locking)" : "", g_writes, g_reads,
         g_torn, g_refused);
  g_writes = g_reads = g_refused = g_torn = 0;
  blosc2_remove_urlpath(path);
}

int main(int argc, char **argv) {
  if (!race_args(argc, argv)) return 2;
  blosc2_init();
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, pooled, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("pooled super-chunks done\n");
  shared_file(true);
  shared_file(false);
  blosc2_destroy();
  printf("race_frames: %ld failures\n", g_failures);
  return g_failures ? 1 : 0;
}
