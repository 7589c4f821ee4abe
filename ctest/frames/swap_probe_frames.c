/*
 * Frame swap probe: one program, built against the REFERENCE headers and library only, that
 * prints deterministic results of the super-chunk / frame API (return codes, nchunks, nbytes,
 * typesize, chunksize, checksums of decoded data, metalayer and vlmetalayer contents, offsets
 * from blosc2_frame_get_offsets, lengths of in-memory frames) on the four storage kinds.
 * ../swap_test.sh runs it as built and with our libblosc2.so.9 swapped in; the outputs must
 * be identical. The first output line names the library actually loaded and is not compared.
 * Decoded data that differs from what was written sets sp_bad (non-zero exit).
 *
 * Chunks use LZ4 (whose compressed bytes must match the reference), so chunk sizes and frame
 * offsets are comparable. Not printed, because the two libraries intentionally differ there:
 * sizes / frame_len of file frames, cbytes after deletes in cframes, a 17th vlmetalayer,
 * schunk_new over an existing path (paths are removed first), open_udio without a disk file.
 * Scratch files live under $TMPDIR (the build directory when run by CTest).
 */
#include "fc_common.h"

#include <dlfcn.h>
#include <inttypes.h>

#define CHUNK_ITEMS 2000
#define CHUNK_BYTES (CHUNK_ITEMS * 4)

static int sp_bad = 0;

/* FNV-1a 64 of n bytes. */
static uint64_t sp_fnv(const void *p, size_t n) {
  const uint8_t *b = (const uint8_t *)p;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

static void sp_hash(const char *label, const void *p, int64_t n) {
  if (n > 0)
    printf("  %s %" PRId64 " %016" PRIx64 "\n", label, n, sp_fnv(p, (size_t)n));
  else
    printf("  %s %" PRId64 " -\n", label, n);
}

static blosc2_cparams sp_cparams(void) {
  blosc2_cparams cp = fc_cparams(4);
  cp.compcode = BLOSC_LZ4;
  cp.clevel = 5;
  return cp;
}

/* New schunk of `kind` with LZ4 cparams (on-disk paths are removed first). */
static blosc2_schunk *sp_new(int kind, const char *leaf) {
  blosc2_cparams cp = sp_cparams();
  return fc_new_schunk(kind, leaf, &cp);
}

/* What sp_describe prints besides the fields and the decoded chunks. */
enum { SP_CBYTES = 1, SP_SIZES = 2, SP_OFFSETS = 4, SP_ALL = 7 };

/*
 * Summary of a schunk: fields, every chunk decoded, and as `show` asks: schunk cbytes, chunk
 * sizes, offsets and frame length (offsets and length of in-memory frames only).
 */
static void sp_describe(const char *what, blosc2_schunk *sc, int show) {
  if (!sc) {
    printf(" %s: NULL\n", what);
    return;
  }
  printf(" %s: nchunks=%" PRId64 " nbytes=%" PRId64 " typesize=%d chunksize=%d", what,
         sc->nchunks, sc->nbytes, sc->typesize, sc->chunksize);
  if (show & SP_CBYTES) printf(" cbytes=%" PRId64, sc->cbytes);
  printf(" frame=%s\n", sc->frame ? "yes" : "no");
  int64_t total = 0;
  for (int64_t i = 0; i < sc->nchunks; i++) {
    uint8_t *c = NULL;
    bool nf = false;
    int crc = blosc2_schunk_get_chunk(sc, i, &c, &nf);
    int32_t nb = 0, cb = 0, bs = 0;
    if (crc > 0) blosc2_cbuffer_sizes(c, &nb, &cb, &bs);
    if (show & SP_SIZES)
      printf("  chunk %" PRId64 ": get_chunk=%d nbytes=%d cbytes=%d blocksize=%d\n", i, crc, nb,
             cb, bs);
    else
      printf("  chunk %" PRId64 ": get_chunk>0=%d nbytes=%d\n", i, crc > 0, nb);
    if (nf) free(c);
    uint8_t *d = (uint8_t *)fc_malloc((size_t)nb + 64);
    memset(d, 0xEE, (size_t)nb + 64); /* what an uninit chunk leaves */
    int drc = blosc2_schunk_decompress_chunk(sc, i, d, nb + 64);
    char label[32];
    snprintf(label, sizeof label, "decoded %" PRId64, i);
    sp_hash(label, d, drc);
    if (drc > 0) total += drc;
    free(d);
  }
  printf("  decoded total %" PRId64 "\n", total);
  int in_memory = sc->frame && sc->storage && !sc->storage->urlpath;
  if (!(show & SP_OFFSETS) || !in_memory) return;
  if (sc->nchunks > 0) {
    int64_t *off = blosc2_frame_get_offsets(sc);
    printf("  offsets:");
    for (int64_t i = 0; off && i < sc->nchunks; i++) printf(" %" PRId64, off[i]);
    printf("%s\n", off ? "" : " NULL");
    free(off);
  }
  printf("  frame_len %" PRId64 "\n", blosc2_schunk_frame_len(sc));
}

/* ---- chunk operations ------------------------------------------------------------------- */

static void sp_chunk_ops(int kind) {
  printf("== chunk ops %s\n", fc_kind_names[kind]);
  blosc2_schunk *sc = sp_new(kind, "ops.b2");
  if (!sc) {
    printf(" new: NULL\n");
    sp_bad = 1;
    return;
  }
  int32_t buf[CHUNK_ITEMS];
  for (int i = 0; i < 5; i++) {
    fc_fill_i32(buf, CHUNK_ITEMS, (int64_t)i * CHUNK_ITEMS, i);
    printf(" append_buffer %d -> %" PRId64 "\n", i,
           blosc2_schunk_append_buffer(sc, buf, CHUNK_BYTES));
  }
  sp_describe("after appends", sc, SP_ALL);
  blosc2_cparams cp = sp_cparams();
  int32_t cb = 0;
  fc_fill_i32(buf, CHUNK_ITEMS, 0, 50);
  uint8_t *c50 = fc_make_chunk(cp, buf, CHUNK_BYTES, &cb);
  fc_fill_i32(buf, CHUNK_ITEMS, 0, 60);
  uint8_t *c60 = fc_make_chunk(cp, buf, CHUNK_BYTES, NULL);
  fc_fill_i32(buf, CHUNK_ITEMS, 0, 70);
  uint8_t *c70 = fc_make_chunk(cp, buf, CHUNK_BYTES, NULL);
  printf(" made chunk cbytes=%d\n", cb);
  printf(" append_chunk copy -> %" PRId64 "\n", blosc2_schunk_append_chunk(sc, c50, true));
  printf(" insert_chunk 1 -> %" PRId64 "\n", blosc2_schunk_insert_chunk(sc, 1, c60, true));
  printf(" update_chunk 3 -> %" PRId64 "\n", blosc2_schunk_update_chunk(sc, 3, c70, true));
  sp_describe("after insert/update", sc, SP_CBYTES | SP_SIZES);
  printf(" delete_chunk 0 -> %" PRId64 "\n", blosc2_schunk_delete_chunk(sc, 0));
  sp_describe("after delete", sc, SP_SIZES);
  int64_t order[6] = {5, 0, 4, 1, 3, 2};
  printf(" reorder_offsets -> %d\n", blosc2_schunk_reorder_offsets(sc, order));
  sp_describe("after reorder", sc, SP_SIZES);
  printf(" get_chunk 99 -> %d\n", blosc2_schunk_get_chunk(sc, 99, &(uint8_t *){NULL}, &(bool){0}));
  printf(" delete_chunk 99 -> %" PRId64 "\n", blosc2_schunk_delete_chunk(sc, 99));
  /* lazy chunks decoded through the schunk's own dctx */
  for (int64_t i = 0; i < sc->nchunks; i += 2) {
    uint8_t *lz = NULL;
    bool nf = false;
    int lrc = blosc2_schunk_get_lazychunk(sc, i, &lz, &nf);
    int32_t out[CHUNK_ITEMS];
    int drc = lrc > 0 ? blosc2_decompress_ctx(sc->dctx, lz, lrc, out, CHUNK_BYTES) : lrc;
    int32_t item[4] = {0};
    int grc = lrc > 0 ? blosc2_getitem_ctx(sc->dctx, lz, lrc, 1234, 4, item, sizeof item) : lrc;
    printf(" lazy %" PRId64 ": decompress_ctx=%d getitem_ctx=%d items=%d,%d,%d,%d\n", i, drc,
           grc, item[0], item[1], item[2], item[3]);
    sp_hash("lazy decoded", out, drc);
    if (nf) free(lz);
  }
  free(c50);
  free(c60);
  free(c70);
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    blosc2_schunk *re = blosc2_schunk_open(fc_path("ops.b2"));
    sp_describe("reopened", re, SP_SIZES);
    if (re) blosc2_schunk_free(re);
  }
}

/* ---- slices and special values ---------------------------------------------------------- */

static void sp_slices(int kind) {
  printf("== slices %s\n", fc_kind_names[kind]);
  blosc2_cparams cp = sp_cparams();
  blosc2_schunk *sc = sp_new(kind, "slices.b2");
  if (!sc) {
    printf(" new: NULL\n");
    sp_bad = 1;
    return;
  }
  enum { N = CHUNK_ITEMS * 6 + 700 };
  int32_t *all = (int32_t *)fc_malloc(N * 4), *got = (int32_t *)fc_malloc(N * 4);
  fc_fill_i32(all, N, 0, 3);
  for (int64_t s = 0; s < N; s += CHUNK_ITEMS) {
    int64_t n = N - s < CHUNK_ITEMS ? N - s : CHUNK_ITEMS;
    printf(" append_buffer %" PRId64 " items -> %" PRId64 "\n", n,
           blosc2_schunk_append_buffer(sc, all + s, (int32_t)(n * 4)));
  }
  fc_seed(77);
  for (int r = 0; r < 8; r++) {
    int64_t a = fc_below(N), b = a + fc_below(N - (uint32_t)a) + 1;
    int rc = blosc2_schunk_get_slice_buffer(sc, a, b, got);
    int same = rc == 0 && memcmp(got, all + a, (size_t)(b - a) * 4) == 0;
    printf(" get_slice [%" PRId64 ",%" PRId64 ") rc=%d %s\n", a, b, rc, same ? "same" : "DIFF");
    if (!same) sp_bad = 1;
  }
  int32_t patch[5000];
  fc_fill_i32(patch, 5000, 0, 9);
  printf(" set_slice [1500,6500) rc=%d\n", blosc2_schunk_set_slice_buffer(sc, 1500, 6500, patch));
  memcpy(all + 1500, patch, sizeof patch);
  int rc = blosc2_schunk_get_slice_buffer(sc, 0, N, got);
  printf(" get_slice all rc=%d %s\n", rc, memcmp(got, all, N * 4) == 0 ? "same" : "DIFF");
  sp_hash("slice all", got, N * 4);
  printf(" get_slice past end rc=%d\n", blosc2_schunk_get_slice_buffer(sc, N - 5, N + 5, got));
  sp_describe("after set_slice", sc, 0);
  blosc2_schunk_free(sc);

  /* fill_special and special chunks in the index */
  sc = sp_new(kind, "special.b2");
  if (!sc) return;
  printf(" fill_special zeros -> %" PRId64 "\n",
         blosc2_schunk_fill_special(sc, 5 * CHUNK_ITEMS, BLOSC2_SPECIAL_ZERO, CHUNK_BYTES));
  uint8_t sp[BLOSC_EXTENDED_HEADER_LENGTH + 8];
  int32_t zrc = blosc2_chunk_nans(cp, CHUNK_BYTES, sp, sizeof sp);
  printf(" chunk_nans rc=%d append -> %" PRId64 "\n", zrc,
         blosc2_schunk_append_chunk(sc, sp, true));
  int32_t val = 0x01020304;
  zrc = blosc2_chunk_repeatval(cp, CHUNK_BYTES, sp, sizeof sp, &val);
  printf(" chunk_repeatval rc=%d update 2 -> %" PRId64 "\n", zrc,
         blosc2_schunk_update_chunk(sc, 2, sp, true));
  zrc = blosc2_chunk_uninit(cp, CHUNK_BYTES, sp, sizeof sp);
  printf(" chunk_uninit rc=%d insert 1 -> %" PRId64 "\n", zrc,
         blosc2_schunk_insert_chunk(sc, 1, sp, true));
  fc_fill_i32(got, CHUNK_ITEMS, 0, 4);
  printf(" append_buffer -> %" PRId64 "\n", blosc2_schunk_append_buffer(sc, got, CHUNK_BYTES));
  sp_describe("specials", sc, SP_SIZES);
  int32_t sl[10];
  rc = blosc2_schunk_get_slice_buffer(sc, 3 * CHUNK_ITEMS - 5, 3 * CHUNK_ITEMS + 5, sl);
  printf(" get_slice across specials rc=%d", rc);
  for (int i = 0; i < 10; i++) printf(" %d", sl[i]);
  printf("\n");
  blosc2_schunk_free(sc);
  free(all);
  free(got);
}

/* ---- metalayers and vlmetalayers -------------------------------------------------------- */

static void sp_print_meta(blosc2_schunk *sc) {
  printf("  nmetalayers=%d nvlmetalayers=%d\n", sc->nmetalayers, sc->nvlmetalayers);
  const char *names[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; i++) {
    uint8_t *content = NULL;
    int32_t len = 0;
    int ex = blosc2_meta_exists(sc, names[i]);
    int rc = blosc2_meta_get(sc, names[i], &content, &len);
    printf("  meta %s exists=%d get=%d len=%d", names[i], ex, rc, len);
    if (rc >= 0) printf(" '%.*s'", len, content);
    printf("\n");
    if (rc >= 0) free(content);
  }
  char *vn[BLOSC2_MAX_VLMETALAYERS];
  int nv = blosc2_vlmeta_get_names(sc, vn);
  printf("  vlmeta names=%d", nv);
  for (int i = 0; i < nv; i++) printf(" %s", vn[i]);
  printf("\n");
  for (int i = 0; i < nv; i++) {
    uint8_t *content = NULL;
    int32_t len = 0;
    int rc = blosc2_vlmeta_get(sc, vn[i], &content, &len);
    printf("  vlmeta %s exists=%d get=%d len=%d", vn[i], blosc2_vlmeta_exists(sc, vn[i]), rc,
           len);
    if (rc >= 0) {
      sp_hash("content", content, len);
      free(content);
    } else {
      printf("\n");
    }
  }
}

static void sp_meta(int kind) {
  printf("== meta %s\n", fc_kind_names[kind]);
  blosc2_schunk *sc = sp_new(kind, "meta.b2");
  if (!sc) {
    printf(" new: NULL\n");
    sp_bad = 1;
    return;
  }
  blosc2_cparams cp = sp_cparams();
  printf(" meta_add alpha -> %d\n", blosc2_meta_add(sc, "alpha", (uint8_t *)"first", 5));
  printf(" meta_add beta -> %d\n", blosc2_meta_add(sc, "beta", (uint8_t *)"0123456789", 10));
  printf(" meta_add alpha again -> %d\n", blosc2_meta_add(sc, "alpha", (uint8_t *)"x", 1));
  int32_t buf[CHUNK_ITEMS];
  fc_fill_i32(buf, CHUNK_ITEMS, 0, 8);
  printf(" append_buffer -> %" PRId64 "\n", blosc2_schunk_append_buffer(sc, buf, CHUNK_BYTES));
  printf(" meta_update beta -> %d\n", blosc2_meta_update(sc, "beta", (uint8_t *)"abcdefghij", 10));
  printf(" meta_update gamma -> %d\n", blosc2_meta_update(sc, "gamma", (uint8_t *)"zz", 2));
  uint8_t big[3000];
  fc_fill_bytes(big, sizeof big, 5);
  printf(" vlmeta_add v1 -> %d\n", blosc2_vlmeta_add(sc, "v1", (uint8_t *)"hello", 5, &cp));
  printf(" vlmeta_add v2 -> %d\n", blosc2_vlmeta_add(sc, "v2", big, sizeof big, &cp));
  printf(" vlmeta_add v3 -> %d\n", blosc2_vlmeta_add(sc, "v3", (uint8_t *)"third", 5, &cp));
  printf(" vlmeta_add v1 again -> %d\n", blosc2_vlmeta_add(sc, "v1", (uint8_t *)"x", 1, &cp));
  printf(" vlmeta_update v1 -> %d\n",
         blosc2_vlmeta_update(sc, "v1", (uint8_t *)"a much longer content", 21, &cp));
  printf(" vlmeta_update nope -> %d\n", blosc2_vlmeta_update(sc, "nope", (uint8_t *)"x", 1, &cp));
  printf(" vlmeta_delete v2 -> %d\n", blosc2_vlmeta_delete(sc, "v2"));
  printf(" vlmeta_delete v2 again -> %d\n", blosc2_vlmeta_delete(sc, "v2"));
  sp_print_meta(sc);
  sp_describe("meta schunk", sc, SP_ALL);
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("meta.b2"));
    printf(" reopened %s\n", sc ? "ok" : "NULL");
    if (sc) {
      sp_print_meta(sc);
      blosc2_schunk_free(sc);
    }
  }
}

/* ---- serialisation ---------------------------------------------------------------------- */

static blosc2_schunk *sp_filled(int kind, const char *leaf) {
  blosc2_schunk *sc = sp_new(kind, leaf);
  if (!sc) return NULL;
  blosc2_cparams cp = sp_cparams();
  printf(" meta_add alpha -> %d\n", blosc2_meta_add(sc, "alpha", (uint8_t *)"serial", 6));
  int32_t buf[CHUNK_ITEMS];
  for (int i = 0; i < 4; i++) {
    fc_fill_i32(buf, CHUNK_ITEMS, (int64_t)i * CHUNK_ITEMS, 20 + i);
    printf(" append_buffer -> %" PRId64 "\n",
           blosc2_schunk_append_buffer(sc, buf, i == 3 ? CHUNK_BYTES / 2 : CHUNK_BYTES));
  }
  printf(" vlmeta_add v1 -> %d\n",
         blosc2_vlmeta_add(sc, "v1", (uint8_t *)"persisted", 9, &cp));
  return sc;
}

static void sp_serial(int kind) {
  printf("== serial %s\n", fc_kind_names[kind]);
  blosc2_schunk *sc = sp_filled(kind, "serial.b2");
  if (!sc) {
    printf(" new: NULL\n");
    sp_bad = 1;
    return;
  }
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  printf(" to_buffer len=%" PRId64 " needs_free=%d\n", len, (int)nf);
  for (int copy = 0; copy < 2; copy++) {
    uint8_t *mine = (uint8_t *)fc_malloc((size_t)len);
    memcpy(mine, cf, (size_t)len);
    blosc2_schunk *fb = blosc2_schunk_from_buffer(mine, len, copy);
    printf(" from_buffer copy=%d\n", copy);
    sp_describe("from_buffer", fb, SP_ALL);
    if (fb) {
      sp_print_meta(fb);
      blosc2_schunk_free(fb);
    }
    free(mine);
  }
  /* to_file, open, append_file + open_offset */
  char *file = fc_path("serial-out.b2");
  blosc2_remove_urlpath(file);
  int64_t trc = blosc2_schunk_to_file(sc, file);
  printf(" to_file %s\n", trc > 0 ? "ok" : "failed");
  blosc2_schunk *op = blosc2_schunk_open(file);
  sp_describe("opened", op, SP_ALL);
  if (op) {
    sp_print_meta(op);
    blosc2_schunk_free(op);
  }
  char *host = fc_path("host.bin");
  uint8_t prefix[100];
  memset(prefix, 0xAB, sizeof prefix);
  fc_write_file(host, prefix, sizeof prefix);
  printf(" append_file -> %" PRId64 "\n", blosc2_schunk_append_file(sc, host));
  blosc2_schunk *oo = blosc2_schunk_open_offset(host, 100);
  sp_describe("open_offset", oo, SP_ALL);
  if (oo) blosc2_schunk_free(oo);
  /* copy to every kind */
  for (int to = 0; to < FC_NKINDS; to++) {
    blosc2_cparams cp = sp_cparams();
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.cparams = &cp;
    st.dparams = &dp;
    st.contiguous = fc_kind_contiguous(to);
    st.urlpath = fc_kind_on_disk(to) ? fc_path("copy.b2") : NULL;
    if (st.urlpath) blosc2_remove_urlpath(st.urlpath);
    blosc2_schunk *cp2 = blosc2_schunk_copy(sc, &st);
    printf(" copy to %s\n", fc_kind_names[to]);
    sp_describe("copy", cp2, SP_ALL);
    if (cp2) {
      sp_print_meta(cp2);
      blosc2_schunk_free(cp2);
    }
  }
  if (nf) free(cf);
  blosc2_schunk_free(sc);
}

/* ---- VL-block chunks -------------------------------------------------------------------- */

static void sp_vlblocks(int kind) {
  printf("== vlblocks %s\n", fc_kind_names[kind]);
  blosc2_cparams cp = sp_cparams();
  cp.typesize = 1;
  blosc2_schunk *sc = fc_new_schunk(kind, "vl.b2", &cp);
  if (!sc) {
    printf(" new: NULL\n");
    sp_bad = 1;
    return;
  }
  blosc2_context *cc = blosc2_create_cctx(cp);
  static const int32_t shapes[3][4] = {{3, 11, 1, 5000}, {2, 700, 3, 0}, {1, 123, 0, 0}};
  for (int c = 0; c < 3; c++) {
    int32_t nb = shapes[c][0], sizes[3];
    const void *srcs[3];
    uint8_t *blocks[3];
    int32_t total = 0;
    for (int b = 0; b < nb; b++) {
      sizes[b] = shapes[c][b + 1];
      blocks[b] = (uint8_t *)fc_malloc((size_t)sizes[b]);
      fc_fill_bytes(blocks[b], (size_t)sizes[b], (uint32_t)(c * 10 + b));
      srcs[b] = blocks[b];
      total += sizes[b];
    }
    uint8_t *chunk = (uint8_t *)fc_malloc((size_t)total * 2 + 1024);
    int cb = blosc2_vlcompress_ctx(cc, srcs, sizes, nb, chunk, total * 2 + 1024);
    printf(" vlcompress %d -> %d; append_chunk -> %" PRId64 "\n", c, cb,
           blosc2_schunk_append_chunk(sc, chunk, true));
    for (int b = 0; b < nb; b++) {
      uint8_t *d = NULL;
      int32_t ds = 0;
      int rc = blosc2_schunk_get_vlblock(sc, c, b, &d, &ds);
      int same = rc == sizes[b] && ds == sizes[b] && memcmp(d, blocks[b], (size_t)ds) == 0;
      printf("  get_vlblock %d/%d rc=%d size=%d %s\n", c, b, rc, ds, same ? "same" : "DIFF");
      if (!same) sp_bad = 1;
      free(d);
      free(blocks[b]);
    }
    free(chunk);
  }
  int32_t regular[100] = {0};
  printf(" append regular buffer -> %" PRId64 "\n",
         blosc2_schunk_append_buffer(sc, regular, sizeof regular));
  sp_describe("vl schunk", sc, SP_ALL);
  blosc2_free_ctx(cc);
  blosc2_schunk_free(sc);
}

int main(void) {
  Dl_info info;
  memset(&info, 0, sizeof info);
  dladdr((void *)&blosc2_schunk_new, &info);
  printf("LIB %s\n", info.dli_fname ? info.dli_fname : "(unknown)");
  fc_make_tmp("swap");
  blosc2_init();
  for (int k = 0; k < FC_NKINDS; k++) sp_chunk_ops(k);
  for (int k = 0; k < FC_NKINDS; k++) sp_slices(k);
  for (int k = 0; k < FC_NKINDS; k++) sp_meta(k);
  for (int k = 0; k < FC_NKINDS; k++) sp_serial(k);
  for (int k = 0; k < FC_NKINDS; k++) sp_vlblocks(k);
  blosc2_destroy();
  printf("done bad=%d\n", sp_bad);
  return sp_bad;
}
