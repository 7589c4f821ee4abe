/*
 * Hostile frames: valid frames (regular with metalayers/vlmetalayers/specials, VL blocks,
 * variable chunk sizes, fill_special, empty, filtered lz4) are mutated (every header and
 * trailer byte with several patterns, every byte of the offsets index, the first chunk's
 * header, truncation to every length (also with frame_size patched to match), random
 * multi-byte corruption with a fixed seed, and sframe index/chunk files), then opened with from_buffer (copy and no-copy) or from a file
 * with open, and read with get_chunk, get_lazychunk, decompress_chunk, get_vlblock,
 * vlmeta_get, meta_get, frame_get_offsets, get_slice_buffer and to_buffer. Nothing may
 * crash, hang or write outside the buffers; errors are fine.
 *
 * Each batch of cases runs in a child process; a crash or hang is reported with the case
 * that caused it, and the run resumes after it, so one run lists every crashing case.
 *
 * The reference has known heap overflows on hostile frames (c-blosc2 #738, #801); its
 * variant runs only the categories it survives (see kRefCategories) unless --all is given.
 *
 * usage: frames_hostile [--all] [--list-crashes] [CATEGORY...]
 *        frames_hostile --case CATEGORY FRAME K   (one case, in-process, for a debugger)
 */
#include "fc_common.h"

#include <signal.h>
#include <sys/wait.h>

/* ---- the valid frames ---------------------------------------------------------------- */

enum { F_REGULAR, F_VL, F_VARIABLE, F_FILL, F_EMPTY, F_FILTERED, NFRAMES };
static const char *frame_names[] = {"regular", "vl", "variable", "fill", "empty", "filtered"};

typedef struct {
  uint8_t *buf;
  int64_t len;
  int64_t hlen, tlen;   /* header and trailer lengths */
  int64_t idx_start;    /* offset of the offsets-index chunk, -1 if unknown */
  int64_t chunk0;       /* offset of the first data chunk, -1 if none */
} frame_t;

static frame_t g_frames[NFRAMES];

static int64_t append_all(blosc2_schunk *sc, blosc2_cparams cp, const int32_t *items, int n,
                          int *ok) {
  int32_t data[512];
  for (int i = 0; i < n; i++) {
    fc_fill_i32(data, items[i], 0, i);
    uint8_t *c = fc_make_chunk(cp, data, items[i] * (int32_t)sizeof(int32_t), NULL);
    if (!c || blosc2_schunk_append_chunk(sc, c, false) != i + 1) *ok = 0;
  }
  return sc->nchunks;
}

static blosc2_schunk *new_mem(blosc2_cparams *cp) {
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.cparams = cp;
  return blosc2_schunk_new(&st);
}

static int build_frame(int f, frame_t *out) {
  blosc2_cparams cp = fc_cparams(4);
  cp.blocksize = 256;
  int ok = 1;
  blosc2_schunk *sc = NULL;
  if (f == F_FILTERED) {
    cp.typesize = 4;
    cp.compcode = BLOSC_LZ4;
    cp.filters[4] = BLOSC_DELTA;
    cp.filters[5] = BLOSC_BITSHUFFLE;
  }
  sc = new_mem(&cp);
  if (!sc) return 0;
  int32_t regular[6] = {256, 256, 256, 256, 256, 256};
  int32_t variable[5] = {256, 256, 100, 256, 7};
  uint8_t meta[10] = {0x93, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  switch (f) {
    case F_REGULAR: {
      ok &= blosc2_meta_add(sc, "m1", meta, 6) == 0 && blosc2_meta_add(sc, "m2", meta, 10) == 1;
      append_all(sc, cp, regular, 6, &ok);
      uint8_t sp[32];
      ok &= blosc2_chunk_zeros(cp, 1024, sp, sizeof sp) == 32 &&
            blosc2_schunk_append_chunk(sc, sp, true) == 7;
      ok &= blosc2_chunk_nans(cp, 1024, sp, sizeof sp) == 32 &&
            blosc2_schunk_append_chunk(sc, sp, true) == 8;
      uint8_t v2[60];
      fc_fill_bytes(v2, sizeof v2, 3);
      ok &= blosc2_vlmeta_add(sc, "v1", (uint8_t *)"twenty bytes of meta", 20, NULL) == 0;
      ok &= blosc2_vlmeta_add(sc, "v2", v2, sizeof v2, NULL) == 1;
      break;
    }
    case F_VL: {
      blosc2_cparams vp = fc_cparams(1);
      blosc2_context *cc = blosc2_create_cctx(vp);
      for (int c = 0; c < 3 && cc; c++) {
        uint8_t b[4][400]; /* blocks of up to 352 bytes */
        const void *srcs[4];
        int32_t sizes[4];
        for (int k = 0; k < 2 + c; k++) {
          sizes[k] = 50 + 100 * k + c;
          fc_fill_bytes(b[k], (size_t)sizes[k], (uint32_t)(c * 4 + k));
          srcs[k] = b[k];
        }
        uint8_t chunk[4096];
        int cb = blosc2_vlcompress_ctx(cc, srcs, sizes, 2 + c, chunk, sizeof chunk);
        ok &= cb > 0 && blosc2_schunk_append_chunk(sc, chunk, true) == c + 1;
      }
      if (cc) blosc2_free_ctx(cc);
      ok &= blosc2_vlmeta_add(sc, "kind", (uint8_t *)"vl", 2, NULL) == 0;
      break;
    }
    case F_VARIABLE:
      append_all(sc, cp, variable, 5, &ok);
      break;
    case F_FILL:
      ok &= blosc2_schunk_fill_special(sc, 2000, BLOSC2_SPECIAL_ZERO, 1024) == 8;
      break;
    case F_EMPTY:
      ok &= blosc2_meta_add(sc, "only", meta, 4) == 0;
      break;
    case F_FILTERED:
      append_all(sc, cp, regular, 3, &ok);
      break;
  }
  /* where the first chunk and the index sit: chunks are appended back to back */
  int64_t sum = 0;
  int64_t first = -1;
  for (int64_t i = 0; i < sc->nchunks; i++) {
    uint8_t *c = NULL;
    bool nf = false;
    int rc = blosc2_schunk_get_chunk(sc, i, &c, &nf);
    int special = rc > 0 && (c[BLOSC2_CHUNK_BLOSC2_FLAGS] & 0x70) && f != F_VL;
    if (rc > 0 && !special) {
      if (first < 0) first = sum;
      sum += rc;
    }
    if (nf) free(c);
  }
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  if (len <= 0 || !ok) {
    blosc2_schunk_free(sc);
    return 0;
  }
  out->buf = (uint8_t *)fc_malloc((size_t)len);
  memcpy(out->buf, cf, (size_t)len);
  out->len = len;
  if (nf) free(cf);
  blosc2_schunk_free(sc);
  out->hlen = fc_rd32be(out->buf + 11);
  out->tlen = fc_rd32be(out->buf + len - 22);
  out->chunk0 = first < 0 ? -1 : out->hlen + first;
  int64_t is = out->hlen + sum;
  out->idx_start = -1;
  if (is + 32 <= len - out->tlen && fc_rd32(out->buf + is + 12) == len - out->tlen - is)
    out->idx_start = is;
  return 1;
}

/* ---- exercising a (possibly broken) schunk ---------------------------------------- */

#define BIG (4 << 20)
static uint8_t *g_big;
static long g_opened; /* schunks that opened from mutated input (in this child) */

static void exercise(blosc2_schunk *sc, int deep) {
  g_opened++;
  int64_t n = sc->nchunks < 64 ? sc->nchunks : 64;
  for (int64_t i = 0; i < n; i++) {
    uint8_t *c = NULL;
    bool nf = false;
    int rc = blosc2_schunk_get_chunk(sc, i, &c, &nf);
    if (rc >= 0 && nf) free(c);
    c = NULL;
    nf = false;
    rc = blosc2_schunk_get_lazychunk(sc, i, &c, &nf);
    if (rc >= 0 && nf) free(c);
    blosc2_schunk_decompress_chunk(sc, i, g_big, BIG);
    if (sc->flags2 & BLOSC2_VL_BLOCKS) {
      for (int b = 0; b < 4; b++) {
        uint8_t *d = NULL;
        int32_t ds = 0;
        if (blosc2_schunk_get_vlblock(sc, i, b, &d, &ds) >= 0) free(d);
      }
    }
  }
  for (int j = 0; j < sc->nvlmetalayers && j < 16; j++) {
    if (!sc->vlmetalayers[j] || !sc->vlmetalayers[j]->name) continue;
    uint8_t *content = NULL;
    int32_t len = 0;
    if (blosc2_vlmeta_get(sc, sc->vlmetalayers[j]->name, &content, &len) >= 0) free(content);
  }
  for (int j = 0; j < sc->nmetalayers && j < BLOSC2_MAX_METALAYERS; j++) {
    if (!sc->metalayers[j] || !sc->metalayers[j]->name) continue;
    uint8_t *content = NULL;
    int32_t len = 0;
    if (blosc2_meta_get(sc, sc->metalayers[j]->name, &content, &len) >= 0) free(content);
  }
#ifndef BLOSC2_VARIANT_OURS
  if (sc->nchunks > 0) /* the reference crashes on frames without chunks, even valid ones */
#endif
  {
    int64_t *offs = blosc2_frame_get_offsets(sc);
    free(offs);
  }
  if (deep) {
#ifndef BLOSC2_VARIANT_OURS
    if (sc->chunksize > 0) /* the reference divides by chunksize */
#endif
      if (sc->typesize > 0 && sc->nbytes > 0 && sc->nbytes <= 65536)
        blosc2_schunk_get_slice_buffer(sc, 0, sc->nbytes / sc->typesize, g_big);
    uint8_t *cf = NULL;
    bool nf = false;
    if (blosc2_schunk_to_buffer(sc, &cf, &nf) > 0 && nf) free(cf);
  }
  blosc2_schunk_free(sc);
}

/* Open a mutated frame in memory (copy and no-copy) and, when asked, as a file. */
static void try_frame(const uint8_t *buf, int64_t len, int as_file) {
  uint8_t *copy = (uint8_t *)fc_malloc((size_t)len + 1);
  memcpy(copy, buf, (size_t)len);
  blosc2_schunk *sc = blosc2_schunk_from_buffer(copy, len, true);
  if (sc) exercise(sc, 1);
  memcpy(copy, buf, (size_t)len);
  sc = blosc2_schunk_from_buffer(copy, len, false);
  if (sc) exercise(sc, 0); /* frees copy */
  else free(copy);
  if (as_file) {
    const char *path = fc_path("hostile.b2frame");
    if (fc_write_file(path, buf, (size_t)len) == 0) {
      sc = blosc2_schunk_open(path);
      if (sc) exercise(sc, 0);
    }
  }
}

/* ---- the cases ----------------------------------------------------------------------- */

enum { C_TRUNC, C_TRUNCFIX, C_HEADER, C_TRAILER, C_INDEX, C_CHUNKHDR, C_RANDOM, C_SFRAME, NCATS };
static const char *cat_names[] = {"trunc", "truncfix", "header", "trailer", "index", "chunkhdr",
                                  "random",  "sframe"};
/* Categories the reference survives (measured); the others hit its known overflows. */
static const int kRefCategories[NCATS] = {1, 1, 0, 1, 0, 1, 0, 1};

static const uint8_t patterns[5][2] = {{1, 0x01}, {1, 0x80}, {1, 0xFF}, {0, 0x00}, {0, 0xFF}};
#define NRANDOM 300

static uint8_t *g_mut;

static void mutate(uint8_t *b, int64_t pos, int p) {
  if (patterns[p][0]) b[pos] ^= patterns[p][1];
  else b[pos] = patterns[p][1];
}

/* Number of cases of category c for frame f. */
static int64_t ncases(int c, int f) {
  const frame_t *fr = &g_frames[f];
  switch (c) {
    case C_TRUNC: return fr->len;
    case C_TRUNCFIX: return fr->len;
    case C_HEADER: return fr->hlen * 5;
    case C_TRAILER: return fr->tlen * 5;
    case C_INDEX: return fr->idx_start < 0 ? 0 : (fr->len - fr->tlen - fr->idx_start) * 3;
    case C_CHUNKHDR: return fr->chunk0 < 0 ? 0 : 48 * 5;
    case C_RANDOM: return NRANDOM;
    case C_SFRAME: return f == F_REGULAR ? 1 : 0; /* one case runs the whole sframe set */
  }
  return 0;
}

static void describe(int c, int f, int64_t k, char *out, size_t n) {
  snprintf(out, n, "%s/%s/%lld", cat_names[c], frame_names[f], (long long)k);
}

static void sframe_cases(void);

static void run_case(int c, int f, int64_t k) {
  const frame_t *fr = &g_frames[f];
  memcpy(g_mut, fr->buf, (size_t)fr->len);
  switch (c) {
    case C_TRUNC:
      try_frame(g_mut, k, k % 7 == 0);
      return;
    case C_TRUNCFIX: /* truncated, with frame_size telling the truncated length */
      if (k >= 24)
        for (int i = 0; i < 8; i++) g_mut[16 + i] = (uint8_t)((uint64_t)k >> (56 - 8 * i));
      try_frame(g_mut, k, k % 7 == 0);
      return;
    case C_HEADER:
      mutate(g_mut, k / 5, (int)(k % 5));
      try_frame(g_mut, fr->len, k % 5 == 0);
      return;
    case C_TRAILER:
      mutate(g_mut, fr->len - fr->tlen + k / 5, (int)(k % 5));
      try_frame(g_mut, fr->len, k % 5 == 0);
      return;
    case C_INDEX:
      mutate(g_mut, fr->idx_start + k / 3, (int)(k % 3));
      try_frame(g_mut, fr->len, k % 3 == 0);
      return;
    case C_CHUNKHDR:
      if (fr->chunk0 + k / 5 < fr->len) mutate(g_mut, fr->chunk0 + k / 5, (int)(k % 5));
      try_frame(g_mut, fr->len, k % 5 == 0);
      return;
    case C_RANDOM: {
      fc_seed(0xB10C2000u + (uint64_t)f * 7919u + (uint64_t)k);
      int nb = 1 + (int)fc_below(8);
      for (int i = 0; i < nb; i++) g_mut[fc_below((uint32_t)fr->len)] = (uint8_t)fc_rand64();
      try_frame(g_mut, fr->len, k % 4 == 0);
      return;
    }
    case C_SFRAME:
      sframe_cases();
      return;
  }
}

/* An sframe directory: its index file mutated and truncated, its chunk files truncated. */
static void sframe_cases(void) {
  const char *dir = fc_path("hostile-sframe.b2");
  const char *index = fc_path("hostile-sframe.b2/chunks.b2frame");
  const char *chunk = fc_path("hostile-sframe.b2/00000001.chunk");
  blosc2_cparams cp = fc_cparams(4);
  for (int round = 0; round < 3; round++) {
    blosc2_remove_urlpath(dir);
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.urlpath = (char *)dir;
    st.cparams = &cp;
    blosc2_schunk *sc = blosc2_schunk_new(&st);
    if (!sc) return;
    int32_t data[256];
    for (int i = 0; i < 3; i++) {
      fc_fill_i32(data, 256, 0, i);
      blosc2_schunk_append_buffer(sc, data, sizeof data);
    }
    blosc2_vlmeta_add(sc, "v", (uint8_t *)"sframe", 6, NULL);
    blosc2_schunk_free(sc);
    int64_t ilen = 0, clen = 0;
    uint8_t *ib = fc_read_file(index, &ilen);
    uint8_t *cb = fc_read_file(chunk, &clen);
    if (!ib || !cb) return;
    uint8_t *m = (uint8_t *)fc_malloc((size_t)ilen);
    if (round == 0) { /* every index byte, xor 0xFF */
      for (int64_t p = 0; p < ilen; p++) {
        memcpy(m, ib, (size_t)ilen);
        m[p] ^= 0xFF;
        fc_write_file(index, m, (size_t)ilen);
        sc = blosc2_schunk_open(dir);
        if (sc) exercise(sc, 0);
      }
    } else if (round == 1) { /* truncated index */
      for (int64_t l = 0; l < ilen; l++) {
        fc_write_file(index, ib, (size_t)l);
        sc = blosc2_schunk_open(dir);
        if (sc) exercise(sc, 0);
      }
    } else { /* truncated / corrupted chunk file */
      fc_write_file(index, ib, (size_t)ilen);
      for (int64_t l = 0; l < clen; l++) {
        fc_write_file(chunk, cb, (size_t)l);
        sc = blosc2_schunk_open(dir);
        if (sc) exercise(sc, 0);
      }
      for (int64_t p = 0; p < 32 && p < clen; p++) {
        uint8_t *cm = (uint8_t *)fc_malloc((size_t)clen);
        memcpy(cm, cb, (size_t)clen);
        cm[p] ^= 0xFF;
        fc_write_file(chunk, cm, (size_t)clen);
        free(cm);
        sc = blosc2_schunk_open(dir);
        if (sc) exercise(sc, 0);
      }
    }
    free(m);
    free(ib);
    free(cb);
  }
}

/* ---- the driver ------------------------------------------------------------------------ */

/* Flattened case list: (category, frame, k) for selected categories. */
typedef struct {
  int c, f;
  int64_t k;
  long opened; /* opened so far by the child that sent it */
} case_t;

static int next_case(const int *selected, case_t *cs) {
  for (;;) {
    if (cs->c >= NCATS) return 0;
    if (selected[cs->c] && cs->f < NFRAMES && cs->k < ncases(cs->c, cs->f)) return 1;
    if (!selected[cs->c] || cs->f >= NFRAMES) {
      cs->c++;
      cs->f = 0;
      cs->k = 0;
    } else {
      cs->f++;
      cs->k = 0;
    }
  }
}

static void advance(case_t *cs) { cs->k++; }

/* Runs cases from *from in a child; returns 1 when all done, 0 after a crash/hang (with *from
   set to the failing case). */
static int run_batch(const int *selected, case_t *from, int *sig, long *opened) {
  int fds[2];
  if (pipe(fds) != 0) exit(2);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) exit(2);
  if (pid == 0) {
    close(fds[0]);
    case_t cs = *from;
    g_opened = 0;
    while (next_case(selected, &cs)) {
      cs.opened = g_opened;
      if (write(fds[1], &cs, sizeof cs) != (ssize_t)sizeof cs) _exit(3);
      alarm(20); /* a hang in one case */
      run_case(cs.c, cs.f, cs.k);
      advance(&cs);
    }
    alarm(0);
    case_t done = {-1, 0, 0, g_opened};
    if (write(fds[1], &done, sizeof done) != (ssize_t)sizeof done) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  case_t last = *from, got;
  int finished = 0;
  long seen = 0;
  while (read(fds[0], &got, sizeof got) == (ssize_t)sizeof got) {
    seen = got.opened;
    if (got.c < 0) finished = 1;
    else last = got;
  }
  *opened += seen;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (finished && WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
  *sig = WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status);
  *from = last;
  return 0;
}

int main(int argc, char **argv) {
  int all = 0, list = 0, any_named = 0;
  int selected[NCATS] = {0};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--all") == 0) all = 1;
    else if (strcmp(argv[i], "--list-crashes") == 0) list = 1;
    else
      for (int c = 0; c < NCATS; c++)
        if (strcmp(argv[i], cat_names[c]) == 0) selected[c] = any_named = 1;
  }
#ifdef BLOSC2_VARIANT_OURS
  const int every_category = 1;
#else
  const int every_category = 0;
#endif
  if (!any_named)
    for (int c = 0; c < NCATS; c++) selected[c] = every_category || all || kRefCategories[c];
  blosc2_init();
  fc_make_tmp("hostile");
  g_big = (uint8_t *)fc_malloc(BIG);
  int64_t maxlen = 0;
  for (int f = 0; f < NFRAMES; f++) {
    if (!build_frame(f, &g_frames[f])) {
      fprintf(stderr, "cannot build frame %s\n", frame_names[f]);
      return 2;
    }
    if (g_frames[f].len > maxlen) maxlen = g_frames[f].len;
    printf("frame %-8s %5lld bytes, header %3lld, trailer %3lld, index at %lld, chunk0 at %lld\n",
           frame_names[f], (long long)g_frames[f].len, (long long)g_frames[f].hlen,
           (long long)g_frames[f].tlen, (long long)g_frames[f].idx_start,
           (long long)g_frames[f].chunk0);
  }
  g_mut = (uint8_t *)fc_malloc((size_t)maxlen);
  for (int i = 1; i + 3 < argc; i++) {
    if (strcmp(argv[i], "--case") != 0) continue;
    for (int c = 0; c < NCATS; c++)
      for (int f = 0; f < NFRAMES; f++)
        if (strcmp(argv[i + 1], cat_names[c]) == 0 && strcmp(argv[i + 2], frame_names[f]) == 0) {
          run_case(c, f, atoll(argv[i + 3]));
          printf("case %s/%s/%s survived\n", argv[i + 1], argv[i + 2], argv[i + 3]);
          return 0;
        }
    fprintf(stderr, "no such case\n");
    return 2;
  }
  long total = 0;
  for (int c = 0; c < NCATS; c++) {
    if (!selected[c]) continue;
    long n = 0;
    for (int f = 0; f < NFRAMES; f++) n += (long)ncases(c, f);
    printf("category %-8s %6ld cases\n", cat_names[c], n);
    total += n;
  }
  case_t from = {0, 0, 0, 0};
  long crashes = 0, opened = 0;
  double t0 = fc_now();
  for (;;) {
    int sig = 0;
    if (run_batch(selected, &from, &sig, &opened)) break;
    char name[96];
    describe(from.c, from.f, from.k, name, sizeof name);
    crashes++;
    if (list) printf("crash: %s (%s)\n", name, sig > 0 ? strsignal(sig) : "exit status");
    else CHECK(0, "case %s: %s", name, sig > 0 ? strsignal(sig) : "bad exit status");
    advance(&from);
    if (crashes >= 500) {
      CHECK(0, "too many crashes, giving up");
      break;
    }
  }
  printf("%ld cases in %.1f s, %ld schunks opened from mutated input, %ld crashed or hung\n",
         total, fc_now() - t0, opened, crashes);
  CHECK(list || crashes == 0, "%ld cases crashed", crashes);
  free(g_big);
  free(g_mut);
  for (int f = 0; f < NFRAMES; f++) free(g_frames[f].buf);
  blosc2_destroy();
  return fc_finish("frames_hostile");
}
