/*
 * Peak memory of a 1 GiB super-chunk, side by side: for each library (loaded with dlopen in
 * a child process of its own), append 1 GiB in 4 MiB chunks to an in-memory super-chunk,
 * then decompress every chunk, and report the peak resident set size (VmHWM) of each
 * phase above the process's baseline, and the time each phase took (filling the data
 * included). Data are generated chunk by chunk, so the only large
 * buffers are the libraries' own. "of it files" is the part of the held memory that is
 * file-backed: the pages of the library's code (and libc's, libm's) first run in the phase.
 *
 * usage: rss_bench OURS_SO REFERENCE_SO [--gib N] [--nthreads T]
 */
#include <blosc2.h>
#include <math.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../test_common.h"

#define LIB_FUNCS(X)              \
  X(blosc2_init)                  \
  X(blosc2_destroy)               \
  X(blosc2_schunk_new)            \
  X(blosc2_schunk_free)           \
  X(blosc2_schunk_append_buffer)  \
  X(blosc2_schunk_decompress_chunk)
#include "../cross_lib.h"

#define CHUNK (4 << 20)

/* A /proc/self/status field in KiB, or -1. */
static long status_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(field);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, field, n) && line[n] == ':') v = atol(line + n + 1);
  fclose(f);
  return v;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Resets the peak RSS to the current RSS (Linux: clear_refs 5). */
static void reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}

static void fill(double *d, size_t n, int64_t first, int kind) {
  for (size_t i = 0; i < n; i++)
    d[i] = kind ? 1000.0 * sin((double)(first + (int64_t)i) * 0.001) + 0.5
                : (double)(first + (int64_t)i);
}

/* Runs both phases with one library; prints one line. Returns 0 on success. */
static int measure(lib_t *lib, double gib, int nthreads, int kind) {
  lib->blosc2_init();
  double *buf = tc_malloc(CHUNK);
  memset(buf, 0, CHUNK);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  cp.nthreads = (int16_t)nthreads;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  int64_t nchunks = (int64_t)(gib * 1024.0 * 1024.0 * 1024.0) / CHUNK;
  reset_peak();
  long base = status_kib("VmRSS");
  long base_file = status_kib("RssFile");
  double t0 = now();
  blosc2_schunk *sc = lib->blosc2_schunk_new(&st);
  if (!sc) return 1;
  for (int64_t i = 0; i < nchunks; i++) {
    fill(buf, CHUNK / 8, i * (CHUNK / 8), kind);
    if (lib->blosc2_schunk_append_buffer(sc, buf, CHUNK) != i + 1) return 1;
  }
  long after_c = status_kib("VmRSS");
  long code_c = status_kib("RssFile") - base_file;
  long peak_c = status_kib("VmHWM");
  double t1 = now();
  reset_peak();
  for (int64_t i = 0; i < nchunks; i++)
    if (lib->blosc2_schunk_decompress_chunk(sc, i, buf, CHUNK) != CHUNK) return 1;
  long peak_d = status_kib("VmHWM");
  double t2 = now();
  printf("%-9s %-8s | compress peak %7.1f MiB (held %7.1f, of it files %5ld KiB) %6.3f s | "
         "decompress peak %7.1f MiB %6.3f s\n",
         lib->label, kind ? "f64-sin" : "f64-ramp", (peak_c - base) / 1024.0,
         (after_c - base) / 1024.0, code_c, t1 - t0, (peak_d - base) / 1024.0, t2 - t1);
  lib->blosc2_schunk_free(sc);
  lib->blosc2_destroy();
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO [--gib N] [--nthreads T]\n", argv[0]);
    return 2;
  }
  double gib = 1;
  int nthreads = 1;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--gib") && i + 1 < argc) gib = atof(argv[++i]);
    else if (!strcmp(argv[i], "--nthreads") && i + 1 < argc) nthreads = atoi(argv[++i]);
    else {
      fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  printf("peak RSS above baseline, %.2f GiB in 4 MiB chunks, in-memory super-chunk, "
         "nthreads %d\n",
         gib, nthreads);
  int failed = 0;
  for (int kind = 0; kind < 2; kind++)
    for (int l = 0; l < 2; l++) {
      fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        lib_t lib = {.label = l ? "reference" : "ours", .path = argv[1 + l]};
        int rc = cross_load(&lib) ? measure(&lib, gib, nthreads, kind) : 1;
        fflush(stdout);
        _exit(rc);
      }
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("%s: FAILED\n", l ? "reference" : "ours");
        failed = 1;
      }
    }
  return failed;
}
