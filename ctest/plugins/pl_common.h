/*
 * Helpers of the plugin tests: the b2nd metalayer (msgpack, as the reference writes it),
 * array geometries, data generators and a super-chunk carrying a geometry.
 * Header-only; include it before any system header.
 */
#ifndef BLOSC2_PLUGINS_PL_COMMON_H
#define BLOSC2_PLUGINS_PL_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blosc2.h>
#include <blosc2/codecs-registry.h>
#include <blosc2/filters-registry.h>

typedef struct {
  int ndim;
  int32_t chunk[4];
  int32_t block[4];
} geom_t;

static int64_t pl_items(const int32_t *s, int ndim) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= s[i];
  return n;
}

static void pl_be(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Serialises the b2nd metalayer of an array of shape 2*chunk; returns its length. */
static int pl_meta(const geom_t *g, int typesize, uint8_t *out) {
  uint8_t *p = out;
  *p++ = 0x97;
  *p++ = 0;
  *p++ = (uint8_t)g->ndim;
  *p++ = (uint8_t)(0x90 | g->ndim);
  for (int i = 0; i < g->ndim; i++) { *p++ = 0xd3; pl_be(p, (uint64_t)(2 * (int64_t)g->chunk[i]), 8); p += 8; }
  *p++ = (uint8_t)(0x90 | g->ndim);
  for (int i = 0; i < g->ndim; i++) { *p++ = 0xd2; pl_be(p, (uint32_t)g->chunk[i], 4); p += 4; }
  *p++ = (uint8_t)(0x90 | g->ndim);
  for (int i = 0; i < g->ndim; i++) { *p++ = 0xd2; pl_be(p, (uint32_t)g->block[i], 4); p += 4; }
  *p++ = 0;
  const char *dtype = typesize == 4 ? "<f4" : typesize == 8 ? "<f8" : "|u1";
  *p++ = 0xdb;
  pl_be(p, 3, 4);
  p += 4;
  memcpy(p, dtype, 3);
  p += 3;
  return (int)(p - out);
}

static uint64_t pl_rng = 88172645463325252ULL;
static uint32_t pl_next(void) {
  pl_rng ^= pl_rng << 13;
  pl_rng ^= pl_rng >> 7;
  pl_rng ^= pl_rng << 17;
  return (uint32_t)(pl_rng >> 11);
}

/* kind 0: smooth, 1: random, 2: rows drawn from three patterns. */
static void pl_fill(uint8_t *buf, int64_t nitems, int typesize, int kind) {
  for (int64_t i = 0; i < nitems; i++) {
    uint8_t *d = buf + i * typesize;
    if (typesize == 4 && kind != 2) {
      float v = kind == 0 ? (float)(sin((double)i * 0.01) * 100.0) : (float)(pl_next() % 100000) / 7.0f;
      memcpy(d, &v, 4);
    } else if (typesize == 8 && kind != 2) {
      double v = kind == 0 ? cos((double)i * 0.003) * 1e3 + (double)i : (double)(pl_next() % 1000000) / 3.0;
      memcpy(d, &v, 8);
    } else {
      for (int k = 0; k < typesize; k++) {
        d[k] = kind == 1 ? (uint8_t)pl_next()
             : kind == 0 ? (uint8_t)((i / 7 + k) % 251)
                         : (uint8_t)(((i / 4) * 2654435761u >> 7) % 3 * 40 + (i % 4) * 3 + k);
      }
    }
  }
}

/* A super-chunk with `cparams` (blocksize set from the geometry) and the b2nd metalayer. */
static blosc2_schunk *pl_schunk(blosc2_cparams cparams, const geom_t *g) {
  static blosc2_cparams cp;
  static blosc2_dparams dp;
  cp = cparams;
  cp.nthreads = 1;
  cp.blocksize = (int32_t)(pl_items(g->block, g->ndim) * cp.typesize);
  dp = (blosc2_dparams)BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  if (!sc) return NULL;
  uint8_t meta[256];
  int len = pl_meta(g, cp.typesize, meta);
  if (blosc2_meta_add(sc, "b2nd", meta, len) < 0) {
    blosc2_schunk_free(sc);
    return NULL;
  }
  return sc;
}

#endif
