/*
 * Chunk-API swap probe: main() and the sections about global state and threads (see
 * swap_probe.h). The first output line names the library actually loaded and is not compared.
 */
#include "swap_probe.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

int sp_bad = 0;

/* ---- threads callback (in a child process: it must precede every other call) ----------- */

static int g_calls, g_numjobs, g_elsize_ok;

typedef struct {
  void (*dojob)(void *);
  void *job;
} job_t;

static void *run_job(void *arg) {
  job_t *j = arg;
  j->dojob(j->job);
  return NULL;
}

static void parallel_for(void *data, void (*dojob)(void *), int numjobs, size_t elsize,
                         void *jobdata) {
  (void)data;
  g_calls++;
  g_numjobs = numjobs;
  g_elsize_ok = elsize > 0;
  pthread_t th[64];
  job_t jobs[64];
  for (int i = 0; i < numjobs && i < 64; i++) {
    jobs[i].dojob = dojob;
    jobs[i].job = (char *)jobdata + (size_t)i * elsize;
    pthread_create(&th[i], NULL, run_job, &jobs[i]);
  }
  for (int i = 0; i < numjobs && i < 64; i++) pthread_join(th[i], NULL);
}

void sp_threads_callback(void) {
  int data = 0;
  blosc2_set_threads_callback(parallel_for, &data);
  blosc2_init();
  int32_t n = 4 << 20;
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64),
          *out = tc_malloc((size_t)n);
  tc_fill(src, (size_t)n, TC_FLOATS, 4, 1);
  for (int nth = 1; nth <= 4; nth++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    cp.nthreads = (int16_t)nth;
    cp.compcode = BLOSC_LZ4;
    blosc2_context *c = blosc2_create_cctx(cp);
    g_calls = 0;
    int cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
    printf("callback nthreads=%d compress cb=%d calls=%d numjobs=%d elsize>0=%d threads=%d\n", nth,
           cb, g_calls, g_calls ? g_numjobs : 0, g_calls ? g_elsize_ok : 1, ca_os_threads());
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.nthreads = (int16_t)nth;
    blosc2_context *d = blosc2_create_dctx(dp);
    g_calls = 0;
    int rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
    printf("callback nthreads=%d decompress calls=%d threads=%d\n", nth, g_calls, ca_os_threads());
    sp_roundtrip("callback roundtrip", rc, out, src, n);
    g_calls = 0;
    rc = blosc2_getitem_ctx(d, chunk, cb, 1000, 100000, out, n);
    printf("callback getitem rc=%d calls=%d\n", rc, g_calls);
    blosc2_free_ctx(c);
    blosc2_free_ctx(d);
  }
  blosc2_set_nthreads(3);
  g_calls = 0;
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, n, chunk, n + 64);
  printf("callback global compress cb>0=%d calls=%d numjobs=%d\n", cb > 0, g_calls, g_numjobs);
  g_calls = 0;
  int rc = blosc2_decompress(chunk, cb, out, n);
  printf("callback global decompress calls=%d\n", g_calls);
  sp_roundtrip("callback global roundtrip", rc, out, src, n);
  free(src);
  free(chunk);
  free(out);
  blosc2_destroy();
}

/* ---- state before init and automatic initialisation -------------------------------------- */

void sp_before_init(void) {
  printf("before init: free_resources=%d\n", blosc2_free_resources());
  printf("before init: ndlz=%d zstd=%d\n", blosc2_compname_to_compcode("ndlz"),
         blosc2_compname_to_compcode("zstd"));
  const char *name = "x";
  int rc = blosc2_compcode_to_compname(32, &name);
  printf("before init: compcode_to_compname(32)=%d %s\n", rc, name ? name : "(null)");
  printf("before init: io_cb(0) %s\n", blosc2_get_io_cb(0) ? "set" : "NULL");
  uint8_t src[10000], chunk[11000], out[10000];
  tc_fill(src, sizeof src, TC_RAMP, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.compcode = BLOSC_ZSTD;
  blosc2_context *c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk);
  blosc2_free_ctx(c);
  sp_hash("before init: zstd chunk", chunk, cb);
  sp_roundtrip("before init: getitem", blosc2_getitem(chunk, cb, 5, 5, out, 10000), out, src + 20,
               20);
  cp.compcode = 32;
  c = blosc2_create_cctx(cp);
  printf("before init: ndlz compress=%d\n",
         blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk));
  blosc2_free_ctx(c);
  cp.compcode = BLOSC_LZ4;
  cp.filters[0] = 35;
  cp.filters_meta[0] = 4;
  c = blosc2_create_cctx(cp);
  printf("before init: bytedelta compress=%d\n",
         blosc2_compress_ctx(c, src, 10000, chunk, sizeof chunk));
  blosc2_free_ctx(c);
  blosc2_codec codec;
  memset(&codec, 0, sizeof codec);
  codec.compcode = 200;
  codec.compname = "early";
  rc = blosc2_register_codec(&codec);
  printf("before init: register=%d lookup=%d free_resources=%d\n", rc,
         blosc2_compname_to_compcode("early"), blosc2_free_resources());
  rc = blosc2_get_nthreads();
  printf("get_nthreads=%d free_resources=%d early=%d ndlz=%d io_cb(0) %s\n", rc,
         blosc2_free_resources(), blosc2_compname_to_compcode("early"),
         blosc2_compname_to_compcode("ndlz"), blosc2_get_io_cb(0) ? "set" : "NULL");
}

#define SP_INITS(call, what)                                                    \
  do {                                                                          \
    blosc2_destroy();                                                           \
    call;                                                                       \
    printf("auto-init %s: free_resources=%d\n", what, blosc2_free_resources()); \
  } while (0)

void sp_auto_init(void) {
  uint8_t src[10000], chunk[11000], out[10000];
  tc_fill(src, sizeof src, TC_RAMP, 4, 2);
  int cb = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, 10000, chunk, sizeof chunk);
  SP_INITS(blosc2_compress(5, BLOSC_SHUFFLE, 4, src, 10000, chunk, sizeof chunk),
           "blosc2_compress");
  SP_INITS(blosc2_decompress(chunk, cb, out, 10000), "blosc2_decompress");
  SP_INITS(blosc1_decompress(chunk, out, 10000), "blosc1_decompress");
  SP_INITS(blosc2_getitem(chunk, cb, 1, 1, out, 10000), "blosc2_getitem");
  SP_INITS(blosc1_getitem(chunk, 1, 1, out), "blosc1_getitem");
  SP_INITS(blosc1_get_compressor(), "blosc1_get_compressor");
  SP_INITS(blosc1_set_splitmode(4), "blosc1_set_splitmode");
  SP_INITS(blosc2_set_delta(0), "blosc2_set_delta");
  SP_INITS(blosc2_set_nthreads(1), "blosc2_set_nthreads");
  blosc2_destroy();
  blosc2_destroy();
  printf("destroy twice: free_resources=%d ndlz=%d\n", blosc2_free_resources(),
         blosc2_compname_to_compcode("ndlz"));
  blosc2_init();
  blosc2_init();
  printf("set_nthreads(3)=%d set_compressor(lz4)=%d\n", blosc2_set_nthreads(3),
         blosc1_set_compressor("lz4"));
  blosc2_destroy();
  blosc2_init();
  const char *comp = blosc1_get_compressor();
  printf("after destroy+init: nthreads=%d compressor=%s\n", blosc2_get_nthreads(),
         comp ? comp : "(null)");
  int r1 = blosc2_set_nthreads(0);
  int r2 = blosc2_set_nthreads(1);
  int r3 = blosc1_set_compressor("ndlz");
  int r4 = blosc1_set_compressor("bogus");
  printf("set_nthreads(0)=%d set_nthreads(1)=%d set_compressor(ndlz)=%d set_compressor(bogus)=%d\n",
         r1, r2, r3, r4);
  comp = blosc1_get_compressor();
  r1 = blosc2_compress(5, BLOSC_SHUFFLE, 4, src, 10000, chunk, sizeof chunk);
  r2 = blosc1_set_compressor("blosclz");
  printf("compressor=%s compress=%d set_compressor(blosclz)=%d\n", comp ? comp : "(null)", r1, r2);
}

/* ---- a short multi-threaded run ------------------------------------------------------------ */

static int g_thread_bad;

static void *thread_body(void *arg) {
  int id = (int)(intptr_t)arg;
  int32_t n = 200000;
  uint8_t *src = tc_malloc((size_t)n), *chunk = tc_malloc((size_t)n + 64),
          *out = tc_malloc((size_t)n);
  for (int32_t i = 0; i < n; i++) src[i] = (uint8_t)((i / 4) * (id + 1) + (i & 3));
  for (int k = 0; k < 20; k++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 4;
    cp.compcode = (uint8_t)(k % 2 ? BLOSC_ZSTD : BLOSC_LZ4);
    cp.nthreads = (int16_t)(1 + k % 2);
    blosc2_context *c = blosc2_create_cctx(cp);
    int cb = blosc2_compress_ctx(c, src, n, chunk, n + 64);
    blosc2_free_ctx(c);
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    blosc2_context *d = blosc2_create_dctx(dp);
    int rc = blosc2_decompress_ctx(d, chunk, cb, out, n);
    blosc2_free_ctx(d);
    if (rc != n || memcmp(out, src, (size_t)n) != 0)
      __atomic_add_fetch(&g_thread_bad, 1, __ATOMIC_RELAXED);
  }
  free(src);
  free(chunk);
  free(out);
  return NULL;
}

void sp_threads(void) {
  pthread_t th[6];
  for (int i = 0; i < 6; i++) pthread_create(&th[i], NULL, thread_body, (void *)(intptr_t)i);
  for (int i = 0; i < 6; i++) pthread_join(th[i], NULL);
  printf("6 threads x 20 round trips: %s\n", g_thread_bad ? "DIFFERENT" : "same");
  if (g_thread_bad) sp_bad = 1;
}

int main(void) {
  Dl_info info;
  memset(&info, 0, sizeof info);
  dladdr((void *)&blosc2_compress, &info);
  printf("LIB %s\n", info.dli_fname ? info.dli_fname : "(unknown)");
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    sp_threads_callback();
    fflush(stdout);
    _exit(sp_bad);
  }
  int status = 1;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    printf("threads-callback child failed (status %d)\n", status);
    sp_bad = 1;
  }
  sp_before_init();
  sp_auto_init();
  sp_special();
  sp_vlchunks();
  sp_dict();
  sp_filters();
  sp_register();
  sp_env();
  sp_instr();
  sp_getitem_bytes();
  sp_threads();
  blosc2_destroy();
  return sp_bad;
}
