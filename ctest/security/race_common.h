/*
 * What the race checks run by tools/tsan.sh (race_frames.c, race_b2nd.c) share: the failure
 * and counter bookkeeping under one mutex, the clock, the chunk contents whose version a
 * reader can tell (torn reads mix two), and the command line. A program defines ITEMS, the
 * int32 items of one chunk, before including this header.
 */
#ifndef RACE_COMMON_H
#define RACE_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double g_seconds = 2.0;
static const char *g_dir;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static long g_failures, g_reads, g_refused, g_torn, g_writes;
static bool g_locking;
static atomic_int g_stop;

static void fail(int line, const char *what, long long a, long long b) {
  pthread_mutex_lock(&g_mu);
  if (++g_failures <= 20) fprintf(stderr, "FAIL line %d: %s (%lld, %lld)\n", line, what, a, b);
  pthread_mutex_unlock(&g_mu);
}
#define CHECK(cond, a, b) \
  do {                    \
    if (!(cond)) fail(__LINE__, #cond, (long long)(a), (long long)(b)); \
  } while (0)

/* Adds n to a shared counter. */
static inline void count(long *counter, long n) {
  pthread_mutex_lock(&g_mu);
  *counter += n;
  pthread_mutex_unlock(&g_mu);
}

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Version v of chunk n: item i is n * 1000003 + v * 7919 + i. */
static inline void fill(int32_t *buf, int64_t n, int32_t v) {
  for (int32_t i = 0; i < ITEMS; i++) buf[i] = (int32_t)(n * 1000003 + v * 7919 + i);
}

/* The version buf holds of chunk n, or -1 for a mix. */
static inline int32_t version_of(const int32_t *buf, int64_t n) {
  int32_t v = (int32_t)((buf[0] - (int32_t)(n * 1000003)) / 7919);
  for (int32_t i = 0; i < ITEMS; i++)
    if (buf[i] != (int32_t)(n * 1000003 + v * 7919 + i)) return -1;
  return v;
}

/* Reads `DIR [SECONDS]` and BLOSC_LOCKING; false (usage printed) without DIR. */
static inline bool race_args(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DIR [SECONDS]\n", argv[0]);
    return false;
  }
  g_dir = argv[1];
  if (argc > 2) g_seconds = atof(argv[2]);
  const char *locking = getenv("BLOSC_LOCKING");
  g_locking = locking && *locking && strcmp(locking, "0") != 0;
  return true;
}

#endif
