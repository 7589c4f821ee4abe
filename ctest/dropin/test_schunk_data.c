/*
 * Issue 10, point 1: `schunk->data` / `schunk->data_len` of an in-memory super-chunk
 * without a frame (contiguous=false, no urlpath). Programs walk `schunk->data[i]` and read
 * the chunk bytes; the array and its byte length (grown a 4 KiB page at a time) must follow
 * every operation that changes the chunks. Each case runs in a child process, so a walk
 * over a NULL array is a failed case, not a crash of the suite.
 */
#include "dropin_common.h"

#define NITEMS 1000
#define PAGE 4096

static blosc2_schunk *new_sparse(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = false;
  return blosc2_schunk_new(&st);
}

static void fill(int32_t *buf, int seed) {
  for (int i = 0; i < NITEMS; i++) buf[i] = seed * 7919 + i;
}

static void append(blosc2_schunk *s, int seed) {
  int32_t buf[NITEMS];
  fill(buf, seed);
  int64_t n = s->nchunks;
  CHECK_EQ(blosc2_schunk_append_buffer(s, buf, sizeof buf), n + 1, "append seed %d", seed);
}

/* Every slot below nchunks holds the bytes get_chunk returns for that chunk. */
static void walk(blosc2_schunk *s, const char *when) {
  if (s->nchunks > 0) {
    CHECK(s->data != NULL, "%s: data is NULL with %lld chunks", when, (long long)s->nchunks);
    if (s->data == NULL) return;
  }
  for (int64_t i = 0; i < s->nchunks; i++) {
    uint8_t *slot = s->data[i];
    CHECK(slot != NULL, "%s: data[%lld] is NULL", when, (long long)i);
    if (slot == NULL) continue;
    uint8_t *chunk = NULL;
    bool needs_free = false;
    int cbytes = blosc2_schunk_get_chunk(s, i, &chunk, &needs_free);
    CHECK(cbytes > 0, "%s: get_chunk(%lld) = %d", when, (long long)i, cbytes);
    if (cbytes > 0) {
      int32_t nb = 0, cb = 0, bs = 0;
      CHECK_EQ(blosc2_cbuffer_sizes(slot, &nb, &cb, &bs), 0, "%s: sizes of data[%lld]", when,
               (long long)i);
      CHECK_EQ(cb, cbytes, "%s: cbytes of data[%lld]", when, (long long)i);
      CHECK(memcmp(slot, chunk, (size_t)cbytes) == 0, "%s: data[%lld] differs from get_chunk",
            when, (long long)i);
    }
    if (needs_free) free(chunk);
  }
}

/* The first item of chunk i, decompressed straight from data[i]. */
static int32_t first_item(blosc2_schunk *s, int64_t i) {
  int32_t out[NITEMS];
  if (s->data == NULL || s->data[i] == NULL) return -1;
  int n = blosc2_decompress(s->data[i], INT32_MAX, out, sizeof out);
  CHECK_EQ(n, (int)sizeof out, "decompress data[%lld]", (long long)i);
  return out[0];
}

/* What C programs do: sum the compressed sizes straight from the array. */
static int64_t raw_cbytes(blosc2_schunk *s) {
  int64_t total = 0;
  for (int64_t i = 0; i < s->nchunks; i++) {
    int32_t nb, cb, bs;
    blosc2_cbuffer_sizes(s->data[i], &nb, &cb, &bs);
    total += cb;
  }
  return total;
}

static void case_append_growth(void) {
  blosc2_schunk *s = new_sparse();
  CHECK(s->data == NULL, "new: data set");
  CHECK_EQ(s->data_len, 0, "new: data_len");
  append(s, 0);
  CHECK_EQ(s->data_len, PAGE, "one chunk");
  walk(s, "one chunk");
  CHECK_EQ(first_item(s, 0), 0, "first item of chunk 0");
  for (int k = 1; k < 512; k++) append(s, k);
  CHECK_EQ(s->nchunks, 512, "nchunks");
  CHECK_EQ(s->data_len, PAGE, "512 chunks fill the first page");
  append(s, 512);
  CHECK_EQ(s->data_len, 2 * PAGE, "513 chunks need a second page");
  walk(s, "513 chunks");
  CHECK_EQ(raw_cbytes(s), s->cbytes, "compressed sizes read through data[]");
  CHECK_EQ(first_item(s, 300), 300 * 7919, "first item of chunk 300");
  blosc2_schunk_free(s);
}

static void case_insert_update_delete(void) {
  blosc2_schunk *s = new_sparse();
  for (int k = 0; k < 10; k++) append(s, k);
  uint8_t *chunk = NULL;
  bool needs_free = false;
  int cbytes = blosc2_schunk_get_chunk(s, 7, &chunk, &needs_free);
  CHECK(cbytes > 0, "get_chunk 7");
  CHECK_EQ(blosc2_schunk_insert_chunk(s, 0, chunk, true), 11, "insert");
  walk(s, "after insert");
  CHECK_EQ(first_item(s, 0), 7 * 7919, "inserted chunk first");
  CHECK_EQ(first_item(s, 1), 0, "old chunk 0 moved to 1");
  CHECK_EQ(blosc2_schunk_update_chunk(s, 5, chunk, true), 11, "update");
  walk(s, "after update");
  CHECK_EQ(first_item(s, 5), 7 * 7919, "updated chunk");
  if (needs_free) free(chunk);
  CHECK_EQ(blosc2_schunk_delete_chunk(s, 0), 10, "delete first");
  CHECK_EQ(blosc2_schunk_delete_chunk(s, 9), 9, "delete last");
  walk(s, "after deletes");
  CHECK_EQ(first_item(s, 0), 0, "chunk 0 after deletes");
  CHECK_EQ(s->data_len, PAGE, "deleting keeps the page");
  while (s->nchunks > 0) blosc2_schunk_delete_chunk(s, s->nchunks - 1);
  CHECK(s->data != NULL, "all deleted: the array stays");
  CHECK_EQ(s->data_len, PAGE, "all deleted: data_len stays");
  append(s, 42);
  walk(s, "append after emptying");
  CHECK_EQ(first_item(s, 0), 42 * 7919, "chunk 0 after emptying");
  blosc2_schunk_free(s);
}

static void case_owned_chunk(void) {
  blosc2_schunk *s = new_sparse();
  int32_t buf[NITEMS];
  fill(buf, 5);
  int32_t cap = (int32_t)sizeof buf + BLOSC2_MAX_OVERHEAD;
  uint8_t *chunk = malloc((size_t)cap);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_context *cctx = blosc2_create_cctx(cp);
  int cbytes = blosc2_compress_ctx(cctx, buf, sizeof buf, chunk, cap);
  blosc2_free_ctx(cctx);
  CHECK(cbytes > 0, "compress");
  CHECK_EQ(blosc2_schunk_append_chunk(s, chunk, false), 1, "append without copy");
  walk(s, "owned chunk");
  CHECK_EQ(first_item(s, 0), 5 * 7919, "owned chunk content");
  blosc2_schunk_free(s);
}

static void case_reorder(void) {
  blosc2_schunk *s = new_sparse();
  for (int k = 0; k < 6; k++) append(s, k);
  int64_t order[6] = {5, 4, 3, 2, 1, 0};
  CHECK_EQ(blosc2_schunk_reorder_offsets(s, order), 0, "reorder");
  walk(s, "after reorder");
  for (int k = 0; k < 6; k++) CHECK_EQ(first_item(s, k), (5 - k) * 7919, "reordered %d", k);
  blosc2_schunk_free(s);
}

static void case_slice_and_special(void) {
  blosc2_schunk *s = new_sparse();
  CHECK_EQ(blosc2_schunk_fill_special(s, 4 * NITEMS, BLOSC2_SPECIAL_ZERO, NITEMS * 4), 4,
           "fill_special");
  CHECK_EQ(s->data_len, PAGE, "fill_special grows the array");
  walk(s, "after fill_special");
  int32_t vals[NITEMS];
  fill(vals, 9);
  CHECK_EQ(blosc2_schunk_set_slice_buffer(s, NITEMS, 2 * NITEMS, vals), 0, "set_slice_buffer");
  walk(s, "after set_slice_buffer");
  CHECK_EQ(first_item(s, 1), 9 * 7919, "slice written into chunk 1");
  blosc2_schunk_free(s);
}

static void case_copies(void) {
  blosc2_schunk *s = new_sparse();
  for (int k = 0; k < 20; k++) append(s, k);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = false;
  blosc2_schunk *c = blosc2_schunk_copy(s, &st);
  CHECK(c != NULL, "copy");
  if (c != NULL) {
    CHECK_EQ(c->data_len, PAGE, "copy data_len");
    walk(c, "copy");
    CHECK_EQ(first_item(c, 19), 19 * 7919, "copy content");
    blosc2_schunk_free(c);
  }
  uint8_t *cframe = NULL;
  bool needs_free = false;
  int64_t len = blosc2_schunk_to_buffer(s, &cframe, &needs_free);
  CHECK(len > 0, "to_buffer");
  blosc2_schunk *fc = blosc2_schunk_from_buffer(cframe, len, true);
  CHECK(fc != NULL, "from_buffer copy");
  if (fc != NULL) {
    CHECK_EQ(fc->data_len, 0, "from_buffer copy: data_len as the reference leaves it");
    walk(fc, "from_buffer copy");
    CHECK_EQ(first_item(fc, 3), 3 * 7919, "from_buffer copy content");
    append(fc, 77);
    CHECK_EQ(fc->data_len, PAGE, "from_buffer copy: first append");
    walk(fc, "from_buffer copy + append");
    blosc2_schunk_free(fc);
  }
  if (needs_free) free(cframe);
  blosc2_schunk_free(s);
}

static void case_frames_have_no_array(void) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = true;
  blosc2_schunk *s = blosc2_schunk_new(&st);
  append(s, 1);
  CHECK(s->data == NULL, "contiguous in memory: data set");
  CHECK_EQ(s->data_len, 0, "contiguous in memory: data_len");
  uint8_t *cframe = NULL;
  bool needs_free = false;
  int64_t len = blosc2_schunk_to_buffer(s, &cframe, &needs_free);
  uint8_t *own = malloc((size_t)len);
  memcpy(own, cframe, (size_t)len);
  blosc2_schunk *w = blosc2_schunk_from_buffer(own, len, false);
  CHECK(w != NULL && w->data == NULL && w->data_len == 0, "from_buffer without copy: no array");
  if (w != NULL) {
    blosc2_schunk_avoid_cframe_free(w, false);
    blosc2_schunk_free(w);
  } else {
    free(own);
  }
  blosc2_schunk_free(s);
}

int main(void) {
  di_enter_scratch("dropin_schunk_data");
  di_run("append and data_len growth", case_append_growth);
  di_run("insert, update, delete", case_insert_update_delete);
  di_run("append_chunk without copy", case_owned_chunk);
  di_run("reorder", case_reorder);
  di_run("fill_special and set_slice_buffer", case_slice_and_special);
  di_run("copy and from_buffer", case_copies);
  di_run("frames have no array", case_frames_have_no_array);
  return di_finish("dropin_schunk_data");
}
