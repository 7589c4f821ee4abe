/*
 * Fixed-length metalayers (blosc2_meta_add / _update, inline blosc2_meta_exists / _get) and
 * variable-length metalayers (blosc2_vlmeta_add / _update / _get / _delete / _exists /
 * _get_names) on the four storage kinds: results and limits, in-place update rules, and
 * persistence through reopening, to_buffer/from_buffer and schunk_copy.
 */
#include "fc_common.h"

static int32_t g_data[1000];
static uint8_t g_big[200000];

static void meta_content(uint8_t *buf, int i, int32_t len) {
  for (int32_t j = 0; j < len; j++) buf[j] = (uint8_t)(i * 31 + j);
}

/* 16 metalayers m00..m15 of 3*i bytes (m00 empty), m05 updated to "ABCDE" + rest. */
static void check_metas(blosc2_schunk *sc, const char *what) {
  REQUIRE(sc != NULL, "%s: no schunk", what);
  CHECK_EQ(sc->nmetalayers, 16, "%s nmetalayers", what);
  uint8_t want[64];
  for (int i = 0; i < 16; i++) {
    char name[8];
    snprintf(name, sizeof name, "m%02d", i);
    CHECK_EQ(blosc2_meta_exists(sc, name), i, "%s meta_exists %s", what, name);
    uint8_t *content = NULL;
    int32_t len = -1;
    int rc = blosc2_meta_get(sc, name, &content, &len);
    CHECK_EQ(rc, i, "%s meta_get %s", what, name);
    CHECK_EQ(len, 3 * i, "%s meta %s length", what, name);
    meta_content(want, i, 3 * i);
    if (i == 5) memcpy(want, "ABCDE", 5);
    if (i == 7) meta_content(want, 70, 21);
    if (rc >= 0 && len == 3 * i && len > 0)
      CHECK(content && memcmp(content, want, (size_t)len) == 0, "%s meta %s content", what, name);
    free(content);
  }
  CHECK_EQ(blosc2_meta_exists(sc, "absent"), BLOSC2_ERROR_NOT_FOUND, "%s meta absent", what);
}

/* vlmetas: "small" (5 B), "big" (g_big), "empty"... as left by vlmetas() */
static void check_vlmetas(blosc2_schunk *sc, const char *what) {
  REQUIRE(sc != NULL, "%s: no schunk", what);
  CHECK_EQ(sc->nvlmetalayers, 3, "%s nvlmetalayers", what);
  char *names[8] = {0};
  int n = blosc2_vlmeta_get_names(sc, names);
  CHECK_EQ(n, 3, "%s vlmeta_get_names", what);
  int seen = 0;
  for (int i = 0; i < n && i < 8; i++) {
    if (names[i] && strcmp(names[i], "small") == 0) seen |= 1;
    if (names[i] && strcmp(names[i], "big") == 0) seen |= 2;
    if (names[i] && strcmp(names[i], "late") == 0) seen |= 4;
  }
  CHECK_EQ(seen, 7, "%s vlmeta names", what);
  uint8_t *c = NULL;
  int32_t len = -1;
  int rc = blosc2_vlmeta_get(sc, "small", &c, &len);
  CHECK(rc >= 0 && len == 7 && c && memcmp(c, "updated", 7) == 0, "%s vlmeta small -> %d/%d",
        what, rc, len);
  free(c);
  c = NULL;
  rc = blosc2_vlmeta_get(sc, "big", &c, &len);
  CHECK(rc >= 0 && len == (int32_t)sizeof g_big && c && memcmp(c, g_big, sizeof g_big) == 0,
        "%s vlmeta big -> %d/%d", what, rc, len);
  free(c);
  c = NULL;
  rc = blosc2_vlmeta_get(sc, "late", &c, &len);
  CHECK(rc >= 0 && len == 4 && c && memcmp(c, "late", 4) == 0, "%s vlmeta late", what);
  free(c);
  CHECK_EQ(blosc2_vlmeta_exists(sc, "gone"), BLOSC2_ERROR_NOT_FOUND, "%s deleted vlmeta", what);
}

static void metas(int kind) {
  const char *k = fc_kind_names[kind];
  char what[128];
  blosc2_schunk *sc = fc_new_schunk(kind, "meta.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  uint8_t buf[64];
  for (int i = 0; i < 16; i++) {
    char name[8];
    snprintf(name, sizeof name, "m%02d", i);
    meta_content(buf, i, 3 * i);
    CHECK_EQ(blosc2_meta_add(sc, name, buf, 3 * i), i, "%s meta_add %s", k, name);
  }
  CHECK_EQ(blosc2_meta_add(sc, "m03", buf, 4), BLOSC2_ERROR_INVALID_PARAM, "%s meta_add dup", k);
  CHECK_EQ(blosc2_meta_add(sc, "neg", buf, -1), BLOSC2_ERROR_INVALID_PARAM, "%s negative len",
           k);
#ifdef BLOSC2_VARIANT_OURS
  /* the reference writes a 17th entry past its 16-slot array (and crashes later) */
  CHECK(blosc2_meta_add(sc, "m16", buf, 4) < 0, "%s 17th metalayer refused", k);
#endif
  CHECK_EQ(sc->nmetalayers, 16, "%s nmetalayers", k);
  CHECK_EQ(blosc2_meta_exists(sc, "0123456789012345678901234567890123"),
           BLOSC2_ERROR_INVALID_PARAM, "%s meta_exists long name", k);
  uint8_t *c = NULL;
  int32_t len = 0;
  CHECK_EQ(blosc2_meta_get(sc, "absent", &c, &len), BLOSC2_ERROR_NOT_FOUND, "%s get absent", k);

  /* update: same size replaces; smaller writes in place keeping the length; larger is
     silently ignored (returns the index); absent -16 */
  meta_content(buf, 70, 21);
  CHECK_EQ(blosc2_meta_update(sc, "m07", buf, 21), 7, "%s update same size", k);
  CHECK_EQ(blosc2_meta_update(sc, "m05", (uint8_t *)"ABCDE", 5), 5, "%s update smaller", k);
  uint8_t large[40];
  memset(large, 0xEE, sizeof large);
  CHECK_EQ(blosc2_meta_update(sc, "m06", large, 40), 6, "%s update larger", k);
  CHECK_EQ(blosc2_meta_update(sc, "absent", buf, 3), BLOSC2_ERROR_NOT_FOUND, "%s update absent",
           k);
  fc_fill_i32(g_data, 1000, 0, 1);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "%s append", k);
  /* updates stay possible after the first chunk (same size, in place) */
  meta_content(buf, 9, 27);
  CHECK_EQ(blosc2_meta_update(sc, "m09", buf, 27), 9, "%s update after a chunk", k);
  snprintf(what, sizeof what, "%s live", k);
  check_metas(sc, what);

  /* persistence */
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t flen = blosc2_schunk_to_buffer(sc, &cf, &nf);
  blosc2_schunk *fb = flen > 0 ? blosc2_schunk_from_buffer(cf, flen, true) : NULL;
  snprintf(what, sizeof what, "%s from_buffer", k);
  check_metas(fb, what);
  if (fb) blosc2_schunk_free(fb);
  if (nf) free(cf);
  for (int dst = 0; dst < FC_NKINDS; dst++) {
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.contiguous = fc_kind_contiguous(dst);
    st.urlpath = fc_kind_on_disk(dst) ? fc_path("metacopy.b2") : NULL;
    blosc2_remove_urlpath(st.urlpath);
    blosc2_schunk *cp = blosc2_schunk_copy(sc, &st);
    snprintf(what, sizeof what, "%s copy to %s", k, fc_kind_names[dst]);
    check_metas(cp, what);
    if (cp) blosc2_schunk_free(cp);
  }
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("meta.b2"));
    snprintf(what, sizeof what, "%s reopened", k);
    check_metas(sc, what);
    /* in-place update of a reopened frame persists too */
    meta_content(buf, 9, 27);
    if (sc) {
      CHECK_EQ(blosc2_meta_update(sc, "m09", buf, 27), 9, "%s update reopened", k);
      blosc2_schunk_free(sc);
    }
  }

  /* adding a metalayer after the first chunk: frames refuse (-12); sparse accepts */
  sc = fc_new_schunk(kind, "late.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "%s append", k);
  int rc = blosc2_meta_add(sc, "late", buf, 4);
  if (kind == FC_SPARSE_MEM) CHECK_EQ(rc, 0, "%s meta_add after a chunk", k);
  else CHECK_EQ(rc, BLOSC2_ERROR_INVALID_PARAM, "%s meta_add after a chunk", k);
  blosc2_schunk_free(sc);
}

static void vlmetas(int kind) {
  const char *k = fc_kind_names[kind];
  char what[128];
  fc_fill_bytes(g_big, sizeof g_big, 7);
  blosc2_schunk *sc = fc_new_schunk(kind, "vlmeta.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  blosc2_cparams zstd = fc_cparams(1);
  zstd.compcode = BLOSC_ZSTD;
  zstd.clevel = 9;
  CHECK_EQ(blosc2_vlmeta_add(sc, "small", (uint8_t *)"hello", 5, NULL), 0, "%s add small", k);
  CHECK_EQ(blosc2_vlmeta_add(sc, "big", g_big, sizeof g_big, &zstd), 1, "%s add big", k);
  CHECK_EQ(blosc2_vlmeta_add(sc, "gone", (uint8_t *)"bye", 3, NULL), 2, "%s add gone", k);
  CHECK_EQ(blosc2_vlmeta_add(sc, "small", (uint8_t *)"x", 1, NULL), BLOSC2_ERROR_INVALID_PARAM,
           "%s add duplicate", k);
  CHECK_EQ(blosc2_vlmeta_exists(sc, "big"), 1, "%s exists big", k);
  CHECK_EQ(blosc2_vlmeta_exists(sc, "nope"), BLOSC2_ERROR_NOT_FOUND, "%s exists absent", k);
  CHECK_EQ(blosc2_vlmeta_exists(sc, "01234567890123456789012345678901"),
           BLOSC2_ERROR_INVALID_PARAM, "%s exists 32-char name", k);
  uint8_t *c = NULL;
  int32_t len = 0;
  CHECK_EQ(blosc2_vlmeta_get(sc, "nope", &c, &len), BLOSC2_ERROR_NOT_FOUND, "%s get absent", k);
  CHECK_EQ(blosc2_vlmeta_update(sc, "nope", (uint8_t *)"x", 1, NULL), BLOSC2_ERROR_NOT_FOUND,
           "%s update absent", k);
  CHECK_EQ(blosc2_vlmeta_get(sc, "small", &c, &len), 0, "%s get small", k);
  CHECK(len == 5 && c && memcmp(c, "hello", 5) == 0, "%s small content", k);
  free(c);
  /* vlmetas may change at any time, also after chunks */
  fc_fill_i32(g_data, 1000, 0, 2);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "%s append", k);
  CHECK_EQ(blosc2_vlmeta_update(sc, "small", (uint8_t *)"updated", 7, NULL), 0,
           "%s update small (grows)", k);
  CHECK_EQ(blosc2_vlmeta_add(sc, "late", (uint8_t *)"late", 4, NULL), 3, "%s add late", k);
  CHECK_EQ(blosc2_vlmeta_delete(sc, "gone"), 3, "%s delete returns the remaining count", k);
  CHECK_EQ(blosc2_vlmeta_delete(sc, "gone"), BLOSC2_ERROR_NOT_FOUND, "%s delete again", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 2, "%s append 2", k);
  CHECK(fc_chunk_matches(sc, 0, g_data, 1000) && fc_chunk_matches(sc, 1, g_data, 1000),
        "%s chunks next to a changing trailer", k);
  snprintf(what, sizeof what, "%s live", k);
  check_vlmetas(sc, what);

  uint8_t *cf = NULL;
  bool nf = false;
  int64_t flen = blosc2_schunk_to_buffer(sc, &cf, &nf);
  blosc2_schunk *fb = flen > 0 ? blosc2_schunk_from_buffer(cf, flen, true) : NULL;
  snprintf(what, sizeof what, "%s from_buffer", k);
  check_vlmetas(fb, what);
  if (fb) blosc2_schunk_free(fb);
  if (nf) free(cf);
  for (int dst = 0; dst < FC_NKINDS; dst++) {
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.contiguous = fc_kind_contiguous(dst);
    st.urlpath = fc_kind_on_disk(dst) ? fc_path("vlcopy.b2") : NULL;
    blosc2_remove_urlpath(st.urlpath);
    blosc2_schunk *cp = blosc2_schunk_copy(sc, &st);
    snprintf(what, sizeof what, "%s copy to %s", k, fc_kind_names[dst]);
    check_vlmetas(cp, what);
    if (cp) blosc2_schunk_free(cp);
  }
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("vlmeta.b2"));
    snprintf(what, sizeof what, "%s reopened", k);
    check_vlmetas(sc, what);
    if (sc) {
      CHECK(fc_chunk_matches(sc, 1, g_data, 1000), "%s reopened chunk", k);
      /* modify the reopened frame's vlmetas and reopen again */
      CHECK_EQ(blosc2_vlmeta_delete(sc, "late"), 2, "%s delete reopened", k);
      CHECK_EQ(blosc2_vlmeta_update(sc, "big", (uint8_t *)"tiny", 4, NULL), 1,
               "%s shrink big", k);
      blosc2_schunk_free(sc);
    }
    sc = blosc2_schunk_open(fc_path("vlmeta.b2"));
    REQUIRE(sc != NULL, "%s reopen 2", k);
    CHECK_EQ(sc->nvlmetalayers, 2, "%s reopened twice: count", k);
    CHECK_EQ(blosc2_vlmeta_exists(sc, "late"), BLOSC2_ERROR_NOT_FOUND, "%s late gone", k);
    c = NULL;
    CHECK(blosc2_vlmeta_get(sc, "big", &c, &len) >= 0 && len == 4 && c && memcmp(c, "tiny", 4) == 0,
          "%s shrunk big", k);
    free(c);
    CHECK(fc_chunk_matches(sc, 1, g_data, 1000), "%s chunk after vlmeta shrink", k);
    blosc2_schunk_free(sc);
  }
}

/* How many vlmetalayers fit: frames of the reference stop at 16 (the 17th add fails). */
static void vlmeta_count(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_schunk *sc = fc_new_schunk(kind, "vlcount.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  int limit = kind == FC_SPARSE_MEM ? 300 : 16;
  char name[16];
  uint8_t buf[64];
  for (int i = 0; i < limit; i++) {
    snprintf(name, sizeof name, "vl%03d", i);
    meta_content(buf, i, i % 60 + 1);
    CHECK_EQ(blosc2_vlmeta_add(sc, name, buf, i % 60 + 1, NULL), i, "%s vlmeta_add %d", k, i);
  }
  int extra = blosc2_vlmeta_add(sc, "extra", buf, 3, NULL);
  if (kind == FC_SPARSE_MEM) {
    CHECK_EQ(extra, limit, "%s vlmeta_add beyond 300", k);
  } else {
#ifdef BLOSC2_VARIANT_REFERENCE
    CHECK_EQ(extra, -1, "%s 17th vlmeta_add in a frame", k);
#endif
    CHECK((extra < 0 && sc->nvlmetalayers == 16) || (extra == 16 && sc->nvlmetalayers == 17),
          "%s 17th vlmeta_add -> %d, count %d", k, extra, sc->nvlmetalayers);
  }
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("vlcount.b2"));
    REQUIRE(sc != NULL, "%s reopen", k);
    CHECK(sc->nvlmetalayers == 16 || (extra == 16 && sc->nvlmetalayers == 17),
          "%s reopened vlmeta count %d", k, sc->nvlmetalayers);
    uint8_t *c = NULL;
    int32_t len = 0;
    CHECK_EQ(blosc2_vlmeta_get(sc, "vl012", &c, &len), 12, "%s reopened vl012", k);
    meta_content(buf, 12, 13);
    CHECK(len == 13 && c && memcmp(c, buf, 13) == 0, "%s reopened vl012 content", k);
    free(c);
    blosc2_schunk_free(sc);
  }
}

int main(void) {
  blosc2_init();
  fc_make_tmp("meta");
  for (int kind = 0; kind < FC_NKINDS; kind++) {
    metas(kind);
    vlmetas(kind);
    vlmeta_count(kind);
  }
  blosc2_destroy();
  return fc_finish("frames_meta");
}
