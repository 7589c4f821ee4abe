/*
 * Variable-length-block (VL-block) chunks in super-chunks on the four storage kinds:
 * append/insert/update of VL chunks, blosc2_schunk_get_vlblock, decompress_chunk (the
 * concatenation of the blocks), schunk flags2, no mixing with regular chunks (-20), the
 * frame format version (3) in general_flags, and persistence (reopen, to/from_buffer).
 */
#include "fc_common.h"

#define NB_MAX 5

typedef struct {
  int32_t nblocks;
  int32_t sizes[NB_MAX];
  uint8_t *blocks[NB_MAX];
  uint8_t *chunk;
  int32_t cbytes;
} vlchunk_t;

static vlchunk_t g_vl[4];

static void make_vlchunks(void) {
  static const int32_t shapes[4][NB_MAX + 1] = {
      {3, 11, 1, 5000}, {2, 700, 3}, {5, 1, 2, 3, 4, 40000}, {1, 123}};
  blosc2_cparams cp = fc_cparams(1);
  cp.compcode = BLOSC_ZSTD;
  blosc2_context *cc = blosc2_create_cctx(cp);
  for (int c = 0; c < 4; c++) {
    vlchunk_t *v = &g_vl[c];
    v->nblocks = shapes[c][0];
    int32_t total = 0;
    const void *srcs[NB_MAX];
    for (int b = 0; b < v->nblocks; b++) {
      v->sizes[b] = shapes[c][b + 1];
      v->blocks[b] = (uint8_t *)fc_malloc((size_t)v->sizes[b]);
      fc_fill_bytes(v->blocks[b], (size_t)v->sizes[b], (uint32_t)(c * 10 + b));
      srcs[b] = v->blocks[b];
      total += v->sizes[b];
    }
    int32_t cap = total * 2 + 1024;
    v->chunk = (uint8_t *)fc_malloc((size_t)cap);
    v->cbytes = blosc2_vlcompress_ctx(cc, srcs, v->sizes, v->nblocks, v->chunk, cap);
    CHECK(v->cbytes > 32, "vlcompress chunk %d -> %d", c, v->cbytes);
    CHECK(v->chunk[BLOSC2_CHUNK_VERSION] == BLOSC2_VERSION_FORMAT_VL_BLOCKS &&
              (v->chunk[BLOSC2_CHUNK_BLOSC2_FLAGS2] & BLOSC2_VL_BLOCKS),
          "VL chunk %d header", c);
  }
  blosc2_free_ctx(cc);
}

static int32_t vl_nbytes(const vlchunk_t *v) {
  int32_t n = 0;
  for (int b = 0; b < v->nblocks; b++) n += v->sizes[b];
  return n;
}

/* Chunk n of sc holds g_vl[which]: every block and the concatenation. */
static void check_vl(blosc2_schunk *sc, int64_t n, int which, const char *what) {
  const vlchunk_t *v = &g_vl[which];
  for (int b = 0; b < v->nblocks; b++) {
    uint8_t *d = NULL;
    int32_t ds = -1;
    int rc = blosc2_schunk_get_vlblock(sc, n, b, &d, &ds);
    CHECK(rc == v->sizes[b] && ds == v->sizes[b] && d &&
              memcmp(d, v->blocks[b], (size_t)v->sizes[b]) == 0,
          "%s chunk %lld block %d -> %d (size %d)", what, (long long)n, b, rc, ds);
    free(d);
  }
  uint8_t *d = NULL;
  int32_t ds = 0;
  CHECK_EQ(blosc2_schunk_get_vlblock(sc, n, v->nblocks, &d, &ds), BLOSC2_ERROR_INVALID_PARAM,
           "%s block index past the end", what);
  CHECK_EQ(blosc2_schunk_get_vlblock(sc, n, -1, &d, &ds), BLOSC2_ERROR_INVALID_PARAM,
           "%s negative block index", what);
  int32_t total = vl_nbytes(v);
  uint8_t *all = (uint8_t *)fc_malloc((size_t)total);
  CHECK_EQ(blosc2_schunk_decompress_chunk(sc, n, all, total), total, "%s decompress_chunk",
           what);
  int32_t off = 0;
  for (int b = 0; b < v->nblocks; b++) {
    CHECK(memcmp(all + off, v->blocks[b], (size_t)v->sizes[b]) == 0,
          "%s concatenated block %d", what, b);
    off += v->sizes[b];
  }
  free(all);
}

static void check_layout(blosc2_schunk *sc, const int *layout, int n, const char *what) {
  REQUIRE(sc != NULL, "%s: no schunk", what);
  CHECK_EQ(sc->nchunks, n, "%s nchunks", what);
  CHECK_EQ(sc->flags2 & BLOSC2_VL_BLOCKS, BLOSC2_VL_BLOCKS, "%s schunk flags2", what);
  int64_t nbytes = 0;
  for (int i = 0; i < n && i < sc->nchunks; i++) {
    check_vl(sc, i, layout[i], what);
    nbytes += vl_nbytes(&g_vl[layout[i]]);
  }
  CHECK_EQ(sc->nbytes, nbytes, "%s nbytes", what);
}

static void vlblocks(int kind) {
  const char *k = fc_kind_names[kind];
  char what[128];
  blosc2_cparams cp = fc_cparams(1);
  blosc2_schunk *sc = fc_new_schunk(kind, "vl.b2", &cp);
  REQUIRE(sc != NULL, "%s new", k);
  CHECK_EQ(sc->flags2, 0, "%s flags2 of an empty schunk", k);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, g_vl[0].chunk, true), 1, "%s append vl 0", k);
  CHECK_EQ(sc->flags2 & BLOSC2_VL_BLOCKS, BLOSC2_VL_BLOCKS, "%s flags2 after a VL chunk", k);
  CHECK_EQ(sc->chunksize, vl_nbytes(&g_vl[0]), "%s chunksize = first chunk nbytes", k);
  CHECK_EQ(sc->cbytes, g_vl[0].cbytes, "%s cbytes", k);
  uint8_t *own = (uint8_t *)fc_malloc((size_t)g_vl[1].cbytes);
  memcpy(own, g_vl[1].chunk, (size_t)g_vl[1].cbytes);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, own, false), 2, "%s append vl 1 (no copy)", k);

  /* no mixing: regular and special chunks are refused once the schunk holds VL chunks */
  int32_t data[256];
  fc_fill_i32(data, 256, 0, 1);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, data, sizeof data), BLOSC2_ERROR_CHUNK_APPEND,
           "%s regular chunk after VL chunks", k);
  uint8_t z[32];
  CHECK_EQ(blosc2_chunk_zeros(cp, 100, z, sizeof z), 32, "zeros chunk");
  CHECK_EQ(blosc2_schunk_append_chunk(sc, z, true), BLOSC2_ERROR_CHUNK_APPEND,
           "%s special chunk after VL chunks", k);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, g_vl[2].chunk, true), 3, "%s append vl 2", k);
  CHECK_EQ(blosc2_schunk_insert_chunk(sc, 0, g_vl[3].chunk, true), 4, "%s insert vl 3 at 0",
           k);
  CHECK_EQ(blosc2_schunk_update_chunk(sc, 2, g_vl[0].chunk, true), 4, "%s update 2 with vl 0",
           k);
  int layout[4] = {3, 0, 0, 2};
  snprintf(what, sizeof what, "%s live", k);
  check_layout(sc, layout, 4, what);
  uint8_t *d = NULL;
  int32_t ds = 0;
  CHECK_EQ(blosc2_schunk_get_vlblock(sc, 4, 0, &d, &ds), BLOSC2_ERROR_INVALID_PARAM,
           "%s chunk index past the end", k);
  /* the frame says VL blocks: format version 3 in general_flags (bit 7 set too) */
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  REQUIRE(len > 87, "%s to_buffer", k);
  CHECK_EQ(cf[25] & 0x0f, BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS, "%s frame format version", k);
  CHECK_EQ(cf[25] & 0x80, 0x80, "%s general_flags bit 7 with VL blocks", k);
  blosc2_schunk *fb = blosc2_schunk_from_buffer(cf, len, true);
  snprintf(what, sizeof what, "%s from_buffer", k);
  check_layout(fb, layout, 4, what);
  if (fb) blosc2_schunk_free(fb);
  if (nf) free(cf);

  CHECK_EQ(blosc2_schunk_delete_chunk(sc, 1), 3, "%s delete", k);
  int layout2[3] = {3, 0, 2};
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("vl.b2"));
    snprintf(what, sizeof what, "%s reopened", k);
    check_layout(sc, layout2, 3, what);
    if (sc) {
      CHECK_EQ(blosc2_schunk_append_chunk(sc, g_vl[1].chunk, true), 4, "%s append reopened", k);
      CHECK_EQ(blosc2_schunk_append_buffer(sc, data, sizeof data), BLOSC2_ERROR_CHUNK_APPEND,
               "%s regular chunk into a reopened VL frame", k);
      blosc2_schunk_free(sc);
    }
    sc = blosc2_schunk_open(fc_path("vl.b2"));
    int layout3[4] = {3, 0, 2, 1};
    snprintf(what, sizeof what, "%s reopened twice", k);
    check_layout(sc, layout3, 4, what);
    if (sc) blosc2_schunk_free(sc);
  }

  /* a schunk that starts with regular chunks refuses VL chunks; its frame is version 2 */
  sc = fc_new_schunk(kind, "regular.b2", &cp);
  REQUIRE(sc != NULL, "%s new regular", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, data, sizeof data), 1, "%s regular", k);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, g_vl[0].chunk, true), BLOSC2_ERROR_CHUNK_APPEND,
           "%s VL chunk after regular chunks", k);
  CHECK_EQ(sc->flags2, 0, "%s flags2 of a regular schunk", k);
  len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  CHECK(len > 87 && (cf[25] & 0x0f) == BLOSC2_VERSION_FRAME_FORMAT_RC1 && !(cf[25] & 0x80),
        "%s regular frame general_flags %02x", k, len > 87 ? cf[25] : 0);
  if (nf) free(cf);
  blosc2_schunk_free(sc);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("vlblocks");
  make_vlchunks();
  for (int kind = 0; kind < FC_NKINDS; kind++) vlblocks(kind);
  for (int c = 0; c < 4; c++) {
    for (int b = 0; b < g_vl[c].nblocks; b++) free(g_vl[c].blocks[b]);
    free(g_vl[c].chunk);
  }
  blosc2_destroy();
  return fc_finish("frames_vlblocks");
}
