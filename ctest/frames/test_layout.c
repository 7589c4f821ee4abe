/*
 * Layout of contiguous frames (issue 10, points 13 and 9), checked against a model of the
 * c-blosc2 layout that both libraries must follow:
 *   - the chunk section holds the stored chunks packed: an appended or inserted chunk goes
 *     where the index began, an update writes the new chunk where the old one lay and moves
 *     the chunks after it (a special chunk removes it), a delete or a reorder only rewrites
 *     the index;
 *   - the file is exactly header + chunk section + index + trailer (no holes, no bytes
 *     beyond), and the header's cbytes is the section length;
 *   - blosc2_frame_get_offsets, schunk->cbytes and nbytes match the model, also after
 *     reopening; metalayers and vlmetalayers changes keep the file exact.
 * Point 9: frames built anew from a super-chunk (to_buffer of a sparse or a file-backed
 * super-chunk, to_file) carry compression threads 0, decompression threads 1 and the block
 * size of the last chunk, whatever the thread and block size settings.
 * usage: frames_layout
 */
#include "fc_common.h"

#define ITEMS 1000
#define MAXC 32

typedef struct {
  int64_t off[MAXC]; /* offset in the section, or -1 for a special chunk */
  int32_t cb[MAXC];
  int32_t nb[MAXC];
  int n;
  int64_t section, nbytes;
} lmodel_t;

static int32_t g_buf[ITEMS * 2];

static uint8_t *chunk_of(int tag, int32_t items, int special, int32_t *cb) {
  blosc2_cparams cp = fc_cparams(4);
  if (special) {
    uint8_t *c = (uint8_t *)fc_malloc(BLOSC_EXTENDED_HEADER_LENGTH);
    *cb = blosc2_chunk_zeros(cp, items * 4, c, BLOSC_EXTENDED_HEADER_LENGTH);
    return c;
  }
  fc_fill_i32(g_buf, items, 0, tag);
  return fc_make_chunk(cp, g_buf, items * 4, cb);
}

static void m_add(lmodel_t *m, int pos, int32_t cb, int32_t nb, int special) {
  memmove(&m->off[pos + 1], &m->off[pos], (size_t)(m->n - pos) * sizeof m->off[0]);
  memmove(&m->cb[pos + 1], &m->cb[pos], (size_t)(m->n - pos) * sizeof m->cb[0]);
  memmove(&m->nb[pos + 1], &m->nb[pos], (size_t)(m->n - pos) * sizeof m->nb[0]);
  m->off[pos] = special ? -1 : m->section;
  m->cb[pos] = special ? 0 : cb;
  m->nb[pos] = nb;
  m->section += special ? 0 : cb;
  m->nbytes += nb;
  m->n++;
}

static void m_update(lmodel_t *m, int pos, int32_t cb, int32_t nb, int special) {
  int64_t old = m->off[pos];
  int32_t newcb = special ? 0 : cb;
  if (old >= 0) {
    int64_t delta = (int64_t)newcb - m->cb[pos];
    for (int i = 0; i < m->n; i++)
      if (i != pos && m->off[i] > old) m->off[i] += delta;
    m->off[pos] = special ? -1 : old;
    m->section += delta;
  } else if (!special) {
    m->off[pos] = m->section;
    m->section += newcb;
  }
  m->cb[pos] = newcb;
  m->nbytes += nb - m->nb[pos];
  m->nb[pos] = nb;
}

static void m_delete(lmodel_t *m, int pos) {
  m->nbytes -= m->nb[pos];
  memmove(&m->off[pos], &m->off[pos + 1], (size_t)(m->n - pos - 1) * sizeof m->off[0]);
  memmove(&m->cb[pos], &m->cb[pos + 1], (size_t)(m->n - pos - 1) * sizeof m->cb[0]);
  memmove(&m->nb[pos], &m->nb[pos + 1], (size_t)(m->n - pos - 1) * sizeof m->nb[0]);
  m->n--;
}

/* The file holds exactly header + section + index + trailer, as the model says. */
static void check_file(blosc2_schunk *sc, const char *path, const lmodel_t *m, const char *ctx) {
  int64_t len = 0;
  uint8_t *f = fc_read_file(path, &len);
  REQUIRE(f && len > 100, "%s: cannot read %s", ctx, path);
  int64_t hlen = (int64_t)fc_rd32be(f + 11);
  int64_t flen = (int64_t)fc_rd64be(f + 16);
  int64_t hcbytes = (int64_t)fc_rd64be(f + 39);
  CHECK_EQ(flen, len, "%s: frame length vs file size", ctx);
  CHECK_EQ(hcbytes, m->section, "%s: header cbytes vs packed chunk section", ctx);
  CHECK_EQ(sc->cbytes, m->section, "%s: schunk->cbytes", ctx);
  CHECK_EQ(sc->nbytes, m->nbytes, "%s: schunk->nbytes", ctx);
  CHECK_EQ(sc->nchunks, m->n, "%s: nchunks", ctx);
  int64_t tlen = (int64_t)fc_rd32be(f + len - 22);
  int64_t idx = 0;
  if (m->n > 0 && hlen + hcbytes + 16 <= len) idx = fc_rd32(f + hlen + hcbytes + 12);
  CHECK_EQ(hlen + hcbytes + idx + tlen, len, "%s: header + section + index + trailer", ctx);
  free(f);
  if (m->n == 0) return;
  int64_t *offs = blosc2_frame_get_offsets(sc);
  REQUIRE(offs != NULL, "%s: frame_get_offsets", ctx);
  for (int i = 0; i < m->n; i++) {
    if (m->off[i] >= 0)
      CHECK_EQ(offs[i], m->off[i], "%s: offset of chunk %d", ctx, i);
    else
      CHECK(offs[i] < 0, "%s: chunk %d should be special, offset %lld", ctx, i,
            (long long)offs[i]);
  }
  free(offs);
}

static void check_reopened(const char *path, const lmodel_t *m, const char *ctx) {
  blosc2_schunk *re = blosc2_schunk_open(path);
  REQUIRE(re != NULL, "%s: reopen", ctx);
  check_file(re, path, m, ctx);
  for (int i = 0; i < m->n; i++) {
    if (m->off[i] < 0) continue; /* the reference cannot always decode reopened specials */
    int32_t *out = (int32_t *)fc_malloc((size_t)m->nb[i] + 64);
    CHECK_EQ(blosc2_schunk_decompress_chunk(re, i, out, m->nb[i]), m->nb[i],
             "%s: decompress chunk %d after reopening", ctx, i);
    free(out);
  }
  blosc2_schunk_free(re);
}

#define OP(call, want, ...)                                                       \
  do {                                                                            \
    int64_t rc_ = (call);                                                         \
    CHECK_EQ(rc_, want, __VA_ARGS__);                                             \
  } while (0)

static void run_sequence(void) {
  const char *path = fc_path("layout.b2frame");
  blosc2_schunk *sc = fc_new_schunk(FC_CFRAME_FILE, "layout.b2frame", NULL);
  REQUIRE(sc != NULL, "new file frame");
  lmodel_t m;
  memset(&m, 0, sizeof m);
  uint8_t meta[6] = {1, 2, 3, 4, 5, 6};
  OP(blosc2_meta_add(sc, "layout", meta, 6), 0, "meta_add on the empty frame");
  check_file(sc, path, &m, "empty with a metalayer");
  int32_t cb;
  for (int i = 0; i < 6; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    int32_t items = i == 5 ? ITEMS / 2 : ITEMS;
    uint8_t *c = chunk_of(i, items, 0, &cb);
    OP(blosc2_schunk_append_chunk(sc, c, true), i + 1, "append %d", i);
    m_add(&m, i, cb, items * 4, 0);
    free(c);
    check_file(sc, path, &m, "append");
  }
  uint8_t *c = chunk_of(40, ITEMS, 0, &cb);
  OP(blosc2_schunk_insert_chunk(sc, 2, c, true), 7, "insert");
  m_add(&m, 2, cb, ITEMS * 4, 0);
  free(c);
  check_file(sc, path, &m, "insert");
  c = chunk_of(42, ITEMS, 0, &cb);
  OP(blosc2_schunk_update_chunk(sc, 0, c, true), 7, "update the first chunk");
  m_update(&m, 0, cb, ITEMS * 4, 0);
  free(c);
  check_file(sc, path, &m, "update the first chunk");
  c = chunk_of(41, ITEMS, 0, &cb); /* a different size from the chunk it replaces */
  OP(blosc2_schunk_update_chunk(sc, 1, c, true), 7, "update in the middle");
  m_update(&m, 1, cb, ITEMS * 4, 0);
  free(c);
  check_file(sc, path, &m, "update in the middle");
  c = chunk_of(0, ITEMS, 1, &cb);
  OP(blosc2_schunk_update_chunk(sc, 3, c, true), 7, "update with zeros");
  m_update(&m, 3, cb, ITEMS * 4, 1);
  free(c);
  check_file(sc, path, &m, "update with a special chunk");
  OP(blosc2_schunk_delete_chunk(sc, 4), 6, "delete");
  m_delete(&m, 4);
  check_file(sc, path, &m, "delete");
  int64_t order[MAXC];
  lmodel_t r = m;
  order[m.n - 1] = m.n - 1; /* the short chunk stays last */
  for (int i = 0; i < m.n - 1; i++) order[i] = m.n - 2 - i;
  OP(blosc2_schunk_reorder_offsets(sc, order), 0, "reorder");
  for (int i = 0; i < m.n; i++) {
    r.off[i] = m.off[order[i]];
    r.cb[i] = m.cb[order[i]];
    r.nb[i] = m.nb[order[i]];
  }
  m = r;
  check_file(sc, path, &m, "reorder");
  OP(blosc2_vlmeta_add(sc, "vl", (uint8_t *)"value one", 9, NULL), 0, "vlmeta_add");
  check_file(sc, path, &m, "vlmeta_add");
  OP(blosc2_vlmeta_update(sc, "vl", (uint8_t *)"a longer second value", 21, NULL), 0,
     "vlmeta_update");
  check_file(sc, path, &m, "vlmeta_update");
  uint8_t meta2[6] = {9, 9, 9, 9, 9, 9};
  OP(blosc2_meta_update(sc, "layout", meta2, 6), 0, "meta_update");
  check_file(sc, path, &m, "meta_update");
  OP(blosc2_vlmeta_delete(sc, "vl"), 0, "vlmeta_delete");
  check_file(sc, path, &m, "vlmeta_delete");
  blosc2_schunk_free(sc);
  check_reopened(path, &m, "reopened");
}

/* Many appends: the file grows by exactly each chunk (plus the index growth). */
static void run_appends(void) {
  const char *path = fc_path("appends.b2frame");
  blosc2_schunk *sc = fc_new_schunk(FC_CFRAME_FILE, "appends.b2frame", NULL);
  REQUIRE(sc != NULL, "new file frame");
  lmodel_t m;
  memset(&m, 0, sizeof m);
  int64_t sum = 0;
  for (int i = 0; i < 300; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    int64_t rc = blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4);
    CHECK_EQ(rc, i + 1, "append_buffer %d", i);
    uint8_t *ch;
    bool nf;
    int32_t cb = blosc2_schunk_get_chunk(sc, i, &ch, &nf);
    if (nf) free(ch);
    sum += cb;
  }
  CHECK_EQ(sc->cbytes, sum, "cbytes after 300 appends");
  int64_t len = fc_file_size(path);
  CHECK(len < sum + 4000, "300 appends of %lld chunk bytes give a %lld byte file", (long long)sum,
        (long long)len);
  blosc2_schunk_free(sc);
  blosc2_schunk *re = blosc2_schunk_open(path);
  REQUIRE(re != NULL, "reopen");
  CHECK_EQ(re->cbytes, sum, "reopened cbytes");
  blosc2_schunk_free(re);
}

/* Point 9: header thread counts and block size of frames built from a super-chunk. */
static void check_copy_header(const uint8_t *f, int64_t len, int32_t blocksize, const char *ctx) {
  REQUIRE(len > 0x44, "%s: frame of %lld bytes", ctx, (long long)len);
  CHECK_EQ((int32_t)fc_rd32be(f + 0x35), blocksize, "%s: header blocksize", ctx);
  CHECK_EQ((int16_t)((f[0x3f] << 8) | f[0x40]), 0, "%s: header compression threads", ctx);
  CHECK_EQ((int16_t)((f[0x42] << 8) | f[0x43]), 1, "%s: header decompression threads", ctx);
}

static void run_copies(void) {
  for (int kind = 0; kind < 4; kind++) {
    if (kind == FC_CFRAME_MEM) continue; /* its to_buffer is the live frame */
    for (int nthreads = 1; nthreads <= 3; nthreads += 2) {
      for (int forced = 0; forced < 2; forced++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "%s nthreads %d blocksize %s", fc_kind_names[kind], nthreads,
                 forced ? "8192" : "auto");
        blosc2_cparams cp = fc_cparams(4);
        cp.nthreads = nthreads;
        cp.blocksize = forced ? 8192 : 0;
        blosc2_schunk *sc = fc_new_schunk(kind, "copyhdr.b2", &cp);
        REQUIRE(sc != NULL, "%s: new", ctx);
        int32_t last_items = ITEMS - 100;
        for (int i = 0; i < 3; i++) {
          fc_fill_i32(g_buf, ITEMS, 0, i);
          blosc2_schunk_append_buffer(sc, g_buf, (i == 2 ? last_items : ITEMS) * 4);
        }
        uint8_t *ch;
        bool nf;
        int32_t blk = 0;
        blosc2_schunk_get_chunk(sc, 2, &ch, &nf);
        blosc2_cbuffer_sizes(ch, NULL, NULL, &blk);
        if (nf) free(ch);
        uint8_t *buf;
        bool needs_free;
        int64_t len = blosc2_schunk_to_buffer(sc, &buf, &needs_free);
        check_copy_header(buf, len, blk, ctx);
        if (needs_free) free(buf);
        const char *out = fc_path("copyhdr-out.b2frame");
        remove(out);
        CHECK(blosc2_schunk_to_file(sc, out) > 0, "%s: to_file", ctx);
        int64_t flen;
        uint8_t *f = fc_read_file(out, &flen);
        if (f) check_copy_header(f, flen, blk, ctx);
        free(f);
        blosc2_schunk_free(sc);
      }
    }
  }
}

int main(void) {
  blosc2_init();
  fc_make_tmp("layout");
  run_sequence();
  run_appends();
  run_copies();
  blosc2_destroy();
  return fc_finish("frames_layout");
}
