/*
 * blosc2_schunk.current_nchunk of an array's super-chunk after each b2nd operation: the
 * last chunk the operation read, wrote, inserted or deleted, as the reference leaves it.
 * A 1-D array of 100 int32 items in chunks of 30 (4 chunks), built from a buffer each time.
 * Also which deletions the reference takes: a range ending the axis, or whole chunks (then
 * even past the end, shortening the axis by the length asked); an empty range anywhere.
 * usage: b2nd_current
 */
#include "b2_common.h"

static b2nd_array_t *make(void) {
  static int32_t src[100];
  for (int i = 0; i < 100; i++) src[i] = i * 3;
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 1;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.dparams = &dp;
  int64_t shape[1] = {100};
  int32_t cs[1] = {30}, bs[1] = {10};
  b2nd_context_t *ctx = b2nd_create_ctx(&st, 1, shape, cs, bs, NULL, 0, NULL, 0);
  b2nd_array_t *a = NULL;
  if (ctx == NULL || b2nd_from_cbuffer(ctx, &a, src, sizeof src) != 0) a = NULL;
  b2nd_free_ctx(ctx);
  return a;
}

int main(void) {
  blosc2_init();
  int32_t buf[100];
  b2nd_array_t *a = make();
  REQUIRE(a != NULL, "from_cbuffer");
  CHECK_EQ(a->sc->current_nchunk, 3, "from_cbuffer: last chunk written");
  CHECK_EQ(b2nd_to_cbuffer(a, buf, sizeof buf), 0, "to_cbuffer");
  CHECK_EQ(a->sc->current_nchunk, 3, "to_cbuffer");
  int64_t start[1] = {35}, stop[1] = {40}, bshape[1] = {5};
  CHECK_EQ(b2nd_get_slice_cbuffer(a, start, stop, buf, bshape, 20), 0, "get_slice");
  CHECK_EQ(a->sc->current_nchunk, 1, "get_slice in chunk 1");
  start[0] = 5, stop[0] = 70, bshape[0] = 65;
  CHECK_EQ(b2nd_set_slice_cbuffer(buf, bshape, 260, start, stop, a), 0, "set_slice");
  CHECK_EQ(a->sc->current_nchunk, 2, "set_slice over chunks 0-2");
  int64_t three[3] = {3, 50, 99}, *sel[1] = {three}, sshape[1] = {3};
  CHECK_EQ(b2nd_get_orthogonal_selection(a, sel, sshape, buf, sshape, 12), 0, "orthogonal");
  CHECK_EQ(a->sc->current_nchunk, 3, "orthogonal selection ends in chunk 3");
  CHECK_EQ(b2nd_insert(a, buf, 120, 0, 30), 0, "insert");
  CHECK_EQ(a->sc->current_nchunk, 1, "insert of chunk 1");
  CHECK_EQ(b2nd_delete(a, 0, 30, 30), 0, "delete");
  CHECK_EQ(a->sc->current_nchunk, 1, "delete of chunk 1");
  CHECK_EQ(b2nd_append(a, buf, 40, 0), 0, "append");
  CHECK_EQ(a->sc->current_nchunk, 3, "append into chunk 3");
  b2nd_free(a);
  a = make();
  REQUIRE(a != NULL, "from_cbuffer");
  int64_t big[1] = {130}, small[1] = {50};
  CHECK_EQ(b2nd_resize(a, big, NULL), 0, "resize up");
  CHECK_EQ(a->sc->current_nchunk, 4, "resize up adds chunk 4");
  b2nd_free(a);
  a = make();
  REQUIRE(a != NULL, "from_cbuffer");
  CHECK_EQ(b2nd_resize(a, small, NULL), 0, "resize down");
  CHECK_EQ(a->sc->current_nchunk, 2, "resize down");
  b2nd_free(a);
  static const struct {
    int64_t start, len;
    int rc;
    int64_t shape;
  } dels[] = {{90, 20, -12, 100}, {99, 2, -12, 100}, {10, 10, -12, 100}, {50, 0, 0, 100},
              {99, 0, 0, 100},    {101, 0, -12, 100}, {95, 5, 0, 95},     {90, 30, 0, 70},
              {30, 90, 0, 10},    {0, 101, -12, 100}};
  for (size_t i = 0; i < sizeof dels / sizeof dels[0]; i++) {
    a = make();
    REQUIRE(a != NULL, "from_cbuffer");
    CHECK_EQ(b2nd_delete(a, 0, dels[i].start, dels[i].len), dels[i].rc, "delete %lld+%lld",
             (long long)dels[i].start, (long long)dels[i].len);
    CHECK_EQ(a->shape[0], dels[i].shape, "delete %lld+%lld: shape", (long long)dels[i].start,
             (long long)dels[i].len);
    b2nd_free(a);
  }
  blosc2_destroy();
  return tc_finish("b2nd_current");
}
