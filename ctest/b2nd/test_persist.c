/*
 * b2nd persistence: to_cframe / from_cframe (copy and no copy), save / open (contiguous files
 * and sparse directories, plain paths and file:/// urlpaths), open_offset / save_append,
 * from_schunk (incl. the legacy "caterva" metalayer), refresh after another handle changed
 * the array on disk, set_slice from several processes under blosc2_schunk_lock. Every array read back is compared with the C model.
 */
#include "b2_common.h"

static const b2_geom geoms[] = {
    {2, {37, 21}, {10, 8}, {4, 3}},
    {3, {9, 10, 11}, {4, 4, 4}, {2, 2, 3}},
    {1, {1000}, {128}, {32}},
    {0, {0}, {0}, {0}},
};
#define NGEOMS 4

static void test_cframe(void) {
  for (int gi = 0; gi < NGEOMS; gi++) {
    const b2_geom *g = &geoms[gi];
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      char w[96];
      snprintf(w, sizeof w, "cframe geom %d %s", gi, b2_kind_names[kind]);
      b2_model m = b2_model_new(g->ndim, g->shape, 8, (uint32_t)(gi + 10 * kind + 1));
      b2nd_array_t *a = b2_from_model(&m, g, kind, "cf.b2nd");
      CHECK(a != NULL, "%s: from_cbuffer", w);
      if (!a) {
        b2_model_free(&m);
        continue;
      }
      uint8_t *cframe = NULL;
      int64_t len = 0;
      bool needs_free = false;
      CHECK_EQ(b2nd_to_cframe(a, &cframe, &len, &needs_free), 0, "%s to_cframe", w);
      /* an in-memory contiguous array hands out its own frame */
      CHECK_EQ(needs_free, kind != B2_MEM_CFRAME, "%s needs_free", w);
      CHECK(cframe != NULL && len > 0, "%s: empty cframe", w);
      if (cframe && len > 0) {
        for (int copy = 0; copy < 2; copy++) {
          uint8_t *mine = (uint8_t *)b2_malloc((size_t)len);
          memcpy(mine, cframe, (size_t)len);
          b2nd_array_t *b = NULL;
          CHECK_EQ(b2nd_from_cframe(mine, len, copy, &b), 0, "%s from_cframe copy=%d", w, copy);
          if (b) {
            b2_matches(b, &m, w);
            for (int d = 0; d < g->ndim; d++) {
              CHECK_EQ(b->chunkshape[d], g->chunk[d], "%s chunkshape", w);
              CHECK_EQ(b->blockshape[d], g->block[d], "%s blockshape", w);
            }
            CHECK_EQ(b->sc->storage->contiguous, !copy, "%s from_cframe contiguous copy=%d", w, copy);
            b2nd_free(b);
          }
          free(mine);
        }
      }
      if (needs_free) free(cframe);
      b2nd_free(a);
      b2_model_free(&m);
    }
  }
}

/* Save to files and directories, then open (plain and file:/// paths). */
static void test_save_open(void) {
  for (int gi = 0; gi < NGEOMS; gi++) {
    const b2_geom *g = &geoms[gi];
    for (int kind = 0; kind < B2_NKINDS; kind++) {
      char w[96];
      snprintf(w, sizeof w, "save geom %d %s", gi, b2_kind_names[kind]);
      b2_model m = b2_model_new(g->ndim, g->shape, 4, (uint32_t)(gi * 3 + kind + 100));
      b2nd_array_t *a = b2_from_model(&m, g, kind, "orig.b2nd");
      CHECK(a != NULL, "%s: from_cbuffer", w);
      if (!a) {
        b2_model_free(&m);
        continue;
      }
      char *path = b2_path("saved.b2nd");
      blosc2_remove_urlpath(path);
      CHECK_EQ(b2nd_save(a, path), 0, "%s save", w);
      int contiguous = a->sc->storage->contiguous;
      struct stat st;
      CHECK(stat(path, &st) == 0 && (contiguous ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode)),
            "%s: saved path is not a %s", w, contiguous ? "file" : "directory");
      /* save onto an existing path */
      int rc = b2nd_save(a, path);
      CHECK_EQ(rc, -1, "%s save onto an existing path", w);
      for (int url = 0; url < 2; url++) {
        char upath[1024];
        snprintf(upath, sizeof upath, url ? "file:///%s" : "%s", path);
        b2nd_array_t *b = NULL;
        CHECK_EQ(b2nd_open(upath, &b), 0, "%s open (file:/// prefix: %d)", w, url);
        if (!b) continue;
        b2_matches(b, &m, w);
        CHECK_EQ(b->sc->storage->contiguous, contiguous, "%s reopened contiguous", w);
        CHECK(b->dtype && a->dtype && strcmp(b->dtype, a->dtype) == 0, "%s dtype", w);
        b2nd_free(b);
      }
      /* changes made through an opened handle persist */
      if (g->ndim > 0) {
        b2nd_array_t *b = NULL;
        CHECK_EQ(b2nd_open(path, &b), 0, "%s open for writing", w);
        if (b) {
          int64_t start[B2_MAXD], stop[B2_MAXD], bs[B2_MAXD];
          for (int d = 0; d < g->ndim; d++) {
            start[d] = g->shape[d] / 3;
            stop[d] = g->shape[d] - g->shape[d] / 4;
            bs[d] = stop[d] - start[d];
          }
          int64_t n = b2_prod(bs, g->ndim);
          uint8_t *buf = (uint8_t *)b2_malloc((size_t)n * 4);
          b2_fill_pattern(buf, n, 4, 999);
          CHECK_EQ(b2nd_set_slice_cbuffer(buf, bs, n * 4, start, stop, b), 0, "%s set_slice", w);
          b2_model_set(&m, start, stop, buf);
          free(buf);
          b2nd_free(b);
          b = NULL;
          CHECK_EQ(b2nd_open(path, &b), 0, "%s reopen", w);
          if (b) {
            b2_matches(b, &m, "changed and reopened");
            b2nd_free(b);
          }
        }
      }
      blosc2_remove_urlpath(path);
      b2nd_free(a);
      b2_model_free(&m);
    }
  }
  b2nd_array_t *x = NULL;
  CHECK_EQ(b2nd_open(b2_path("does-not-exist.b2nd"), &x), -32, "open of a missing file");
}

/* save_append after foreign bytes, then open_offset. */
static void test_append_offset(void) {
  char *path = b2_path("appended.bin");
  static const char head[] = "some bytes before the arrays ...";
  CHECK_EQ(b2_write_file(path, head, sizeof head), 0, "write head");
  b2_model ms[3];
  int64_t offs[3];
  for (int i = 0; i < 3; i++) {
    const b2_geom *g = &geoms[i];
    ms[i] = b2_model_new(g->ndim, g->shape, 2, (uint32_t)(500 + i));
    b2nd_array_t *a = b2_from_model(&ms[i], g, i == 1 ? B2_MEM_SPARSE : B2_MEM_CFRAME, NULL);
    CHECK(a != NULL, "append %d: from_cbuffer", i);
    offs[i] = -1;
    if (!a) continue;
    int64_t before = b2_file_size(path);
    offs[i] = b2nd_save_append(a, path);
    CHECK_EQ(offs[i], before, "append %d offset", i);
    b2nd_free(a);
  }
  for (int i = 0; i < 3; i++) {
    if (offs[i] < 0) continue;
    b2nd_array_t *b = NULL;
    CHECK_EQ(b2nd_open_offset(path, &b, offs[i]), 0, "open_offset %d", i);
    if (b) {
      b2_matches(b, &ms[i], "open_offset");
      b2nd_free(b);
    }
  }
  b2nd_array_t *b = NULL;
  int rc = b2nd_open_offset(path, &b, 3);
  CHECK(rc < 0, "open_offset at a wrong offset returned %d", rc);
  for (int i = 0; i < 3; i++) b2_model_free(&ms[i]);
}

/* from_schunk: b2nd and legacy caterva metalayers, and a schunk without either. */
static void test_from_schunk(void) {
  const b2_geom *g = &geoms[0];
  b2_model m = b2_model_new(g->ndim, g->shape, 8, 4242);
  b2nd_array_t *a = b2_from_model(&m, g, B2_MEM_SPARSE, NULL);
  REQUIRE(a != NULL, "from_schunk: source");
  for (int legacy = 0; legacy < 3; legacy++) {
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.typesize = 8;
    cp.blocksize = a->blocknitems * 8;
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.cparams = &cp;
    st.contiguous = legacy == 1;
    blosc2_schunk *sc = blosc2_schunk_new(&st);
    REQUIRE(sc != NULL, "schunk_new");
    if (legacy < 2) {
      uint8_t *smeta = NULL;
      int len = b2nd_serialize_meta(g->ndim, g->shape, g->chunk, g->block, "<f8", 0, &smeta);
      CHECK(len > 0, "serialize_meta %d", len);
      CHECK(blosc2_meta_add(sc, legacy ? "caterva" : "b2nd", smeta, len) >= 0, "meta_add");
      free(smeta);
    }
    for (int64_t n = 0; n < a->sc->nchunks; n++) {
      uint8_t *chunk = NULL;
      bool nf = false;
      int cb = blosc2_schunk_get_chunk(a->sc, n, &chunk, &nf);
      CHECK(cb > 0, "get_chunk %lld", (long long)n);
      if (cb > 0) CHECK_EQ(blosc2_schunk_append_chunk(sc, chunk, true), n + 1, "append_chunk");
      if (nf) free(chunk);
    }
    b2nd_array_t *b = NULL;
    int rc = b2nd_from_schunk(sc, &b);
    if (legacy == 2) {
      CHECK_EQ(rc, -34, "from_schunk without a metalayer");
      blosc2_schunk_free(sc);
      continue;
    }
    CHECK_EQ(rc, 0, "from_schunk %s", legacy ? "caterva" : "b2nd");
    if (b) {
      b2_matches(b, &m, legacy ? "caterva from_schunk" : "b2nd from_schunk");
      CHECK(b->dtype && strcmp(b->dtype, "<f8") == 0, "from_schunk dtype %s", b->dtype ? b->dtype : "(null)");
      b2nd_free(b); /* frees the schunk as well */
    } else {
      blosc2_schunk_free(sc);
    }
  }
  b2nd_free(a);
  b2_model_free(&m);
}

/* refresh: a second handle sees what the first one did on disk. */
static void test_refresh(void) {
  for (int kind = B2_FILE_CFRAME; kind <= B2_DIR_SFRAME; kind++) {
    char w[64];
    snprintf(w, sizeof w, "refresh %s", b2_kind_names[kind]);
    b2_geom g = {2, {8, 6}, {4, 3}, {2, 3}};
    b2_model m = b2_model_new(2, g.shape, 4, 31);
    b2nd_array_t *writer = b2_from_model(&m, &g, kind, "shared.b2nd");
    REQUIRE(writer != NULL, "%s writer", w);
    b2nd_array_t *reader = NULL;
    CHECK_EQ(b2nd_open(b2_path("shared.b2nd"), &reader), 0, "%s open reader", w);
    if (!reader) {
      b2nd_free(writer);
      b2_model_free(&m);
      return;
    }
    CHECK_EQ(b2nd_refresh(reader), 0, "%s refresh of a current handle", w);
    /* the writer appends 4 rows */
    uint8_t rows[4 * 6 * 4];
    b2_fill_pattern(rows, 24, 4, 77);
    CHECK_EQ(b2nd_append(writer, rows, sizeof rows, 0), 0, "%s append", w);
    int64_t ns[2] = {12, 6}, at[2] = {8, 0}, sh[2] = {4, 0};
    b2_model_reshape(&m, ns, at, sh, NULL);
    int64_t s0[2] = {8, 0}, s1[2] = {12, 6};
    b2_model_set(&m, s0, s1, rows);
    b2_matches(writer, &m, "writer after append");
    int rc = b2nd_refresh(reader);
    CHECK_EQ(rc, 1, "%s refresh after the append", w);
    CHECK_EQ(reader->shape[0], 12, "%s reader shape after refresh", w);
    CHECK_EQ(reader->nitems, 72, "%s reader nitems after refresh", w);
    b2_matches(reader, &m, "reader after refresh");
    CHECK_EQ(b2nd_refresh(reader), 0, "%s second refresh", w);
    b2nd_free(reader);
    b2nd_free(writer);
    b2_model_free(&m);
  }
  b2_geom g = {1, {10}, {5}, {5}};
  b2_model m = b2_model_new(1, g.shape, 4, 3);
  b2nd_array_t *a = b2_from_model(&m, &g, B2_MEM_CFRAME, NULL);
  if (a) {
    CHECK_EQ(b2nd_refresh(a), 0, "refresh of an in-memory array");
    b2nd_free(a);
  }
  b2_model_free(&m);
}

/*
 * Several processes set slices of one file array under blosc2_schunk_lock (locking on with
 * BLOSC_LOCKING): process p writes column p of every row, so all of them rewrite the same
 * chunks; no update may be lost.
 */
static void test_locked_writers(void) {
  for (int kind = B2_FILE_CFRAME; kind <= B2_DIR_SFRAME; kind++) {
    char w[64];
    snprintf(w, sizeof w, "locked writers %s", b2_kind_names[kind]);
    b2_geom g = {2, {24, 8}, {8, 8}, {4, 4}};
    b2_model m = b2_model_new(2, g.shape, 4, 0);
    b2nd_array_t *a = b2_from_model(&m, &g, kind, "locked.b2nd");
    REQUIRE(a != NULL, "%s: array", w);
    b2nd_free(a);
    char path[700];
    snprintf(path, sizeof path, "%s", b2_path("locked.b2nd"));
    enum { NPROC = 4 };
    pid_t pids[NPROC];
    fflush(stdout);
    fflush(stderr);
    for (int p = 0; p < NPROC; p++) {
      pids[p] = fork();
      if (pids[p] == 0) {
        setenv("BLOSC_LOCKING", "1", 1);
        blosc2_init();
        b2nd_array_t *b = NULL;
        if (b2nd_open(path, &b) != 0) _exit(10);
        for (int64_t r = 0; r < 24; r++) {
          int64_t start[2] = {r, p}, stop[2] = {r + 1, p + 1}, bs[2] = {1, 1};
          int32_t v = (int32_t)(1000 * (p + 1) + r);
          if (blosc2_schunk_lock(b->sc) != 0) _exit(11);
          int rc = b2nd_set_slice_cbuffer(&v, bs, 4, start, stop, b);
          if (blosc2_schunk_unlock(b->sc) != 0 || rc != 0) _exit(12);
        }
        b2nd_free(b);
        _exit(0);
      }
    }
    for (int p = 0; p < NPROC; p++) {
      int status = 0;
      waitpid(pids[p], &status, 0);
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: writer %d ended with status %x", w, p, status);
    }
    for (int p = 0; p < NPROC; p++)
      for (int64_t r = 0; r < 24; r++) ((int32_t *)m.data)[r * 8 + p] = (int32_t)(1000 * (p + 1) + r);
    b2nd_array_t *b = NULL;
    CHECK_EQ(b2nd_open(path, &b), 0, "%s: open", w);
    if (b) {
      b2_matches(b, &m, w);
      b2nd_free(b);
    }
    b2_model_free(&m);
  }
}

int main(void) {
  blosc2_init();
  b2_make_tmp("persist");
  test_cframe();
  test_save_open();
  test_append_offset();
  test_from_schunk();
  test_refresh();
  test_locked_writers();
  blosc2_destroy();
  return b2_finish("b2nd_persist");
}
