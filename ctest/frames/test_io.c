/*
 * I/O layer of frames: the stdio backend (blosc2_stdio_*), the mmap backend
 * (blosc2_stdio_mmap_*, modes r, r+, w+, c) used directly and under schunks, user I/O
 * callbacks (blosc2_register_io_cb, blosc2_get_io_cb, open_udio / open_offset_udio) with an
 * in-memory file system (copying and zero-copy reads) and a counting wrapper of stdio, and
 * the path helpers blosc2_remove_dir, blosc2_remove_urlpath, blosc2_rename_urlpath.
 */
#include "fc_common.h"

#include <blosc2/blosc2-stdio.h>

static int32_t g_data[1000];

static void stdio_backend(void) {
  blosc2_stdio_params sp = BLOSC2_STDIO_PARAMS_DEFAULTS;
  const char *path = fc_path("stdio.bin");
  void *s = blosc2_stdio_open(path, "wb+", &sp);
  REQUIRE(s != NULL, "stdio open wb+");
  CHECK_EQ(blosc2_stdio_write("hello world!", 4, 3, 0, s), 3, "stdio write 3 items of 4");
  CHECK_EQ(blosc2_stdio_write("XY", 1, 2, 20, s), 2, "stdio positional write past the end");
  CHECK_EQ(blosc2_stdio_size(s), 22, "stdio size");
  char buf[64] = {0};
  void *p = buf;
  CHECK_EQ(blosc2_stdio_read(&p, 4, 2, 0, s), 2, "stdio read 2 items");
  CHECK(p == buf && memcmp(buf, "hello wo", 8) == 0, "stdio read into the caller buffer");
  p = buf;
  CHECK_EQ(blosc2_stdio_read(&p, 4, 10, 16, s), 1, "stdio short read counts whole items");
  p = buf;
  CHECK_EQ(blosc2_stdio_read(&p, 1, 2, 20, s), 2, "stdio read at 20");
  CHECK(memcmp(buf, "XY", 2) == 0, "stdio read content at 20");
  CHECK_EQ(blosc2_stdio_truncate(s, 5), 0, "stdio truncate");
  CHECK_EQ(blosc2_stdio_size(s), 5, "stdio size after truncate");
  CHECK_EQ(blosc2_stdio_close(s), 0, "stdio close");
  CHECK_EQ(blosc2_stdio_destroy(&sp), 0, "stdio destroy");
  CHECK_EQ(fc_file_size(path), 5, "file size after truncate");
  CHECK(blosc2_stdio_open(fc_path("missing.bin"), "rb", &sp) == NULL, "stdio open missing rb");
  CHECK_EQ(blosc2_stdio_close(NULL), -1, "stdio close NULL");
  s = blosc2_stdio_open(path, "rb", &sp);
  REQUIRE(s != NULL, "stdio open rb");
  p = buf;
  CHECK_EQ(blosc2_stdio_read(&p, 1, 5, 0, s), 5, "stdio reread");
  CHECK(memcmp(buf, "hello", 5) == 0, "stdio reread content");
  CHECK_EQ(blosc2_stdio_close(s), 0, "stdio close 2");
}

static blosc2_stdio_mmap *mmap_params(const char *mode) {
  blosc2_stdio_mmap *mp = (blosc2_stdio_mmap *)fc_malloc(sizeof *mp);
  *mp = BLOSC2_STDIO_MMAP_DEFAULTS;
  mp->mode = mode;
  mp->needs_free = true; /* destroy frees it */
  mp->initial_mapping_size = 1 << 20;
  return mp;
}

static void mmap_backend(void) {
  const char *path = fc_path("mmap.bin");
  blosc2_stdio_mmap *mp = mmap_params("w+");
  void *s = blosc2_stdio_mmap_open(path, "w+", mp);
  REQUIRE(s != NULL, "mmap open w+");
  CHECK(s == (void *)mp, "mmap stream is the params object");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 0, "mmap w+ starts empty");
  CHECK_EQ(blosc2_stdio_mmap_write("abcdefgh", 2, 4, 0, s), 4, "mmap write");
  CHECK_EQ(blosc2_stdio_mmap_write("ZZ", 1, 2, 20, s), 2, "mmap write past the end");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 22, "mmap size");
  void *rp = NULL;
  CHECK_EQ(blosc2_stdio_mmap_read(&rp, 1, 8, 0, s), 8, "mmap read");
  CHECK(rp == (void *)mp->addr && memcmp(rp, "abcdefgh", 8) == 0,
        "mmap read hands out a pointer into the mapping");
  CHECK_EQ(blosc2_stdio_mmap_read(&rp, 1, 8, 1000000, s), 0, "mmap read beyond the file");
  CHECK_EQ(blosc2_stdio_mmap_truncate(s, 12), 0, "mmap truncate");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 12, "mmap size after truncate");
  CHECK_EQ(blosc2_stdio_mmap_close(s), 0, "mmap close");
  CHECK_EQ(blosc2_stdio_mmap_destroy(mp), 0, "mmap destroy");
  CHECK_EQ(fc_file_size(path), 12, "w+ file size");

  /* r: read-only view */
  mp = mmap_params("r");
  s = blosc2_stdio_mmap_open(path, "r", mp);
  REQUIRE(s != NULL, "mmap open r");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 12, "mmap r size");
  CHECK_EQ(blosc2_stdio_mmap_read(&rp, 2, 4, 0, s), 4, "mmap r read");
  CHECK(memcmp(rp, "abcdefgh", 8) == 0, "mmap r content");
  CHECK_EQ(blosc2_stdio_mmap_close(s), 0, "mmap r close");
  CHECK_EQ(blosc2_stdio_mmap_destroy(mp), 0, "mmap r destroy");

  /* r+: changes reach the file */
  mp = mmap_params("r+");
  s = blosc2_stdio_mmap_open(path, "r+", mp);
  REQUIRE(s != NULL, "mmap open r+");
  CHECK_EQ(blosc2_stdio_mmap_write("XYZ", 1, 3, 1, s), 3, "mmap r+ write");
  CHECK_EQ(blosc2_stdio_mmap_write("0123", 4, 1, 12, s), 1, "mmap r+ extend");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 16, "mmap r+ size");
  CHECK_EQ(blosc2_stdio_mmap_close(s), 0, "mmap r+ close");
  CHECK_EQ(blosc2_stdio_mmap_destroy(mp), 0, "mmap r+ destroy");
  int64_t len = 0;
  uint8_t *fb = fc_read_file(path, &len);
  CHECK(fb && len == 16 && memcmp(fb, "aXYZefgh", 8) == 0 && memcmp(fb + 12, "0123", 4) == 0,
        "mmap r+ changes on disk (len %lld)", (long long)len);
  free(fb);

  /* c: copy-on-write, the file stays as it was */
  mp = mmap_params("c");
  s = blosc2_stdio_mmap_open(path, "c", mp);
  REQUIRE(s != NULL, "mmap open c");
  CHECK_EQ(blosc2_stdio_mmap_write("qqqq", 1, 4, 0, s), 4, "mmap c write");
  CHECK_EQ(blosc2_stdio_mmap_write("tail", 1, 4, 16, s), 4, "mmap c extend");
  CHECK_EQ(blosc2_stdio_mmap_read(&rp, 1, 4, 0, s), 4, "mmap c read");
  CHECK(memcmp(rp, "qqqq", 4) == 0, "mmap c sees its own writes");
  CHECK_EQ(blosc2_stdio_mmap_size(s), 20, "mmap c size");
  CHECK_EQ(blosc2_stdio_mmap_close(s), 0, "mmap c close");
  CHECK_EQ(blosc2_stdio_mmap_destroy(mp), 0, "mmap c destroy");
  fb = fc_read_file(path, &len);
  CHECK(fb && len == 16 && memcmp(fb, "aXYZefgh", 8) == 0, "mmap c left the file alone");
  free(fb);

  blosc2_stdio_mmap bad = BLOSC2_STDIO_MMAP_DEFAULTS;
  bad.mode = "r";
  CHECK(blosc2_stdio_mmap_open(fc_path("missing.bin"), "r", &bad) == NULL, "mmap r missing");
  bad.mode = "x";
  CHECK(blosc2_stdio_mmap_open(path, "r", &bad) == NULL, "mmap unknown mode");
}

static blosc2_schunk *mmap_schunk_open(const char *path, const char *mode) {
  blosc2_io io = {BLOSC2_IO_FILESYSTEM_MMAP, "filesystem_mmap", mmap_params(mode)};
  return blosc2_schunk_open_udio(path, &io);
}

static void mmap_schunks(void) {
  const char *path = fc_path("mmap.b2");
  blosc2_io io = {BLOSC2_IO_FILESYSTEM_MMAP, "filesystem_mmap", mmap_params("w+")};
  blosc2_cparams cp = fc_cparams(4);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.urlpath = (char *)path;
  st.cparams = &cp;
  st.io = &io;
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "mmap schunk new (w+)");
  for (int i = 0; i < 3; i++) {
    fc_fill_i32(g_data, 1000, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), i + 1, "mmap append %d", i);
  }
  CHECK_EQ(blosc2_schunk_free(sc), 0, "mmap schunk free");
  CHECK(fc_file_size(path) > 87, "mmap-written frame file (%lld bytes)",
        (long long)fc_file_size(path));
  /* the file is a plain cframe: the stdio backend reads it */
  sc = blosc2_schunk_open(path);
  REQUIRE(sc != NULL, "stdio open of an mmap-written frame");
  CHECK_EQ(sc->nchunks, 3, "mmap-written nchunks");
  CHECK_EQ(blosc2_schunk_frame_len(sc), fc_file_size(path), "mmap-written frame length");
  blosc2_schunk_free(sc);

  sc = mmap_schunk_open(path, "r");
  REQUIRE(sc != NULL, "mmap open r");
  CHECK(fc_chunk_matches(sc, 2, g_data, 1000), "mmap r chunk 2");
  uint8_t *lz = NULL;
  bool nf = false;
  int lrc = blosc2_schunk_get_lazychunk(sc, 1, &lz, &nf);
  CHECK(lrc > 0, "mmap r lazychunk");
  if (nf) free(lz);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), BLOSC2_ERROR_CHUNK_APPEND,
           "mmap r refuses appends");
  blosc2_schunk_free(sc);

  sc = mmap_schunk_open(path, "r+");
  REQUIRE(sc != NULL, "mmap open r+");
  fc_fill_i32(g_data, 1000, 0, 3);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 4, "mmap r+ append");
  CHECK_EQ(blosc2_vlmeta_add(sc, "note", (uint8_t *)"mmap", 4, NULL), 0, "mmap r+ vlmeta");
  blosc2_schunk_free(sc);
  int64_t size_before = fc_file_size(path);

  sc = mmap_schunk_open(path, "c");
  REQUIRE(sc != NULL, "mmap open c");
  CHECK_EQ(sc->nchunks, 4, "mmap c sees r+ append");
  fc_fill_i32(g_data, 1000, 0, 4);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 5, "mmap c append");
  CHECK(fc_chunk_matches(sc, 4, g_data, 1000), "mmap c reads its own append");
  blosc2_schunk_free(sc);
  CHECK_EQ(fc_file_size(path), size_before, "mmap c did not change the file");

  sc = blosc2_schunk_open(path);
  REQUIRE(sc != NULL, "reopen after c");
  CHECK_EQ(sc->nchunks, 4, "c-mode append not persisted");
  fc_fill_i32(g_data, 1000, 0, 3);
  CHECK(fc_chunk_matches(sc, 3, g_data, 1000), "r+ append persisted");
  uint8_t *c = NULL;
  int32_t len = 0;
  CHECK(blosc2_vlmeta_get(sc, "note", &c, &len) == 0 && len == 4 && memcmp(c, "mmap", 4) == 0,
        "r+ vlmeta persisted");
  free(c);
  blosc2_schunk_free(sc);
  CHECK(mmap_schunk_open(fc_path("missing.b2"), "r") == NULL, "mmap open missing frame");
}

/* ---- an in-memory file system behind user I/O callbacks ------------------------------- */

typedef struct {
  char name[600];
  uint8_t *buf;
  int64_t len, cap;
} memfile_t;

static memfile_t g_files[8];
static long g_calls[7]; /* open close size write read truncate destroy */
static int g_fail_destroy = 0;

static memfile_t *mem_lookup(const char *name, int create) {
  for (int i = 0; i < 8; i++)
    if (g_files[i].buf && strcmp(g_files[i].name, name) == 0) return &g_files[i];
  if (!create) return NULL;
  for (int i = 0; i < 8; i++) {
    if (!g_files[i].buf) {
      snprintf(g_files[i].name, sizeof g_files[i].name, "%s", name);
      g_files[i].cap = 1024;
      g_files[i].buf = (uint8_t *)calloc(1, 1024);
      g_files[i].len = 0;
      return &g_files[i];
    }
  }
  return NULL;
}

static void *mem_open(const char *urlpath, const char *mode, void *params) {
  (void)params;
  g_calls[0]++;
  int create = strchr(mode, 'w') != NULL || strchr(mode, 'a') != NULL;
  memfile_t *f = mem_lookup(urlpath, create);
  if (f && strchr(mode, 'w')) f->len = 0;
  return f;
}
static int mem_close(void *stream) {
  g_calls[1]++;
  return stream ? 0 : -1;
}
static int64_t mem_size(void *stream) {
  g_calls[2]++;
  return stream ? ((memfile_t *)stream)->len : -1;
}
static int64_t mem_write(const void *ptr, int64_t size, int64_t nitems, int64_t position,
                         void *stream) {
  g_calls[3]++;
  memfile_t *f = (memfile_t *)stream;
  if (!f || size < 0 || nitems < 0 || position < 0) return 0;
  int64_t n = size * nitems;
  if (position + n > f->cap) {
    int64_t cap = (position + n) * 2;
    uint8_t *nb = (uint8_t *)realloc(f->buf, (size_t)cap);
    if (!nb) return 0;
    memset(nb + f->cap, 0, (size_t)(cap - f->cap));
    f->buf = nb;
    f->cap = cap;
  }
  memcpy(f->buf + position, ptr, (size_t)n);
  if (position + n > f->len) f->len = position + n;
  return nitems;
}
static int64_t mem_read_copy(void **ptr, int64_t size, int64_t nitems, int64_t position,
                             void *stream) {
  g_calls[4]++;
  memfile_t *f = (memfile_t *)stream;
  if (!f || size <= 0 || nitems < 0 || position < 0 || position > f->len) return 0;
  int64_t avail = (f->len - position) / size;
  if (nitems > avail) nitems = avail;
  memcpy(*ptr, f->buf + position, (size_t)(nitems * size));
  return nitems;
}
static int64_t mem_read_zero_copy(void **ptr, int64_t size, int64_t nitems, int64_t position,
                                  void *stream) {
  g_calls[4]++;
  memfile_t *f = (memfile_t *)stream;
  if (!f || size <= 0 || nitems < 0 || position < 0 || position > f->len) return 0;
  int64_t avail = (f->len - position) / size;
  if (nitems > avail) nitems = avail;
  *ptr = f->buf + position;
  return nitems;
}
static int mem_truncate(void *stream, int64_t size) {
  g_calls[5]++;
  memfile_t *f = (memfile_t *)stream;
  if (!f || size < 0 || size > f->cap) return -1;
  f->len = size;
  return 0;
}
static int mem_destroy(void *params) {
  (void)params;
  g_calls[6]++;
  return g_fail_destroy ? -1 : 0;
}

/* A counting wrapper around the stdio backend (for sframes, which need directories). */
static long g_stdio_calls = 0;
static void *cnt_open(const char *u, const char *m, void *p) {
  g_stdio_calls++;
  return blosc2_stdio_open(u, m, p);
}
static int cnt_close(void *s) {
  g_stdio_calls++;
  return blosc2_stdio_close(s);
}
static int64_t cnt_size(void *s) {
  g_stdio_calls++;
  return blosc2_stdio_size(s);
}
static int64_t cnt_write(const void *p, int64_t s, int64_t n, int64_t pos, void *st) {
  g_stdio_calls++;
  return blosc2_stdio_write(p, s, n, pos, st);
}
static int64_t cnt_read(void **p, int64_t s, int64_t n, int64_t pos, void *st) {
  g_stdio_calls++;
  return blosc2_stdio_read(p, s, n, pos, st);
}
static int cnt_truncate(void *s, int64_t n) {
  g_stdio_calls++;
  return blosc2_stdio_truncate(s, n);
}
static int cnt_destroy(void *p) {
  g_stdio_calls++;
  return blosc2_stdio_destroy(p);
}

enum { IO_MEM = 170, IO_MEM_ZC = 171, IO_COUNT = 172 };

static void register_backends(void) {
  CHECK(blosc2_get_io_cb(IO_MEM) == NULL, "unregistered id -> NULL");
  blosc2_io_cb *fs = blosc2_get_io_cb(BLOSC2_IO_FILESYSTEM);
  REQUIRE(fs != NULL, "get_io_cb(0)");
  CHECK(fs->id == BLOSC2_IO_FILESYSTEM && strcmp(fs->name, "filesystem") == 0 &&
            fs->is_allocation_necessary && fs->open == blosc2_stdio_open &&
            fs->read == blosc2_stdio_read && fs->destroy == blosc2_stdio_destroy,
        "built-in filesystem backend");
  blosc2_io_cb *mm = blosc2_get_io_cb(BLOSC2_IO_FILESYSTEM_MMAP);
  REQUIRE(mm != NULL, "get_io_cb(1)");
  CHECK(mm->id == BLOSC2_IO_FILESYSTEM_MMAP && strcmp(mm->name, "filesystem_mmap") == 0 &&
            !mm->is_allocation_necessary && mm->open == blosc2_stdio_mmap_open &&
            mm->read == blosc2_stdio_mmap_read,
        "built-in mmap backend");

  blosc2_io_cb mem = {IO_MEM,    "memfs",       true,     mem_open,     mem_close,  mem_size,
                      mem_write, mem_read_copy, mem_truncate, mem_destroy};
  CHECK_EQ(blosc2_register_io_cb(&mem), 0, "register memfs");
  CHECK_EQ(blosc2_register_io_cb(&mem), 0, "re-register the same id and name");
  blosc2_io_cb other = mem;
  other.name = "memfs-renamed";
  CHECK_EQ(blosc2_register_io_cb(&other), BLOSC2_ERROR_PLUGIN_IO, "same id, other name");
  blosc2_io_cb low = mem;
  low.id = 100;
  low.name = "low";
  CHECK_EQ(blosc2_register_io_cb(&low), BLOSC2_ERROR_PLUGIN_IO, "id below 160");
  CHECK_EQ(blosc2_register_io_cb(NULL), BLOSC2_ERROR_INVALID_PARAM, "register NULL");
  blosc2_io_cb zc = mem;
  zc.id = IO_MEM_ZC;
  zc.name = "memfs-zc";
  zc.is_allocation_necessary = false;
  zc.read = mem_read_zero_copy;
  CHECK_EQ(blosc2_register_io_cb(&zc), 0, "register memfs-zc");
  blosc2_io_cb cnt = {IO_COUNT,  "counting", true,         cnt_open,   cnt_close, cnt_size,
                      cnt_write, cnt_read,   cnt_truncate, cnt_destroy};
  CHECK_EQ(blosc2_register_io_cb(&cnt), 0, "register counting");
  blosc2_io_cb *got = blosc2_get_io_cb(IO_MEM);
  CHECK(got && got->id == IO_MEM && strcmp(got->name, "memfs") == 0 && got->open == mem_open &&
            got->read == mem_read_copy && got->is_allocation_necessary,
        "get_io_cb returns the registered callbacks");
  got = blosc2_get_io_cb(IO_MEM_ZC);
  CHECK(got && got->read == mem_read_zero_copy && !got->is_allocation_necessary,
        "get_io_cb memfs-zc");
}

static void write_zeros(const char *path, int64_t len) {
  uint8_t *z = (uint8_t *)calloc(1, (size_t)len + 1);
  fc_write_file(path, z, (size_t)len);
  free(z);
}

static void user_io(uint8_t id, const char *name) {
  char leaf[64], path[700], host_path[700];
  snprintf(leaf, sizeof leaf, "%s.b2", name);
  snprintf(path, sizeof path, "%s", fc_path(leaf));
  snprintf(leaf, sizeof leaf, "%s-host.bin", name);
  snprintf(host_path, sizeof host_path, "%s", fc_path(leaf));
  blosc2_io io = {id, name, NULL};
  blosc2_cparams cp = fc_cparams(4);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.urlpath = path;
  st.cparams = &cp;
  st.io = &io;
  memset(g_calls, 0, sizeof g_calls);
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "%s: schunk_new", name);
  for (int i = 0; i < 4; i++) {
    fc_fill_i32(g_data, 1000, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), i + 1, "%s append %d", name, i);
  }
  CHECK_EQ(blosc2_vlmeta_add(sc, "where", (uint8_t *)"memory", 6, NULL), 0, "%s vlmeta", name);
  CHECK_EQ(blosc2_schunk_delete_chunk(sc, 0), 3, "%s delete", name);
  CHECK(g_calls[0] > 0 && g_calls[3] > 0, "%s: open %ld write %ld callbacks used", name,
        g_calls[0], g_calls[3]);
  CHECK_EQ(blosc2_schunk_free(sc), 0, "%s free", name);
  CHECK(g_calls[6] >= 1, "%s destroy callback called", name);
  CHECK(!fc_exists(path), "%s: nothing on disk", name);
  memfile_t *f = mem_lookup(path, 0);
  REQUIRE(f != NULL && f->len > 87, "%s: frame in memory", name);
  CHECK(memcmp(f->buf + 2, "b2frame", 8) == 0, "%s: a cframe", name);

  /* the in-memory file is a cframe: from_buffer reads it too */
  blosc2_schunk *fb = blosc2_schunk_from_buffer(f->buf, f->len, true);
  CHECK(fb && fb->nchunks == 3, "%s: from_buffer of the stored bytes", name);
  if (fb) blosc2_schunk_free(fb);

  /* The reference's open stats the path on the real file system first (to tell a cframe
     file from an sframe directory) and checks the frame length against that file's size:
     a zero-filled placeholder of the same size satisfies it, and proves that the frame
     itself comes through the callbacks. */
  blosc2_schunk *nop = blosc2_schunk_open_udio(path, &io);
#ifdef BLOSC2_VARIANT_REFERENCE
  CHECK(nop == NULL, "%s: the reference's open_udio needs the path on disk", name);
#endif
  if (nop) blosc2_schunk_free(nop);
  write_zeros(path, f->len);
  memset(g_calls, 0, sizeof g_calls);
  sc = blosc2_schunk_open_udio(path, &io);
  REQUIRE(sc != NULL, "%s: open_udio", name);
  CHECK(g_calls[0] > 0 && g_calls[4] > 0, "%s: reopen used open/read callbacks", name);
  CHECK_EQ(sc->nchunks, 3, "%s: reopened nchunks", name);
  for (int i = 1; i < 4; i++) {
    fc_fill_i32(g_data, 1000, 0, i);
    CHECK(fc_chunk_matches(sc, i - 1, g_data, 1000), "%s: reopened chunk %d", name, i - 1);
  }
  uint8_t *c = NULL;
  int32_t len = 0;
  CHECK(blosc2_vlmeta_get(sc, "where", &c, &len) == 0 && len == 6 && memcmp(c, "memory", 6) == 0,
        "%s: vlmeta", name);
  free(c);
  /* lazy chunks come through the read callback as well */
  uint8_t *lz = NULL;
  bool nf = false;
  int lrc = blosc2_schunk_get_lazychunk(sc, 1, &lz, &nf);
  CHECK(lrc > 0, "%s: lazychunk -> %d", name, lrc);
  if (lrc > 0) {
    blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
    dp.schunk = sc;
    blosc2_context *d = blosc2_create_dctx(dp);
    int32_t out[1000];
    fc_fill_i32(g_data, 1000, 0, 2);
    CHECK(blosc2_decompress_ctx(d, lz, lrc, out, 4000) == 4000 && memcmp(out, g_data, 4000) == 0,
          "%s: lazychunk decodes", name);
    blosc2_free_ctx(d);
  }
  if (nf) free(lz);
  blosc2_schunk_free(sc);

  /* frames at an offset inside a user-I/O file */
  memfile_t *host = mem_lookup(host_path, 1);
  REQUIRE(host != NULL, "host file");
  host->len = 0;
  mem_write("PREFIX--", 1, 8, 0, host);
  mem_write(f->buf, 1, f->len, 8, host);
  write_zeros(host_path, host->len);
  sc = blosc2_schunk_open_offset_udio(host_path, 8, &io);
  REQUIRE(sc != NULL, "%s: open_offset_udio", name);
  CHECK_EQ(sc->nchunks, 3, "%s: offset frame nchunks", name);
  fc_fill_i32(g_data, 1000, 0, 3);
  CHECK(fc_chunk_matches(sc, 2, g_data, 1000), "%s: offset frame chunk", name);
  blosc2_schunk_free(sc);
  CHECK(blosc2_schunk_open_offset_udio(host_path, 7, &io) == NULL, "%s: wrong offset", name);
  CHECK(blosc2_schunk_open_udio(fc_path("nothing.b2"), &io) == NULL, "%s: missing file", name);
}

static void destroy_failure(void) {
  blosc2_io io = {IO_MEM, "memfs", NULL};
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.urlpath = fc_path("destroy.b2");
  st.io = &io;
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "schunk_new for destroy failure");
  fc_fill_i32(g_data, 1000, 0, 1);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "append");
  g_fail_destroy = 1;
  CHECK_EQ(blosc2_schunk_free(sc), 1, "free reports a failed destroy callback as 1");
  g_fail_destroy = 0;
}

static void sframe_user_io(void) {
  blosc2_stdio_params sp = BLOSC2_STDIO_PARAMS_DEFAULTS;
  blosc2_io io = {IO_COUNT, "counting", &sp};
  blosc2_cparams cp = fc_cparams(4);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = false;
  st.urlpath = fc_path("counted.b2");
  st.cparams = &cp;
  st.io = &io;
  g_stdio_calls = 0;
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "sframe with user io");
  for (int i = 0; i < 3; i++) {
    fc_fill_i32(g_data, 1000, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), i + 1, "sframe udio append");
  }
  blosc2_schunk_free(sc);
  CHECK(g_stdio_calls > 6, "sframe used the user callbacks (%ld calls)", g_stdio_calls);
  CHECK(fc_is_dir(st.urlpath) && fc_exists(fc_path("counted.b2/chunks.b2frame")) &&
            fc_exists(fc_path("counted.b2/00000002.chunk")),
        "sframe layout on disk");
  long before = g_stdio_calls;
  sc = blosc2_schunk_open_udio(st.urlpath, &io);
  REQUIRE(sc != NULL, "sframe open_udio");
  CHECK(fc_chunk_matches(sc, 2, g_data, 1000), "sframe udio chunk");
  CHECK(g_stdio_calls > before, "sframe reopen used the callbacks");
  blosc2_schunk_free(sc);
}

static void paths(void) {
  mkdir(fc_path("dir"), 0755);
  fc_write_file(fc_path("dir/x"), "1", 1);
  fc_write_file(fc_path("dir/y"), "22", 2);
  fc_write_file(fc_path("plain"), "3", 1);
  CHECK_EQ(blosc2_remove_dir(fc_path("plain")), BLOSC2_ERROR_NOT_FOUND, "remove_dir on a file");
  CHECK_EQ(blosc2_remove_dir(fc_path("nodir")), BLOSC2_ERROR_NOT_FOUND, "remove_dir missing");
  CHECK_EQ(blosc2_remove_dir(fc_path("dir")), 0, "remove_dir");
  CHECK(!fc_exists(fc_path("dir")), "directory gone");
  CHECK_EQ(blosc2_remove_urlpath(NULL), 0, "remove_urlpath NULL");
  CHECK_EQ(blosc2_remove_urlpath(fc_path("nothing")), 0, "remove_urlpath missing");
  CHECK_EQ(blosc2_remove_urlpath(fc_path("plain")), 0, "remove_urlpath file");
  CHECK(!fc_exists(fc_path("plain")), "file gone");
  /* an sframe directory */
  blosc2_schunk *sc = fc_new_schunk(FC_SFRAME_DIR, "sf.b2", NULL);
  REQUIRE(sc != NULL, "sframe");
  fc_fill_i32(g_data, 1000, 0, 1);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "append");
  blosc2_schunk_free(sc);
  CHECK_EQ(blosc2_remove_urlpath(fc_path("sf.b2")), 0, "remove_urlpath sframe dir");
  CHECK(!fc_exists(fc_path("sf.b2")), "sframe dir gone");
  /* rename a cframe file and an sframe directory, then open them at the new place */
  for (int kind = FC_CFRAME_FILE; kind <= FC_SFRAME_DIR; kind++) {
    sc = fc_new_schunk(kind, "before.b2", NULL);
    REQUIRE(sc != NULL, "%s new", fc_kind_names[kind]);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "append");
    blosc2_schunk_free(sc);
    blosc2_remove_urlpath(fc_path("after.b2"));
    CHECK_EQ(blosc2_rename_urlpath(fc_path("before.b2"), fc_path("after.b2")), 0, "%s rename",
             fc_kind_names[kind]);
    CHECK(!fc_exists(fc_path("before.b2")), "%s old name gone", fc_kind_names[kind]);
    sc = blosc2_schunk_open(fc_path("after.b2"));
    CHECK(sc && fc_chunk_matches(sc, 0, g_data, 1000), "%s renamed frame opens",
          fc_kind_names[kind]);
    if (sc) blosc2_schunk_free(sc);
  }
  CHECK_EQ(blosc2_rename_urlpath(fc_path("missing"), fc_path("x")), -1, "rename missing");
  CHECK_EQ(blosc2_rename_urlpath(NULL, fc_path("x")), 0, "rename NULL old");
  CHECK_EQ(blosc2_rename_urlpath(fc_path("after.b2"), NULL), 0, "rename NULL new");
  CHECK(fc_exists(fc_path("after.b2")), "NULL rename is a no-op");
}

/* schunk_new on a path that already holds a frame. The reference refuses ("remove it
   first", NULL) although its header says existing files are overwritten. */
static void new_over_existing(int kind) {
  const char *k = fc_kind_names[kind];
  blosc2_schunk *sc = fc_new_schunk(kind, "exists.b2", NULL);
  REQUIRE(sc != NULL, "%s new", k);
  fc_fill_i32(g_data, 1000, 0, 5);
  CHECK_EQ(blosc2_schunk_append_buffer(sc, g_data, 4000), 1, "%s append", k);
  blosc2_schunk_free(sc);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = fc_kind_contiguous(kind);
  st.urlpath = fc_path("exists.b2");
  sc = blosc2_schunk_new(&st);
#ifdef BLOSC2_VARIANT_REFERENCE
  CHECK(sc == NULL, "%s schunk_new over an existing frame refused", k);
#endif
  CHECK(sc == NULL || sc->nchunks == 0, "%s schunk_new over an existing frame", k);
  int64_t want = sc == NULL ? 1 : 0;
  if (sc) blosc2_schunk_free(sc);
  sc = blosc2_schunk_open(fc_path("exists.b2"));
  CHECK(sc && sc->nchunks == want, "%s frame after schunk_new over it", k);
  if (sc) blosc2_schunk_free(sc);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("io");
  stdio_backend();
  mmap_backend();
  mmap_schunks();
  register_backends();
  user_io(IO_MEM, "memfs");
  user_io(IO_MEM_ZC, "memfs-zc");
  destroy_failure();
  sframe_user_io();
  paths();
  new_over_existing(FC_CFRAME_FILE);
  new_over_existing(FC_SFRAME_DIR);
  blosc2_destroy();
  for (int i = 0; i < 8; i++) free(g_files[i].buf);
  return fc_finish("frames_io");
}
