/*
 * Hostile input: truncated chunks (every length), corrupted header bytes (0x00, 0xFF and
 * seeded random values at every position), lying sizes/offsets inside the chunk, random
 * corruption of the streams, too-small destinations and invalid compression parameters.
 *
 * Where the reference returns a deterministic error code, that code is asserted. Otherwise
 * the rule is: no crash, the result is < 0 or a valid size (== the header's nbytes, within
 * destsize), nothing written past destsize, and the destination untouched on header errors.
 *
 * Every family of cases runs in a forked child so that a crash is reported with its case
 * instead of killing the whole test. Inputs known to crash the reference (BEHAVIOUR.md §14)
 * are only exercised in the ours variant (BLOSC2_VARIANT_OURS).
 */
#include <blosc2.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_common.h"

#define GUARD 64
#define FILL 0xC3

typedef struct {
  const char *name;
  uint8_t *chunk; /* compressed chunk */
  int32_t cbytes;
  uint8_t *data; /* what it decodes to */
  int32_t nbytes;
} sample_t;

#define MAX_SAMPLES 16
static sample_t samples[MAX_SAMPLES];
static int nsamples = 0;

static void add_sample(const char *name, int codec, int filt, int32_t ts, int32_t n, int clevel,
                       int kind) {
  sample_t *s = &samples[nsamples++];
  s->name = name;
  s->nbytes = n;
  s->data = tc_malloc((size_t)n);
  tc_fill(s->data, (size_t)n, kind, (size_t)ts, (uint64_t)nsamples);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  cp.typesize = ts;
  memset(cp.filters, 0, sizeof cp.filters);
  cp.filters[5] = (uint8_t)filt;
  uint8_t *tmp = tc_malloc((size_t)n + 32);
  blosc2_context *cctx = blosc2_create_cctx(cp);
  s->cbytes = blosc2_compress_ctx(cctx, s->data, n, tmp, n + 32);
  blosc2_free_ctx(cctx);
  if (s->cbytes <= 0) {
    fprintf(stderr, "cannot build sample %s (%d)\n", name, s->cbytes);
    exit(2);
  }
  s->chunk = tc_malloc((size_t)s->cbytes);
  memcpy(s->chunk, tmp, (size_t)s->cbytes);
  free(tmp);
}

static void add_special(const char *name, int which) {
  sample_t *s = &samples[nsamples++];
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 8;
  s->name = name;
  s->nbytes = 8000;
  s->data = tc_malloc(8000);
  s->chunk = tc_malloc(64);
  if (which == 0) {
    memset(s->data, 0, 8000);
    s->cbytes = blosc2_chunk_zeros(cp, 8000, s->chunk, 64);
  } else {
    double v = -1.5;
    for (int i = 0; i < 1000; i++) memcpy(s->data + 8 * i, &v, 8);
    s->cbytes = blosc2_chunk_repeatval(cp, 8000, s->chunk, 64, &v);
  }
}

/* Decompress a (possibly corrupt) buffer of exactly srcsize bytes and apply the rules.
 * want: the exact expected result, ANY_OUTCOME when any valid outcome is accepted, or
 * ANY_ERROR when only a negative code is acceptable. */
#define ANY_OUTCOME INT32_MIN
#define ANY_ERROR (INT32_MIN + 1)
static int32_t *g_last_rc;
static void try_decompress(const uint8_t *buf, int32_t srcsize, int32_t destsize, int nthreads,
                           int32_t want, const char *ctx) {
  uint8_t *copy = tc_malloc((size_t)srcsize); /* exact size: no slack to read into */
  memcpy(copy, buf, (size_t)srcsize);
  size_t cap = (size_t)(destsize > 0 ? destsize : 0) + GUARD;
  uint8_t *dest = tc_malloc(cap);
  memset(dest, FILL, cap);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = (int16_t)nthreads;
  blosc2_context *dctx = blosc2_create_dctx(dp);
  int rc = blosc2_decompress_ctx(dctx, copy, srcsize, dest, destsize);
  blosc2_free_ctx(dctx);
  if (g_last_rc) *g_last_rc = rc;
  if (want == ANY_ERROR) {
    CHECK(rc < 0, "expected an error, got %d [%s]", rc, ctx);
  } else if (want != ANY_OUTCOME) {
    CHECK_EQ(rc, want, "%s", ctx);
  } else if (rc >= 0) {
    /* Measured on the reference: a negative header nbytes "succeeds" with 0, and a lying
     * nbytes that is not a multiple of the typesize may yield fewer bytes than announced. */
    int32_t hn = srcsize >= 8 ? tc_rd32(copy + 4) : -1;
    CHECK((hn < 0 && rc == 0) || (rc <= hn && rc <= destsize),
          "success %d but header nbytes %d destsize %d [%s]", rc, hn, destsize, ctx);
  }
  for (size_t i = (size_t)(destsize > 0 ? destsize : 0); i < cap; i++)
    if (dest[i] != FILL) {
      CHECK(0, "write past destsize (rc %d) [%s]", rc, ctx);
      break;
    }
  /* Errors found while reading the header leave the destination untouched (-5 can also
   * come from a stream running past the source, after earlier blocks were written). */
  if (rc == BLOSC2_ERROR_WRITE_BUFFER || rc == BLOSC2_ERROR_INVALID_HEADER ||
      rc == BLOSC2_ERROR_VERSION_SUPPORT || (rc == BLOSC2_ERROR_READ_BUFFER && srcsize < 32)) {
    for (size_t i = 0; i < cap; i++)
      if (dest[i] != FILL) {
        CHECK(0, "header error %d but dest written at %zu [%s]", rc, i, ctx);
        break;
      }
  }
  free(dest);
  free(copy);
}

/* getitem on a (possibly corrupt) buffer: no crash, bounded writes. */
static void try_getitem(const uint8_t *buf, int32_t srcsize, int start, int nitems,
                        int32_t destsize, const char *ctx) {
  uint8_t *copy = tc_malloc((size_t)srcsize);
  memcpy(copy, buf, (size_t)srcsize);
  size_t cap = (size_t)destsize + GUARD;
  uint8_t *dest = tc_malloc(cap);
  memset(dest, FILL, cap);
  int rc = blosc2_getitem(copy, srcsize, start, nitems, dest, destsize);
  CHECK(rc <= destsize, "getitem returned %d > destsize %d [%s]", rc, destsize, ctx);
  for (size_t i = (size_t)destsize; i < cap; i++)
    if (dest[i] != FILL) {
      CHECK(0, "getitem wrote past destsize (rc %d) [%s]", rc, ctx);
      break;
    }
  free(dest);
  free(copy);
}

/* Header-only queries must not crash on anything that has at least 32 bytes. */
static void try_info(const uint8_t *buf, int32_t srcsize) {
  if (srcsize < BLOSC_EXTENDED_HEADER_LENGTH) return;
  size_t a, b, c;
  int32_t x, y, z;
  int f, v1, v2;
  blosc1_cbuffer_sizes(buf, &a, &b, &c);
  blosc1_cbuffer_metainfo(buf, &a, &f);
  blosc1_cbuffer_validate(buf, (size_t)srcsize, &a);
  blosc2_cbuffer_sizes(buf, &x, &y, &z);
  blosc2_cbuffer_versions(buf, &v1, &v2);
  (void)blosc2_cbuffer_complib(buf);
}

/* --- families ------------------------------------------------------------------------ */

static void family_truncated(const sample_t *s) {
  char ctx[120];
  int32_t step = 1;
  for (int32_t len = 0; len < s->cbytes; len += step) {
    if (len > 4096) step = 1 + (int32_t)tc_rand_below(997);
    snprintf(ctx, sizeof ctx, "%s truncated to %d of %d", s->name, len, s->cbytes);
    int32_t want = len < BLOSC_EXTENDED_HEADER_LENGTH ? BLOSC2_ERROR_READ_BUFFER
                                                       : BLOSC2_ERROR_INVALID_HEADER;
    try_decompress(s->chunk, len, s->nbytes, 1, want, ctx);
    if (len % 7 == 0) try_decompress(s->chunk, len, s->nbytes, 2, want, ctx);
    uint8_t out[64];
    if (len >= 1) {
      uint8_t *copy = tc_malloc((size_t)len);
      memcpy(copy, s->chunk, (size_t)len);
      int rc = blosc2_getitem(copy, len, 0, 1, out, sizeof out);
      CHECK_EQ(rc, want, "getitem %s", ctx);
      try_info(copy, len);
      free(copy);
    }
  }
}

static void family_header_bytes(const sample_t *s) {
  char ctx[120];
  uint8_t *buf = tc_malloc((size_t)s->cbytes);
  for (int pos = 0; pos < BLOSC_EXTENDED_HEADER_LENGTH; pos++) {
    for (int k = 0; k < 6; k++) {
      uint8_t v = k == 0 ? 0x00 : k == 1 ? 0xFF : (uint8_t)tc_rand64();
      if (k == 5) v = s->chunk[pos] ^ (uint8_t)(1u << tc_rand_below(8));
      memcpy(buf, s->chunk, (size_t)s->cbytes);
      buf[pos] = v;
      snprintf(ctx, sizeof ctx, "%s header[%d]=0x%02x (was 0x%02x)", s->name, pos, v,
               s->chunk[pos]);
      try_info(buf, s->cbytes);
      int32_t want = ANY_OUTCOME;
      int32_t hn = tc_rd32(buf + 4), hc = tc_rd32(buf + 12), hb = tc_rd32(buf + 8);
      /* Deterministic header errors (BEHAVIOUR §7). */
      if (hc > s->cbytes || hc < BLOSC_EXTENDED_HEADER_LENGTH || hb <= 0 ||
          hb > BLOSC2_MAXBLOCKSIZE || buf[3] == 0)
        want = BLOSC2_ERROR_INVALID_HEADER;
      else if (hn > s->nbytes)
        /* Repeated-value chunks check nbytes against the value width first (-11). */
        want = (buf[31] & 0x70) == 0x30 ? ANY_ERROR : BLOSC2_ERROR_WRITE_BUFFER;
      try_decompress(buf, s->cbytes, s->nbytes, 1 + (pos + k) % 2, want, ctx);
      try_getitem(buf, s->cbytes, 0, 1, 64, ctx);
      try_getitem(buf, s->cbytes, 3, 40, 4096, ctx);
    }
  }
  free(buf);
}

static void family_lying_fields(const sample_t *s) {
  char ctx[120];
  uint8_t *buf = tc_malloc((size_t)s->cbytes);
  int32_t values[] = {0, 1, -1, 16, 31, 32, s->cbytes - 1, s->cbytes, s->cbytes + 1,
                      s->cbytes + 4096, INT32_MAX, INT32_MIN, s->nbytes, s->nbytes + 1};
  int nv = (int)(sizeof values / sizeof values[0]);
  int32_t bs = tc_rd32(s->chunk + 8);
  int32_t nblocks = bs > 0 ? (s->nbytes + bs - 1) / bs : 0;
  int memcpyed = (s->chunk[2] & BLOSC_MEMCPYED) != 0 || s->chunk[31] != 0;
  /* Offsets of the int32 fields worth lying about: nbytes, blocksize, cbytes, the bstarts
   * and the first csize of each of the first blocks. */
  int32_t offsets[64];
  int no = 0;
  offsets[no++] = 4;
  offsets[no++] = 8;
  offsets[no++] = 12;
  if (!memcpyed) {
    for (int32_t b = 0; b < nblocks && b < 8 && 32 + 4 * b + 4 <= s->cbytes; b++) {
      offsets[no++] = 32 + 4 * b;
      int32_t start = tc_rd32(s->chunk + 32 + 4 * b);
      if (start >= 32 && start + 4 <= s->cbytes) offsets[no++] = start;
    }
    if (nblocks > 0) offsets[no++] = 32 + 4 * (nblocks - 1);
  }
  for (int o = 0; o < no; o++)
    for (int k = 0; k < nv; k++) {
      memcpy(buf, s->chunk, (size_t)s->cbytes);
      tc_wr32(buf + offsets[o], values[k]);
      snprintf(ctx, sizeof ctx, "%s int32 at %d = %d", s->name, offsets[o], values[k]);
      try_info(buf, s->cbytes);
      try_decompress(buf, s->cbytes, s->nbytes, 1 + k % 2, ANY_OUTCOME, ctx);
      /* A destination sized from the lying header, when it is not absurd. */
      int32_t hn = tc_rd32(buf + 4);
      if (hn >= 0 && hn <= 64 * 1024 * 1024)
        try_decompress(buf, s->cbytes, hn, 1, ANY_OUTCOME, ctx);
      try_getitem(buf, s->cbytes, 1, 5, 4096, ctx);
    }
  free(buf);
}

static void family_random_body(const sample_t *s) {
  char ctx[120];
  uint8_t *buf = tc_malloc((size_t)s->cbytes);
  if (s->cbytes <= 32) {
    free(buf);
    return;
  }
  for (int it = 0; it < 1000; it++) {
    memcpy(buf, s->chunk, (size_t)s->cbytes);
    int nflips = 1 + (int)tc_rand_below(8);
    for (int f = 0; f < nflips; f++) {
      uint32_t pos = 32 + tc_rand_below((uint32_t)(s->cbytes - 32));
      buf[pos] = (uint8_t)tc_rand64();
    }
    snprintf(ctx, sizeof ctx, "%s body corruption #%d", s->name, it);
    try_decompress(buf, s->cbytes, s->nbytes, 1 + it % 2, ANY_OUTCOME, ctx);
    if (it % 4 == 0) try_getitem(buf, s->cbytes, 0, s->nbytes / 2 / (buf[3] ? buf[3] : 1), s->nbytes, ctx);
  }
  free(buf);
}

static void family_small_dest(const sample_t *s) {
  char ctx[120];
  int32_t step = s->nbytes > 2000 ? s->nbytes / 500 + 1 : 1;
  for (int32_t d = 0; d < s->nbytes; d += step) {
    snprintf(ctx, sizeof ctx, "%s destsize %d < nbytes %d", s->name, d, s->nbytes);
    try_decompress(s->chunk, s->cbytes, d, 1 + d % 2, BLOSC2_ERROR_WRITE_BUFFER, ctx);
  }
  /* Sanity: the untouched chunk still decodes. */
  uint8_t *dest = tc_malloc((size_t)s->nbytes);
  CHECK_EQ(blosc2_decompress(s->chunk, s->cbytes, dest, s->nbytes), s->nbytes, "%s", s->name);
  CHECK(memcmp(dest, s->data, (size_t)s->nbytes) == 0, "%s decodes", s->name);
  free(dest);
}

/* Invalid compression parameters (context and global API). */
static void family_bad_compress(void) {
  uint8_t src[4096], dst[4096 + 64];
  tc_fill(src, sizeof src, TC_TEXT, 4, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *c;
#define COMPRESS_CP(n, ds) (c = blosc2_create_cctx(cp), rc = c ? blosc2_compress_ctx(c, src, n, dst, ds) : -999, blosc2_free_ctx(c), rc)
  int rc;
  cp.clevel = 10;
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_CODEC_PARAM, "%s", "clevel 10");
  cp.clevel = 5;
  cp.compcode = 6;
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_CODEC_SUPPORT, "%s", "compcode 6");
  cp.compcode = 3;
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_CODEC_SUPPORT, "%s", "compcode 3");
  cp.compcode = BLOSC_BLOSCLZ;
  CHECK_EQ(COMPRESS_CP(4096, 31), BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, "%s", "destsize 31");
  CHECK_EQ(COMPRESS_CP(4096, 0), BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, "%s", "destsize 0");
  CHECK_EQ(COMPRESS_CP(4096, 40), 0, "%s", "destsize 40 does not fit");
  cp.typesize = BLOSC2_MAXTYPESIZE + 1;
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_INVALID_PARAM, "%s", "typesize too big");
  cp.typesize = 4;
  cp.use_dict = 1;
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_CODEC_PARAM, "%s", "dict with blosclz");
  cp.use_dict = 0;
  /* Filter ids 5..31 and 37..159 are rejected when the context is created. */
  cp.filters[0] = 7;
  CHECK(blosc2_create_cctx(cp) == NULL, "%s", "filter id 7 accepted");
  cp.filters[0] = 100;
  CHECK(blosc2_create_cctx(cp) == NULL, "%s", "filter id 100 accepted");
  cp.filters[0] = 200; /* unregistered user filter: fails at compression */
  CHECK_EQ(COMPRESS_CP(4096, 4160), BLOSC2_ERROR_FILTER_PIPELINE, "%s", "filter 200");
  cp.filters[0] = 0;
  /* A decompression context cannot compress and vice versa. */
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  CHECK_EQ(blosc2_compress_ctx(d, src, 4096, dst, 4160), BLOSC2_ERROR_INVALID_PARAM, "%s",
           "compress with a dctx");
  blosc2_free_ctx(d);
  c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, 4096, dst, 4160);
  CHECK(cb > 0, "compress %d", cb);
  CHECK_EQ(blosc2_decompress_ctx(c, dst, cb, src, 4096), BLOSC2_ERROR_INVALID_PARAM, "%s",
           "decompress with a cctx");
  blosc2_free_ctx(c);
  /* Global API. */
  CHECK_EQ(blosc2_compress(10, 1, 4, src, 4096, dst, 4160), BLOSC2_ERROR_CODEC_PARAM, "%s",
           "global clevel 10");
  CHECK_EQ(blosc2_compress(-1, 1, 4, src, 4096, dst, 4160), BLOSC2_ERROR_CODEC_PARAM, "%s",
           "global clevel -1");
  CHECK_EQ(blosc2_compress(5, 1, 4, src, 4096, dst, 16), BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED,
           "%s", "global destsize 16");
  CHECK_EQ(blosc1_compress(5, 1, 4, (size_t)BLOSC2_MAX_BUFFERSIZE + 1, src, dst, 4160),
           BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, "%s", "nbytes > MAX_BUFFERSIZE");
#ifdef BLOSC2_VARIANT_OURS
  /* typesize 0 crashes the reference (SIGFPE, BEHAVIOUR §14): ours must just fail. */
  CHECK(blosc2_compress(5, 1, 0, src, 4096, dst, 4160) < 0, "%s", "global typesize 0");
  cp.typesize = 0;
  rc = COMPRESS_CP(4096, 4160);
  CHECK(rc < 0 || rc == 4096 + 32, "ctx typesize 0: %d", rc);
  cp.typesize = 4;
#endif
#undef COMPRESS_CP
  /* Decompression of nonsense sizes. */
  CHECK_EQ(blosc2_decompress(dst, 0, src, 4096), BLOSC2_ERROR_READ_BUFFER, "%s", "srcsize 0");
  CHECK_EQ(blosc2_decompress(dst, 15, src, 4096), BLOSC2_ERROR_READ_BUFFER, "%s", "srcsize 15");
  CHECK(blosc2_decompress(dst, -1, src, 4096) < 0, "%s", "srcsize -1");
}

/* NULL arguments: those the reference tolerates, with its results; the others crash the
 * reference and are only run against ours, where they must fail cleanly. */
static void family_nulls(void) {
  uint8_t chunk[64], buf[1024];
  size_t sz;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  int cb = blosc2_chunk_zeros(cp, 800, chunk, sizeof chunk);
  CHECK_EQ(cb, 32, "%s", "zeros");
  CHECK_EQ(blosc2_cbuffer_sizes(chunk, NULL, NULL, NULL), 0, "%s", "NULL sizes");
  CHECK_EQ(blosc2_getitem(chunk, cb, 0, 0, NULL, 0), 0, "%s", "nitems 0 with NULL dest");
  CHECK_EQ(blosc2_decompress(NULL, 0, NULL, 0), BLOSC2_ERROR_READ_BUFFER, "%s", "all NULL");
  CHECK_EQ(blosc2_decompress(chunk, cb, NULL, 0), BLOSC2_ERROR_WRITE_BUFFER, "%s", "NULL dest");
  CHECK_EQ(blosc2_compress(5, 1, 4, NULL, 0, buf, 64), 32, "%s", "NULL src of 0 bytes");
  CHECK_EQ(blosc1_cbuffer_validate(NULL, 10, &sz), BLOSC2_ERROR_WRITE_BUFFER, "%s", "validate");
#ifdef BLOSC2_VARIANT_OURS
  int32_t x;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_free_ctx(NULL);
  CHECK(blosc2_cbuffer_sizes(NULL, &x, &x, &x) < 0, "%s", "cbuffer_sizes(NULL)");
  CHECK(blosc2_cbuffer_complib(NULL) == NULL, "%s", "complib(NULL)");
  CHECK(blosc2_decompress(NULL, 100, buf, 64) < 0, "%s", "decompress NULL src");
  CHECK(blosc2_decompress(chunk, cb, NULL, 800) < 0, "%s", "decompress NULL dest");
  CHECK(blosc2_compress(5, 1, 4, NULL, 100, buf, 164) < 0, "%s", "compress NULL src");
  CHECK(blosc2_compress(5, 1, 4, buf, 32, NULL, 64) < 0, "%s", "compress NULL dest");
  CHECK(blosc2_decompress_ctx(NULL, chunk, cb, buf, 800) < 0, "%s", "NULL dctx");
  CHECK(blosc2_compress_ctx(NULL, buf, 100, chunk, 64) < 0, "%s", "NULL cctx");
  CHECK(blosc2_getitem(NULL, 100, 0, 1, buf, 64) < 0, "%s", "getitem NULL src");
  CHECK(blosc2_chunk_zeros(cp, 800, NULL, 64) < 0, "%s", "chunk_zeros NULL dest");
  CHECK(blosc2_chunk_repeatval(cp, 800, buf, 64, NULL) < 0, "%s", "repeatval NULL value");
  CHECK(blosc2_shuffle(4, 64, NULL, buf) < 0, "%s", "shuffle NULL src");
  CHECK(blosc2_compname_to_compcode(NULL) < 0, "%s", "compname NULL");
  CHECK(blosc1_set_compressor(NULL) < 0, "%s", "set_compressor NULL");
  blosc2_context *d = blosc2_create_dctx(dp);
  (void)blosc2_ctx_get_cparams(d, NULL); /* must not crash; any result is fine */
  blosc2_free_ctx(d);
#endif
}

typedef void (*family_fn)(const sample_t *);

/* Run fn(s) in a child; a crash or failed checks count as one failure here. */
static void run_family(const char *fname, family_fn fn, const sample_t *s, void (*plain)(void)) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    tc_failures = 0;
    tc_seed(0xB10C2ULL + (uint64_t)(s ? s - samples : 99));
    if (fn) fn(s);
    else plain();
    fflush(stdout);
    _exit(tc_failures ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  const char *who = s ? s->name : "-";
  if (WIFSIGNALED(status)) {
    CHECK(0, "family %s on %s: killed by signal %d", fname, who, WTERMSIG(status));
  } else {
    CHECK(WEXITSTATUS(status) == 0, "family %s on %s: failed checks (see above)", fname, who);
  }
}

int main(void) {
  blosc2_init();
  tc_seed(20240611);
  add_sample("zstd-shuffle-f32", BLOSC_ZSTD, BLOSC_SHUFFLE, 4, 100000, 5, TC_FLOATS);
  add_sample("lz4-bitshuffle-ramp", BLOSC_LZ4, BLOSC_BITSHUFFLE, 8, 300000, 5, TC_RAMP);
  add_sample("blosclz-text", BLOSC_BLOSCLZ, 0, 1, 5000, 9, TC_TEXT);
  add_sample("zlib-shuffle-lowent", BLOSC_ZLIB, BLOSC_SHUFFLE, 2, 70000, 6, TC_LOWENT);
  add_sample("lz4hc-ts16", BLOSC_LZ4HC, BLOSC_SHUFFLE, 16, 64000, 4, TC_FLOATS);
  add_sample("memcpy-clevel0", BLOSC_BLOSCLZ, BLOSC_SHUFFLE, 4, 1000, 0, TC_RANDOM);
  add_sample("tiny-20B", BLOSC_LZ4, BLOSC_SHUFFLE, 4, 20, 5, TC_TEXT);
  add_sample("zero-detected", BLOSC_BLOSCLZ, BLOSC_SHUFFLE, 4, 100000, 5, TC_ZEROS);
  add_sample("runs", BLOSC_ZSTD, BLOSC_SHUFFLE, 4, 100000, 5, TC_CONST);
  add_sample("random-fallback", BLOSC_LZ4, BLOSC_SHUFFLE, 4, 4000, 5, TC_RANDOM);
  add_special("special-zeros", 0);
  add_special("special-repeat", 1);
  for (int i = 0; i < nsamples; i++) {
    run_family("truncated", family_truncated, &samples[i], NULL);
    run_family("header-bytes", family_header_bytes, &samples[i], NULL);
    run_family("lying-fields", family_lying_fields, &samples[i], NULL);
    run_family("random-body", family_random_body, &samples[i], NULL);
    run_family("small-dest", family_small_dest, &samples[i], NULL);
  }
  run_family("bad-compress", NULL, NULL, family_bad_compress);
  run_family("nulls", NULL, NULL, family_nulls);
  printf("hostile: %d samples x 5 families + 2\n", nsamples);
  for (int i = 0; i < nsamples; i++) {
    free(samples[i].chunk);
    free(samples[i].data);
  }
  blosc2_destroy();
  return tc_finish("hostile");
}
