/*
 * Cross index test: loads OUR library and the REFERENCE library into one process (dlopen,
 * RTLD_LOCAL), runs the same super-chunk operations through each at nthreads=1 and checks
 * that the contiguous frames they give (blosc2_schunk_to_buffer after every step) are
 * byte-identical. It covers what decides the bytes of a frame's chunk index: how many
 * chunks (under and over 32 offsets, over one 16 KiB index block), chunks of zeros that
 * become special index entries (also when a sparse super-chunk is turned into a frame),
 * fill_special frames and what follows them (a vlmetalayer, an update, an append),
 * insert/delete/reorder, copies with and without new compression parameters; and that
 * neither library overwrites an existing urlpath when a super-chunk is created or copied
 * there. CTest runs it with BLOSC_NTHREADS=1, which both libraries write into the headers
 * of the frames (and of the copies to_buffer makes, which otherwise say 0 and 1).
 *
 * usage: frames_cross_index OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 */
#define FC_NO_LIBRARY
#include "fc_common.h"

#define LIB_FUNCS(X)                                                                         \
  X(blosc2_init) X(blosc2_schunk_new) X(blosc2_schunk_free) X(blosc2_schunk_append_buffer)   \
  X(blosc2_schunk_insert_chunk) X(blosc2_schunk_update_chunk) X(blosc2_schunk_delete_chunk)  \
  X(blosc2_schunk_reorder_offsets) X(blosc2_schunk_fill_special) X(blosc2_schunk_to_buffer)  \
  X(blosc2_schunk_copy) X(blosc2_schunk_to_file) X(blosc2_schunk_open) X(blosc2_vlmeta_add)  \
  X(blosc2_chunk_zeros) X(blosc2_remove_urlpath) X(blosc2_schunk_decompress_chunk)

#include "../cross_lib.h"

#define ITEMS 100 /* int32 items per chunk */
#define MAX_SNAPS 16

enum { SPARSE_MEM, CFRAME_MEM, CFRAME_FILE, SFRAME_DIR, NKINDS };
static const char *const kind_names[NKINDS] = {"sparse-mem", "cframe-mem", "cframe-file",
                                               "sframe-dir"};

typedef struct {
  uint8_t *buf[MAX_SNAPS];
  int64_t len[MAX_SNAPS];
  char what[MAX_SNAPS][48];
  int n;
} snaps_t;

static void snaps_free(snaps_t *s) {
  for (int i = 0; i < s->n; i++) free(s->buf[i]);
  s->n = 0;
}

/* Keeps a copy of the contiguous frame of `sc` (or its error code as length). */
static void snap(lib_t *L, blosc2_schunk *sc, snaps_t *s, const char *what) {
  if (s->n == MAX_SNAPS) return;
  uint8_t *b = NULL;
  bool nf = false;
  int64_t len = sc ? L->blosc2_schunk_to_buffer(sc, &b, &nf) : -999;
  s->buf[s->n] = NULL;
  if (len > 0) {
    s->buf[s->n] = fc_malloc((size_t)len);
    memcpy(s->buf[s->n], b, (size_t)len);
    if (nf) free(b);
  }
  s->len[s->n] = len;
  snprintf(s->what[s->n], sizeof s->what[0], "%s", what);
  s->n++;
}

static void compare(const char *ctx, snaps_t *ref, snaps_t *ours) {
  CHECK(ref->n == ours->n, "%s: %d snapshots by the reference, %d by ours", ctx, ref->n,
        ours->n);
  for (int i = 0; i < ref->n && i < ours->n; i++) {
    int64_t a = ref->len[i], b = ours->len[i];
    int64_t diff = -1;
    if (a == b && a > 0) {
      for (int64_t k = 0; k < a; k++) {
        if (ref->buf[i][k] != ours->buf[i][k]) {
          diff = k;
          break;
        }
      }
    }
    CHECK(a == b && diff < 0, "%s, %s: frames differ (lengths %lld / %lld, first byte %lld)",
          ctx, ref->what[i], (long long)a, (long long)b, (long long)diff);
  }
}

static const char *g_dir[2]; /* per-library directory for files: 0 reference, 1 ours */

static blosc2_schunk *new_schunk(lib_t *L, int lib, int kind, const char *leaf,
                                 blosc2_cparams *cp) {
  static char path[700];
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = cp;
  st.contiguous = kind == CFRAME_MEM || kind == CFRAME_FILE;
  if (kind == CFRAME_FILE || kind == SFRAME_DIR) {
    snprintf(path, sizeof path, "%s/%s", g_dir[lib], leaf);
    L->blosc2_remove_urlpath(path);
    st.urlpath = path;
  }
  return L->blosc2_schunk_new(&st);
}

static void fill(int32_t *buf, int pattern, int64_t chunk) {
  for (int i = 0; i < ITEMS; i++) {
    buf[i] = pattern == 0 ? 0 : pattern == 1 ? 7 : (int32_t)(chunk * ITEMS + i);
  }
}

/* Appends chunks of `pattern` (0 zeros, 1 one repeated value, 2 a ramp) and takes a frame
 * at 1, 2, 31, 32, 100 and 2049 chunks (fewer for files and repeated values). */
static void run_appends(lib_t *L, int lib, int kind, int pattern, snaps_t *s) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_schunk *sc = new_schunk(L, lib, kind, "appends.b2", &cp);
  static const int at[] = {1, 2, 31, 32, 100, 2049};
  /* The reference starts 4 threads to compress the index at every append: to stay quick,
   * only ramps in memory go past one 16 KiB index block, and files stop at 32 chunks. */
  int in_memory = kind == CFRAME_MEM || kind == SPARSE_MEM;
  int last = !in_memory ? 32 : pattern == 2 ? 2049 : 100;
  int32_t buf[ITEMS];
  int next = 0;
  for (int64_t n = 1; sc && n <= last; n++) {
    fill(buf, pattern, n);
    if (L->blosc2_schunk_append_buffer(sc, buf, sizeof buf) != n) break;
    if (n == at[next]) {
      char what[48];
      snprintf(what, sizeof what, "%lld chunks", (long long)n);
      snap(L, sc, s, what);
      next++;
    }
  }
  if (sc) L->blosc2_schunk_free(sc);
}

/* fill_special with parameter set `variant`, then a vlmetalayer, an update of chunk 1 to
 * zeros and an append of data, taking a frame after each. */
static void run_special(lib_t *L, int lib, int kind, int special, int variant, int nchunks,
                        snaps_t *s) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  if (variant == 1) {
    cp.typesize = 8;
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_BITSHUFFLE;
  } else if (variant == 2) {
    cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_NOSHUFFLE;
    cp.clevel = 9;
    cp.compcode = BLOSC_LZ4;
  }
  blosc2_schunk *sc = new_schunk(L, lib, kind, "special.b2", &cp);
  int32_t chunkbytes = ITEMS * 4;
  int64_t nitems = (int64_t)nchunks * chunkbytes / cp.typesize;
  int rc = sc ? (int)L->blosc2_schunk_fill_special(sc, nitems, special, chunkbytes) : -999;
  char what[48];
  snprintf(what, sizeof what, "fill_special rc %d", rc);
  snap(L, sc, s, what);
  if (!sc || rc < 0) {
    if (sc) L->blosc2_schunk_free(sc);
    return;
  }
  uint8_t meta[5] = {0x93, 1, 2, 3, 4};
  L->blosc2_vlmeta_add(sc, "extra", meta, sizeof meta, NULL);
  snap(L, sc, s, "vlmetalayer added");
  if (nchunks > 1) {
    uint8_t *z = fc_malloc(BLOSC_EXTENDED_HEADER_LENGTH);
    L->blosc2_chunk_zeros(cp, chunkbytes, z, BLOSC_EXTENDED_HEADER_LENGTH);
    L->blosc2_schunk_update_chunk(sc, 1, z, true);
    free(z);
    snap(L, sc, s, "chunk 1 updated to zeros");
  }
  int32_t buf[ITEMS];
  fill(buf, 2, 0);
  L->blosc2_schunk_append_buffer(sc, buf, sizeof buf);
  snap(L, sc, s, "data appended");
  L->blosc2_schunk_free(sc);
}

/* 40 chunks, every third one zeros; then inserts, a delete and a reorder. */
static void run_edits(lib_t *L, int lib, int kind, snaps_t *s) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_schunk *sc = new_schunk(L, lib, kind, "edits.b2", &cp);
  if (!sc) return;
  int32_t buf[ITEMS];
  for (int64_t n = 0; n < 40; n++) {
    fill(buf, n % 3 == 0 ? 0 : 2, n);
    L->blosc2_schunk_append_buffer(sc, buf, sizeof buf);
  }
  snap(L, sc, s, "40 chunks");
  uint8_t *z = fc_malloc(BLOSC_EXTENDED_HEADER_LENGTH);
  L->blosc2_chunk_zeros(cp, ITEMS * 4, z, BLOSC_EXTENDED_HEADER_LENGTH);
  L->blosc2_schunk_insert_chunk(sc, 3, z, true);
  snap(L, sc, s, "zeros inserted at 3");
  L->blosc2_schunk_update_chunk(sc, 4, z, true);
  snap(L, sc, s, "chunk 4 updated to zeros");
  free(z);
  L->blosc2_schunk_delete_chunk(sc, 5);
  snap(L, sc, s, "chunk 5 deleted");
  int64_t order[40];
  for (int i = 0; i < 40; i++) order[i] = 39 - i;
  L->blosc2_schunk_reorder_offsets(sc, order);
  snap(L, sc, s, "reordered");
  L->blosc2_schunk_free(sc);
}

/* blosc2_schunk_copy into an in-memory frame: with the source's parameters (storage
 * cparams NULL), with the same ones, and with another codec, level, filter or block size
 * (the reference then compresses the chunks anew). */
static void run_copy(lib_t *L, int lib, int kind, int variant, snaps_t *s) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_schunk *sc = new_schunk(L, lib, kind, "copy-src.b2", &cp);
  if (!sc) return;
  int32_t buf[ITEMS];
  for (int64_t n = 0; n < 5; n++) {
    fill(buf, 2, n);
    L->blosc2_schunk_append_buffer(sc, buf, sizeof buf);
  }
  blosc2_cparams cp2 = cp;
  if (variant == 2) cp2.compcode = BLOSC_LZ4;
  if (variant == 3) cp2.clevel = 9;
  if (variant == 4) {
    cp2.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_BITSHUFFLE;
    cp2.compcode = BLOSC_ZSTD;
  }
  if (variant == 5) cp2.blocksize = 128;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.cparams = variant == 0 ? NULL : &cp2;
  blosc2_schunk *copy = L->blosc2_schunk_copy(sc, &st);
  snap(L, copy, s, "copy");
  if (copy) {
    int ok = copy->nchunks == 5;
    for (int64_t n = 0; n < 5 && ok; n++) {
      int32_t out[ITEMS];
      ok = L->blosc2_schunk_decompress_chunk(copy, n, out, sizeof out) == (int)sizeof out &&
           out[ITEMS - 1] == (int32_t)(n * ITEMS + ITEMS - 1);
    }
    CHECK(ok, "%s: copy %d of %s decodes", L->label, variant, kind_names[kind]);
    L->blosc2_schunk_free(copy);
  }
  L->blosc2_schunk_free(sc);
}

static int64_t nchunks_at(lib_t *L, const char *path) {
  blosc2_schunk *sc = L->blosc2_schunk_open(path);
  int64_t n = sc ? sc->nchunks : -1;
  if (sc) L->blosc2_schunk_free(sc);
  return n;
}

/* What each library does when asked to create or copy a super-chunk at a path that
 * exists, and to write an in-memory one to such a file. */
static void overwrite_rules(lib_t *L, int lib, int64_t out[8]) {
  int32_t buf[ITEMS];
  fill(buf, 2, 0);
  int k = 0;
  for (int contiguous = 1; contiguous >= 0; contiguous--) {
    int kind = contiguous ? CFRAME_FILE : SFRAME_DIR;
    char path[700];
    snprintf(path, sizeof path, "%s/existing-%d.b2", g_dir[lib], contiguous);
    blosc2_schunk *sc = new_schunk(L, lib, kind, path + strlen(g_dir[lib]) + 1, NULL);
    L->blosc2_schunk_append_buffer(sc, buf, sizeof buf);
    L->blosc2_schunk_free(sc);
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.contiguous = contiguous;
    st.urlpath = path;
    blosc2_schunk *again = L->blosc2_schunk_new(&st);
    out[k++] = again != NULL;
    if (again) L->blosc2_schunk_free(again);
    blosc2_storage mem = BLOSC2_STORAGE_DEFAULTS;
    mem.contiguous = contiguous;
    blosc2_schunk *m = L->blosc2_schunk_new(&mem);
    L->blosc2_schunk_append_buffer(m, buf, sizeof buf);
    L->blosc2_schunk_append_buffer(m, buf, sizeof buf);
    blosc2_schunk *cp = L->blosc2_schunk_copy(m, &st);
    out[k++] = cp != NULL;
    if (cp) L->blosc2_schunk_free(cp);
    out[k++] = nchunks_at(L, path);
    if (contiguous) {
      out[k++] = L->blosc2_schunk_to_file(m, path) > 0;
      out[k++] = nchunks_at(L, path);
    }
    L->blosc2_schunk_free(m);
  }
}

int main(int argc, char **argv) {
  static lib_t ours, ref;
  if (!cross_load_pair(argc, argv, &ours, &ref)) return 2;
  ours.blosc2_init();
  ref.blosc2_init();
  fc_make_tmp("crossindex");
  static char rdir[640], odir[640];
  snprintf(rdir, sizeof rdir, "%s/ref", fc_path(""));
  snprintf(odir, sizeof odir, "%s/ours", fc_path(""));
  mkdir(rdir, 0755);
  mkdir(odir, 0755);
  g_dir[0] = rdir;
  g_dir[1] = odir;
  lib_t *libs[2] = {&ref, &ours};
  static snaps_t s[2];
  char ctx[160];

  static const char *const patterns[] = {"zeros", "one value", "ramp"};
  for (int kind = 0; kind < NKINDS; kind++) {
    for (int p = 0; p < 3; p++) {
      for (int l = 0; l < 2; l++) run_appends(libs[l], l, kind, p, &s[l]);
      snprintf(ctx, sizeof ctx, "%s, appends of %s", kind_names[kind], patterns[p]);
      compare(ctx, &s[0], &s[1]);
      snaps_free(&s[0]);
      snaps_free(&s[1]);
    }
  }
  static const int specials[] = {BLOSC2_SPECIAL_ZERO, BLOSC2_SPECIAL_NAN,
                                 BLOSC2_SPECIAL_UNINIT};
  static const int counts[] = {1, 5, 3000};
  for (int kind = 0; kind < NKINDS; kind++) {
    for (int sp = 0; sp < 3; sp++) {
      for (int variant = 0; variant < 3; variant++) {
        for (int c = 0; c < 3; c++) {
          /* A sparse super-chunk becomes a frame by appending each chunk (in the reference
           * with 4 new threads each time): 40 chunks are enough there. */
          int count = kind == SPARSE_MEM && counts[c] > 40 ? 40 : counts[c];
          for (int l = 0; l < 2; l++)
            run_special(libs[l], l, kind, specials[sp], variant, count, &s[l]);
          snprintf(ctx, sizeof ctx, "%s, fill_special %d, parameters %d, %d chunks",
                   kind_names[kind], specials[sp], variant, count);
          compare(ctx, &s[0], &s[1]);
          snaps_free(&s[0]);
          snaps_free(&s[1]);
        }
      }
    }
  }
  for (int kind = 0; kind < NKINDS; kind++) {
    for (int l = 0; l < 2; l++) run_edits(libs[l], l, kind, &s[l]);
    snprintf(ctx, sizeof ctx, "%s, inserts, update, delete, reorder", kind_names[kind]);
    compare(ctx, &s[0], &s[1]);
    snaps_free(&s[0]);
    snaps_free(&s[1]);
  }
  for (int kind = 0; kind < NKINDS; kind++) {
    for (int variant = 0; variant < 6; variant++) {
      for (int l = 0; l < 2; l++) run_copy(libs[l], l, kind, variant, &s[l]);
      snprintf(ctx, sizeof ctx, "%s, copy with parameters %d", kind_names[kind], variant);
      compare(ctx, &s[0], &s[1]);
      snaps_free(&s[0]);
      snaps_free(&s[1]);
    }
  }
  int64_t rules[2][8] = {{0}};
  for (int l = 0; l < 2; l++) overwrite_rules(libs[l], l, rules[l]);
  static const char *const rule_names[] = {
      "cframe: new on an existing path", "cframe: copy onto an existing path",
      "cframe: chunks left in the file",  "cframe: to_file of an in-memory cframe",
      "cframe: chunks after to_file",     "sframe: new on an existing path",
      "sframe: copy onto an existing path", "sframe: chunks left in the directory"};
  for (int i = 0; i < 8; i++) {
    CHECK(rules[0][i] == rules[1][i], "%s: reference %lld, ours %lld", rule_names[i],
          (long long)rules[0][i], (long long)rules[1][i]);
  }
  CHECK(rules[0][0] == 0 && rules[0][5] == 0,
        "the reference refuses to create a super-chunk over an existing path");
  return fc_finish("frames_cross_index");
}
