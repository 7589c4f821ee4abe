/*
 * Issue 10, point 5: `file:///` urlpaths. The reference drops exactly the eight bytes
 * "file:///" (so "file:///x" is the relative path "x") when it creates (blosc2_schunk_new,
 * contiguous and sparse; blosc2_schunk_copy), opens (blosc2_schunk_open*, with or without
 * offset and user I/O) and writes (blosc2_schunk_to_file) super-chunks; a created
 * super-chunk reports the normalised path in storage->urlpath, an opened one the path as
 * given. The path utilities (blosc2_schunk_append_file, blosc2_remove_urlpath,
 * blosc2_remove_dir, blosc2_rename_urlpath) take the path literally, as the reference does.
 */
#include "dropin_common.h"

static int32_t g_buf[1000];

static blosc2_schunk *create(bool contiguous, const char *urlpath) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = contiguous;
  st.urlpath = (char *)urlpath;
  return blosc2_schunk_new(&st);
}

static void check_urlpath(blosc2_schunk *s, const char *want, const char *what) {
  const char *got = s->storage != NULL ? s->storage->urlpath : NULL;
  CHECK(got != NULL && strcmp(got, want) == 0, "%s: storage->urlpath is %s, expected %s", what,
        got != NULL ? got : "NULL", want);
}

static void check_frame(blosc2_schunk *s, int64_t nchunks, const char *what) {
  CHECK(s != NULL, "%s: NULL", what);
  if (s == NULL) return;
  CHECK_EQ(s->nchunks, nchunks, "%s: nchunks", what);
  int32_t out[1000];
  if (nchunks > 0) {
    CHECK_EQ(blosc2_schunk_decompress_chunk(s, 0, out, sizeof out), (int)sizeof out,
             "%s: decompress", what);
    CHECK(memcmp(out, g_buf, sizeof out) == 0, "%s: content", what);
  }
}

static void make(bool contiguous, const char *url, const char *local) {
  const char *what = contiguous ? "contiguous new" : "sparse new";
  blosc2_remove_urlpath(local); /* the reference refuses to overwrite a frame */
  blosc2_schunk *s = create(contiguous, url);
  CHECK(s != NULL, "%s %s", what, url);
  if (s == NULL) return;
  check_urlpath(s, local, what);
  CHECK_EQ(blosc2_schunk_append_buffer(s, g_buf, sizeof g_buf), 1, "%s: append", what);
  blosc2_schunk_free(s);
  int is_dir = -1;
  CHECK(di_file_size(local, &is_dir) >= 0 && is_dir == !contiguous, "%s: %s not created", what,
        local);
  CHECK(di_file_size("file:", NULL) < 0, "%s: a literal file: directory was created", what);
}

static void case_create(void) {
  make(true, "file:///c.b2frame", "c.b2frame");
  make(false, "file:///s.b2frame", "s.b2frame");
  blosc2_schunk *s = blosc2_schunk_open("c.b2frame");
  check_frame(s, 1, "plain open of the contiguous frame");
  if (s != NULL) blosc2_schunk_free(s);
  s = blosc2_schunk_open("s.b2frame");
  check_frame(s, 1, "plain open of the sparse frame");
  if (s != NULL) blosc2_schunk_free(s);
}

static void case_open(void) {
  make(true, "c.b2frame", "c.b2frame");
  make(false, "s.b2frame", "s.b2frame");
  blosc2_io io = BLOSC2_IO_DEFAULTS;
  struct {
    const char *url;
    int how;
  } opens[] = {{"file:///c.b2frame", 0}, {"file:///s.b2frame", 0}, {"file:///c.b2frame", 1},
               {"file:///c.b2frame", 2}, {"file:///s.b2frame", 2}, {"file:///c.b2frame", 3}};
  static const char *names[] = {"open", "open_offset", "open_udio", "open_offset_udio"};
  for (size_t i = 0; i < sizeof opens / sizeof opens[0]; i++) {
    blosc2_schunk *s = NULL;
    switch (opens[i].how) {
      case 0: s = blosc2_schunk_open(opens[i].url); break;
      case 1: s = blosc2_schunk_open_offset(opens[i].url, 0); break;
      case 2: s = blosc2_schunk_open_udio(opens[i].url, &io); break;
      default: s = blosc2_schunk_open_offset_udio(opens[i].url, 0, &io); break;
    }
    char what[128];
    snprintf(what, sizeof what, "%s(%s)", names[opens[i].how], opens[i].url);
    check_frame(s, 1, what);
    if (s == NULL) continue;
    check_urlpath(s, opens[i].url, what);
    int32_t more[1000];
    memcpy(more, g_buf, sizeof more);
    CHECK_EQ(blosc2_schunk_append_buffer(s, more, sizeof more), 2, "%s: append", what);
    CHECK_EQ(blosc2_schunk_delete_chunk(s, 1), 1, "%s: delete", what);
    blosc2_schunk_free(s);
  }
  CHECK(di_file_size("file:", NULL) < 0, "open: a literal file: directory appeared");
}

static void case_copy_and_to_file(void) {
  blosc2_schunk *s = create(false, NULL);
  CHECK_EQ(blosc2_schunk_append_buffer(s, g_buf, sizeof g_buf), 1, "append");
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.cparams = &cp;
  st.contiguous = true;
  st.urlpath = "file:///copy.b2frame";
  blosc2_schunk *c = blosc2_schunk_copy(s, &st);
  check_frame(c, 1, "copy to file:///copy.b2frame");
  if (c != NULL) {
    check_urlpath(c, "copy.b2frame", "copy");
    blosc2_schunk_free(c);
  }
  CHECK(di_file_size("copy.b2frame", NULL) > 0, "copy: copy.b2frame not written");
  st.contiguous = false;
  st.urlpath = "file:///copydir.b2frame";
  c = blosc2_schunk_copy(s, &st);
  check_frame(c, 1, "copy to file:///copydir.b2frame");
  if (c != NULL) {
    check_urlpath(c, "copydir.b2frame", "sparse copy");
    blosc2_schunk_free(c);
  }
  int64_t n = blosc2_schunk_to_file(s, "file:///to.b2frame");
  CHECK(n > 0, "to_file(file:///to.b2frame) = %lld", (long long)n);
  CHECK_EQ(di_file_size("to.b2frame", NULL), n, "to_file wrote to.b2frame");
  blosc2_schunk *t = blosc2_schunk_open("to.b2frame");
  check_frame(t, 1, "reopen of to_file's frame");
  if (t != NULL) blosc2_schunk_free(t);
  CHECK(di_file_size("file:", NULL) < 0, "copy/to_file: a literal file: directory appeared");
  blosc2_schunk_free(s);
}

static void case_literal_utilities(void) {
  make(true, "lit.b2frame", "lit.b2frame");
  blosc2_schunk *s = create(false, NULL);
  CHECK_EQ(blosc2_schunk_append_buffer(s, g_buf, sizeof g_buf), 1, "append");
  CHECK_EQ(blosc2_schunk_append_file(s, "file:///lit.b2frame"), BLOSC2_ERROR_FILE_OPEN,
           "append_file takes the path literally");
  int64_t off = blosc2_schunk_append_file(s, "lit.b2frame");
  CHECK(off > 0, "append_file(lit.b2frame) = %lld", (long long)off);
  blosc2_schunk_free(s);
  s = blosc2_schunk_open_offset("file:///lit.b2frame", off);
  check_frame(s, 1, "open_offset of the appended frame");
  if (s != NULL) blosc2_schunk_free(s);
  CHECK_EQ(blosc2_remove_urlpath("file:///lit.b2frame"), 0, "remove_urlpath");
  CHECK(di_file_size("lit.b2frame", NULL) > 0, "remove_urlpath takes the path literally");
  CHECK_EQ(blosc2_remove_dir("file:///lit.b2frame"), BLOSC2_ERROR_NOT_FOUND, "remove_dir");
  CHECK(blosc2_rename_urlpath("file:///lit.b2frame", "file:///moved.b2frame") < 0,
        "rename_urlpath takes the paths literally");
  CHECK(di_file_size("lit.b2frame", NULL) > 0, "rename left the file");
  CHECK_EQ(blosc2_remove_urlpath("lit.b2frame"), 0, "remove_urlpath(lit.b2frame)");
  CHECK(di_file_size("lit.b2frame", NULL) < 0, "lit.b2frame removed");
}

int main(void) {
  for (int i = 0; i < 1000; i++) g_buf[i] = i * 3;
  di_enter_scratch("dropin_file_url");
  di_run("create with file:///", case_create);
  di_run("open with file:///", case_open);
  di_run("copy and to_file with file:///", case_copy_and_to_file);
  di_run("path utilities take the path literally", case_literal_utilities);
  return di_finish("dropin_file_url");
}
