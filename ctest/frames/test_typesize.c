/*
 * Frames whose typesize is above 255 (issue 10, point 12): the frame header holds an int32
 * (python-blosc2 writes such frames for structured dtypes). Each storage kind is written
 * with typesizes 256, 1000 and 65536 and reopened from its file or directory, where it must
 * report the typesize and decode every chunk. Its to_buffer frame is read back too (from_buffer
 * with and without copy): an in-memory frame is handed out as is (the typesize in its
 * header), the others are built anew and take the item size of their chunks, as the
 * reference does (the chunk header's byte, 1 for such items).
 * usage: frames_typesize
 */
#include "fc_common.h"

#define NBYTES 120000

static uint8_t g_src[NBYTES], g_out[NBYTES];

static void check_reading(blosc2_schunk *sc, int32_t typesize, const char *ctx) {
  REQUIRE(sc != NULL, "%s: opens", ctx);
  CHECK_EQ(sc->typesize, typesize, "%s: typesize", ctx);
  CHECK_EQ(sc->nchunks, 2, "%s: nchunks", ctx);
  for (int i = 0; i < 2; i++) {
    memset(g_out, 0, sizeof g_out);
    CHECK_EQ(blosc2_schunk_decompress_chunk(sc, i, g_out, NBYTES), NBYTES, "%s: chunk %d", ctx, i);
    CHECK(memcmp(g_out, g_src, NBYTES) == 0, "%s: chunk %d content", ctx, i);
  }
}

int main(void) {
  blosc2_init();
  fc_make_tmp("typesize");
  for (size_t i = 0; i < NBYTES; i++) g_src[i] = (uint8_t)(i * 7 / 13 + (i >> 9));
  const int32_t sizes[] = {256, 1000, 65536};
  for (int k = 0; k < 3; k++) {
    for (int kind = 0; kind < FC_NKINDS; kind++) {
      char ctx[96];
      snprintf(ctx, sizeof ctx, "%s typesize %d", fc_kind_names[kind], sizes[k]);
      blosc2_cparams cp = fc_cparams(sizes[k]);
      blosc2_schunk *sc = fc_new_schunk(kind, "wide.b2", &cp);
      if (!sc) {
        CHECK(0, "%s: schunk_new", ctx);
        continue;
      }
      for (int i = 0; i < 2; i++)
        CHECK_EQ(blosc2_schunk_append_buffer(sc, g_src, NBYTES), i + 1, "%s: append", ctx);
      uint8_t *buf;
      bool needs_free;
      int64_t len = blosc2_schunk_to_buffer(sc, &buf, &needs_free);
      CHECK(len > 0x3a, "%s: to_buffer %lld", ctx, (long long)len);
      int32_t want = sizes[k];
      if (kind != FC_CFRAME_MEM) {
        uint8_t *ch;
        bool nf;
        CHECK(blosc2_schunk_get_chunk(sc, 1, &ch, &nf) > 0, "%s: get_chunk", ctx);
        want = ch[3];
        if (nf) free(ch);
      }
      if (len > 0x3a) {
        CHECK_EQ((int32_t)fc_rd32be(buf + 0x30), want, "%s: header typesize", ctx);
        uint8_t *copy = (uint8_t *)fc_malloc((size_t)len);
        memcpy(copy, buf, (size_t)len);
        blosc2_schunk *a = blosc2_schunk_from_buffer(copy, len, true);
        check_reading(a, want, ctx);
        if (a) blosc2_schunk_free(a);
        blosc2_schunk *b = blosc2_schunk_from_buffer(copy, len, false);
        check_reading(b, want, ctx);
        if (b) blosc2_schunk_free(b);
        free(copy);
      }
      if (needs_free) free(buf);
      blosc2_schunk_free(sc);
      if (fc_kind_on_disk(kind)) {
        blosc2_schunk *re = blosc2_schunk_open(fc_path("wide.b2"));
        check_reading(re, sizes[k], ctx);
        if (re) blosc2_schunk_free(re);
      }
    }
  }
  blosc2_destroy();
  return fc_finish("frames_typesize");
}
