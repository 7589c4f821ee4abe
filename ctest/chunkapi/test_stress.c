/*
 * Multi-threaded stress test of the chunk API.
 *   1. blosc2_init from 8 threads at once (started together on a barrier) before any other
 *      call; afterwards the plugin registry and IO backends must be in place.
 *   2. For SECONDS (default 3): 8 worker threads, each with its own contexts (nthreads 1 or
 *      2, so internal thread pools run concurrently too), compress / decompress / getitem
 *      different data with varying codecs, filters, typesizes, sizes and split modes, plus VL
 *      chunks, special chunks and dictionary chunks, verifying every round trip; meanwhile
 *      3 threads use the global API (blosc2_compress / blosc2_decompress / blosc2_getitem /
 *      blosc1_*), which the library serialises with its own mutex. blosc2_destroy is not
 *      called concurrently with use (not allowed by the reference either).
 * usage: chunkapi_stress [SECONDS [MAXSIZE [MINOPS]]]: every thread runs at least MINOPS
 * operations (default 1) and until SECONDS have passed; helgrind.sh uses 0 seconds, small
 * buffers and a few operations per thread.
 */
#include "ca_common.h"

#include <blosc2.h>
#include <pthread.h>

enum { NWORKERS = 8, NGLOBAL = 3, NINIT = 8 };

static double g_seconds = 3.0;
static int32_t g_maxsize = 1 << 20;
static long g_minops = 1;
static double g_deadline;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static long g_failures_mt, g_ops[NWORKERS + NGLOBAL];

/* Failures are counted under a lock (tc_fail is not thread-safe). */
#define MT_CHECK(cond, ...)                     \
  do {                                          \
    if (!(cond)) {                              \
      pthread_mutex_lock(&g_mu);                \
      g_failures_mt++;                          \
      if (g_failures_mt <= 20) {                \
        fprintf(stderr, "FAIL %d: ", __LINE__); \
        fprintf(stderr, __VA_ARGS__);           \
        fputc('\n', stderr);                    \
      }                                         \
      pthread_mutex_unlock(&g_mu);              \
    }                                           \
  } while (0)

/* Per-thread xorshift64* (the helpers of test_common.h use a global state). */
static uint64_t rnd(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(rnd(s) % n); }

/* Fill with one of 4 kinds of data; returns the kind (2 = random). */
static int fill(uint64_t *s, uint8_t *buf, int32_t n, int ts) {
  int kind = (int)below(s, 4);
  uint64_t base = rnd(s);
  for (int32_t i = 0; i < n; i++) {
    switch (kind) {
      case 0:
        buf[i] = (uint8_t)((uint64_t)(i / ts) * 3 + (i % ts == 0 ? base : 0u));
        break;
      case 1:
        buf[i] = (uint8_t)(rnd(s) & 0x03);
        break;
      case 2:
        buf[i] = (uint8_t)rnd(s);
        break;
      default:
        buf[i] = (uint8_t)(i % ts == 0 ? (uint64_t)(i / 1000) : base);
        break;
    }
  }
  return kind;
}

/* ---- 1. concurrent init ------------------------------------------------------------------ */

static pthread_barrier_t g_init_barrier;

static void *init_thread(void *arg) {
  (void)arg;
  pthread_barrier_wait(&g_init_barrier);
  blosc2_init();
  return NULL;
}

static void test_concurrent_init(void) {
  pthread_t th[NINIT];
  pthread_barrier_init(&g_init_barrier, NULL, NINIT);
  for (int i = 0; i < NINIT; i++) pthread_create(&th[i], NULL, init_thread, NULL);
  for (int i = 0; i < NINIT; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&g_init_barrier);
  CHECK_EQ(blosc2_free_resources(), 0, "initialised");
  CHECK_EQ(blosc2_compname_to_compcode("ndlz"), 32, "plugin codecs registered once");
  CHECK_EQ(blosc2_compname_to_compcode("htj2k"), 40, "last plugin codec");
  CHECK(blosc2_get_io_cb(0) != NULL && blosc2_get_io_cb(1) != NULL, "IO backends");
}

/* ---- 2. workers --------------------------------------------------------------------------- */

typedef struct {
  int id;
  uint64_t seed;
} worker_t;

static void worker_chunk(uint64_t *s, uint8_t *src, uint8_t *chunk, uint8_t *out, int id) {
  static const int codecs[] = {BLOSC_BLOSCLZ, BLOSC_LZ4, BLOSC_LZ4HC, BLOSC_ZLIB, BLOSC_ZSTD};
  static const int typesizes[] = {1, 2, 4, 8, 16, 3};
  int32_t n = 1 + (int32_t)below(s, (uint32_t)g_maxsize);
  int ts = typesizes[below(s, 6)];
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codecs[below(s, 5)];
  cp.clevel = (uint8_t)below(s, 10);
  cp.typesize = ts;
  cp.nthreads = (int16_t)(1 + below(s, 2));
  cp.splitmode = 1 + (int)below(s, 4);
  cp.filters[5] = (uint8_t)below(s, 3);
  /* The reference leaves the last nbytes % 8 bytes of some DELTA chunks unwritten, and
   * writes undecodable dictionary chunks for incompressible data: avoid both. */
  if (below(s, 4) == 0) {
    cp.filters[4] = BLOSC_DELTA;
    n = n < 8 ? 8 : n & ~7;
  }
  int kind = fill(s, src, n, ts);
  cp.use_dict =
      (cp.compcode == BLOSC_ZSTD || cp.compcode == BLOSC_LZ4) && kind != 2 && below(s, 6) == 0;
  /* Small blocks, many to a chunk: threads take them in groups. (Not with a dictionary:
   * the reference writes some such chunks that it cannot read.) */
  if (!cp.use_dict && below(s, 4) == 0) cp.blocksize = ts * (64 << below(s, 5));
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, n + BLOSC2_MAX_OVERHEAD);
  blosc2_free_ctx(c);
  MT_CHECK(cb > 0, "worker %d: compress n=%d codec %d -> %d", id, n, cp.compcode, cb);
  if (cb <= 0) return;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)(1 + below(s, 2));
  blosc2_context *d = blosc2_create_dctx(dp);
  int rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
  MT_CHECK(rc == n && memcmp(out, src, (size_t)n) == 0,
           "worker %d: round trip n=%d ts=%d codec %d clevel %d filters %d/%d dict %d -> %d", id, n,
           ts, cp.compcode, cp.clevel, cp.filters[4], cp.filters[5], cp.use_dict, rc);
  /* getitem: dictionary chunks need the preceding decompress (reference behaviour). */
  int32_t sts = chunk[3], nitems = n / sts;
  if (nitems > 1) {
    int start = (int)below(s, (uint32_t)nitems),
        cnt = (int)below(s, (uint32_t)(nitems - start)) + 1;
    rc = blosc2_getitem_ctx(d, chunk, cb, start, cnt, out, n);
    /* The reference returns wrong data from DELTA chunks outside block 0 (test_global). */
    int check_data = 1;
#ifdef BLOSC2_VARIANT_REFERENCE
    check_data = cp.filters[4] != BLOSC_DELTA;
#endif
    MT_CHECK(rc == cnt * sts && (!check_data || memcmp(out, src + start * sts, (size_t)rc) == 0),
             "worker %d: getitem(%d,%d) -> %d [n=%d ts=%d codec %d filters %d/%d dict %d]", id,
             start, cnt, rc, n, ts, cp.compcode, cp.filters[4], cp.filters[5], cp.use_dict);
  }
  blosc2_free_ctx(d);
}

static void worker_vl(uint64_t *s, uint8_t *src, uint8_t *chunk, int id) {
  enum { MAXB = 16 };
  const void *srcs[MAXB];
  int32_t sz[MAXB];
  int nb = 1 + (int)below(s, MAXB);
  int32_t pos = 0;
  for (int b = 0; b < nb; b++) {
    sz[b] = 1 + (int32_t)below(s, (uint32_t)(g_maxsize / MAXB));
    srcs[b] = src + pos;
    fill(s, src + pos, sz[b], 4);
    pos += sz[b];
  }
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.compcode = (uint8_t)(below(s, 2) ? BLOSC_LZ4 : BLOSC_ZSTD);
  cp.nthreads = (int16_t)(1 + below(s, 2));
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_vlcompress_ctx(c, srcs, sz, nb, chunk, pos + 4096);
  blosc2_free_ctx(c);
  MT_CHECK(cb > 0, "worker %d: vlcompress -> %d", id, cb);
  if (cb <= 0) return;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  int b = (int)below(s, (uint32_t)nb);
  uint8_t *p = NULL;
  int32_t psz = 0;
  int rc = blosc2_vldecompress_block_ctx(d, chunk, cb, b, &p, &psz);
  MT_CHECK(rc == sz[b] && p && memcmp(p, srcs[b], (size_t)sz[b]) == 0, "worker %d: vl block %d", id,
           b);
  free(p);
  blosc2_free_ctx(d);
}

static void worker_special(uint64_t *s, uint8_t *chunk, uint8_t *out, int id) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  int32_t n = 4 * (1 + (int32_t)below(s, (uint32_t)(g_maxsize / 4)));
  int32_t v = (int32_t)rnd(s);
  int cb = blosc2_chunk_repeatval(cp, n, chunk, 64, &v);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)(1 + below(s, 2));
  blosc2_context *d = blosc2_create_dctx(dp);
  int rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
  int ok = rc == n;
  for (int32_t i = 0; ok && i < n; i += 4) ok = memcmp(out + i, &v, 4) == 0;
  MT_CHECK(ok, "worker %d: repeatval n=%d -> %d", id, n, rc);
  blosc2_free_ctx(d);
}

static void *worker(void *arg) {
  worker_t *w = arg;
  uint64_t s = w->seed;
  uint8_t *src = tc_malloc((size_t)g_maxsize + 4096), *chunk = tc_malloc((size_t)g_maxsize + 8192);
  uint8_t *out = tc_malloc((size_t)g_maxsize + 4096);
  while (g_ops[w->id] < g_minops || ca_now() < g_deadline) {
    uint32_t what = below(&s, 10);
    if (what < 7)
      worker_chunk(&s, src, chunk, out, w->id);
    else if (what < 9)
      worker_vl(&s, src, chunk, w->id);
    else
      worker_special(&s, chunk, out, w->id);
    g_ops[w->id]++;
  }
  free(src);
  free(chunk);
  free(out);
  return NULL;
}

static void *global_worker(void *arg) {
  worker_t *w = arg;
  uint64_t s = w->seed;
  int32_t cap = g_maxsize < 262144 ? g_maxsize : 262144;
  uint8_t *src = tc_malloc((size_t)cap), *chunk = tc_malloc((size_t)cap + 64),
          *out = tc_malloc((size_t)cap);
  while (g_ops[w->id] < g_minops || ca_now() < g_deadline) {
    int32_t n = 4 * (1 + (int32_t)below(&s, (uint32_t)cap / 4));
    fill(&s, src, n, 4);
    int blosc1 = (int)below(&s, 2);
    int cb = blosc1 ? blosc1_compress(5, BLOSC_SHUFFLE, 4, (size_t)n, src, chunk, (size_t)n + 32)
                    : blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 32);
    MT_CHECK(cb > 0, "global %d: compress %d -> %d", w->id, n, cb);
    if (cb > 0) {
      int rc =
          blosc1 ? blosc1_decompress(chunk, out, (size_t)n) : blosc2_decompress(chunk, cb, out, n);
      MT_CHECK(rc == n && memcmp(out, src, (size_t)n) == 0, "global %d: round trip %d -> %d", w->id,
               n, rc);
      int start = (int)below(&s, (uint32_t)n / 4);
      rc = blosc2_getitem(chunk, cb, start, 1, out, 4);
      MT_CHECK(rc == 4 && memcmp(out, src + 4 * start, 4) == 0, "global %d: getitem", w->id);
    }
    MT_CHECK(blosc2_get_nthreads() == 2, "global %d: nthreads", w->id);
    g_ops[w->id]++;
  }
  free(src);
  free(chunk);
  free(out);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) g_seconds = atof(argv[1]);
  if (argc > 2) g_maxsize = atoi(argv[2]);
  if (argc > 3) g_minops = atol(argv[3]);
  if (g_maxsize < 1024) g_maxsize = 1024;
  test_concurrent_init();
  blosc2_set_nthreads(2);
  blosc1_set_compressor("lz4");
  pthread_t th[NWORKERS + NGLOBAL];
  worker_t w[NWORKERS + NGLOBAL];
  g_deadline = ca_now() + g_seconds;
  for (int i = 0; i < NWORKERS + NGLOBAL; i++) {
    w[i].id = i;
    w[i].seed = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    pthread_create(&th[i], NULL, i < NWORKERS ? worker : global_worker, &w[i]);
  }
  long total = 0;
  for (int i = 0; i < NWORKERS + NGLOBAL; i++) {
    pthread_join(th[i], NULL);
    total += g_ops[i];
    CHECK(g_ops[i] > 0, "thread %d did no work", i);
  }
  printf("%ld operations, at least %ld per thread, in %.1f s\n", total, g_minops, g_seconds);
  tc_checks += total;
  tc_failures += g_failures_mt;
  blosc2_destroy();
  return tc_finish("chunkapi_stress (" CA_VARIANT ")");
}
