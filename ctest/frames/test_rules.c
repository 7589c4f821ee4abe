/*
 * Rules of the reference's counters and parameters that plain round trips do not show,
 * on every storage kind:
 *  - a compression context keeps the block size of its last compression as its parameter
 *    for the next one (blosc2_compress_ctx and super-chunk appends alike): after a 7136-byte
 *    chunk, a 10000-byte one is cut in 7136-byte blocks;
 *  - blosc2_schunk_copy leaves the source's current_nchunk at its last chunk;
 *  - blosc2_schunk_fill_special leaves current_nchunk at the last chunk without a frame
 *    and at 0 with one;
 *  - reordering the empty index of a frame fails with BLOSC2_ERROR_DATA (not without one);
 *  - deleting every chunk keeps the chunk size (a frame written anew from it says -1, a
 *    copy keeps it), after which a smaller chunk is taken and a larger one refused (-20
 *    append, -19 insert);
 *  - a frame whose chunks were all deleted is header and trailer only; its header keeps
 *    the chunk size and (contiguous frames) the deleted chunk section's length, and it
 *    opens again, in memory and from a file, with that compressed size, taking its next
 *    chunk after that much space; fill_special refuses it (-28), and a frame written anew
 *    from it, opened again or not, says -1;
 *  - a chunk of no bytes appended first: a frame is then header and trailer only too (no
 *    data, no index), its chunk cannot be read (-3) nor deleted (-1), nothing more can be
 *    appended (-3), and a frame written anew from it fails (-23) unless it is the in-memory
 *    frame itself; without a frame, two such chunks cannot go into a frame (-23).
 * usage: frames_rules
 */
#include "fc_common.h"

#define BIG 10000
#define SMALL 7136

static uint8_t g_src[BIG];

static int32_t header_blocksize(const uint8_t *chunk) {
  int32_t bs = -1;
  blosc2_cbuffer_sizes(chunk, NULL, NULL, &bs);
  return bs;
}

/* The block size of chunk n of sc. */
static int32_t chunk_blocksize(blosc2_schunk *sc, int64_t n) {
  uint8_t *c = NULL;
  bool nf = false;
  if (blosc2_schunk_get_chunk(sc, n, &c, &nf) < 0) return -1;
  int32_t bs = header_blocksize(c);
  if (nf) free(c);
  return bs;
}

static void sticky_blocksize_ctx(void) {
  blosc2_cparams cp = fc_cparams(8);
  cp.blocksize = 0;
  blosc2_context *cctx = blosc2_create_cctx(cp);
  static uint8_t out[BIG + BLOSC2_MAX_OVERHEAD];
  REQUIRE(blosc2_compress_ctx(cctx, g_src, SMALL, out, sizeof out) > 0, "ctx: small");
  CHECK_EQ(header_blocksize(out), SMALL, "ctx: small chunk in one block");
  REQUIRE(blosc2_compress_ctx(cctx, g_src, BIG, out, sizeof out) > 0, "ctx: big");
  CHECK_EQ(header_blocksize(out), SMALL, "ctx: the next chunk keeps the block size");
  blosc2_cparams got;
  REQUIRE(blosc2_ctx_get_cparams(cctx, &got) == 0, "ctx: get_cparams");
  CHECK_EQ(got.blocksize, SMALL, "ctx: reported block size");
  blosc2_free_ctx(cctx);
}

static void run(int kind) {
  const char *ctx = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(8);
  cp.blocksize = 0;
  blosc2_schunk *sc = fc_new_schunk(kind, "rules.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 1, "%s: append small", ctx);
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, BIG) == 2, "%s: append big", ctx);
  CHECK_EQ(chunk_blocksize(sc, 1), SMALL, "%s: appended chunk keeps the block size", ctx);

  /* copy: the source ends at its last chunk */
  uint8_t buf[BIG];
  REQUIRE(blosc2_schunk_decompress_chunk(sc, 0, buf, BIG) == SMALL, "%s: decompress", ctx);
  CHECK_EQ(sc->current_nchunk, 0, "%s: before copy", ctx);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  blosc2_schunk *copy = blosc2_schunk_copy(sc, &st);
  REQUIRE(copy != NULL, "%s: copy", ctx);
  CHECK_EQ(sc->current_nchunk, 1, "%s: source after copy", ctx);
  blosc2_schunk_free(copy);

  /* delete every chunk */
  int32_t chunksize = sc->chunksize;
  CHECK_EQ(chunksize, 0, "%s: variable chunks after small then big", ctx);
  blosc2_schunk_free(sc);
  sc = fc_new_schunk(kind, "rules.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 1, "%s: append", ctx);
  REQUIRE(blosc2_schunk_delete_chunk(sc, 0) == 0, "%s: delete", ctx);
  CHECK_EQ(sc->chunksize, SMALL, "%s: emptied keeps the chunk size", ctx);
  blosc2_schunk *empty_copy = blosc2_schunk_copy(sc, &st);
  REQUIRE(empty_copy != NULL, "%s: copy of the emptied", ctx);
  CHECK_EQ(empty_copy->chunksize, SMALL, "%s: its copy keeps it too", ctx);
  blosc2_schunk_free(empty_copy);
  /* (An in-memory contiguous frame is rebuilt differently: not checked here.) */
  if (fc_kind_on_disk(kind)) {
    uint8_t *frame = NULL;
    bool nf = false;
    int64_t len = blosc2_schunk_to_buffer(sc, &frame, &nf);
    REQUIRE(len > 62, "%s: to_buffer", ctx);
    /* The frame header's chunk size: an int32 after a msgpack marker at byte 57. */
    CHECK_EQ(frame[57], 0xd2, "%s: chunk size marker", ctx);
    CHECK_EQ(fc_rd32be(frame + 58), 0xffffffffu, "%s: emptied frame says -1", ctx);
    if (nf) free(frame);
  }
  uint8_t chunk[BIG + BLOSC2_MAX_OVERHEAD];
  blosc2_context *cctx = blosc2_create_cctx(cp);
  REQUIRE(blosc2_compress_ctx(cctx, g_src, BIG, chunk, sizeof chunk) > 0, "%s: compress", ctx);
  blosc2_free_ctx(cctx);
  CHECK_EQ(blosc2_schunk_insert_chunk(sc, 0, chunk, true), BLOSC2_ERROR_CHUNK_INSERT,
           "%s: larger insert refused", ctx);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, BIG), BLOSC2_ERROR_CHUNK_APPEND,
           "%s: larger append refused", ctx);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, 4000), 1, "%s: smaller append", ctx);
  CHECK_EQ(sc->chunksize, SMALL, "%s: chunk size kept", ctx);
  blosc2_schunk_free(sc);

  /* reorder of an empty index */
  sc = fc_new_schunk(kind, "rules.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  int64_t order[1] = {0};
  CHECK_EQ(blosc2_schunk_reorder_offsets(sc, order),
           fc_kind_has_frame(kind) ? BLOSC2_ERROR_DATA : 0, "%s: reorder empty", ctx);

  /* fill_special */
  CHECK_EQ(blosc2_schunk_fill_special(sc, 3 * 1000 + 1, BLOSC2_SPECIAL_ZERO, 8000), 4,
           "%s: fill", ctx);
  CHECK_EQ(sc->current_nchunk, fc_kind_has_frame(kind) ? 0 : 3, "%s: after fill", ctx);
  blosc2_schunk_free(sc);
}

/* The frame of sc as stored: the file, the sparse frame's index file, or the buffer. */
static uint8_t *stored_frame(blosc2_schunk *sc, int kind, int64_t *len, bool *needs_free) {
  *needs_free = true;
  if (kind == FC_CFRAME_FILE) return fc_read_file(sc->storage->urlpath, len);
  if (kind == FC_SFRAME_DIR) {
    char index[4096];
    snprintf(index, sizeof index, "%s/chunks.b2frame", sc->storage->urlpath);
    return fc_read_file(index, len);
  }
  uint8_t *frame = NULL;
  *len = blosc2_schunk_to_buffer(sc, &frame, needs_free);
  return frame;
}

/* The compressed size of chunk n of sc as stored. */
static int64_t stored_cbytes(blosc2_schunk *sc, int64_t n) {
  uint8_t *c = NULL;
  bool nf = false;
  int cb = blosc2_schunk_get_chunk(sc, n, &c, &nf);
  if (nf) free(c);
  return cb;
}

static void emptied_frame(int kind) {
  const char *ctx = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(8);
  blosc2_schunk *sc = fc_new_schunk(kind, "emptied.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 1, "%s: append", ctx);
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 2, "%s: append", ctx);
  int64_t section = kind == FC_SFRAME_DIR ? 0 : sc->cbytes;
  REQUIRE(blosc2_schunk_delete_chunk(sc, 1) == 1, "%s: delete", ctx);
  REQUIRE(blosc2_schunk_delete_chunk(sc, 0) == 0, "%s: delete", ctx);
  int64_t len = 0;
  bool nf = false;
  uint8_t *frame = stored_frame(sc, kind, &len, &nf);
  REQUIRE(frame != NULL && len > 64, "%s: emptied frame", ctx);
  int64_t header_len = fc_rd32be(frame + 11);
  int64_t trailer_len = fc_rd32be(frame + len - 22);
  CHECK_EQ(header_len + trailer_len, len, "%s: header and trailer only", ctx);
  CHECK_EQ(fc_rd32be(frame + 58), SMALL, "%s: chunk size kept", ctx);
  CHECK_EQ((int64_t)fc_rd64be(frame + 39), section, "%s: compressed size kept", ctx);
  if (kind == FC_CFRAME_MEM) {
    for (int copy = 0; copy < 2; copy++) {
      uint8_t *dup = malloc((size_t)len);
      memcpy(dup, frame, (size_t)len);
      blosc2_schunk *again = blosc2_schunk_from_buffer(dup, len, copy);
      REQUIRE(again != NULL, "%s: from_buffer(copy=%d) of the emptied frame", ctx, copy);
      CHECK_EQ(again->nchunks, 0, "%s: no chunks (copy=%d)", ctx, copy);
      CHECK_EQ(again->cbytes, section, "%s: compressed size (copy=%d)", ctx, copy);
      if (copy) {
        CHECK_EQ(blosc2_schunk_append_buffer(again, g_src, SMALL), 1, "%s: append again", ctx);
        CHECK(fc_chunk_matches(again, 0, (const int32_t *)g_src, SMALL / 4), "%s: data", ctx);
        CHECK_EQ(again->cbytes, section + stored_cbytes(again, 0), "%s: after the old section",
                 ctx);
      }
      blosc2_schunk_free(again);
      free(dup);
    }
  }
  if (nf) free(frame);
  if (fc_kind_contiguous(kind)) {
    /* The kept chunk section counts: no longer empty for fill_special. */
    CHECK_EQ(blosc2_schunk_fill_special(sc, SMALL, BLOSC2_SPECIAL_ZERO, SMALL),
             BLOSC2_ERROR_FRAME_SPECIAL, "%s: fill_special on the emptied", ctx);
  }
  char *path = sc->storage->urlpath ? strdup(sc->storage->urlpath) : NULL;
  REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 1, "%s: append after", ctx);
  int64_t stored_cbytes_of_first = stored_cbytes(sc, 0);
  if (path && kind == FC_CFRAME_FILE) {
    /* Emptied and closed, then reopened: the next chunk still goes after the old section. */
    REQUIRE(blosc2_schunk_delete_chunk(sc, 0) == 0, "%s: delete again", ctx);
    blosc2_schunk_free(sc);
    sc = blosc2_schunk_open(path);
    REQUIRE(sc != NULL, "%s: reopen the emptied", ctx);
    CHECK_EQ(sc->cbytes, section + stored_cbytes_of_first, "%s: reopened compressed size", ctx);
    CHECK_EQ(sc->chunksize, SMALL, "%s: reopened chunk size", ctx);
    bool nf2 = false;
    uint8_t *anew = NULL;
    int64_t len2 = blosc2_schunk_to_buffer(sc, &anew, &nf2);
    REQUIRE(anew != NULL && len2 > 64, "%s: frame of the reopened", ctx);
    CHECK_EQ(fc_rd32be(anew + 58), 0xffffffffu, "%s: written anew it says -1", ctx);
    if (nf2) free(anew);
    REQUIRE(blosc2_schunk_append_buffer(sc, g_src, SMALL) == 1, "%s: append reopened", ctx);
    CHECK_EQ(sc->cbytes, section + 2 * stored_cbytes_of_first, "%s: after the old section", ctx);
  }
  blosc2_schunk_free(sc);
  if (path) {
    blosc2_schunk *again = blosc2_schunk_open(path);
    REQUIRE(again != NULL, "%s: reopen", ctx);
    CHECK_EQ(again->nchunks, 1, "%s: one chunk", ctx);
    CHECK(fc_chunk_matches(again, 0, (const int32_t *)g_src, SMALL / 4), "%s: its data", ctx);
    blosc2_schunk_free(again);
    free(path);
  }
}

static void empty_chunk_first(int kind) {
  const char *ctx = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(8);
  blosc2_schunk *sc = fc_new_schunk(kind, "nodata.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, 0), 1, "%s: append of no bytes", ctx);
  uint8_t *frame = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &frame, &nf);
  if (kind == FC_SPARSE_MEM) {
    REQUIRE(len > 64, "%s: to_buffer", ctx);
    blosc2_schunk *again = blosc2_schunk_from_buffer(frame, len, true);
    REQUIRE(again != NULL, "%s: reopen", ctx);
    CHECK_EQ(again->nchunks, 0, "%s: its frame has no chunks", ctx);
    blosc2_schunk_free(again);
    if (nf) free(frame);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, 0), 2, "%s: another", ctx);
    CHECK_EQ(blosc2_schunk_to_buffer(sc, &frame, &nf), BLOSC2_ERROR_SCHUNK_COPY,
             "%s: two of them in a frame", ctx);
    blosc2_schunk_free(sc);
    return;
  }
  if (kind == FC_CFRAME_MEM) {
    REQUIRE(len > 64, "%s: to_buffer", ctx);
    CHECK_EQ(fc_rd32be(frame + 11) + fc_rd32be(frame + len - 22), len,
             "%s: header and trailer only", ctx);
    if (nf) free(frame);
  } else {
    CHECK_EQ(len, BLOSC2_ERROR_SCHUNK_COPY, "%s: to_buffer", ctx);
  }
  uint8_t out[64];
  CHECK_EQ(blosc2_schunk_decompress_chunk(sc, 0, out, sizeof out), BLOSC2_ERROR_DATA,
           "%s: decompress", ctx);
  uint8_t *chunk = NULL;
  CHECK_EQ(blosc2_schunk_get_chunk(sc, 0, &chunk, &nf), BLOSC2_ERROR_DATA, "%s: get", ctx);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, SMALL), BLOSC2_ERROR_DATA, "%s: append",
           ctx);
  CHECK_EQ(sc->current_nchunk, 1, "%s: current after the append", ctx);
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, 0), BLOSC2_ERROR_FAILURE, "%s: delete", ctx);
  blosc2_schunk_free(sc);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("rules");
  for (int i = 0; i < BIG; i++) g_src[i] = (uint8_t)((i * 7 + i / 13) % 5 == 0 ? i : 0);
  sticky_blocksize_ctx();
  for (int kind = 0; kind < FC_NKINDS; kind++) run(kind);
  for (int kind = FC_CFRAME_MEM; kind < FC_NKINDS; kind++) emptied_frame(kind);
  for (int kind = 0; kind < FC_NKINDS; kind++) empty_chunk_first(kind);
  blosc2_destroy();
  return fc_finish("frames_rules");
}
