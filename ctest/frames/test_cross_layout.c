/*
 * Cross layout test (issue 10, points 13 and 11): loads OUR library and the REFERENCE
 * library into one process (dlopen, RTLD_LOCAL) and runs the same operation sequences on
 * file frames through each, at nthreads=1: contiguous files and sparse directories, through
 * the default backend and through user I/O callbacks (a stdio backend registered as id 200
 * in each library that logs every call). After each sequence the two results must be
 * byte-identical (every file of a directory too), and reopened with either library they
 * must give the same cbytes, nbytes and chunk offsets. With user I/O, both libraries must
 * write the same files through the callbacks (nothing behind the backend's back); whether
 * the exact sequence of calls matches is reported, not required (see the README).
 *
 * usage: frames_cross_layout OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
 */
#define FC_NO_LIBRARY
#include "fc_common.h"

#include <dirent.h>

#define LIB_FUNCS(X)                                                                         \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_cctx) X(blosc2_free_ctx)                  \
  X(blosc2_compress_ctx) X(blosc2_chunk_zeros) X(blosc2_schunk_new) X(blosc2_schunk_free)    \
  X(blosc2_schunk_append_buffer) X(blosc2_schunk_append_chunk) X(blosc2_schunk_insert_chunk) \
  X(blosc2_schunk_update_chunk) X(blosc2_schunk_delete_chunk) X(blosc2_schunk_reorder_offsets) \
  X(blosc2_schunk_open) X(blosc2_schunk_open_udio) X(blosc2_frame_get_offsets)               \
  X(blosc2_meta_add) X(blosc2_meta_update) X(blosc2_vlmeta_add) X(blosc2_vlmeta_update)      \
  X(blosc2_vlmeta_delete) X(blosc2_remove_urlpath) X(blosc2_register_io_cb)

#include "../cross_lib.h"

/* ---- a logging stdio backend ----------------------------------------------------------- */

#define LOG_MAX 200000
static char g_log[LOG_MAX];
static size_t g_log_len;
static const char *g_root = ""; /* paths are logged relative to this */

static void logf_(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (g_log_len < LOG_MAX - 256) {
    int n = vsnprintf(g_log + g_log_len, LOG_MAX - g_log_len, fmt, ap);
    if (n > 0) g_log_len += (size_t)n;
  }
  va_end(ap);
}

typedef struct {
  FILE *f;
  char name[64];
} lstream_t;

static void *l_open(const char *urlpath, const char *mode, void *params) {
  (void)params;
  FILE *f = fopen(urlpath, mode);
  const char *rel = strncmp(urlpath, g_root, strlen(g_root)) == 0 ? urlpath + strlen(g_root) : urlpath;
  const char *m = strchr(mode, 'w') ? "w" : strchr(mode, '+') ? "r+" : "r";
  logf_("open %s %s%s\n", rel, m, f ? "" : " FAILED");
  if (!f) return NULL;
  lstream_t *s = (lstream_t *)fc_malloc(sizeof *s);
  s->f = f;
  snprintf(s->name, sizeof s->name, "%s", rel);
  return s;
}
static int l_close(void *st) {
  lstream_t *s = (lstream_t *)st;
  logf_("close %s\n", s->name);
  int rc = fclose(s->f);
  free(s);
  return rc;
}
static int64_t l_size(void *st) {
  lstream_t *s = (lstream_t *)st;
  long pos = ftell(s->f);
  fseek(s->f, 0, SEEK_END);
  int64_t n = ftell(s->f);
  fseek(s->f, pos, SEEK_SET);
  return n;
}
static int64_t l_write(const void *ptr, int64_t size, int64_t nitems, int64_t pos, void *st) {
  lstream_t *s = (lstream_t *)st;
  logf_("write %s %lld %lld\n", s->name, (long long)pos, (long long)(size * nitems));
  if (size * nitems == 0) return 0; /* the reference may pass NULL with nothing to write */
  fseek(s->f, pos, SEEK_SET);
  return (int64_t)fwrite(ptr, (size_t)size, (size_t)nitems, s->f);
}
static int64_t l_read(void **ptr, int64_t size, int64_t nitems, int64_t pos, void *st) {
  lstream_t *s = (lstream_t *)st;
  fseek(s->f, pos, SEEK_SET);
  return (int64_t)fread(*ptr, (size_t)size, (size_t)nitems, s->f);
}
static int l_truncate(void *st, int64_t size) {
  lstream_t *s = (lstream_t *)st;
  logf_("truncate %s %lld\n", s->name, (long long)size);
  fflush(s->f);
  return ftruncate(fileno(s->f), size);
}
static int l_destroy(void *params) {
  (void)params;
  return 0;
}

#define LOG_IO 200

static int register_log_io(lib_t *L) {
  blosc2_io_cb cb;
  memset(&cb, 0, sizeof cb);
  cb.id = LOG_IO;
  cb.name = (char *)"logio";
  cb.is_allocation_necessary = true;
  cb.open = l_open;
  cb.close = l_close;
  cb.size = l_size;
  cb.write = l_write;
  cb.read = l_read;
  cb.truncate = l_truncate;
  cb.destroy = l_destroy;
  return L->blosc2_register_io_cb(&cb);
}

/* ---- the operation sequence ------------------------------------------------------------ */

#define ITEMS 1000
static int32_t g_buf[ITEMS];

static uint8_t *chunk_of(lib_t *L, int tag, int special, int32_t *cb) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  uint8_t *c = (uint8_t *)fc_malloc(ITEMS * 4 + BLOSC2_MAX_OVERHEAD);
  if (special) {
    *cb = L->blosc2_chunk_zeros(cp, ITEMS * 4, c, BLOSC_EXTENDED_HEADER_LENGTH);
    return c;
  }
  fc_fill_i32(g_buf, ITEMS, 0, tag);
  blosc2_context *ctx = L->blosc2_create_cctx(cp);
  *cb = L->blosc2_compress_ctx(ctx, g_buf, ITEMS * 4, c, ITEMS * 4 + BLOSC2_MAX_OVERHEAD);
  L->blosc2_free_ctx(ctx);
  return c;
}

/* Runs the sequence through L on path; returns 0 when every call gave what it should. */
static void run(lib_t *L, const char *path, int contiguous, int udio, const char *ctx) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 1;
  blosc2_io io = {.id = LOG_IO, .name = "logio", .params = NULL};
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = contiguous;
  st.urlpath = (char *)path;
  st.cparams = &cp;
  st.dparams = &dp;
  if (udio) st.io = &io;
  L->blosc2_remove_urlpath(path);
  blosc2_schunk *sc = L->blosc2_schunk_new(&st);
  REQUIRE(sc != NULL, "%s: %s schunk_new", ctx, L->label);
  uint8_t meta[4] = {1, 2, 3, 4};
  CHECK_EQ(L->blosc2_meta_add(sc, "m", meta, 4), 0, "%s: %s meta_add", ctx, L->label);
  int32_t cb;
  for (int i = 0; i < 6; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(L->blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), i + 1, "%s: %s append %d",
             ctx, L->label, i);
  }
  uint8_t *c = chunk_of(L, 40, 0, &cb);
  CHECK_EQ(L->blosc2_schunk_insert_chunk(sc, 2, c, true), 7, "%s: %s insert", ctx, L->label);
  free(c);
  c = chunk_of(L, 41, 0, &cb);
  CHECK_EQ(L->blosc2_schunk_update_chunk(sc, 0, c, true), 7, "%s: %s update", ctx, L->label);
  free(c);
  c = chunk_of(L, 42, 0, &cb);
  CHECK_EQ(L->blosc2_schunk_update_chunk(sc, 4, c, true), 7, "%s: %s update", ctx, L->label);
  free(c);
  c = chunk_of(L, 0, 1, &cb);
  CHECK_EQ(L->blosc2_schunk_update_chunk(sc, 5, c, true), 7, "%s: %s update zeros", ctx,
           L->label);
  free(c);
  CHECK_EQ(L->blosc2_schunk_delete_chunk(sc, 1), 6, "%s: %s delete", ctx, L->label);
  int64_t order[6] = {5, 4, 3, 2, 1, 0};
  CHECK_EQ(L->blosc2_schunk_reorder_offsets(sc, order), 0, "%s: %s reorder", ctx, L->label);
  CHECK_EQ(L->blosc2_vlmeta_add(sc, "vl", (uint8_t *)"first", 5, NULL), 0, "%s: %s vlmeta_add",
           ctx, L->label);
  fc_fill_i32(g_buf, ITEMS, 0, 50);
  CHECK_EQ(L->blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), 7, "%s: %s append", ctx,
           L->label);
  CHECK_EQ(L->blosc2_vlmeta_update(sc, "vl", (uint8_t *)"second, longer", 14, NULL), 0,
           "%s: %s vlmeta_update", ctx, L->label);
  uint8_t meta2[4] = {9, 8, 7, 6};
  CHECK_EQ(L->blosc2_meta_update(sc, "m", meta2, 4), 0, "%s: %s meta_update", ctx, L->label);
  CHECK_EQ(L->blosc2_vlmeta_delete(sc, "vl"), 0, "%s: %s vlmeta_delete", ctx, L->label);
  c = chunk_of(L, 43, 0, &cb);
  CHECK_EQ(L->blosc2_schunk_append_chunk(sc, c, true), 8, "%s: %s append_chunk", ctx, L->label);
  free(c);
  L->blosc2_schunk_free(sc);
}

/* ---- comparisons --------------------------------------------------------------------- */

static void compare_file(const char *a, const char *b, const char *ctx) {
  int64_t la = 0, lb = 0;
  uint8_t *fa = fc_read_file(a, &la), *fb = fc_read_file(b, &lb);
  CHECK(fa && fb, "%s: cannot read %s or %s", ctx, a, b);
  if (fa && fb) {
    CHECK_EQ(la, lb, "%s: size of %s", ctx, b);
    int64_t first = -1;
    for (int64_t i = 0; i < (la < lb ? la : lb); i++)
      if (fa[i] != fb[i]) {
        first = i;
        break;
      }
    CHECK(first < 0, "%s: %s and %s differ from byte %lld", ctx, a, b, (long long)first);
  }
  free(fa);
  free(fb);
}

static void compare_tree(const char *a, const char *b, int contiguous, const char *ctx) {
  if (contiguous) {
    compare_file(a, b, ctx);
    return;
  }
  for (int pass = 0; pass < 2; pass++) {
    const char *dir = pass ? b : a, *other = pass ? a : b;
    DIR *d = opendir(dir);
    REQUIRE(d != NULL, "%s: cannot list %s", ctx, dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char pa[1400], pb[1400];
      snprintf(pa, sizeof pa, "%s/%s", dir, e->d_name);
      snprintf(pb, sizeof pb, "%s/%s", other, e->d_name);
      CHECK(fc_exists(pb), "%s: %s has no %s", ctx, other, e->d_name);
      if (!pass && fc_exists(pb)) compare_file(pa, pb, ctx);
    }
    closedir(d);
  }
}

static void compare_reopened(lib_t *R, const char *a, const char *b, int udio, const char *ctx) {
  blosc2_io io = {.id = LOG_IO, .name = "logio", .params = NULL};
  blosc2_schunk *sa = udio ? R->blosc2_schunk_open_udio(a, &io) : R->blosc2_schunk_open(a);
  blosc2_schunk *sb = udio ? R->blosc2_schunk_open_udio(b, &io) : R->blosc2_schunk_open(b);
  CHECK(sa && sb, "%s: %s cannot reopen both", ctx, R->label);
  if (sa && sb) {
    CHECK_EQ(sb->cbytes, sa->cbytes, "%s: %s reopened cbytes", ctx, R->label);
    CHECK_EQ(sb->nbytes, sa->nbytes, "%s: %s reopened nbytes", ctx, R->label);
    CHECK_EQ(sb->nchunks, sa->nchunks, "%s: %s reopened nchunks", ctx, R->label);
    int64_t *oa = R->blosc2_frame_get_offsets(sa), *ob = R->blosc2_frame_get_offsets(sb);
    for (int64_t i = 0; oa && ob && i < sa->nchunks && i < sb->nchunks; i++)
      CHECK_EQ(ob[i], oa[i], "%s: %s reopened offset %lld", ctx, R->label, (long long)i);
    free(oa);
    free(ob);
  }
  if (sa) R->blosc2_schunk_free(sa);
  if (sb) R->blosc2_schunk_free(sb);
}

/* The mutating calls of a log (open modes other than read, writes, truncates). */
static char *mutations(const char *log) {
  char *out = (char *)fc_malloc(strlen(log) + 1);
  size_t n = 0;
  const char *p = log;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
    int keep = strncmp(p, "write", 5) == 0 || strncmp(p, "truncate", 8) == 0 ||
               (strncmp(p, "open", 4) == 0 && (memmem(p, len, " w", 2) || memmem(p, len, " r+", 3)));
    if (keep) {
      memcpy(out + n, p, len);
      n += len;
    }
    p += len;
  }
  out[n] = 0;
  return out;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted, distinct names of the files a log opened for writing. */
static char *written_files(const char *log) {
  const char *names[4096];
  int n = 0;
  char *copy = strdup(log);
  for (char *line = strtok(copy, "\n"); line && n < 4096; line = strtok(NULL, "\n")) {
    if (strncmp(line, "open ", 5) != 0 || strstr(line, "FAILED")) continue;
    char *sp = strrchr(line, ' ');
    if (!sp || strcmp(sp, " r") == 0) continue;
    *sp = 0;
    names[n++] = line + 5;
  }
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  char *out = (char *)fc_malloc(strlen(log) + 1);
  size_t len = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && strcmp(names[i], names[i - 1]) == 0) continue;
    len += (size_t)sprintf(out + len, "%s\n", names[i]);
  }
  out[len] = 0;
  free(copy);
  return out;
}

int main(int argc, char **argv) {
  static lib_t ours, ref;
  if (!cross_load_pair(argc, argv, &ours, &ref)) return 2;
  ours.blosc2_init();
  ref.blosc2_init();
  CHECK_EQ(register_log_io(&ours), 0, "ours registers the logging backend");
  CHECK_EQ(register_log_io(&ref), 0, "the reference registers the logging backend");
  fc_make_tmp("crosslayout");
  static char root[600], ref_root[640], our_root[640];
  snprintf(root, sizeof root, "%s", fc_path(""));
  snprintf(ref_root, sizeof ref_root, "%s/ref/", root);
  snprintf(our_root, sizeof our_root, "%s/ours/", root);
  mkdir(ref_root, 0755);
  mkdir(our_root, 0755);
  for (int contiguous = 1; contiguous >= 0; contiguous--) {
    for (int udio = 0; udio < 2; udio++) {
      char ctx[96], pa[800], pb[800];
      snprintf(ctx, sizeof ctx, "%s%s", contiguous ? "cframe file" : "sframe dir",
               udio ? " with user I/O" : "");
      snprintf(pa, sizeof pa, "%sf-%d-%d.b2", ref_root, contiguous, udio);
      snprintf(pb, sizeof pb, "%sf-%d-%d.b2", our_root, contiguous, udio);
      g_log_len = 0;
      g_log[0] = 0;
      g_root = ref_root;
      run(&ref, pa, contiguous, udio, ctx);
      char *ref_log = mutations(g_log);
      g_log_len = 0;
      g_log[0] = 0;
      g_root = our_root;
      run(&ours, pb, contiguous, udio, ctx);
      char *our_log = mutations(g_log);
      compare_tree(pa, pb, contiguous, ctx);
      compare_reopened(&ref, pa, pb, udio, ctx);
      compare_reopened(&ours, pa, pb, udio, ctx);
      if (udio) {
        char *ref_files = written_files(ref_log), *our_files = written_files(our_log);
        CHECK(strcmp(ref_files, our_files) == 0,
              "%s: files written through the user I/O callbacks differ:\nreference:\n%sours:\n%s",
              ctx, ref_files, our_files);
        free(ref_files);
        free(our_files);
        int same = strcmp(ref_log, our_log) == 0;
        printf("%s: the sequence of user I/O calls is %s the reference's%s\n", ctx,
               same ? "the same as" : "NOT the same as",
               same ? "" : " (FRAMES_CROSS_LOG=1 prints both)");
        if (!same && getenv("FRAMES_CROSS_LOG")) {
          printf("---- reference (%s)\n%s---- ours\n%s", ctx, ref_log, our_log);
        }
      }
      free(ref_log);
      free(our_log);
    }
  }
  return fc_finish("frames_cross_layout");
}
