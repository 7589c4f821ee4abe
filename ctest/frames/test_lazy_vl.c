/*
 * Lazy VL-block chunks (issue 10, point 8): blosc2_schunk_get_lazychunk on a VL-block chunk
 * of a file-backed frame (contiguous file, sparse directory) returns a lazy chunk like the
 * reference: the chunk header with the lazy bit (blosc2 flags bit 3), the block starts,
 * then the chunk number (int32), its position (int64: after the frame header for contiguous
 * frames, the chunk file number for sparse ones) and every block's compressed size. A
 * context bound to the super-chunk decodes each block of it. Ours also refuses a lazy chunk
 * whose stored block sizes were altered (the reference decodes it anyway).
 * usage: frames_lazy_vl
 */
#include "fc_common.h"

#define NB 3
static uint8_t g_blocks[NB][30000];
static const int32_t g_sizes[NB] = {1010, 20000, 7000};

static void check_kind(int kind) {
  const char *ctx = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(1);
  blosc2_schunk *sc = fc_new_schunk(kind, "lazyvl.b2", &cp);
  REQUIRE(sc != NULL, "%s: new", ctx);
  for (int k = 0; k < 3; k++) {
    const void *srcs[NB];
    for (int b = 0; b < NB; b++) {
      fc_fill_bytes(g_blocks[b], (size_t)g_sizes[b], (uint32_t)(b + 10 * k));
      srcs[b] = g_blocks[b];
    }
    blosc2_context *c = blosc2_create_cctx(cp);
    uint8_t *chunk = (uint8_t *)fc_malloc(100000);
    int n = blosc2_vlcompress_ctx(c, srcs, g_sizes, NB, chunk, 100000);
    blosc2_free_ctx(c);
    CHECK(n > 0, "%s: vlcompress %d", ctx, n);
    CHECK_EQ(blosc2_schunk_append_chunk(sc, chunk, true), k + 1, "%s: append", ctx);
    free(chunk);
  }
  blosc2_schunk_free(sc);
  sc = blosc2_schunk_open(fc_path("lazyvl.b2"));
  REQUIRE(sc != NULL, "%s: reopen", ctx);
  uint8_t *full, *lazy;
  bool free_full, free_lazy;
  int nfull = blosc2_schunk_get_chunk(sc, 1, &full, &free_full);
  int nlazy = blosc2_schunk_get_lazychunk(sc, 1, &lazy, &free_lazy);
  REQUIRE(nfull > 32 && nlazy > 0, "%s: get_chunk %d, get_lazychunk %d", ctx, nfull, nlazy);
  int at = 32 + 4 * NB;
  CHECK_EQ(nlazy, at + 12 + 4 * NB, "%s: lazy chunk length", ctx);
  CHECK(lazy[31] & 0x08, "%s: lazy bit (flags %02x)", ctx, lazy[31]);
  CHECK(memcmp(lazy, full, 31) == 0 && memcmp(lazy + 32, full + 32, 4 * NB) == 0,
        "%s: header and block starts", ctx);
  if (nlazy == at + 12 + 4 * NB) {
    int64_t *offs = blosc2_frame_get_offsets(sc);
    int64_t hlen = 0;
    if (kind == FC_CFRAME_FILE) {
      int64_t len;
      uint8_t *f = fc_read_file(fc_path("lazyvl.b2"), &len);
      if (f) hlen = (int64_t)fc_rd32be(f + 11);
      free(f);
    }
    CHECK_EQ(fc_rd32(lazy + at), kind == FC_CFRAME_FILE ? 1 : offs[1], "%s: chunk number", ctx);
    CHECK_EQ(fc_rd64(lazy + at + 4), hlen + offs[1], "%s: chunk position", ctx);
    free(offs);
    for (int b = 0; b < NB; b++) {
      int32_t start = fc_rd32(full + 32 + 4 * b), next = nfull;
      for (int j = 0; j < NB; j++) {
        int32_t s = fc_rd32(full + 32 + 4 * j);
        if (s > start && s < next) next = s;
      }
      CHECK_EQ(fc_rd32(lazy + at + 12 + 4 * b), next - start, "%s: csize of block %d", ctx, b);
    }
  }
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.schunk = sc;
  blosc2_context *d = blosc2_create_dctx(dp);
  for (int b = 0; b < NB; b++) {
    uint8_t *out = NULL;
    int32_t size = 0;
    int rc = blosc2_vldecompress_block_ctx(d, lazy, nlazy, b, &out, &size);
    CHECK_EQ(rc, g_sizes[b], "%s: block %d of the lazy chunk", ctx, b);
    fc_fill_bytes(g_blocks[b], (size_t)g_sizes[b], (uint32_t)(b + 10));
    if (rc == g_sizes[b]) CHECK(memcmp(out, g_blocks[b], (size_t)rc) == 0, "%s: block %d", ctx, b);
    free(out);
  }
#ifdef BLOSC2_VARIANT_OURS
  if (nlazy == at + 12 + 4 * NB) {
    lazy[at + 12 + 4] ^= 1; /* block 1's stored compressed size */
    uint8_t *out = NULL;
    int32_t size = 0;
    for (int b = 0; b < NB; b++) {
      int rc = blosc2_vldecompress_block_ctx(d, lazy, nlazy, b, &out, &size);
      CHECK(rc < 0, "%s: block %d of a lazy chunk with an altered csize gives %d", ctx, b, rc);
      if (rc >= 0) free(out);
    }
  }
#endif
  blosc2_free_ctx(d);
  if (free_full) free(full);
  if (free_lazy) free(lazy);
  blosc2_schunk_free(sc);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("lazyvl");
  check_kind(FC_CFRAME_FILE);
  check_kind(FC_SFRAME_DIR);
  blosc2_destroy();
  return fc_finish("frames_lazy_vl");
}
