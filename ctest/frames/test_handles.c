/*
 * Several handles on one frame (issue 10, point 6), in one process, with and without
 * blosc2_schunk_lock: a vlmetalayer added, updated and deleted through handle A is seen by
 * handle B's vlmeta_exists/get/get_names; chunks A deletes and writes back (identical
 * content, so the index may come back byte for byte) are read by B. Contiguous files and
 * sparse directories. Ours also sees an update that keeps the vlmetalayer's length (the
 * reference keeps the old content there) and a reorder.
 * usage: frames_handles
 */
#include "fc_common.h"

#define ITEMS 1000
static int32_t g_buf[ITEMS], g_out[ITEMS];

static void lock(blosc2_schunk *sc, int on) {
  if (on) CHECK_EQ(blosc2_schunk_lock(sc), 0, "lock");
}
static void unlock(blosc2_schunk *sc, int on) {
  if (on) CHECK_EQ(blosc2_schunk_unlock(sc), 0, "unlock");
}

static void check_value(blosc2_schunk *b, const char *want, const char *ctx) {
  uint8_t *c = NULL;
  int32_t len = 0;
  int rc = blosc2_vlmeta_get(b, "x", &c, &len);
  CHECK(rc >= 0, "%s: B vlmeta_get = %d", ctx, rc);
  if (rc >= 0) {
    CHECK(len == (int32_t)strlen(want) && memcmp(c, want, (size_t)len) == 0,
          "%s: B reads '%.*s', A wrote '%s'", ctx, (int)len, (char *)c, want);
    free(c);
  }
}

static void check_chunk(blosc2_schunk *b, int n, int tag, const char *ctx) {
  uint8_t *c = NULL;
  bool nf = false;
  int rc = blosc2_schunk_get_chunk(b, n, &c, &nf);
  CHECK(rc > 0, "%s: B get_chunk(%d) = %d", ctx, n, rc);
  if (rc > 0 && nf) free(c);
  fc_fill_i32(g_buf, ITEMS, 0, tag);
  CHECK_EQ(blosc2_schunk_decompress_chunk(b, n, g_out, ITEMS * 4), ITEMS * 4,
           "%s: B decompress_chunk(%d)", ctx, n);
  CHECK(memcmp(g_out, g_buf, ITEMS * 4) == 0, "%s: B chunk %d content", ctx, n);
}

static void run(int kind, int locking) {
  char ctx[96];
  snprintf(ctx, sizeof ctx, "%s%s", fc_kind_names[kind], locking ? " locked" : "");
  blosc2_schunk *a = fc_new_schunk(kind, "shared.b2", NULL);
  REQUIRE(a != NULL, "%s: new", ctx);
  for (int i = 0; i < 3; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(a, g_buf, ITEMS * 4), i + 1, "%s: append", ctx);
  }
  blosc2_schunk *b = blosc2_schunk_open(fc_path("shared.b2"));
  REQUIRE(b != NULL, "%s: second handle", ctx);

  lock(a, locking);
  CHECK_EQ(blosc2_vlmeta_add(a, "x", (uint8_t *)"first", 5, NULL), 0, "%s: A add", ctx);
  unlock(a, locking);
  lock(b, locking);
  CHECK(blosc2_vlmeta_exists(b, "x") >= 0, "%s: B sees the added vlmetalayer", ctx);
  char *names[8] = {0};
  CHECK_EQ(blosc2_vlmeta_get_names(b, names), 1, "%s: B get_names", ctx);
  CHECK(names[0] && strcmp(names[0], "x") == 0, "%s: B names[0]", ctx);
  check_value(b, "first", ctx);
  unlock(b, locking);

  lock(a, locking);
  CHECK_EQ(blosc2_vlmeta_update(a, "x", (uint8_t *)"second, longer", 14, NULL), 0,
           "%s: A update", ctx);
  unlock(a, locking);
  lock(b, locking);
  check_value(b, "second, longer", ctx);
  unlock(b, locking);

#ifdef BLOSC2_VARIANT_OURS
  lock(a, locking);
  CHECK_EQ(blosc2_vlmeta_update(a, "x", (uint8_t *)"SECOND, LONGER", 14, NULL), 0,
           "%s: A update, same length", ctx);
  unlock(a, locking);
  lock(b, locking);
  check_value(b, "SECOND, LONGER", ctx);
  unlock(b, locking);
#endif

  lock(a, locking);
  CHECK(blosc2_vlmeta_delete(a, "x") >= 0, "%s: A delete", ctx);
  unlock(a, locking);
  lock(b, locking);
  CHECK(blosc2_vlmeta_exists(b, "x") < 0, "%s: B sees the vlmetalayer deleted", ctx);
  CHECK_EQ(blosc2_vlmeta_get_names(b, names), 0, "%s: B get_names after delete", ctx);
  unlock(b, locking);

  /* A deletes the last chunk and appends an identical one: the index comes back equal. */
  lock(a, locking);
  CHECK_EQ(blosc2_schunk_delete_chunk(a, 2), 2, "%s: A delete_chunk", ctx);
  fc_fill_i32(g_buf, ITEMS, 0, 2);
  CHECK_EQ(blosc2_schunk_append_buffer(a, g_buf, ITEMS * 4), 3, "%s: A append it back", ctx);
  unlock(a, locking);
  lock(b, locking);
  check_chunk(b, 2, 2, ctx);
  unlock(b, locking);

#ifdef BLOSC2_VARIANT_OURS
  lock(a, locking);
  int64_t order[3] = {2, 1, 0};
  CHECK_EQ(blosc2_schunk_reorder_offsets(a, order), 0, "%s: A reorder", ctx);
  unlock(a, locking);
  lock(b, locking);
  check_chunk(b, 0, 2, ctx);
  check_chunk(b, 2, 0, ctx);
  unlock(b, locking);
#endif
  blosc2_schunk_free(b);
  blosc2_schunk_free(a);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("handles");
  for (int locking = 0; locking < 2; locking++) {
    run(FC_CFRAME_FILE, locking);
    run(FC_SFRAME_DIR, locking);
  }
  blosc2_destroy();
  return fc_finish("frames_handles");
}
