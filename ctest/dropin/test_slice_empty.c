/*
 * Issue 10, point 7: blosc2_get_slice_nchunks on a super-chunk with no chunks and no
 * "b2nd" metalayer touches no chunk: it returns 0 and sets *chunks_idx to NULL, whatever
 * the slice bounds, for every storage kind.
 */
#include "dropin_common.h"

static blosc2_schunk *make(bool contiguous, const char *urlpath) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = contiguous;
  st.urlpath = (char *)urlpath;
  blosc2_remove_urlpath(urlpath);
  return blosc2_schunk_new(&st);
}

static void check_empty(blosc2_schunk *s, const char *what) {
  static const int64_t bounds[][2] = {{0, 0}, {0, 10}, {5, 3}, {-1, 4}, {0, 1000000}};
  for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
    int64_t start = bounds[i][0], stop = bounds[i][1];
    int64_t *idx = (int64_t *)&start;  /* any non-NULL value: it must be overwritten */
    int64_t n = blosc2_get_slice_nchunks(s, &start, &stop, &idx);
    CHECK_EQ(n, 0, "%s [%lld, %lld)", what, (long long)bounds[i][0], (long long)bounds[i][1]);
    CHECK(idx == NULL, "%s [%lld, %lld): chunks_idx not NULL", what, (long long)bounds[i][0],
          (long long)bounds[i][1]);
  }
}

static void case_kinds(void) {
  struct {
    bool contiguous;
    const char *urlpath;
    const char *what;
  } kinds[] = {
      {false, NULL, "sparse in memory"},
      {true, NULL, "contiguous in memory"},
      {true, "slice_empty.b2frame", "contiguous file"},
      {false, "slice_empty_dir.b2frame", "sparse directory"},
  };
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    blosc2_schunk *s = make(kinds[k].contiguous, kinds[k].urlpath);
    CHECK(s != NULL, "create %s", kinds[k].what);
    if (s == NULL) continue;
    check_empty(s, kinds[k].what);
    blosc2_schunk_free(s);
    blosc2_remove_urlpath(kinds[k].urlpath);
  }
}

static void case_emptied(void) {
  blosc2_schunk *s = make(false, NULL);
  int32_t buf[1000] = {0};
  CHECK_EQ(blosc2_schunk_append_buffer(s, buf, sizeof buf), 1, "append");
  int64_t start = 0, stop = 1000;
  int64_t *idx = NULL;
  CHECK_EQ(blosc2_get_slice_nchunks(s, &start, &stop, &idx), 1, "one chunk");
  CHECK(idx != NULL && idx[0] == 0, "index of the one chunk");
  free(idx);
  CHECK_EQ(blosc2_schunk_delete_chunk(s, 0), 0, "delete");
  check_empty(s, "emptied");
  blosc2_schunk_free(s);
}

int main(void) {
  di_enter_scratch("dropin_slice_empty");
  di_run("empty super-chunks of every kind", case_kinds);
  di_run("super-chunk emptied by deletion", case_emptied);
  return di_finish("dropin_slice_empty");
}
