/*
 * Super-chunk chunk operations on the four storage kinds (sparse in memory, cframe in
 * memory, cframe file, sframe directory): new, append_buffer, append_chunk (copy and
 * ownership transfer), insert, update, delete, reorder_offsets, get_chunk, get_lazychunk,
 * decompress_chunk, get_cparams/get_dparams, frame_len, free, and reopening on-disk frames.
 * A model (one tag per chunk) tracks the expected content after every operation.
 * Also: index errors (-12), chunksize rules with variable chunk sizes, nbytes/cbytes
 * accounting, frame_get_offsets.
 */
#include "fc_common.h"

#define ITEMS 2000 /* int32 items per full chunk */
#define MAXCH 64

typedef struct {
  int32_t tags[MAXCH];
  int64_t n;
} model_t;

static int32_t g_buf[ITEMS + 64];

static uint8_t *chunk_for_tag(int32_t tag, int32_t *cbytes) {
  fc_fill_i32(g_buf, ITEMS, 0, tag);
  return fc_make_chunk(fc_cparams(4), g_buf, ITEMS * 4, cbytes);
}

/* Every chunk decodes to its model tag; counters agree with the chunks. */
static void verify(blosc2_schunk *sc, const model_t *m, const char *what, int kind) {
  CHECK_EQ(sc->nchunks, m->n, "%s %s nchunks", fc_kind_names[kind], what);
  int64_t cb_sum = 0;
  int32_t want[ITEMS];
  for (int64_t i = 0; i < m->n && i < sc->nchunks; i++) {
    fc_fill_i32(want, ITEMS, 0, m->tags[i]);
    CHECK(fc_chunk_matches(sc, i, want, ITEMS), "%s %s chunk %lld content (tag %d)",
          fc_kind_names[kind], what, (long long)i, m->tags[i]);
    uint8_t *c = NULL;
    bool nf = false;
    int rc = blosc2_schunk_get_chunk(sc, i, &c, &nf);
    CHECK(rc > 32, "%s %s get_chunk %lld -> %d", fc_kind_names[kind], what, (long long)i, rc);
    if (rc > 0) {
      int32_t nb, cb, bs;
      CHECK_EQ(blosc2_cbuffer_sizes(c, &nb, &cb, &bs), 0, "cbuffer_sizes");
      CHECK_EQ(cb, rc, "%s %s chunk %lld cbytes vs get_chunk", fc_kind_names[kind], what,
               (long long)i);
      CHECK_EQ(nb, ITEMS * 4, "%s %s chunk nbytes", fc_kind_names[kind], what);
      CHECK_EQ(nf, fc_kind_on_disk(kind), "%s %s get_chunk needs_free", fc_kind_names[kind],
               what);
      cb_sum += cb;
    }
    if (nf) free(c);
  }
  CHECK_EQ(sc->nbytes, m->n * ITEMS * 4, "%s %s nbytes", fc_kind_names[kind], what);
  if (fc_kind_contiguous(kind)) {
    /* The reference does not subtract a deleted chunk's cbytes in a cframe (its bytes stay
       in the frame); updates are accounted. Only the lower bound is common ground. */
    CHECK(sc->cbytes >= cb_sum, "%s %s cbytes %lld >= sum of chunk cbytes %lld",
          fc_kind_names[kind], what, (long long)sc->cbytes, (long long)cb_sum);
  } else {
    CHECK_EQ(sc->cbytes, cb_sum, "%s %s cbytes = sum of chunk cbytes", fc_kind_names[kind],
             what);
  }
}

static void index_errors(blosc2_schunk *sc, int kind) {
  const char *k = fc_kind_names[kind];
  int64_t n = sc->nchunks;
  uint8_t *c = NULL;
  bool nf = false;
  int32_t cb;
  CHECK_EQ(blosc2_schunk_get_chunk(sc, n, &c, &nf), BLOSC2_ERROR_INVALID_PARAM, "%s get n", k);
  CHECK_EQ(blosc2_schunk_get_chunk(sc, -1, &c, &nf), BLOSC2_ERROR_INVALID_PARAM, "%s get -1", k);
  CHECK_EQ(blosc2_schunk_get_lazychunk(sc, n, &c, &nf), BLOSC2_ERROR_INVALID_PARAM,
           "%s lazy n", k);
  CHECK_EQ(blosc2_schunk_decompress_chunk(sc, n, g_buf, ITEMS * 4), BLOSC2_ERROR_INVALID_PARAM,
           "%s decompress n", k);
  CHECK_EQ(blosc2_schunk_decompress_chunk(sc, -1, g_buf, ITEMS * 4), BLOSC2_ERROR_INVALID_PARAM,
           "%s decompress -1", k);
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, n), BLOSC2_ERROR_INVALID_PARAM, "%s delete n", k);
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, -1), BLOSC2_ERROR_INVALID_PARAM, "%s delete -1", k);
  uint8_t *chunk = chunk_for_tag(99, &cb);
  CHECK_EQ(blosc2_schunk_update_chunk(sc, n, chunk, true), BLOSC2_ERROR_INVALID_PARAM,
           "%s update n", k);
  CHECK_EQ(blosc2_schunk_update_chunk(sc, -1, chunk, true), BLOSC2_ERROR_INVALID_PARAM,
           "%s update -1", k);
  CHECK_EQ(blosc2_schunk_insert_chunk(sc, n + 1, chunk, true), BLOSC2_ERROR_INVALID_PARAM,
           "%s insert n+1", k);
  CHECK_EQ(blosc2_schunk_insert_chunk(sc, -1, chunk, true), BLOSC2_ERROR_INVALID_PARAM,
           "%s insert -1", k);
  free(chunk);
  CHECK_EQ(sc->nchunks, n, "%s nchunks unchanged by failed calls", k);
}

static void params(blosc2_schunk *sc, int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_cparams *cp = NULL;
  blosc2_dparams *dp = NULL;
  CHECK_EQ(blosc2_schunk_get_cparams(sc, &cp), 0, "%s get_cparams", k);
  if (cp) {
    CHECK_EQ(cp->compcode, BLOSC_LZ4, "%s cparams compcode", k);
    CHECK_EQ(cp->clevel, 7, "%s cparams clevel", k);
    CHECK_EQ(cp->typesize, 4, "%s cparams typesize", k);
    CHECK_EQ(cp->nthreads, 2, "%s cparams nthreads", k);
    CHECK_EQ(cp->filters[BLOSC2_MAX_FILTERS - 1], BLOSC_BITSHUFFLE, "%s cparams filter", k);
    CHECK(cp->schunk == sc, "%s cparams.schunk is the schunk", k);
    free(cp);
  }
  CHECK_EQ(blosc2_schunk_get_dparams(sc, &dp), 0, "%s get_dparams", k);
  if (dp) {
    CHECK_EQ(dp->nthreads, 3, "%s dparams nthreads", k);
    CHECK(dp->schunk == sc, "%s dparams.schunk is the schunk", k);
    free(dp);
  }
}

/* Schunk with non-default params, to see them come back from the getters (and a reopen). */
static void params_roundtrip(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(4);
  cp.compcode = BLOSC_LZ4;
  cp.clevel = 7;
  cp.nthreads = 2;
  cp.filters[BLOSC2_MAX_FILTERS - 1] = BLOSC_BITSHUFFLE;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 3;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = fc_kind_contiguous(kind);
  st.urlpath = fc_kind_on_disk(kind) ? fc_path("params.b2") : NULL;
  st.cparams = &cp;
  st.dparams = &dp;
  blosc2_remove_urlpath(st.urlpath);
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "%s new with params", k);
  CHECK_EQ(sc->compcode, BLOSC_LZ4, "%s schunk compcode", k);
  CHECK_EQ(sc->clevel, 7, "%s schunk clevel", k);
  CHECK_EQ(sc->typesize, 4, "%s schunk typesize", k);
  fc_fill_i32(g_buf, ITEMS, 0, 5);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), 1, "%s append", k);
  params(sc, kind);
  uint8_t *c = NULL;
  bool nf = false;
  int rc = blosc2_schunk_get_chunk(sc, 0, &c, &nf);
  CHECK(rc > 0 && (c[BLOSC2_CHUNK_FLAGS] >> 5) == BLOSC_LZ4_FORMAT,
        "%s appended chunk uses lz4 (flags %02x)", k, rc > 0 ? c[BLOSC2_CHUNK_FLAGS] : 0);
  CHECK(rc > 0 && (c[BLOSC2_CHUNK_FLAGS] & BLOSC_DOBITSHUFFLE), "%s chunk bitshuffled", k);
  if (nf) free(c);
  CHECK_EQ(blosc2_schunk_free(sc), 0, "%s free", k);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("params.b2"));
    REQUIRE(sc != NULL, "%s reopen params", k);
    CHECK_EQ(sc->compcode, BLOSC_LZ4, "%s reopened compcode", k);
    CHECK_EQ(sc->clevel, 7, "%s reopened clevel", k);
    CHECK_EQ(sc->typesize, 4, "%s reopened typesize", k);
    CHECK_EQ(sc->filters[BLOSC2_MAX_FILTERS - 1], BLOSC_BITSHUFFLE, "%s reopened filter", k);
    CHECK_EQ(sc->nchunks, 1, "%s reopened nchunks", k);
    blosc2_schunk_free(sc);
  }
}

static void operations(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(4);
  blosc2_schunk *sc = fc_new_schunk(kind, "ops.b2", &cp);
  REQUIRE(sc != NULL, "%s schunk_new", k);
  CHECK_EQ(sc->nchunks, 0, "%s new nchunks", k);
  CHECK_EQ(sc->chunksize, -1, "%s new chunksize", k);
  CHECK_EQ(sc->typesize, 4, "%s new typesize", k);
  CHECK_EQ(sc->nbytes, 0, "%s new nbytes", k);
  CHECK_EQ(sc->cbytes, 0, "%s new cbytes", k);
  CHECK_EQ(sc->blocksize, 0, "%s new blocksize", k);
  CHECK((sc->frame != NULL) == (kind != FC_SPARSE_MEM), "%s frame presence", k);
  CHECK(sc->storage != NULL && sc->storage->contiguous == fc_kind_contiguous(kind),
        "%s storage.contiguous", k);
  CHECK_EQ(blosc2_schunk_frame_len(sc), kind == FC_SPARSE_MEM ? 0 : blosc2_schunk_frame_len(sc),
           "%s frame_len empty", k);
  index_errors(sc, kind);
#ifdef BLOSC2_VARIANT_OURS
  /* the reference crashes on a frame without chunks (SIGSEGV in decompressing the index) */
  free(blosc2_frame_get_offsets(sc));
#endif

  model_t m = {{0}, 0};
  /* append_buffer */
  for (int i = 0; i < 6; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    int64_t rc = blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4);
    CHECK_EQ(rc, i + 1, "%s append_buffer %d", k, i);
    m.tags[m.n++] = i;
  }
  CHECK_EQ(sc->chunksize, ITEMS * 4, "%s chunksize after equal appends", k);
  verify(sc, &m, "append_buffer", kind);

  /* append_chunk with copy, and with ownership transfer */
  int32_t cb;
  uint8_t *chunk = chunk_for_tag(10, &cb);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, chunk, true), 7, "%s append_chunk copy", k);
  m.tags[m.n++] = 10;
  fc_fill_i32(g_buf, ITEMS, 0, 77);
  memset(chunk, 0xEE, (size_t)cb); /* the schunk must hold its own copy */
  free(chunk);
  chunk = chunk_for_tag(11, &cb);
  CHECK_EQ(blosc2_schunk_append_chunk(sc, chunk, false), 8, "%s append_chunk no-copy", k);
  m.tags[m.n++] = 11;
  /* copy=false: the schunk owns (and eventually frees) the chunk, for every storage kind */
  verify(sc, &m, "append_chunk", kind);

  /* insert at 0, in the middle and at the end */
  int32_t ins_pos[3] = {0, 4, 10};
  for (int j = 0; j < 3; j++) {
    chunk = chunk_for_tag(20 + j, &cb);
    int64_t rc = blosc2_schunk_insert_chunk(sc, ins_pos[j], chunk, true);
    free(chunk);
    CHECK_EQ(rc, m.n + 1, "%s insert at %d", k, ins_pos[j]);
    memmove(&m.tags[ins_pos[j] + 1], &m.tags[ins_pos[j]],
            (size_t)(m.n - ins_pos[j]) * sizeof m.tags[0]);
    m.tags[ins_pos[j]] = 20 + j;
    m.n++;
  }
  verify(sc, &m, "insert", kind);

  /* update first, middle and last */
  int32_t upd_pos[3] = {0, 5, (int32_t)m.n - 1};
  for (int j = 0; j < 3; j++) {
    chunk = chunk_for_tag(30 + j, &cb);
    int64_t rc = blosc2_schunk_update_chunk(sc, upd_pos[j], chunk, true);
    free(chunk);
    CHECK_EQ(rc, m.n, "%s update at %d", k, upd_pos[j]);
    m.tags[upd_pos[j]] = 30 + j;
  }
  verify(sc, &m, "update", kind);

  /* delete first, middle, last */
  int32_t del_pos[3] = {0, 3, (int32_t)m.n - 3};
  for (int j = 0; j < 3; j++) {
    int64_t rc = blosc2_schunk_delete_chunk(sc, del_pos[j]);
    CHECK_EQ(rc, m.n - 1, "%s delete at %d", k, del_pos[j]);
    memmove(&m.tags[del_pos[j]], &m.tags[del_pos[j] + 1],
            (size_t)(m.n - del_pos[j] - 1) * sizeof m.tags[0]);
    m.n--;
  }
  verify(sc, &m, "delete", kind);
  index_errors(sc, kind);

  /* reorder_offsets: reverse, then rotate */
  int64_t order[MAXCH];
  int32_t newtags[MAXCH];
  for (int64_t i = 0; i < m.n; i++) order[i] = m.n - 1 - i;
  int rc = blosc2_schunk_reorder_offsets(sc, order);
  CHECK_EQ(rc, 0, "%s reorder reverse", k);
  for (int64_t i = 0; i < m.n; i++) newtags[i] = m.tags[order[i]];
  memcpy(m.tags, newtags, sizeof newtags[0] * (size_t)m.n);
  verify(sc, &m, "reorder reverse", kind);
  for (int64_t i = 0; i < m.n; i++) order[i] = (i + 3) % m.n;
  CHECK_EQ(blosc2_schunk_reorder_offsets(sc, order), 0, "%s reorder rotate", k);
  for (int64_t i = 0; i < m.n; i++) newtags[i] = m.tags[order[i]];
  memcpy(m.tags, newtags, sizeof newtags[0] * (size_t)m.n);
  verify(sc, &m, "reorder rotate", kind);
  /* not a permutation: duplicate and out-of-range entries */
  for (int64_t i = 0; i < m.n; i++) order[i] = i;
  order[1] = 0;
  CHECK_EQ(blosc2_schunk_reorder_offsets(sc, order), BLOSC2_ERROR_DATA, "%s reorder dup", k);
  order[1] = m.n;
  CHECK_EQ(blosc2_schunk_reorder_offsets(sc, order), BLOSC2_ERROR_DATA, "%s reorder range", k);
  verify(sc, &m, "after bad reorders", kind);

  /* frame_len: estimate without a frame, the serialized length with one */
  int64_t flen = blosc2_schunk_frame_len(sc);
  uint8_t *cframe = NULL;
  bool nf = false;
  int64_t blen = blosc2_schunk_to_buffer(sc, &cframe, &nf);
  CHECK(blen > 0, "%s to_buffer %lld", k, (long long)blen);
  if (blen > 0 && nf) free(cframe);
  if (kind == FC_SPARSE_MEM) {
    CHECK_EQ(flen, sc->cbytes + 8 * sc->nchunks, "%s frame_len estimate", k);
  } else if (kind == FC_SFRAME_DIR) {
    /* the sframe's frame is the index file chunks.b2frame of the directory */
    CHECK_EQ(flen, fc_file_size(fc_path("ops.b2/chunks.b2frame")), "%s frame_len index", k);
  } else if (kind == FC_CFRAME_MEM) {
    CHECK_EQ(flen, blen, "%s frame_len = to_buffer length", k);
  } else {
    /* the file keeps dead bytes of updated/deleted chunks; to_buffer builds a fresh frame */
    CHECK_EQ(flen, fc_file_size(fc_path("ops.b2")), "%s frame_len = file size", k);
    CHECK(blen <= flen, "%s to_buffer length %lld <= file %lld", k, (long long)blen,
          (long long)flen);
  }

  /* frame_get_offsets: NULL without a frame; one entry per chunk with one */
  int64_t *offs = blosc2_frame_get_offsets(sc);
  if (kind == FC_SPARSE_MEM) {
    CHECK(offs == NULL, "%s frame_get_offsets without frame", k);
  } else {
    CHECK(offs != NULL, "%s frame_get_offsets", k);
    if (offs) {
      if (kind == FC_SFRAME_DIR) {
        /* sframe offsets are chunk file numbers: a permutation-free set of indexes */
        for (int64_t i = 0; i < m.n; i++)
          CHECK(offs[i] >= 0, "%s sframe offset %lld = %lld", k, (long long)i,
                (long long)offs[i]);
      } else {
        /* cframe offsets count from the end of the header (header_len: msgpack int32 at
           byte 11, big-endian) */
        uint8_t *whole = NULL;
        bool wnf = false;
        int64_t wl = blosc2_schunk_to_buffer(sc, &whole, &wnf);
        int64_t hlen = wl > 16 ? (int64_t)fc_rd32be(whole + 11) : 0;
        for (int64_t i = 0; i < m.n && kind == FC_CFRAME_MEM; i++) {
          uint8_t *c = NULL;
          bool cnf = false;
          int crc = blosc2_schunk_get_chunk(sc, i, &c, &cnf);
          CHECK(offs[i] >= 0 && crc > 0 && hlen + offs[i] + crc <= wl &&
                    memcmp(whole + hlen + offs[i], c, (size_t)crc) == 0,
                "%s chunk %lld found at header_len + offset %lld", k, (long long)i,
                (long long)offs[i]);
          if (cnf) free(c);
        }
        for (int64_t i = 0; i < m.n && kind == FC_CFRAME_FILE; i++) {
          /* the file keeps every chunk at header_len + offset */
          int64_t flen2 = 0;
          uint8_t *file = fc_read_file(fc_path("ops.b2"), &flen2);
          uint8_t *c = NULL;
          bool cnf = false;
          int crc = blosc2_schunk_get_chunk(sc, i, &c, &cnf);
          CHECK(file && crc > 0 && offs[i] >= 0 && hlen + offs[i] + crc <= flen2 &&
                    memcmp(file + hlen + offs[i], c, (size_t)crc) == 0,
                "%s chunk %lld found in the file at header_len + offset %lld", k, (long long)i,
                (long long)offs[i]);
          if (cnf) free(c);
          free(file);
        }
        if (wnf) free(whole);
      }
      free(offs);
    }
  }
  CHECK_EQ(blosc2_schunk_free(sc), 0, "%s free", k);

  /* on-disk: reopen and check everything again */
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("ops.b2"));
    REQUIRE(sc != NULL, "%s reopen", k);
    CHECK_EQ(sc->typesize, 4, "%s reopened typesize", k);
    CHECK_EQ(sc->chunksize, ITEMS * 4, "%s reopened chunksize", k);
    CHECK(sc->storage && sc->storage->contiguous == fc_kind_contiguous(kind),
          "%s reopened contiguous flag", k);
    verify(sc, &m, "reopened", kind);
    /* modify the reopened frame and reopen once more */
    CHECK_EQ(blosc2_schunk_delete_chunk(sc, 1), m.n - 1, "%s delete after reopen", k);
    memmove(&m.tags[1], &m.tags[2], (size_t)(m.n - 2) * sizeof m.tags[0]);
    m.n--;
    fc_fill_i32(g_buf, ITEMS, 0, 40);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), m.n + 1, "%s append reopened", k);
    m.tags[m.n++] = 40;
    blosc2_schunk_free(sc);
    sc = blosc2_schunk_open(fc_path("ops.b2"));
    REQUIRE(sc != NULL, "%s reopen 2", k);
    verify(sc, &m, "reopened twice", kind);
    blosc2_schunk_free(sc);
  }
}

/*
 * chunksize rules: -1 while empty, the first chunk's nbytes while equal chunks come, 0 once
 * a short chunk is followed by another or a bigger chunk arrives (measured on the
 * reference: bigger chunks are accepted by frames too, no -20).
 */
static void variable_sizes(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_schunk *sc = fc_new_schunk(kind, "var.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  int32_t sizes[] = {ITEMS, ITEMS, ITEMS / 2, ITEMS / 4, 7, ITEMS};
  int n = 0;
  fc_fill_i32(g_buf, ITEMS, 0, 1);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, sizes[0] * 4), 1, "%s var 0", k);
  CHECK_EQ(sc->chunksize, ITEMS * 4, "%s chunksize first", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, sizes[1] * 4), 2, "%s var 1", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, sizes[2] * 4), 3, "%s var 2 (short)", k);
  /* a short last chunk alone keeps the fixed chunksize */
  CHECK_EQ(sc->chunksize, ITEMS * 4, "%s chunksize after a short last chunk", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, sizes[3] * 4), 4, "%s var 3", k);
  CHECK_EQ(sc->chunksize, 0, "%s chunksize variable", k);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, sizes[4] * 4), 5, "%s var 4 (tiny)", k);
  n = 5;
  /* bigger than the first chunk */
  int32_t big[ITEMS * 2];
  fc_fill_i32(big, ITEMS * 2, 0, 2);
  int64_t rc = blosc2_schunk_append_buffer(sc, big, ITEMS * 2 * 4);
  /* accepted by every storage kind (the reference never returns -20 here) */
  CHECK_EQ(rc, 6, "%s bigger chunk appended", k);
  CHECK_EQ(sc->chunksize, 0, "%s chunksize still variable", k);
  if (rc == 6) n = 6;
  CHECK_EQ(sc->nchunks, n, "%s nchunks", k);
  int64_t nbytes = 0;
  for (int i = 0; i < 5; i++) {
    nbytes += sizes[i] * 4;
    int32_t got[ITEMS];
    int drc = blosc2_schunk_decompress_chunk(sc, i, got, ITEMS * 4);
    CHECK_EQ(drc, sizes[i] * 4, "%s var chunk %d nbytes", k, i);
    CHECK(drc > 0 && memcmp(got, g_buf, (size_t)drc) == 0, "%s var chunk %d content", k, i);
  }
  if (n == 6) nbytes += ITEMS * 2 * 4;
  CHECK_EQ(sc->nbytes, nbytes, "%s var nbytes", k);
  /* dest too small */
  int32_t small[16];
  int drc = blosc2_schunk_decompress_chunk(sc, 0, small, (int32_t)sizeof small);
  CHECK(drc < 0, "%s decompress_chunk into a too small buffer -> %d", k, drc);
  if (kind != FC_SPARSE_MEM)
    CHECK_EQ(drc, BLOSC2_ERROR_WRITE_BUFFER, "%s small dest in frame", k);
  blosc2_schunk_free(sc);
  if (fc_kind_on_disk(kind)) {
    sc = blosc2_schunk_open(fc_path("var.b2"));
    REQUIRE(sc != NULL, "%s reopen var", k);
    CHECK_EQ(sc->chunksize, 0, "%s reopened variable chunksize", k);
    CHECK_EQ(sc->nchunks, 6, "%s reopened var nchunks", k);
    for (int i = 0; i < 5; i++) {
      int32_t got[ITEMS];
      CHECK_EQ(blosc2_schunk_decompress_chunk(sc, i, got, ITEMS * 4), sizes[i] * 4,
               "%s reopened var chunk %d", k, i);
    }
    blosc2_schunk_free(sc);
  }
}

/* Lazy chunks of disk frames carry a trailer; in memory they are the plain chunk. */
static void lazychunks(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_cparams cp = fc_cparams(4);
  cp.blocksize = 2000; /* several blocks per chunk */
  blosc2_schunk *sc = fc_new_schunk(kind, "lazy.b2", &cp);
  REQUIRE(sc != NULL, "%s new", k);
  for (int i = 0; i < 3; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), i + 1, "%s append", k);
  }
  for (int i = 0; i < 3; i++) {
    uint8_t *c = NULL, *lz = NULL;
    bool nf = false, lnf = false;
    int crc = blosc2_schunk_get_chunk(sc, i, &c, &nf);
    int lrc = blosc2_schunk_get_lazychunk(sc, i, &lz, &lnf);
    REQUIRE(crc > 0 && lrc > 0, "%s get %d / lazy %d", k, crc, lrc);
    int32_t nb, cb, bs;
    blosc2_cbuffer_sizes(lz, &nb, &cb, &bs);
    CHECK_EQ(nb, ITEMS * 4, "%s lazy nbytes", k);
    CHECK_EQ(cb, crc, "%s lazy header cbytes = chunk cbytes", k);
    int32_t nblocks = (nb + bs - 1) / bs;
    CHECK_EQ(nblocks, 4, "%s blocks per chunk", k);
    if (fc_kind_on_disk(kind)) {
      CHECK(lnf, "%s lazy needs_free", k);
      CHECK(lz[BLOSC2_CHUNK_BLOSC2_FLAGS] & 0x08, "%s lazy flag bit 3", k);
      /* header + bstarts + trailer (nchunk, offset, block csizes) */
      CHECK_EQ(lrc, 32 + 4 * nblocks + 4 + 8 + 4 * nblocks, "%s lazy size", k);
      CHECK_EQ(fc_rd32(lz + 32 + 4 * nblocks), i, "%s lazy trailer nchunk", k);
    } else {
      CHECK_EQ(lrc, crc, "%s in-memory lazy = chunk", k);
      CHECK(memcmp(lz, c, (size_t)crc) == 0, "%s in-memory lazy bytes", k);
    }
    /* a lazy chunk decodes with a dctx bound to the schunk */
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.schunk = sc;
    blosc2_context *d = blosc2_create_dctx(dp);
    int32_t got[ITEMS];
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(blosc2_decompress_ctx(d, lz, lrc, got, ITEMS * 4), ITEMS * 4, "%s lazy decode", k);
    CHECK(memcmp(got, g_buf, ITEMS * 4) == 0, "%s lazy decode content", k);
    int32_t items[5];
    CHECK_EQ(blosc2_getitem_ctx(d, lz, lrc, 1500, 5, items, sizeof items), 20, "%s lazy getitem",
             k);
    CHECK(memcmp(items, g_buf + 1500, 20) == 0, "%s lazy getitem content", k);
    blosc2_free_ctx(d);
    if (nf) free(c);
    if (lnf) free(lz);
  }
  blosc2_schunk_free(sc);
}

/* Sequences of chunk sizes (bytes) and the chunksize expected after each append. */
static void chunksize_sequences(int kind) {
  static const int32_t seq[4][4] = {
      {8000, 8000, 16000, 0}, {8000, 4000, 16000, 0}, {8000, 4000, 4000, 0}, {8000, 8000, 4000, 8000}};
  static const int32_t want[4][4] = {
      {8000, 8000, 0, 0}, {8000, 8000, 0, 0}, {8000, 8000, 0, 0}, {8000, 8000, 8000, 0}};
  static int32_t buf[4000];
  fc_fill_i32(buf, 4000, 0, 3);
  for (int s = 0; s < 4; s++) {
    blosc2_schunk *sc = fc_new_schunk(kind, "seq.b2", NULL);
    REQUIRE(sc != NULL, "%s new", fc_kind_names[kind]);
    for (int j = 0; j < 4 && seq[s][j]; j++) {
      CHECK_EQ(blosc2_schunk_append_buffer(sc, buf, seq[s][j]), j + 1, "%s seq %d step %d",
               fc_kind_names[kind], s, j);
      CHECK_EQ(sc->chunksize, want[s][j], "%s seq %d step %d chunksize", fc_kind_names[kind], s,
               j);
    }
    blosc2_schunk_free(sc);
  }
}

int main(void) {
  blosc2_init();
  fc_make_tmp("schunk");
  for (int kind = 0; kind < FC_NKINDS; kind++) {
    operations(kind);
    params_roundtrip(kind);
    variable_sizes(kind);
    chunksize_sequences(kind);
    lazychunks(kind);
  }
  blosc2_destroy();
  return fc_finish("frames_schunk");
}
