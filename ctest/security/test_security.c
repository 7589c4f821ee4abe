/*
 * The published memory-safety reports of c-blosc2 as tests: one case per class of bug
 * (CVE-2024-3203, CVE-2024-3204 and the GitHub reports on frames, lazy chunks, VL blocks,
 * getitem, codecs and plugins; SECURITY.md lists them with the reports they come from).
 * Every input is made here: a valid chunk or frame built with the library under test,
 * then the fields the report names are set to hostile values, or a chunk written byte by
 * byte where no API builds one (user codecs).
 *
 * Sources and destinations sit against a PROT_NONE guard page, so a read past the end of
 * the input or a write past the end of the output faults even without a sanitizer. Each
 * case runs in a fork()ed child (with a 120 s alarm) and ends as one of:
 *   safe     - the library refused the input (negative code / NULL) or, where the input is
 *              valid, gave the right result;
 *   ACCEPTED - the library returned success on input it must refuse, or wrong data;
 *   CRASH    - the child died on a signal (an overflow reached a guard page, an abort...).
 * Every case must be safe against our library. Against the reference c-blosc2 3.3.5 (which
 * has the upstream fixes) every case must be safe too, except those marked REF_CRASHES: bugs
 * of the reference found here (measured), which are reported without failing.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <b2nd.h>
#include <blosc2.h>

#if defined(BLOSC2_VARIANT_OURS)
#define VARIANT "ours"
#elif defined(BLOSC2_VARIANT_REFERENCE)
#define VARIANT "reference"
#else
#error "compile with BLOSC2_VARIANT_OURS or BLOSC2_VARIANT_REFERENCE"
#endif

/* Codec ids of the registered plugins (blosc2/codecs-registry.h of the reference). */
enum { CODEC_NDLZ = 32, CODEC_ZFP_RATE = 35, USER_CODEC = 250, USER_FILTER = 250 };

/* SECURITY_VERBOSE=1 prints the return codes the cases see. */
#define SAY(...)                                                  \
  do {                                                            \
    if (getenv("SECURITY_VERBOSE")) fprintf(stderr, __VA_ARGS__); \
  } while (0)

/* Outcomes a case reports through its exit status. */
enum { SAFE = 0, ACCEPTED = 1, SETUP = 2 };

/* ---- guarded memory ------------------------------------------------------------------- */

/* n bytes ending right before a PROT_NONE page (never freed: the child exits). */
static uint8_t *guarded(size_t n) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t span = (n + pg - 1) / pg * pg;
  if (span == 0) span = pg;
  uint8_t *m = mmap(NULL, span + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    perror("mmap");
    exit(SETUP);
  }
  if (mprotect(m + span, pg, PROT_NONE) != 0) {
    perror("mprotect");
    exit(SETUP);
  }
  return m + span - n;
}

/* A guarded copy of n bytes. */
static uint8_t *guarded_copy(const void *src, size_t n) {
  uint8_t *p = guarded(n);
  memcpy(p, src, n);
  return p;
}

/* ---- byte access ---------------------------------------------------------------------- */

static void wr32(uint8_t *p, int32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}
static int32_t rd32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24);
}
static void wr64(uint8_t *p, int64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)((uint64_t)v >> (8 * i));
}
static int32_t rd32be(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
                   (uint32_t)p[3]);
}
static void wr32be(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static int64_t rd64be(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return (int64_t)v;
}

#define NEED(cond)                                                     \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "    setup failed: %s (line %d)\n", #cond, __LINE__); \
      exit(SETUP);                                                     \
    }                                                                  \
  } while (0)

/* ---- builders ------------------------------------------------------------------------- */

static blosc2_context *dctx(void) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  return blosc2_create_dctx(dp);
}

/* A valid chunk of n int32 items (codec, filter), in a malloc'ed buffer; *len its size. */
static uint8_t *make_chunk(int32_t n, uint8_t codec, uint8_t filter, int32_t *len) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.compcode = codec;
  cp.filters[BLOSC2_MAX_FILTERS - 1] = filter;
  blosc2_context *c = blosc2_create_cctx(cp);
  int32_t *src = malloc((size_t)n * 4);
  for (int32_t i = 0; i < n; i++) src[i] = i * 3 + (i >> 4);
  uint8_t *dst = malloc((size_t)n * 4 + BLOSC2_MAX_OVERHEAD);
  *len = blosc2_compress_ctx(c, src, n * 4, dst, n * 4 + BLOSC2_MAX_OVERHEAD);
  NEED(*len > 0);
  blosc2_free_ctx(c);
  free(src);
  return dst;
}

/* A 32-byte extended header for a one-block, unsplit chunk of a user codec. */
static void user_codec_header(uint8_t *h, uint8_t codec, uint8_t meta, int32_t nbytes,
                              int32_t cbytes) {
  memset(h, 0, 32);
  h[0] = 5;                                    /* format version */
  h[1] = 1;                                    /* codec format version */
  h[2] = (uint8_t)(BLOSC_UDCODEC_FORMAT << 5) | 0x10 | 0x05; /* udcodec, unsplit, ext */
  h[3] = 1;                                    /* typesize */
  wr32(h + 4, nbytes);
  wr32(h + 8, nbytes);                         /* blocksize */
  wr32(h + 12, cbytes);
  h[22] = codec;
  h[23] = meta;
}

/* An in-memory contiguous super-chunk holding nchunks chunks of 256 int32 items. */
static blosc2_schunk *make_schunk(int nchunks, const char *urlpath) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.urlpath = (char *)urlpath;
  st.cparams = &cp;
  st.dparams = &dp;
  if (urlpath) blosc2_remove_urlpath(urlpath);
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  NEED(sc != NULL);
  int32_t data[256];
  for (int c = 0; c < nchunks; c++) {
    for (int i = 0; i < 256; i++) data[i] = c * 1000 + i;
    NEED(blosc2_schunk_append_buffer(sc, data, sizeof data) == c + 1);
  }
  return sc;
}

/* The serialised frame of sc (malloc'ed copy); *len its size. */
static uint8_t *frame_bytes(blosc2_schunk *sc, int64_t *len) {
  uint8_t *buf;
  bool needs_free;
  *len = blosc2_schunk_to_buffer(sc, &buf, &needs_free);
  NEED(*len > 0);
  uint8_t *copy = malloc((size_t)*len);
  memcpy(copy, buf, (size_t)*len);
  if (needs_free) free(buf);
  return copy;
}

/* Where the index chunk of a frame starts: header length + chunk section length. */
static int64_t index_at(const uint8_t *f) {
  return (int64_t)rd32be(f + 0x0b) + rd64be(f + 0x27);
}

/* Decompresses every chunk of frame bytes f: SAFE when opening or some chunk fails. */
static int frame_refused(uint8_t *f, int64_t len) {
  blosc2_schunk *sc = blosc2_schunk_from_buffer(f, len, true);
  if (sc == NULL) return SAFE;
  int32_t out[256];
  int refused = 0;
  for (int64_t n = 0; n < sc->nchunks; n++) {
    if (blosc2_schunk_decompress_chunk(sc, n, out, sizeof out) < 0) refused = 1;
  }
  blosc2_schunk_free(sc);
  return refused ? SAFE : ACCEPTED;
}

/* ---- the cases ---------------------------------------------------------------------- */

/* Whether the library decodes a valid NDLZ 4x4 chunk (one 4x4 cell of the value 7);
 * the reference must (its NDLZ plugin is built in), ours once its NDLZ codec lands. */
static int ndlz_available(void) {
  uint8_t chunk[32 + 4 + 4 + 11];
  user_codec_header(chunk, CODEC_NDLZ, 4, 16, sizeof chunk);
  wr32(chunk + 32, 36);
  wr32(chunk + 36, 11);
  uint8_t *s = chunk + 40;
  s[0] = 2;
  wr32(s + 1, 4);
  wr32(s + 5, 4);
  s[9] = 0x40; /* a cell of one repeated byte */
  s[10] = 7;
  uint8_t out[16];
  int rc = blosc2_decompress_ctx(dctx(), chunk, sizeof chunk, out, sizeof out);
  int ok = rc == 16 && out[0] == 7 && out[15] == 7;
#if defined(BLOSC2_VARIANT_REFERENCE)
  NEED(ok);
#endif
  return ok;
}

/* CVE-2024-3204 (NDLZ 4x4 decoder): the stream's block shape is far bigger than the
 * output; the decoder must not write past the block. */
static int c_ndlz4_blockshape(void) {
  ndlz_available();
  uint8_t chunk[64];
  int32_t cbytes = 32 + 4 + 4 + 9 + 8;
  user_codec_header(chunk, CODEC_NDLZ, 4, 64, cbytes);
  wr32(chunk + 32, 36);             /* bstarts[0] */
  wr32(chunk + 36, cbytes - 40);    /* stream size */
  uint8_t *s = chunk + 40;
  s[0] = 2;                         /* ndim */
  wr32(s + 1, 4096);                /* blockshape */
  wr32(s + 5, 4096);
  memset(s + 9, 0x00, 8);           /* cell tokens */
  uint8_t *src = guarded_copy(chunk, (size_t)cbytes);
  uint8_t *dst = guarded(64);
  int rc = blosc2_decompress_ctx(dctx(), src, cbytes, dst, 64);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* CVE-2024-3203 (NDLZ 8x8 decoder): a stream whose tokens ask for cells and back
 * references beyond the input it has. */
static int c_ndlz8_truncated(void) {
  ndlz_available();
  uint8_t chunk[64];
  int32_t cbytes = 32 + 4 + 4 + 9 + 3;
  user_codec_header(chunk, CODEC_NDLZ, 8, 64, cbytes);
  wr32(chunk + 32, 36);
  wr32(chunk + 36, cbytes - 40);
  uint8_t *s = chunk + 40;
  s[0] = 2;
  wr32(s + 1, 8);
  wr32(s + 5, 8);
  s[9] = 0xff;                      /* token: match with an offset to follow */
  s[10] = 0xff;
  s[11] = 0x7f;
  uint8_t *src = guarded_copy(chunk, (size_t)cbytes);
  uint8_t *dst = guarded(64);
  int rc = blosc2_decompress_ctx(dctx(), src, cbytes, dst, 64);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* Frames: a chunk index entry pointing past the chunk section (#245, #254, #736, #738). */
static int c_frame_offset_outside(void) {
  blosc2_schunk *sc = make_schunk(2, NULL);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  uint8_t *idx = f + index_at(f);
  NEED(idx[2] & 0x02); /* the index of two chunks is stored memcpyed */
  wr64(idx + 32 + 8, rd64be(f + 0x27) + 4096);
  return frame_refused(guarded_copy(f, (size_t)len), len);
}

/* Frames: a stored chunk whose header claims fewer bytes than a chunk header, in a frame
 * copied out of a buffer (found by the differential_frame fuzz target: the reference's
 * blosc2_schunk_from_buffer frees an invalid pointer on this error path). */
static int c_frame_chunk_cbytes_small(void) {
  blosc2_schunk *sc = make_schunk(2, NULL);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  uint8_t *idx = f + index_at(f);
  NEED(idx[2] & 0x02);
  int64_t off1 = 0;
  for (int i = 7; i >= 0; i--) off1 = off1 << 8 | idx[32 + 8 + i];
  NEED(off1 > 0 && off1 + 16 <= rd64be(f + 0x27));
  wr32(f + rd32be(f + 0x0b) + off1 + 12, 8);
  blosc2_schunk *back = blosc2_schunk_from_buffer(guarded_copy(f, (size_t)len), len, true);
  if (back == NULL) return SAFE;
  blosc2_schunk_free(back);
  return ACCEPTED;
}

/* Lazy chunks: the lazy flag on a value-special chunk whose cbytes (the value's width)
 * runs past the source; lazy chunks are exempt from the cbytes check (found by the
 * differential fuzz target: the reference reads the value past the end of the source). */
static int c_lazy_value_overread(void) {
  uint8_t chunk[40];
  memset(chunk, 0, sizeof chunk);
  chunk[0] = 5;
  chunk[1] = 1;
  chunk[2] = 0x05;
  chunk[3] = 1;
  wr32(chunk + 4, 1 << 16);
  wr32(chunk + 8, 1 << 16);
  wr32(chunk + 12, 32 + (1 << 16)); /* a 64 KiB value in a 40-byte source */
  chunk[31] = 0x30 | 0x08;          /* value special, lazy */
  uint8_t *src = guarded_copy(chunk, sizeof chunk);
  uint8_t *dst = guarded(1 << 16);
  int rc = blosc2_decompress_ctx(dctx(), src, sizeof chunk, dst, 1 << 16);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* VL-block chunks: a header alone claiming 0 bytes of data in 0x180000 blocks (found by the
 * differential fuzz target: the reference reads through a NULL pointer). */
static int c_vlblock_zero_nbytes(void) {
  uint8_t chunk[32];
  memset(chunk, 0, sizeof chunk);
  chunk[0] = 5;
  chunk[1] = 1;
  chunk[2] = 0x05; /* extended header */
  chunk[3] = 1;
  wr32(chunk + 4, 0);        /* nbytes */
  wr32(chunk + 8, 0x180000); /* number of blocks */
  wr32(chunk + 12, 32);      /* cbytes */
  chunk[16] = 2;             /* bitshuffle */
  chunk[30] = 0x01;          /* VL blocks */
  uint8_t *src = guarded_copy(chunk, sizeof chunk);
  uint8_t *dst = guarded(1024);
  int rc = blosc2_decompress_ctx(dctx(), src, sizeof chunk, dst, 1024);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* Frames: an index entry near INT64_MAX (offset arithmetic overflow, #241). */
static int c_frame_offset_overflow(void) {
  blosc2_schunk *sc = make_schunk(2, NULL);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  uint8_t *idx = f + index_at(f);
  NEED(idx[2] & 0x02);
  wr64(idx + 32 + 8, INT64_MAX - 8);
  return frame_refused(guarded_copy(f, (size_t)len), len);
}

/* Frames: frame length and trailer length lying about the buffer (#181). */
static int c_frame_trailer(void) {
  blosc2_schunk *sc = make_schunk(1, NULL);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  uint8_t *g = guarded_copy(f, (size_t)len);
  wr32be(g + len - 22, 0x7ffffff0u); /* trailer length */
  int a = frame_refused(g, len);
  g = guarded_copy(f, (size_t)len);
  wr32be(g + 0x10 + 4, (uint32_t)len + 1000u); /* frame length (low half) */
  int b = frame_refused(g, len);
  return a == SAFE && b == SAFE ? SAFE : ACCEPTED;
}

/* Frames: a metalayer whose offset points past the header (#298). */
static int c_frame_metalayer(void) {
  blosc2_schunk *sc = make_schunk(0, NULL);
  uint8_t content[4] = {0x93, 1, 2, 3};
  NEED(blosc2_meta_add(sc, "mlay", content, sizeof content) >= 0);
  int32_t data[256] = {1, 2, 3};
  NEED(blosc2_schunk_append_buffer(sc, data, sizeof data) == 1);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  int32_t hlen = rd32be(f + 0x0b);
  uint8_t *at = memmem(f, (size_t)hlen, "\xa4mlay\xd2", 6);
  NEED(at != NULL);
  wr32be(at + 6, 0x7ffffff0u);
  uint8_t *g = guarded_copy(f, (size_t)len);
  blosc2_schunk *back = blosc2_schunk_from_buffer(g, len, true);
  if (back == NULL) return SAFE;
  uint8_t *got = NULL;
  int32_t got_len = 0;
  int rc = blosc2_meta_get(back, "mlay", &got, &got_len);
  SAY("    metalayer with a bad offset: %d (%d bytes)\n", rc, got_len);
  free(got);
  blosc2_schunk_free(back);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* Lazy chunks: a stored chunk whose cbytes runs past the end of a frame file (#266, #771). */
static int c_lazy_cbytes(void) {
  char path[64];
  snprintf(path, sizeof path, "sec_lazy_%d.b2frame", (int)getpid());
  blosc2_schunk *sc = make_schunk(2, path);
  blosc2_schunk_free(sc);
  /* Find chunk 0 through the index (chunks need not be in file order) and patch its
   * cbytes in the file. */
  FILE *fp = fopen(path, "r+b");
  NEED(fp != NULL);
  NEED(fseek(fp, 0, SEEK_END) == 0);
  long size = ftell(fp);
  NEED(size > 0);
  uint8_t *f = malloc((size_t)size);
  rewind(fp);
  NEED(fread(f, 1, (size_t)size, fp) == (size_t)size);
  uint8_t *idx = f + index_at(f);
  NEED(idx[2] & 0x02);
  int64_t off0 = 0;
  for (int i = 7; i >= 0; i--) off0 = off0 << 8 | idx[32 + i];
  NEED(off0 >= 0 && off0 < rd64be(f + 0x27));
  NEED(fseek(fp, rd32be(f + 0x0b) + off0 + 12, SEEK_SET) == 0);
  free(f);
  uint8_t big[4];
  wr32(big, 0x7fffff00);
  NEED(fwrite(big, 1, 4, fp) == 4);
  fclose(fp);
  int result = SAFE;
  sc = blosc2_schunk_open(path);
  if (sc != NULL) {
    int32_t out[256];
    if (blosc2_schunk_decompress_chunk(sc, 0, out, sizeof out) >= 0) result = ACCEPTED;
    blosc2_schunk_free(sc);
  }
  blosc2_remove_urlpath(path);
  return result;
}

/* Lazy chunks: the lazy flag set on a chunk handed to the context API without a
 * super-chunk (its trailer is not there; #727, #731, #733). */
static int c_lazy_flag(void) {
  int32_t len;
  uint8_t *c = make_chunk(4096, BLOSC_LZ4, BLOSC_SHUFFLE, &len);
  c[31] |= 0x08;
  uint8_t *src = guarded_copy(c, (size_t)len);
  uint8_t *dst = guarded(4096 * 4);
  int rc = blosc2_decompress_ctx(dctx(), src, len, dst, 4096 * 4);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* Lazy chunks: a real lazy chunk of a frame file, cut short before its trailer. */
static int c_lazy_trailer_cut(void) {
  char path[64];
  snprintf(path, sizeof path, "sec_lazy2_%d.b2frame", (int)getpid());
  blosc2_schunk *sc = make_schunk(2, path);
  blosc2_schunk_free(sc);
  sc = blosc2_schunk_open(path);
  NEED(sc != NULL);
  uint8_t *lazy = NULL;
  bool needs_free = false;
  int len = blosc2_schunk_get_lazychunk(sc, 1, &lazy, &needs_free);
  NEED(len > 40);
  int result = SAFE;
  for (int cut = 8; cut <= 12 && result == SAFE; cut += 4) {
    uint8_t *src = guarded_copy(lazy, (size_t)(len - cut));
    int32_t out[256];
    int rc = blosc2_decompress_ctx(sc->dctx, src, len - cut, out, sizeof out);
    SAY("    lazy chunk of %d bytes cut by %d: %d\n", len, cut, rc);
    if (rc >= 0) result = ACCEPTED;
  }
  if (needs_free) free(lazy);
  blosc2_schunk_free(sc);
  blosc2_remove_urlpath(path);
  return result;
}

/* VL blocks: a block's uncompressed size making the sizes overflow int32 (#753). */
static int c_vlblock_sizes(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 1;
  blosc2_context *c = blosc2_create_cctx(cp);
  uint8_t a[300], b[500];
  memset(a, 'a', sizeof a);
  memset(b, 'b', sizeof b);
  const void *srcs[2] = {a, b};
  int32_t sizes[2] = {sizeof a, sizeof b};
  uint8_t chunk[2048];
  int len = blosc2_vlcompress_ctx(c, srcs, sizes, 2, chunk, sizeof chunk);
  NEED(len > 0);
  blosc2_free_ctx(c);
  int32_t first = rd32(chunk + 32);
  NEED(first >= 40 && first + 4 <= len);
  wr32(chunk + first, 0x7ffffe00); /* block 0 claims almost 2 GiB */
  uint8_t *src = guarded_copy(chunk, (size_t)len);
  void *dests[2] = {NULL, NULL};
  int32_t dsizes[2] = {0, 0};
  int rc = blosc2_vldecompress_ctx(dctx(), src, len, dests, dsizes, 2);
  uint8_t *flat = guarded(800);
  int rc2 = blosc2_decompress_ctx(dctx(), src, len, flat, 800);
  return rc < 0 && rc2 < 0 ? SAFE : ACCEPTED;
}

/* getitem: start and nitems whose byte sizes overflow int32 (#739). */
static int c_getitem_overflow(void) {
  int32_t len;
  uint8_t *c = make_chunk(1024, BLOSC_BLOSCLZ, BLOSC_SHUFFLE, &len);
  uint8_t *src = guarded_copy(c, (size_t)len);
  uint8_t *dst = guarded(64);
  blosc2_context *d = dctx();
  int a = blosc2_getitem_ctx(d, src, len, 1, 0x20000000, dst, 64);
  int b = blosc2_getitem_ctx(d, src, len, 0x7ffffff0, 16, dst, 64);
  int e = blosc2_getitem_ctx(d, src, len, -8, 16, dst, 64);
  return a < 0 && b < 0 && e < 0 ? SAFE : ACCEPTED;
}

/* A one-block BloscLZ chunk of nbytes: literal "xy", a long match of `run` length bytes
 * (all 0xff but the last, 0x10) at distance 1, then the literal "z". */
static uint8_t *blosclz_chunk(int32_t run, int32_t nbytes, int32_t *len) {
  int32_t stream = 3 + 1 + run + 1 + 2;
  int32_t cbytes = 32 + 4 + 4 + stream;
  uint8_t *chunk = calloc((size_t)cbytes, 1);
  NEED(chunk != NULL);
  chunk[0] = 5;
  chunk[1] = 1;
  chunk[2] = (uint8_t)(BLOSC_BLOSCLZ_FORMAT << 5) | 0x10 | 0x05;
  chunk[3] = 1;
  wr32(chunk + 4, nbytes);
  wr32(chunk + 8, nbytes);
  wr32(chunk + 12, cbytes);
  wr32(chunk + 32, 36);
  wr32(chunk + 36, stream);
  uint8_t *s = chunk + 40;
  s[0] = 1; /* literal run of 2 bytes */
  s[1] = 'x';
  s[2] = 'y';
  s[3] = 0xe0; /* long match */
  memset(s + 4, 0xff, (size_t)run);
  s[4 + run - 1] = 0x10; /* last length byte */
  s[4 + run] = 0;        /* distance 1 */
  s[5 + run] = 0;        /* literal run of 1 byte */
  s[6 + run] = 'z';
  *len = cbytes;
  return chunk;
}

/* BloscLZ: a long-match length made of millions of 0xff bytes, overflowing a 32-bit
 * length (#801; c-blosc #405). */
static int c_blosclz_match_length(void) {
  /* The framing is right: with one length byte the chunk decodes to 2 + 25 + 1 bytes. */
  const int32_t want = 2 + 6 + 0x10 + 3 + 1;
  int32_t len;
  uint8_t *ok = blosclz_chunk(1, want, &len);
  uint8_t out[64];
  int rc0 = blosc2_decompress_ctx(dctx(), ok, len, out, sizeof out);
  SAY("    valid BloscLZ chunk: %d\n", rc0);
  NEED(rc0 == want);
  NEED(out[0] == 'x' && out[1] == 'y' && out[want - 2] == 'y' && out[want - 1] == 'z');
  free(ok);
  uint8_t *chunk = blosclz_chunk(8421600, 4096, &len);
  uint8_t *src = guarded_copy(chunk, (size_t)len);
  free(chunk);
  uint8_t *dst = guarded(4096);
  int rc = blosc2_decompress_ctx(dctx(), src, len, dst, 4096);
  SAY("    overflowing match length: %d\n", rc);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* zlib (and every codec): a block stream whose size claims more bytes than the chunk
 * has (#639). */
static int c_stream_size(void) {
  int32_t len;
  uint8_t *c = make_chunk(4096, BLOSC_ZLIB, BLOSC_SHUFFLE, &len);
  NEED(!(c[2] & 0x02));
  int32_t start = rd32(c + 32);
  NEED(start > 0 && start + 4 <= len);
  wr32(c + start, len * 2);
  uint8_t *src = guarded_copy(c, (size_t)len);
  uint8_t *dst = guarded(4096 * 4);
  int rc = blosc2_decompress_ctx(dctx(), src, len, dst, 4096 * 4);
  return rc < 0 ? SAFE : ACCEPTED;
}

/* ZFP fixed-rate decoder: rate from meta 255 and a one-byte payload, in a super-chunk
 * holding a b2nd metalayer (#800, #781, #782). */
static int c_zfp_rate_short(void) {
  blosc2_schunk *sc = make_schunk(0, NULL);
  int64_t shape[2] = {8, 8};
  int32_t chunkshape[2] = {8, 8}, blockshape[2] = {8, 8};
  uint8_t *smeta = NULL;
  int32_t slen = b2nd_serialize_meta(2, shape, chunkshape, blockshape, "|u1", 0, &smeta);
  NEED(slen > 0);
  NEED(blosc2_meta_add(sc, "b2nd", smeta, slen) >= 0);
  free(smeta);
  uint8_t chunk[41];
  user_codec_header(chunk, CODEC_ZFP_RATE, 255, 64, sizeof chunk);
  wr32(chunk + 32, 36);
  wr32(chunk + 36, 1);
  chunk[40] = 0x5a;
  int rc_append = (int)blosc2_schunk_append_chunk(sc, chunk, true);
  int result = SAFE;
  if (rc_append >= 0) {
    uint8_t *dst = guarded(64);
    if (blosc2_schunk_decompress_chunk(sc, 0, dst, 64) >= 0) result = ACCEPTED;
  }
  blosc2_schunk_free(sc);
  return result;
}

/* Plugins: chunks naming a user codec or a user filter nobody registered. */
static int c_unregistered_plugins(void) {
  /* a stream shorter than the block, so the codec must be called */
  uint8_t chunk[48];
  user_codec_header(chunk, USER_CODEC, 0, 64, sizeof chunk);
  wr32(chunk + 32, 36);
  wr32(chunk + 36, 8);
  memset(chunk + 40, 7, 8);
  uint8_t *src = guarded_copy(chunk, sizeof chunk);
  uint8_t *dst = guarded(64);
  int a = blosc2_decompress_ctx(dctx(), src, sizeof chunk, dst, 64);
  SAY("    unregistered codec: %d\n", a);
  int32_t len;
  uint8_t *c = make_chunk(1024, BLOSC_LZ4, BLOSC_SHUFFLE, &len);
  NEED(!(c[2] & 0x02));
  c[16 + 4] = USER_FILTER;
  src = guarded_copy(c, (size_t)len);
  dst = guarded(4096);
  int b = blosc2_decompress_ctx(dctx(), src, len, dst, 4096);
  SAY("    unregistered filter: %d\n", b);
  return a < 0 && b < 0 ? SAFE : ACCEPTED;
}

/* Compression into destinations too small for the header and block starts (#656). */
static int c_compress_small_dest(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.blocksize = 256;
  blosc2_context *c = blosc2_create_cctx(cp);
  int32_t src[1024];
  for (int i = 0; i < 1024; i++) src[i] = i * 7919;
  for (int32_t size = 0; size <= 80; size++) {
    uint8_t *dst = guarded((size_t)size);
    int rc = blosc2_compress_ctx(c, src, sizeof src, dst, size);
    if (rc > size) return ACCEPTED;
  }
  blosc2_free_ctx(c);
  return SAFE;
}

/* b2nd metalayers: ndim beyond B2ND_MAX_DIM, and arrays shorter than ndim says (#781). */
static int c_b2nd_meta(void) {
  int8_t ndim;
  int64_t *shape = (int64_t *)guarded(sizeof(int64_t) * B2ND_MAX_DIM);
  int32_t *cs = (int32_t *)guarded(sizeof(int32_t) * B2ND_MAX_DIM);
  int32_t *bs = (int32_t *)guarded(sizeof(int32_t) * B2ND_MAX_DIM);
  char *dtype = NULL;
  int8_t fmt;
  /* version 0, ndim = MAX + 4, then a shape array that claims as many entries */
  uint8_t meta[8 + 9 * (B2ND_MAX_DIM + 4)];
  size_t n = 0;
  meta[n++] = 0x97;
  meta[n++] = 0;
  meta[n++] = (uint8_t)(B2ND_MAX_DIM + 4);
  meta[n++] = (uint8_t)(0x90 | ((B2ND_MAX_DIM + 4) & 0x0f));
  for (int i = 0; i < B2ND_MAX_DIM + 4 && n + 9 <= sizeof meta; i++) {
    meta[n++] = 0xd3;
    memset(meta + n, 0, 8);
    meta[n + 7] = 4;
    n += 8;
  }
  uint8_t *src = guarded_copy(meta, n);
  int a = b2nd_deserialize_meta(src, (int32_t)n, &ndim, shape, cs, bs, &dtype, &fmt);
  free(dtype);
  dtype = NULL;
  /* a valid 2-d metalayer cut in the middle of its shape */
  uint8_t *smeta = NULL;
  int64_t sh[2] = {10, 10};
  int32_t c2[2] = {5, 5}, b2[2] = {5, 5};
  int32_t slen = b2nd_serialize_meta(2, sh, c2, b2, "<f8", 0, &smeta);
  NEED(slen > 20);
  src = guarded_copy(smeta, 12);
  free(smeta);
  int b = b2nd_deserialize_meta(src, 12, &ndim, shape, cs, bs, &dtype, &fmt);
  free(dtype);
  return a < 0 && b < 0 ? SAFE : ACCEPTED;
}

/* Frames (python-blosc2 #611): a special (zeros) chunk before a normal one, copied out of
 * a frame buffer; valid input, which must decode right and free cleanly. */
static int c_special_then_normal(void) {
  blosc2_schunk *sc = make_schunk(0, NULL);
  NEED(blosc2_schunk_fill_special(sc, 256, BLOSC2_SPECIAL_ZERO, 1024) >= 0);
  int32_t data[256];
  for (int i = 0; i < 256; i++) data[i] = i + 1;
  NEED(blosc2_schunk_append_buffer(sc, data, sizeof data) == 2);
  int64_t len;
  uint8_t *f = frame_bytes(sc, &len);
  blosc2_schunk_free(sc);
  blosc2_schunk *back = blosc2_schunk_from_buffer(f, len, true);
  NEED(back != NULL);
  int32_t out[256];
  int ok = blosc2_schunk_decompress_chunk(back, 0, out, sizeof out) == 1024 && out[0] == 0 &&
           out[255] == 0;
  ok = ok && blosc2_schunk_decompress_chunk(back, 1, out, sizeof out) == 1024 &&
       memcmp(out, data, sizeof data) == 0;
  blosc2_schunk_free(back);
  free(f);
  return ok ? SAFE : ACCEPTED;
}

/* ---- driver --------------------------------------------------------------------------- */

/* How the reference c-blosc2 3.3.5 handles a case (measured). */
enum { REF_SAFE = 0, REF_CRASHES = 1 };

typedef struct {
  const char *name;
  int (*run)(void);
  int reference;
} case_t;

static const case_t cases[] = {
    {"cve_2024_3204_ndlz4_blockshape", c_ndlz4_blockshape, REF_SAFE},
    {"cve_2024_3203_ndlz8_truncated", c_ndlz8_truncated, REF_SAFE},
    {"frame_offset_outside_chunks", c_frame_offset_outside, REF_SAFE},
    {"frame_offset_overflow", c_frame_offset_overflow, REF_SAFE},
    {"frame_chunk_cbytes_small_copy", c_frame_chunk_cbytes_small, REF_CRASHES},
    {"frame_trailer_lengths", c_frame_trailer, REF_SAFE},
    {"frame_metalayer_offset", c_frame_metalayer, REF_SAFE},
    {"lazy_chunk_cbytes_past_file", c_lazy_cbytes, REF_SAFE},
    {"lazy_flag_without_schunk", c_lazy_flag, REF_SAFE},
    {"lazy_value_special_overread", c_lazy_value_overread, REF_CRASHES},
    {"lazy_chunk_trailer_cut", c_lazy_trailer_cut, REF_SAFE},
    {"vlblock_size_overflow", c_vlblock_sizes, REF_SAFE},
    {"vlblock_zero_nbytes", c_vlblock_zero_nbytes, REF_CRASHES},
    {"getitem_size_overflow", c_getitem_overflow, REF_SAFE},
    {"blosclz_match_length_overflow", c_blosclz_match_length, REF_SAFE},
    {"stream_size_past_chunk", c_stream_size, REF_SAFE},
    {"zfp_rate_short_payload", c_zfp_rate_short, REF_SAFE},
    {"unregistered_codec_filter", c_unregistered_plugins, REF_SAFE},
    {"compress_small_destination", c_compress_small_dest, REF_SAFE},
    {"b2nd_meta_ndim", c_b2nd_meta, REF_SAFE},
    {"special_then_normal_copy", c_special_then_normal, REF_SAFE},
};

static const char *outcome(int status) {
  static char buf[64];
  if (WIFEXITED(status)) {
    switch (WEXITSTATUS(status)) {
      case SAFE: return "safe";
      case ACCEPTED: return "ACCEPTED";
      case SETUP: return "SETUP-FAILED";
      default: snprintf(buf, sizeof buf, "EXIT-%d", WEXITSTATUS(status)); return buf;
    }
  }
  if (WIFSIGNALED(status)) {
    snprintf(buf, sizeof buf, "CRASH(%s)", strsignal(WTERMSIG(status)));
    return buf;
  }
  return "UNKNOWN";
}

int main(int argc, char **argv) {
  int failures = 0;
  size_t ncases = sizeof cases / sizeof cases[0];
  for (size_t i = 0; i < ncases; i++) {
    if (argc > 1 && strstr(cases[i].name, argv[1]) == NULL) continue;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 2;
    }
    if (pid == 0) {
      alarm(120);
      blosc2_init();
      int r = cases[i].run();
      blosc2_destroy();
      _exit(r);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int safe = WIFEXITED(status) && WEXITSTATUS(status) == SAFE;
    int known = strcmp(VARIANT, "reference") == 0 && cases[i].reference == REF_CRASHES;
    printf("%-34s %s%s\n", cases[i].name, outcome(status),
           safe ? "" : known ? "  (a known bug of the reference)" : "  <-- FAIL");
    failures += !safe && !known;
  }
  printf("security (%s): %zu cases, %d failures\n", VARIANT, ncases, failures);
  return failures ? 1 : 0;
}
