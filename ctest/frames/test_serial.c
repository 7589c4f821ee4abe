/*
 * Frame serialisation and handles: to_buffer / from_buffer (copy and ownership transfer),
 * avoid_cframe_free, to_file, open, append_file + open_offset (frames inside a larger file,
 * after foreign bytes), schunk_copy between every pair of storage kinds, free, and the
 * frame lock / unlock / refresh API (opt-in advisory locking, two handles, two processes).
 */
#include "fc_common.h"

#include <blosc2/blosc2-stdio.h>
#include <signal.h>
#include <sys/wait.h>

#define CITEMS 1000
#define NCH 5

static int32_t g_buf[CITEMS];

/*
 * Chunks 0..4: data tags 0,1 | zeros | data tags 3,4, all full: a special chunk in a frame
 * whose chunksize turns variable is broken in the reference (see test_slices.c), so the
 * chunks appended later by these tests must keep the chunksize fixed.
 */
static blosc2_schunk *make_source(int kind, const char *leaf) {
  blosc2_schunk *sc = fc_new_schunk(kind, leaf, NULL);
  if (!sc) return NULL;
  blosc2_cparams cp = fc_cparams(4);
  uint8_t z[32];
  int ok = 1;
  for (int i = 0; i < NCH && ok; i++) {
    if (i == 2) {
      ok = blosc2_chunk_zeros(cp, CITEMS * 4, z, sizeof z) == 32 &&
           blosc2_schunk_append_chunk(sc, z, true) == i + 1;
      continue;
    }
    fc_fill_i32(g_buf, CITEMS, 0, i);
    ok = blosc2_schunk_append_buffer(sc, g_buf, CITEMS * 4) == i + 1;
  }
  if (!ok) {
    blosc2_schunk_free(sc);
    return NULL;
  }
  return sc;
}

/* The content make_source wrote. */
static void verify_source(blosc2_schunk *sc, const char *what) {
  REQUIRE(sc != NULL, "%s: no schunk", what);
  CHECK_EQ(sc->nchunks, NCH, "%s nchunks", what);
  CHECK_EQ(sc->nbytes, NCH * CITEMS * 4, "%s nbytes", what);
  CHECK_EQ(sc->typesize, 4, "%s typesize", what);
  CHECK_EQ(sc->chunksize, CITEMS * 4, "%s chunksize", what);
  for (int i = 0; i < NCH && i < sc->nchunks; i++) {
    if (i == 2) memset(g_buf, 0, sizeof g_buf);
    else fc_fill_i32(g_buf, CITEMS, 0, i);
    CHECK(fc_chunk_matches(sc, i, g_buf, CITEMS), "%s chunk %d", what, i);
  }
}

/* A buffer holds a well-formed cframe header whose frame_size is len. */
static void check_cframe_header(const uint8_t *b, int64_t len, const char *what) {
  REQUIRE(len >= 87, "%s: cframe of %lld bytes", what, (long long)len);
  CHECK((b[0] & 0xf0) == 0x90, "%s: fixarray marker %02x", what, b[0]);
  CHECK(b[1] == 0xa8 && memcmp(b + 2, "b2frame", 8) == 0, "%s: magic", what);
  CHECK(b[10] == 0xd2, "%s: header_size marker", what);
  CHECK(b[15] == 0xcf, "%s: frame_size marker", what);
  CHECK_EQ((int64_t)fc_rd64be(b + 16), len, "%s: frame_size field", what);
  int64_t hlen = (int64_t)fc_rd32be(b + 11);
  CHECK(hlen >= 87 && hlen < len, "%s: header_size %lld", what, (long long)hlen);
  /* trailer: ... 0xce trailer_len(uint32 BE) 0xd8 fpt fingerprint[16] at the very end */
  CHECK(b[len - 23] == 0xce, "%s: trailer_len marker %02x", what, b[len - 23]);
  uint32_t tlen = fc_rd32be(b + len - 22);
  CHECK(tlen > 23 && tlen < len - hlen, "%s: trailer_len %u", what, tlen);
  CHECK(b[len - 18] == 0xd8, "%s: fingerprint fixext16 marker", what);
}

static void buffers(int kind) {
  const char *k = fc_kind_names[kind];
  char what[160];
  blosc2_schunk *sc = make_source(kind, "src.b2");
  REQUIRE(sc != NULL, "%s make_source", k);
  uint8_t *cf = NULL;
  bool nf = true;
  int64_t len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  REQUIRE(len > 0 && cf != NULL, "%s to_buffer -> %lld", k, (long long)len);
  snprintf(what, sizeof what, "%s to_buffer", k);
  check_cframe_header(cf, len, what);
  if (kind == FC_CFRAME_MEM) {
    CHECK(!nf, "%s in-memory cframe: to_buffer hands out the live buffer", k);
    uint8_t *again = NULL;
    bool nf2 = true;
    CHECK_EQ(blosc2_schunk_to_buffer(sc, &again, &nf2), len, "%s second to_buffer", k);
    CHECK(again == cf && !nf2, "%s live buffer is stable", k);
    CHECK_EQ(blosc2_schunk_frame_len(sc), len, "%s frame_len", k);
  } else {
    CHECK(nf, "%s to_buffer returns a copy", k);
  }
  uint8_t *saved = (uint8_t *)fc_malloc((size_t)len);
  memcpy(saved, cf, (size_t)len);

  /* copy=true: an independent schunk; the source buffer is never written */
  blosc2_schunk *c1 = blosc2_schunk_from_buffer(saved, len, true);
  snprintf(what, sizeof what, "%s from_buffer(copy)", k);
  verify_source(c1, what);
  if (c1) {
    CHECK(c1->storage && !c1->storage->contiguous && c1->frame == NULL,
          "%s from_buffer(copy) gives a sparse in-memory schunk", k);
    fc_fill_i32(g_buf, CITEMS, 0, 50);
    CHECK_EQ(blosc2_schunk_append_buffer(c1, g_buf, CITEMS * 4), NCH + 1, "%s append copy", k);
    CHECK_EQ(blosc2_schunk_delete_chunk(c1, 0), NCH, "%s delete in copy", k);
    CHECK(memcmp(saved, cf, (size_t)len) == 0, "%s source buffer untouched", k);
    CHECK_EQ(blosc2_schunk_free(c1), 0, "%s free copy", k);
  }

  /* copy=false: the schunk owns the buffer and serves it back while unchanged */
  uint8_t *own = (uint8_t *)fc_malloc((size_t)len);
  memcpy(own, saved, (size_t)len);
  blosc2_schunk *c2 = blosc2_schunk_from_buffer(own, len, false);
  snprintf(what, sizeof what, "%s from_buffer(no copy)", k);
  verify_source(c2, what);
  if (c2) {
    CHECK(c2->frame != NULL && c2->storage->contiguous, "%s no-copy keeps a cframe", k);
    uint8_t *b2 = NULL;
    bool nf2 = true;
    CHECK_EQ(blosc2_schunk_to_buffer(c2, &b2, &nf2), len, "%s no-copy to_buffer", k);
    CHECK(b2 == own && !nf2, "%s no-copy to_buffer is the caller's buffer", k);
    fc_fill_i32(g_buf, CITEMS, 0, 51);
    CHECK_EQ(blosc2_schunk_append_buffer(c2, g_buf, CITEMS * 4), NCH + 1, "%s append no-copy", k);
    CHECK(fc_chunk_matches(c2, NCH, g_buf, CITEMS), "%s appended chunk", k);
    int64_t l3 = blosc2_schunk_to_buffer(c2, &b2, &nf2);
    CHECK(l3 > len && !nf2, "%s grown frame %lld", k, (long long)l3);
    blosc2_schunk *c3 = blosc2_schunk_from_buffer(b2, l3, true);
    CHECK(c3 && c3->nchunks == NCH + 1 && fc_chunk_matches(c3, NCH, g_buf, CITEMS),
          "%s grown frame reads back", k);
    if (c3) blosc2_schunk_free(c3);
    CHECK_EQ(blosc2_schunk_free(c2), 0, "%s free no-copy (frees the buffer)", k);
  }

  /* avoid_cframe_free: the caller keeps (and frees) the buffer */
  uint8_t *mine = (uint8_t *)fc_malloc((size_t)len);
  memcpy(mine, saved, (size_t)len);
  blosc2_schunk *c4 = blosc2_schunk_from_buffer(mine, len, false);
  CHECK(c4 != NULL, "%s from_buffer for avoid_cframe_free", k);
  if (c4) {
    blosc2_schunk_avoid_cframe_free(c4, true);
    CHECK_EQ(blosc2_schunk_free(c4), 0, "%s free with avoid_cframe_free", k);
    CHECK(memcmp(mine, saved, (size_t)len) == 0, "%s buffer still ours and intact", k);
  }
  free(mine); /* a double free would abort here if the schunk had released it */

  /* from_buffer refuses short buffers and foreign bytes */
  CHECK(blosc2_schunk_from_buffer(saved, 86, true) == NULL, "%s from_buffer 86 bytes", k);
  CHECK(blosc2_schunk_from_buffer(saved, 0, true) == NULL, "%s from_buffer 0 bytes", k);
  uint8_t *bad = (uint8_t *)fc_malloc((size_t)len);
  static const int magic_pos[] = {2, 3, 8, 9};
  for (unsigned i = 0; i < sizeof magic_pos / sizeof magic_pos[0]; i++) {
    memcpy(bad, saved, (size_t)len);
    bad[magic_pos[i]] ^= 0x20;
    CHECK(blosc2_schunk_from_buffer(bad, len, true) == NULL, "%s from_buffer bad magic byte %d",
          k, magic_pos[i]);
  }
  free(bad);
  free(saved);
  if (nf) free(cf);
  blosc2_schunk_free(sc);
}

static void files(int kind) {
  const char *k = fc_kind_names[kind];
  char what[160];
  blosc2_schunk *sc = make_source(kind, "fsrc.b2");
  REQUIRE(sc != NULL, "%s make_source", k);
  uint8_t *cf = NULL;
  bool nf = false;
  int64_t len = blosc2_schunk_to_buffer(sc, &cf, &nf);
  REQUIRE(len > 0, "%s to_buffer", k);

  /* to_file: a cframe file of exactly to_buffer's bytes */
  /* (onto an existing file the reference succeeds only for in-memory cframes, -23 else) */
  const char *tf = fc_path("tofile.b2");
  remove(tf);
  int64_t w = blosc2_schunk_to_file(sc, tf);
  CHECK_EQ(w, len, "%s to_file", k);
  CHECK_EQ(fc_file_size(tf), len, "%s to_file size", k);
  int64_t flen = 0;
  uint8_t *fb = fc_read_file(tf, &flen);
  CHECK(fb && flen == len && memcmp(fb, cf, (size_t)len) == 0, "%s to_file bytes = to_buffer", k);
  free(fb);
  CHECK_EQ(blosc2_schunk_to_file(sc, NULL), BLOSC2_ERROR_INVALID_PARAM, "%s to_file NULL", k);
  blosc2_schunk *o = blosc2_schunk_open(tf);
  snprintf(what, sizeof what, "%s open(to_file)", k);
  verify_source(o, what);
  if (o) {
    CHECK(o->storage->contiguous && o->frame != NULL, "%s reopened as cframe", k);
    blosc2_schunk_free(o);
  }

  /* append_file: frames one after the other, after foreign bytes */
  const char *af = fc_path("multi.bin");
  fc_write_file(af, "17 foreign bytes!", 17);
  CHECK_EQ(blosc2_schunk_append_file(sc, af), 17, "%s append_file after 17 bytes", k);
  CHECK_EQ(blosc2_schunk_append_file(sc, af), 17 + len, "%s append_file second", k);
  const char *nf_path = fc_path("new.bin");
  remove(nf_path);
  CHECK_EQ(blosc2_schunk_append_file(sc, nf_path), 0, "%s append_file new file", k);
  CHECK_EQ(fc_file_size(nf_path), len, "%s append_file new file size", k);
  CHECK_EQ(fc_file_size(af), 17 + 2 * len, "%s multi file size", k);
  for (int j = 0; j < 2; j++) {
    o = blosc2_schunk_open_offset(af, 17 + j * len);
    snprintf(what, sizeof what, "%s open_offset frame %d", k, j);
    verify_source(o, what);
    if (o) blosc2_schunk_free(o);
  }
  CHECK(blosc2_schunk_open(af) == NULL, "%s open() of a file starting with foreign bytes", k);
  CHECK(blosc2_schunk_open_offset(af, 16) == NULL, "%s open_offset off by one", k);
  CHECK(blosc2_schunk_open_offset(af, -1) == NULL, "%s open_offset -1", k);
  CHECK(blosc2_schunk_open_offset(af, 17 + 2 * len) == NULL, "%s open_offset at EOF", k);
  CHECK(blosc2_schunk_open_offset(af, 1000000) == NULL, "%s open_offset beyond EOF", k);
  CHECK(blosc2_schunk_open(fc_path("does-not-exist.b2")) == NULL, "%s open missing", k);

  /* modify the last frame of the file in place, then read both frames back */
  o = blosc2_schunk_open_offset(af, 17 + len);
  REQUIRE(o != NULL, "%s open_offset last", k);
  fc_fill_i32(g_buf, CITEMS, 0, 60);
  CHECK_EQ(blosc2_schunk_append_buffer(o, g_buf, CITEMS * 4), NCH + 1, "%s append at offset", k);
  CHECK_EQ(blosc2_schunk_delete_chunk(o, 0), NCH, "%s delete at offset", k);
  blosc2_schunk_free(o);
  o = blosc2_schunk_open_offset(af, 17);
  snprintf(what, sizeof what, "%s first frame after changing the second", k);
  verify_source(o, what);
  if (o) blosc2_schunk_free(o);
  o = blosc2_schunk_open_offset(af, 17 + len);
  REQUIRE(o != NULL, "%s reopen changed frame", k);
  CHECK_EQ(o->nchunks, NCH, "%s changed frame nchunks", k);
  fc_fill_i32(g_buf, CITEMS, 0, 60);
  CHECK(fc_chunk_matches(o, NCH - 1, g_buf, CITEMS), "%s changed frame last chunk", k);
  fc_fill_i32(g_buf, CITEMS, 0, 1);
  CHECK(fc_chunk_matches(o, 0, g_buf, CITEMS), "%s changed frame first chunk", k);
  blosc2_schunk_free(o);
  int64_t fl = 0;
  uint8_t *prefix = fc_read_file(af, &fl);
  CHECK(prefix && memcmp(prefix, "17 foreign bytes!", 17) == 0, "%s foreign prefix intact", k);
  free(prefix);
  if (nf) free(cf);
  blosc2_schunk_free(sc);
}

static void copies(int src_kind) {
  blosc2_schunk *sc = make_source(src_kind, "csrc.b2");
  REQUIRE(sc != NULL, "%s make_source", fc_kind_names[src_kind]);
  for (int dst = 0; dst < FC_NKINDS; dst++) {
    char what[160];
    snprintf(what, sizeof what, "copy %s -> %s", fc_kind_names[src_kind], fc_kind_names[dst]);
    blosc2_cparams cp = fc_cparams(4);
    blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
    st.cparams = &cp;
    st.contiguous = fc_kind_contiguous(dst);
    st.urlpath = fc_kind_on_disk(dst) ? fc_path("cdst.b2") : NULL;
    blosc2_remove_urlpath(st.urlpath);
    blosc2_schunk *c = blosc2_schunk_copy(sc, &st);
    verify_source(c, what);
    if (!c) continue;
    CHECK((c->frame != NULL) == (dst != FC_SPARSE_MEM), "%s frame presence", what);
    /* the copy is independent of the source */
    CHECK_EQ(blosc2_schunk_delete_chunk(c, 0), NCH - 1, "%s delete in copy", what);
    CHECK_EQ(sc->nchunks, NCH, "%s source untouched", what);
    blosc2_schunk_free(c);
    if (st.urlpath) {
      c = blosc2_schunk_open(st.urlpath);
      CHECK(c && c->nchunks == NCH - 1, "%s reopened copy", what);
      if (c) blosc2_schunk_free(c);
    }
  }
  blosc2_schunk_free(sc);
}

static void refresh_two_handles(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_schunk *sc = make_source(kind, "refresh.b2");
  REQUIRE(sc != NULL, "%s make_source", k);
  CHECK_EQ(blosc2_schunk_refresh(NULL), BLOSC2_ERROR_NULL_POINTER, "refresh NULL");
  if (!fc_kind_on_disk(kind)) {
    CHECK_EQ(blosc2_schunk_refresh(sc), 0, "%s refresh of a memory schunk", k);
    CHECK_EQ(blosc2_schunk_lock(sc), 0, "%s lock memory", k);
    CHECK_EQ(blosc2_schunk_unlock(sc), 0, "%s unlock memory", k);
    blosc2_schunk_free(sc);
    return;
  }
  blosc2_schunk *a = blosc2_schunk_open(fc_path("refresh.b2"));
  REQUIRE(a != NULL, "%s open a", k);
  CHECK_EQ(blosc2_schunk_refresh(a), 0, "%s refresh unchanged", k);
  fc_fill_i32(g_buf, CITEMS, 0, 70);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, CITEMS * 4), NCH + 1, "%s append by writer", k);
  CHECK_EQ(blosc2_schunk_refresh(a), 1, "%s refresh after a change", k);
  CHECK_EQ(a->nchunks, NCH + 1, "%s refreshed nchunks", k);
  CHECK_EQ(a->nbytes, sc->nbytes, "%s refreshed nbytes", k);
  CHECK_EQ(blosc2_schunk_refresh(a), 0, "%s refresh again", k);
  CHECK(fc_chunk_matches(a, NCH, g_buf, CITEMS), "%s reader sees the new chunk", k);
  /* a change that grows the frame is seen by data access without refresh */
  fc_fill_i32(g_buf, CITEMS, 0, 71);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, CITEMS * 4), NCH + 2, "%s append 2", k);
  fc_fill_i32(g_buf, CITEMS, 0, 0);
  CHECK(fc_chunk_matches(a, 0, g_buf, CITEMS), "%s reader chunk 0", k);
  CHECK_EQ(a->nchunks, NCH + 2, "%s reader nchunks after implicit re-sync", k);
#ifdef BLOSC2_VARIANT_OURS
  /* The reference detects changes by the frame's size only: deleting a chunk of a cframe
     rewrites the index in place with the same length, so its reader keeps a stale
     nchunks and stale offsets (refresh returns 0). Ours must see it. */
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, 0), NCH + 1, "%s delete by writer", k);
  fc_fill_i32(g_buf, CITEMS, 0, 1);
  CHECK(fc_chunk_matches(a, 0, g_buf, CITEMS), "%s reader sees the deletion", k);
  CHECK_EQ(a->nchunks, NCH + 1, "%s reader nchunks after the deletion", k);
  CHECK_EQ(blosc2_schunk_refresh(a), 0, "%s refresh after implicit re-sync", k);
  fc_fill_i32(g_buf, CITEMS, 0, 72);
  uint8_t *uc = fc_make_chunk(fc_cparams(4), g_buf, CITEMS * 4, NULL);
  CHECK_EQ(blosc2_schunk_update_chunk(sc, 1, uc, true), NCH + 1, "%s update by writer", k);
  free(uc);
  CHECK(fc_chunk_matches(a, 1, g_buf, CITEMS), "%s reader sees the update", k);
#endif
  /* locking is off: lock/unlock are no-ops that succeed */
  CHECK_EQ(blosc2_schunk_lock(a), 0, "%s lock without locking", k);
  CHECK_EQ(blosc2_schunk_unlock(a), 0, "%s unlock without locking", k);
  blosc2_schunk_free(a);
  blosc2_schunk_free(sc);
}

/* Opt-in advisory locking: sidecar file, re-entrant brackets, exclusion across processes. */
static void locking(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_stdio_params sp = BLOSC2_STDIO_PARAMS_DEFAULTS;
  sp.locking = true;
  blosc2_io io = BLOSC2_IO_DEFAULTS;
  io.params = &sp;
  blosc2_cparams cp = fc_cparams(4);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = fc_kind_contiguous(kind);
  st.urlpath = fc_path("locked.b2");
  st.io = &io;
  blosc2_remove_urlpath(st.urlpath);
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "%s new with locking", k);
  fc_fill_i32(g_buf, CITEMS, 0, 80);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, CITEMS * 4), 1, "%s append locked", k);
  const char *sidecar =
      kind == FC_CFRAME_FILE ? fc_path("locked.b2.b2lock") : fc_path("locked.b2/.b2lock");
  CHECK(fc_exists(sidecar), "%s sidecar lock file %s", k, sidecar);
  CHECK_EQ(blosc2_schunk_lock(sc), 0, "%s lock", k);
  CHECK_EQ(blosc2_schunk_lock(sc), 0, "%s nested lock", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, CITEMS * 4), 2, "%s append inside lock", k);
  CHECK_EQ(blosc2_schunk_unlock(sc), 0, "%s inner unlock", k);
  CHECK_EQ(blosc2_schunk_unlock(sc), 0, "%s outer unlock", k);

  /* a child holds the lock for 300 ms and appends; our locked open waits for it */
  int p[2];
  REQUIRE(pipe(p) == 0, "pipe");
  fflush(NULL);
  pid_t pid = fork();
  REQUIRE(pid >= 0, "fork");
  if (pid == 0) {
    close(p[0]);
    blosc2_schunk *c = blosc2_schunk_open_udio(st.urlpath, &io);
    int ok = c && blosc2_schunk_lock(c) == 0;
    char byte = ok ? 'L' : 'E';
    if (write(p[1], &byte, 1) != 1) _exit(3);
    usleep(300000);
    ok = ok && blosc2_schunk_append_buffer(c, g_buf, CITEMS * 4) == 3;
    ok = ok && blosc2_schunk_unlock(c) == 0;
    if (c) blosc2_schunk_free(c);
    _exit(ok ? 0 : 1);
  }
  close(p[1]);
  char byte = 0;
  CHECK(read(p[0], &byte, 1) == 1 && byte == 'L', "%s child took the lock", k);
  close(p[0]);
  double t0 = fc_now();
  blosc2_schunk *o = blosc2_schunk_open_udio(st.urlpath, &io);
  int64_t n = o ? o->nchunks : -1;
  double waited = fc_now() - t0;
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s child status %d", k, status);
  CHECK(o != NULL, "%s locked open", k);
  CHECK(waited > 0.15, "%s open waited %.3f s for the child's lock", k, waited);
  CHECK_EQ(n, 3, "%s open saw the child's append", k);
  if (o) blosc2_schunk_free(o);
  blosc2_schunk_free(sc);
  CHECK_EQ(blosc2_remove_urlpath(st.urlpath), 0, "%s remove", k);
  CHECK(!fc_exists(st.urlpath) && !fc_exists(fc_path("locked.b2.b2lock")),
        "%s remove_urlpath removes the frame and its sidecar", k);

  /* BLOSC_LOCKING turns it on for default-IO frames */
  setenv("BLOSC_LOCKING", "1", 1);
  st.io = NULL;
  blosc2_schunk *e = blosc2_schunk_new(&st);
  CHECK(e != NULL, "%s new with BLOSC_LOCKING", k);
  if (e) {
    CHECK_EQ(blosc2_schunk_append_buffer(e, g_buf, CITEMS * 4), 1, "%s append env-locked", k);
    CHECK(fc_exists(sidecar), "%s sidecar with BLOSC_LOCKING", k);
    blosc2_schunk_free(e);
  }
  unsetenv("BLOSC_LOCKING");
  blosc2_remove_urlpath(st.urlpath);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("serial");
  for (int kind = 0; kind < FC_NKINDS; kind++) {
    buffers(kind);
    files(kind);
    copies(kind);
    refresh_two_handles(kind);
  }
  locking(FC_CFRAME_FILE);
  locking(FC_SFRAME_DIR);
  blosc2_destroy();
  return fc_finish("frames_serial");
}
