/*
 * Shared helpers of the blosc2-oxide C test suite: failure accounting, a seeded PRNG,
 * data generators, a 64-bit checksum and small file helpers. Header-only; every test
 * includes it once.
 *
 * The same sources build against our headers/library (BLOSC2_VARIANT_OURS) and against
 * the reference c-blosc2 3.3.5 (BLOSC2_VARIANT_REFERENCE).
 */
#ifndef BLOSC2_CTEST_COMMON_H
#define BLOSC2_CTEST_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>

/* Number of failed checks so far and how many of them were printed. */
static long tc_failures = 0;
static long tc_checks = 0;
#ifndef TC_MAX_PRINTED
#define TC_MAX_PRINTED 60
#endif

static void tc_fail(const char *file, int line, const char *fmt, ...) {
  tc_failures++;
  if (tc_failures <= TC_MAX_PRINTED) {
    va_list ap;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
  } else if (tc_failures == TC_MAX_PRINTED + 1) {
    fprintf(stderr, "... further failures not printed\n");
  }
}

/* CHECK(cond, printf-args): record a failure with a message when cond is false. */
#define CHECK(cond, ...)                                  \
  do {                                                    \
    tc_checks++;                                          \
    if (!(cond)) tc_fail(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

/* CHECK_EQ(got, want, printf-args): integer equality, printing both values and the context. */
#define CHECK_EQ(got, want, ...)                                                       \
  do {                                                                                 \
    long long tc_g_ = (long long)(got), tc_w_ = (long long)(want);                     \
    tc_checks++;                                                                       \
    if (tc_g_ != tc_w_) {                                                              \
      char tc_ctx_[256];                                                               \
      snprintf(tc_ctx_, sizeof tc_ctx_, __VA_ARGS__);                                  \
      tc_fail(__FILE__, __LINE__, "%s = %lld, expected %lld [%s]", #got, tc_g_, tc_w_, \
              tc_ctx_);                                                                \
    }                                                                                  \
  } while (0)

/* REQUIRE: like CHECK, but leaves the current (void) function when false. */
#define REQUIRE(cond, ...)                      \
  do {                                          \
    tc_checks++;                                \
    if (!(cond)) {                              \
      tc_fail(__FILE__, __LINE__, __VA_ARGS__); \
      return;                                   \
    }                                           \
  } while (0)

/* Print the summary line and return the process exit status. */
static int tc_finish(const char *name) {
  printf("%s: %ld checks, %ld failures\n", name, tc_checks, tc_failures);
  return tc_failures == 0 ? 0 : 1;
}

/* xorshift64* PRNG: deterministic for a given seed. */
static uint64_t tc_rng_state = 0x9E3779B97F4A7C15ULL;
static void tc_seed(uint64_t seed) { tc_rng_state = seed ? seed : 0x9E3779B97F4A7C15ULL; }
static uint64_t tc_rand64(void) {
  uint64_t x = tc_rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  tc_rng_state = x;
  return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t tc_rand_below(uint32_t n) { return n ? (uint32_t)(tc_rand64() % n) : 0; }

/* FNV-1a 64-bit checksum of a buffer. */
static uint64_t tc_hash(const void *buf, size_t len) {
  const uint8_t *p = (const uint8_t *)buf;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* Kinds of generated data. */
enum {
  TC_ZEROS,      /* all zero bytes */
  TC_CONST,      /* one repeated non-zero byte */
  TC_RAMP,       /* little-endian integer ramp of the typesize */
  TC_FLOATS,     /* smooth float32/float64 samples (sin) */
  TC_TEXT,       /* English-like words */
  TC_RANDOM,     /* uniformly random bytes */
  TC_LOWENT,     /* random bytes from a 4-symbol alphabet with runs */
  TC_NKINDS
};

static const char *tc_kind_name(int kind) {
  static const char *names[] = {"zeros", "const", "ramp", "floats", "text", "random", "lowent"};
  return (kind >= 0 && kind < TC_NKINDS) ? names[kind] : "?";
}

/* Fill buf[0..len) with data of the given kind (typesize shapes ramps and floats). */
static void tc_fill(uint8_t *buf, size_t len, int kind, size_t typesize, uint64_t seed) {
  static const char *words[] = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ",
                                "lazy ", "dog ", "blosc ", "chunk ", "compress ", "data ",
                                "and ", "of ", "a ", "shuffle, ", "block. "};
  uint64_t saved = tc_rng_state;
  tc_seed(seed * 0x9E3779B97F4A7C15ULL + (uint64_t)kind + 1);
  if (typesize == 0) typesize = 1;
  switch (kind) {
    case TC_ZEROS:
      memset(buf, 0, len);
      break;
    case TC_CONST:
      memset(buf, 0x5a, len);
      break;
    case TC_RAMP:
      for (size_t i = 0; i < len; i++) {
        uint64_t item = (i / typesize) * 3 + (seed & 7);
        size_t byte = i % typesize;
        buf[i] = byte < 8 ? (uint8_t)(item >> (8 * byte)) : 0;
      }
      break;
    case TC_FLOATS: {
      size_t i = 0;
      if (typesize == 8) {
        for (; i + 8 <= len; i += 8) {
          double v = 1000.0 * sin((double)(i / 8) * 0.001) + 0.5;
          memcpy(buf + i, &v, 8);
        }
      } else {
        for (; i + 4 <= len; i += 4) {
          float v = (float)(100.0 * sin((double)(i / 4) * 0.002));
          memcpy(buf + i, &v, 4);
        }
      }
      for (; i < len; i++) buf[i] = (uint8_t)i;
      break;
    }
    case TC_TEXT: {
      size_t i = 0;
      while (i < len) {
        const char *w = words[tc_rand_below(sizeof(words) / sizeof(words[0]))];
        size_t wl = strlen(w);
        if (wl > len - i) wl = len - i;
        memcpy(buf + i, w, wl);
        i += wl;
      }
      break;
    }
    case TC_RANDOM:
      for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)tc_rand64();
      break;
    default: {
      size_t i = 0;
      while (i < len) {
        uint8_t sym = (uint8_t)(tc_rand_below(4) * 17);
        size_t run = 1 + tc_rand_below(12);
        for (size_t j = 0; j < run && i < len; j++) buf[i++] = sym;
      }
      break;
    }
  }
  tc_rng_state = saved;
}

/* Little-endian accessors for chunk headers. */
static int32_t tc_rd32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24));
}
static void tc_wr32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  p[0] = (uint8_t)u;
  p[1] = (uint8_t)(u >> 8);
  p[2] = (uint8_t)(u >> 16);
  p[3] = (uint8_t)(u >> 24);
}

static void *tc_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", n);
    exit(2);
  }
  return p;
}

static int tc_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static int64_t tc_file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Whole file into a malloc'ed buffer; NULL on error. */
static uint8_t *tc_read_file(const char *path, int64_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = (uint8_t *)tc_malloc((size_t)n);
  if (n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *len = n;
  return b;
}

static int tc_write_file(const char *path, const void *buf, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = len ? fwrite(buf, 1, len, f) : 0;
  fclose(f);
  return w == len ? 0 : -1;
}

#endif /* BLOSC2_CTEST_COMMON_H */
