/*
 * blosc2_set_threads_callback: a user parallel-for replaces the library's threads. It must be
 * installed before anything else, so this program is on its own.
 *
 * Measured on the reference c-blosc2 3.3.5: the callback is called exactly once per
 * compression / decompression that runs in parallel (nthreads > 1 and more than one block;
 * also VL chunks, special chunks, super-chunk appends and the global API), with
 * numjobs = nthreads (even when there are fewer blocks), a non-NULL jobdata and
 * jobdata_elsize > 0 (120 on the reference), and callback_data as installed. Never for
 * nthreads 1, single-block chunks or getitem. The library then starts no thread of its own.
 * Prefilter tids are in [0, numjobs).
 */
#include "ca_common.h"

#include <blosc2.h>
#include <pthread.h>

static int g_calls, g_numjobs, g_bad_args;
static size_t g_elsize;
static int g_cbdata;
static int g_tids[64];

typedef struct {
  void (*dojob)(void *);
  void *job;
} job_t;

static void *run_job(void *arg) {
  job_t *j = arg;
  j->dojob(j->job);
  return NULL;
}

/* The test's parallel-for: one pthread per job, all joined before returning. */
static void parallel_for(void *callback_data, void (*dojob)(void *), int numjobs,
                         size_t jobdata_elsize, void *jobdata) {
  g_calls++;
  g_numjobs = numjobs;
  g_elsize = jobdata_elsize;
  if (callback_data != &g_cbdata || !jobdata || !dojob || numjobs < 1 || numjobs > 64 ||
      jobdata_elsize == 0) {
    g_bad_args++;
    return;
  }
  pthread_t th[64];
  job_t jobs[64];
  for (int i = 0; i < numjobs; i++) {
    jobs[i].dojob = dojob;
    jobs[i].job = (char *)jobdata + (size_t)i * jobdata_elsize;
    if (pthread_create(&th[i], NULL, run_job, &jobs[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      exit(2);
    }
  }
  for (int i = 0; i < numjobs; i++) pthread_join(th[i], NULL);
}

static int prefilter(blosc2_prefilter_params *p) {
  if (p->nblock >= 0 && p->nblock < 64) g_tids[p->nblock] = p->tid;
  memcpy(p->output, p->input, (size_t)p->output_size);
  return 0;
}

static void test_contexts(uint8_t *src, uint8_t *chunk, uint8_t *out, int32_t n) {
  static const int nthreads[] = {1, 2, 3, 4, 8};
  for (int k = 0; k < 5; k++) {
    int nth = nthreads[k];
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    cp.nthreads = (int16_t)nth;
    cp.compcode = BLOSC_LZ4;
    blosc2_context *c = blosc2_create_cctx(cp);
    g_calls = 0;
    int cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
    CHECK(cb > 0 && cb < n, "nthreads %d compress -> %d", nth, cb);
    CHECK_EQ(g_calls, nth > 1 ? 1 : 0, "nthreads %d compress calls", nth);
    if (nth > 1) CHECK_EQ(g_numjobs, nth, "nthreads %d compress numjobs", nth);
    CHECK_EQ(ca_os_threads(), 1, "nthreads %d: threads after compress", nth);
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.nthreads = (int16_t)nth;
    blosc2_context *d = blosc2_create_dctx(dp);
    g_calls = 0;
    memset(out, 0, (size_t)n);
    CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "nthreads %d decompress", nth);
    CHECK_BYTES(out, src, n, "nthreads %d data", nth);
    CHECK_EQ(g_calls, nth > 1 ? 1 : 0, "nthreads %d decompress calls", nth);
    if (nth > 1) CHECK_EQ(g_numjobs, nth, "nthreads %d decompress numjobs", nth);
    CHECK_EQ(ca_os_threads(), 1, "nthreads %d: threads after decompress", nth);
    /* One block: serial. getitem: serial. */
    g_calls = 0;
    CHECK(blosc2_compress_ctx(c, src, 100000, chunk, n) > 0, "nthreads %d single block", nth);
    CHECK_EQ(g_calls, 0, "nthreads %d single-block calls", nth);
    cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
    g_calls = 0;
    CHECK_EQ(blosc2_getitem_ctx(d, chunk, cb, 1000, 100000, out, n), 400000, "nthreads %d getitem",
             nth);
    CHECK_BYTES(out, src + 4000, 400000, "nthreads %d getitem data", nth);
    CHECK_EQ(g_calls, 0, "nthreads %d getitem calls", nth);
    blosc2_free_ctx(c);
    blosc2_free_ctx(d);
  }
  /* Two or three blocks with 8 threads: numjobs is still 8. */
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 8;
  cp.blocksize = 65536;
  blosc2_context *c = blosc2_create_cctx(cp);
  for (int nb = 2; nb <= 3; nb++) {
    g_calls = 0;
    int cb = blosc2_compress_ctx(c, src, nb * 65536, chunk, n);
    CHECK(cb > 0, "%d blocks", nb);
    CHECK(g_calls == 1 && g_numjobs == 8, "%d blocks, 8 threads: calls %d numjobs %d", nb, g_calls,
          g_numjobs);
  }
  blosc2_free_ctx(c);
  /* Prefilter tids come from the jobs. */
  blosc2_prefilter_params pp;
  memset(&pp, 0, sizeof pp);
  cp.nthreads = 4;
  cp.prefilter = prefilter;
  cp.preparams = &pp;
  c = blosc2_create_cctx(cp);
  for (int i = 0; i < 64; i++) g_tids[i] = -1;
  g_calls = 0;
  CHECK(blosc2_compress_ctx(c, src, n, chunk, n + 64) > 0, "prefilter compress");
  CHECK_EQ(g_calls, 1, "prefilter compress calls");
  for (int i = 0; i < n / 65536; i++)
    CHECK(g_tids[i] >= 0 && g_tids[i] < 4, "block %d tid %d", i, g_tids[i]);
  blosc2_free_ctx(c);
}

static void test_other_paths(uint8_t *src, uint8_t *chunk, uint8_t *out, int32_t n) {
  /* VL chunks. */
  enum { NB = 16 };
  const void *srcs[NB];
  int32_t sz[NB];
  for (int i = 0; i < NB; i++) {
    srcs[i] = src + i * 10000;
    sz[i] = 10000;
  }
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.nthreads = 4;
  blosc2_context *c = blosc2_create_cctx(cp);
  g_calls = 0;
  int cb = blosc2_vlcompress_ctx(c, srcs, sz, NB, chunk, n);
  CHECK(cb > 0 && g_calls == 1 && g_numjobs == 4, "vlcompress -> %d, calls %d", cb, g_calls);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 4;
  blosc2_context *d = blosc2_create_dctx(dp);
  void *dests[NB];
  int32_t dsz[NB];
  g_calls = 0;
  CHECK_EQ(blosc2_vldecompress_ctx(d, chunk, cb, dests, dsz, NB), NB, "vldecompress");
  CHECK_EQ(g_calls, 1, "vldecompress calls");
  for (int i = 0; i < NB; i++) {
    CHECK_BYTES(dests[i], srcs[i], 10000, "vl block %d", i);
    free(dests[i]);
  }
  g_calls = 0;
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), NB * 10000, "vl decompress_ctx");
  CHECK_EQ(g_calls, 1, "vl decompress_ctx calls");
  /* Special chunk with many blocks. */
  cp.typesize = 4;
  cb = blosc2_chunk_zeros(cp, n, chunk, 64);
  memset(out, 1, (size_t)n);
  g_calls = 0;
  CHECK_EQ(blosc2_decompress_ctx(d, chunk, cb, out, n), n, "zeros");
  CHECK_FILLED(out, 0, n, "zeros data");
  CHECK_EQ(g_calls, 1, "zeros calls");
  blosc2_free_ctx(c);
  blosc2_free_ctx(d);
  /* Super-chunk append. */
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  blosc2_schunk *s = blosc2_schunk_new(&st);
  g_calls = 0;
  CHECK_EQ(blosc2_schunk_append_buffer(s, src, n), 1, "schunk append");
  CHECK_EQ(g_calls, 1, "schunk append calls");
  blosc2_schunk_free(s);
  /* Global API. */
  blosc2_set_nthreads(4);
  g_calls = 0;
  cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 64);
  CHECK(cb > 0 && g_calls == 1 && g_numjobs == 4, "global compress -> %d calls %d", cb, g_calls);
  g_calls = 0;
  CHECK_EQ(blosc2_decompress(chunk, cb, out, n), n, "global decompress");
  CHECK_BYTES(out, src, n, "global data");
  CHECK_EQ(g_calls, 1, "global decompress calls");
  blosc2_set_nthreads(1);
  CHECK_EQ(ca_os_threads(), 1, "threads at the end");
}

int main(void) {
  blosc2_set_threads_callback(parallel_for, &g_cbdata);
  blosc2_init();
  int32_t n = 4 << 20;
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64),
          *out = tc_malloc((size_t)n);
  tc_fill(src, (size_t)n, TC_FLOATS, 4, 1);
  test_contexts(src, chunk, out, n);
  test_other_paths(src, chunk, out, n);
  CHECK_EQ(g_bad_args, 0, "callback arguments");
  CHECK(g_elsize > 0, "jobdata_elsize");
  printf("jobdata_elsize = %zu\n", g_elsize);
  free(src);
  free(chunk);
  free(out);
  blosc2_destroy();
  return tc_finish("chunkapi_threads_callback (" CA_VARIANT ")");
}
