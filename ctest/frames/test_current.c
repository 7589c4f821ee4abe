/*
 * blosc2_schunk.current_nchunk, as the reference maintains it: 0 for a new, opened or
 * from_buffer super-chunk; the chunk an append, insert, update, delete, decompress or
 * get_chunk/get_lazychunk touched; the last chunk a get/set slice touched; the last chunk of
 * a copy. Failing calls, reorders and compressions through schunk->cctx leave it (and a
 * value the program stored there) alone. Every storage kind.
 * Also blosc2_schunk.blocksize of a super-chunk loaded from a frame buffer: with a copy,
 * the block size its chunks share (0 when they differ); without, the frame header's (the
 * block size the compression context last used), which a copy's storage->cparams keeps.
 * usage: frames_current
 */
#include "fc_common.h"

#define ITEMS 1000

static int32_t g_data[ITEMS];

static void run(int kind) {
  const char *ctx = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(4);
  blosc2_schunk *sc = fc_new_schunk(kind, "current.b2", &cp);
  REQUIRE(sc != NULL, "%s: created", ctx);
  CHECK_EQ(sc->current_nchunk, 0, "%s: new", ctx);
  for (int k = 0; k < 5; k++) {
    fc_fill_i32(g_data, ITEMS, (int64_t)k * ITEMS, 0);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, sizeof g_data), k + 1, "%s: append", ctx);
    CHECK_EQ(sc->current_nchunk, k, "%s: append_buffer %d", ctx, k);
  }
  CHECK_EQ(blosc2_schunk_decompress_chunk(sc, 2, g_data, sizeof g_data), (int)sizeof g_data,
           "%s: decompress", ctx);
  CHECK_EQ(sc->current_nchunk, 2, "%s: decompress_chunk 2", ctx);
  uint8_t *c = NULL;
  bool nf = false;
  CHECK(blosc2_schunk_get_chunk(sc, 4, &c, &nf) > 0, "%s: get_chunk", ctx);
  if (nf) free(c);
  CHECK_EQ(sc->current_nchunk, 4, "%s: get_chunk 4", ctx);
  CHECK(blosc2_schunk_get_lazychunk(sc, 1, &c, &nf) > 0, "%s: get_lazychunk", ctx);
  if (nf) free(c);
  CHECK_EQ(sc->current_nchunk, 1, "%s: get_lazychunk 1", ctx);
  CHECK(blosc2_schunk_decompress_chunk(sc, 99, g_data, sizeof g_data) < 0, "%s: refused", ctx);
  CHECK(blosc2_schunk_get_chunk(sc, 77, &c, &nf) < 0, "%s: refused", ctx);
  CHECK_EQ(sc->current_nchunk, 1, "%s: failing calls leave it", ctx);
  int32_t s[10];
  CHECK_EQ(blosc2_schunk_get_slice_buffer(sc, 3500, 3510, s), 0, "%s: get_slice", ctx);
  CHECK_EQ(sc->current_nchunk, 3, "%s: get_slice to 3510", ctx);
  CHECK_EQ(blosc2_schunk_set_slice_buffer(sc, 1500, 1510, s), 0, "%s: set_slice", ctx);
  CHECK_EQ(sc->current_nchunk, 1, "%s: set_slice to 1510", ctx);
  uint8_t chunk[ITEMS * 4 + BLOSC2_MAX_OVERHEAD];
  int cb = blosc2_compress_ctx(sc->cctx, g_data, sizeof g_data, chunk, sizeof chunk);
  CHECK(cb > 0, "%s: compress_ctx", ctx);
  CHECK_EQ(sc->current_nchunk, 1, "%s: compress_ctx leaves it", ctx);
  CHECK_EQ(blosc2_schunk_update_chunk(sc, 0, chunk, true), 5, "%s: update", ctx);
  CHECK_EQ(sc->current_nchunk, 0, "%s: update 0", ctx);
  CHECK_EQ(blosc2_schunk_insert_chunk(sc, 3, chunk, true), 6, "%s: insert", ctx);
  CHECK_EQ(sc->current_nchunk, 3, "%s: insert 3", ctx);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, chunk, true), 7, "%s: append_chunk", ctx);
  CHECK_EQ(sc->current_nchunk, 6, "%s: append_chunk", ctx);
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, 2), 6, "%s: delete", ctx);
  CHECK_EQ(sc->current_nchunk, 2, "%s: delete 2", ctx);
  sc->current_nchunk = 42;
  int64_t order[6] = {5, 4, 3, 2, 1, 0};
  CHECK_EQ(blosc2_schunk_reorder_offsets(sc, order), 0, "%s: reorder", ctx);
  CHECK_EQ(sc->current_nchunk, 42, "%s: a stored value survives a reorder", ctx);
  blosc2_storage mem = BLOSC2_STORAGE_DEFAULTS;
  blosc2_schunk *copy = blosc2_schunk_copy(sc, &mem);
  REQUIRE(copy != NULL, "%s: copy", ctx);
  CHECK_EQ(copy->current_nchunk, 5, "%s: copy", ctx);
  uint8_t *buf = NULL;
  bool needs_free = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &buf, &needs_free);
  REQUIRE(len > 0, "%s: to_buffer", ctx);
  blosc2_schunk *fb = blosc2_schunk_from_buffer(buf, len, true);
  REQUIRE(fb != NULL, "%s: from_buffer", ctx);
  CHECK_EQ(fb->current_nchunk, 0, "%s: from_buffer", ctx);
  blosc2_schunk_free(fb);
  if (needs_free) free(buf);
  blosc2_schunk_free(copy);
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    blosc2_schunk *o = blosc2_schunk_open(fc_path("current.b2"));
    REQUIRE(o != NULL, "%s: open", ctx);
    CHECK_EQ(o->current_nchunk, 0, "%s: open", ctx);
    blosc2_schunk_free(o);
  }
}

/* blocksize of `sc` loaded back from its frame buffer, with and without a copy. */
static void loaded_blocksize(blosc2_schunk *sc, int32_t *copied, int32_t *kept) {
  int32_t storage_bs = -1;
  uint8_t *frame = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &frame, &nf);
  REQUIRE(len > 0, "blocksize: to_buffer");
  blosc2_schunk *a = blosc2_schunk_from_buffer(frame, len, true);
  REQUIRE(a != NULL, "blocksize: from_buffer copy");
  *copied = a->blocksize;
  storage_bs = a->storage->cparams->blocksize;
  blosc2_schunk_free(a);
  uint8_t *own = malloc((size_t)len);
  memcpy(own, frame, (size_t)len);
  blosc2_schunk *b = blosc2_schunk_from_buffer(own, len, false);
  REQUIRE(b != NULL, "blocksize: from_buffer");
  *kept = b->blocksize;
  CHECK_EQ(storage_bs, b->blocksize, "blocksize: a copy's storage keeps the header's");
  blosc2_schunk_free(b);
  free(own);
  if (nf) free(frame);
}

static void blocksize_after_load(void) {
  blosc2_cparams cp = fc_cparams(4);
  cp.blocksize = 0;
  blosc2_storage st = {.cparams = &cp};
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "blocksize: new");
  int32_t copied, kept;
  loaded_blocksize(sc, &copied, &kept);
  CHECK_EQ(copied, 0, "blocksize: no chunks, copy");
  CHECK_EQ(kept, 0, "blocksize: no chunks");
  for (int k = 0; k < 3; k++) {
    fc_fill_i32(g_data, ITEMS, (int64_t)k * ITEMS, 0);
    REQUIRE(blosc2_schunk_append_buffer(sc, g_data, sizeof g_data) == k + 1, "append");
  }
  uint8_t *c = NULL;
  bool nf = false;
  REQUIRE(blosc2_schunk_get_chunk(sc, 0, &c, &nf) > 0, "blocksize: get_chunk");
  int32_t chunk_bs = 0;
  blosc2_cbuffer_sizes(c, NULL, NULL, &chunk_bs);
  if (nf) free(c);
  CHECK(chunk_bs > 0, "blocksize: chunk block size %d", chunk_bs);
  loaded_blocksize(sc, &copied, &kept);
  CHECK_EQ(copied, chunk_bs, "blocksize: equal chunks, copy");
  CHECK_EQ(kept, chunk_bs, "blocksize: equal chunks, header");
  /* One more chunk with another block size. */
  blosc2_cparams cp2 = fc_cparams(4);
  cp2.blocksize = 1024;
  blosc2_context *cctx = blosc2_create_cctx(cp2);
  uint8_t chunk[sizeof g_data + BLOSC2_MAX_OVERHEAD];
  int cb = blosc2_compress_ctx(cctx, g_data, sizeof g_data, chunk, sizeof chunk);
  blosc2_free_ctx(cctx);
  REQUIRE(cb > 0, "blocksize: compress");
  REQUIRE(blosc2_schunk_append_chunk(sc, chunk, true) == 4, "blocksize: append_chunk");
  loaded_blocksize(sc, &copied, &kept);
  CHECK_EQ(copied, 0, "blocksize: differing chunks, copy");
  CHECK_EQ(kept, chunk_bs, "blocksize: differing chunks, header");
  blosc2_schunk_free(sc);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("current");
  for (int kind = 0; kind < 4; kind++) run(kind);
  blocksize_after_load();
  blosc2_destroy();
  return fc_finish("frames_current");
}
