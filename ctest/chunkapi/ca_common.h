/*
 * Helpers shared by the chunk-level API tests of blosc2-oxide (ctest/chunkapi): the suite's
 * check accounting, PRNG, data generators and checksum (../test_common.h) plus a few
 * additions: byte-range checks, header accessors and the variant name.
 *
 * Header-only; every program includes it once, before any other blosc2 header. The same
 * sources build against our headers/library (BLOSC2_VARIANT_OURS) and against the reference
 * c-blosc2 3.3.5 (BLOSC2_VARIANT_REFERENCE). Checks guarded by BLOSC2_VARIANT_OURS cover cases
 * the reference crashes on or gets wrong; checks guarded by BLOSC2_VARIANT_REFERENCE pin a
 * measured reference quirk that ours is allowed to improve on.
 */
#ifndef BLOSC2_CHUNKAPI_CA_COMMON_H
#define BLOSC2_CHUNKAPI_CA_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../test_common.h"

#if defined(BLOSC2_VARIANT_OURS)
#define CA_VARIANT "ours"
#elif defined(BLOSC2_VARIANT_REFERENCE)
#define CA_VARIANT "reference"
#else
#define CA_VARIANT "unspecified"
#endif

/* CHECK_BYTES: `n` bytes at `got` equal those at `want`; reports the first difference. */
#define CHECK_BYTES(got, want, n, ...)                                                            \
  do {                                                                                            \
    const uint8_t *ca_g_ = (const uint8_t *)(got), *ca_w_ = (const uint8_t *)(want);              \
    size_t ca_n_ = (size_t)(n), ca_i_ = 0;                                                        \
    tc_checks++;                                                                                  \
    while (ca_i_ < ca_n_ && ca_g_[ca_i_] == ca_w_[ca_i_]) ca_i_++;                                \
    if (ca_i_ < ca_n_) {                                                                          \
      char ca_ctx_[256];                                                                          \
      snprintf(ca_ctx_, sizeof ca_ctx_, __VA_ARGS__);                                             \
      tc_fail(__FILE__, __LINE__, "bytes differ at %zu of %zu (got %02x, want %02x) [%s]", ca_i_, \
              ca_n_, ca_g_[ca_i_], ca_w_[ca_i_], ca_ctx_);                                        \
    }                                                                                             \
  } while (0)

/* CHECK_FILLED: `n` bytes at `p` all equal `byte`. */
#define CHECK_FILLED(p, byte, n, ...)                                                          \
  do {                                                                                         \
    const uint8_t *ca_p_ = (const uint8_t *)(p);                                               \
    size_t ca_n_ = (size_t)(n), ca_i_ = 0;                                                     \
    tc_checks++;                                                                               \
    while (ca_i_ < ca_n_ && ca_p_[ca_i_] == (uint8_t)(byte)) ca_i_++;                          \
    if (ca_i_ < ca_n_) {                                                                       \
      char ca_ctx_[256];                                                                       \
      snprintf(ca_ctx_, sizeof ca_ctx_, __VA_ARGS__);                                          \
      tc_fail(__FILE__, __LINE__, "byte %zu of %zu is %02x, expected %02x [%s]", ca_i_, ca_n_, \
              ca_p_[ca_i_], (unsigned)(uint8_t)(byte), ca_ctx_);                               \
    }                                                                                          \
  } while (0)

/* Chunk header accessors (offsets of the 32-byte extended header). */
static int32_t ca_nbytes(const uint8_t *c) { return tc_rd32(c + 4); }
static int32_t ca_blocksize(const uint8_t *c) { return tc_rd32(c + 8); }
static int32_t ca_cbytes(const uint8_t *c) { return tc_rd32(c + 12); }

/* Monotonic time in seconds. */
static double ca_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Print `n` bytes as hex on one line after a label (for diagnostics and the swap probe). */
static void ca_hexline(const char *label, const uint8_t *p, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %02x", p[i]);
  printf("\n");
}

/* The process's threads once the joined ones are gone (-1 without /proc). pthread_join returns
 * when a thread has released its stack, a moment before the kernel drops it from
 * /proc/self/task, so this waits up to two seconds for the count to reach 1; a thread the
 * library kept would stay. */
static int ca_os_threads(void) {
  int n = -1;
  for (int i = 0; i <= 2000; i++) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
      if (e->d_name[0] != '.') n++;
    closedir(d);
    if (n <= 1) break;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  return n;
}

#endif /* BLOSC2_CHUNKAPI_CA_COMMON_H */
