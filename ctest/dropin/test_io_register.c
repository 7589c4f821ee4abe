/*
 * Issue 10, point 4: blosc2_register_io_cb reads the callback struct's `name` only when the
 * id is already registered (to compare names), never on a first registration or for a
 * rejected id. Callers that fill only `id` and the functions of a stack struct must not
 * make it read an uninitialised pointer (run this test under valgrind to see that), and a
 * name pointer that cannot be read must not crash it. Each case runs in a child process.
 */
#include "dropin_common.h"

/* A pointer that faults when read. */
#define BAD_NAME ((char *)(uintptr_t)0x8)

static void set_functions(blosc2_io_cb *cb) {
  cb->is_allocation_necessary = true;
  cb->open = blosc2_stdio_open;
  cb->close = blosc2_stdio_close;
  cb->size = blosc2_stdio_size;
  cb->write = blosc2_stdio_write;
  cb->read = blosc2_stdio_read;
  cb->truncate = blosc2_stdio_truncate;
  cb->destroy = blosc2_stdio_destroy;
}

static void case_name_left_unset(void) {
  blosc2_io_cb cb; /* `name` deliberately left uninitialised */
  cb.id = 200;
  set_functions(&cb);
  CHECK_EQ(blosc2_register_io_cb(&cb), 0, "register with an unset name");
  blosc2_io_cb *got = blosc2_get_io_cb(200);
  CHECK(got != NULL, "get_io_cb(200)");
  if (got != NULL) {
    CHECK_EQ(got->id, 200, "registered id");
    CHECK(got->open == blosc2_stdio_open && got->read == blosc2_stdio_read &&
              got->destroy == blosc2_stdio_destroy,
          "registered callbacks");
  }
}

static void case_unreadable_name(void) {
  blosc2_io_cb cb;
  memset(&cb, 0, sizeof cb);
  set_functions(&cb);
  cb.name = BAD_NAME;
  cb.id = 201;
  CHECK_EQ(blosc2_register_io_cb(&cb), 0, "first registration does not read the name");
  blosc2_io_cb *got = blosc2_get_io_cb(201);
  CHECK(got != NULL && got->name == BAD_NAME, "the entry keeps the caller's name pointer");
  cb.id = 100;
  CHECK_EQ(blosc2_register_io_cb(&cb), BLOSC2_ERROR_PLUGIN_IO, "low id, rejected unread");
  cb.id = 0;
  CHECK_EQ(blosc2_register_io_cb(&cb), BLOSC2_ERROR_PLUGIN_IO, "id 0, rejected unread");

  /* The backend carries frames without its name being read. */
  blosc2_io io = {201, "unused", NULL};
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = true;
  st.urlpath = "udio.b2frame";
  st.cparams = &cp;
  st.io = &io;
  blosc2_schunk *s = blosc2_schunk_new(&st);
  CHECK(s != NULL, "frame through the backend");
  if (s == NULL) return;
  int32_t buf[1000];
  for (int i = 0; i < 1000; i++) buf[i] = i;
  CHECK_EQ(blosc2_schunk_append_buffer(s, buf, sizeof buf), 1, "append");
  blosc2_schunk_free(s);
  s = blosc2_schunk_open_udio("udio.b2frame", &io);
  CHECK(s != NULL, "reopen through the backend");
  if (s == NULL) return;
  int32_t out[1000];
  CHECK_EQ(blosc2_schunk_decompress_chunk(s, 0, out, sizeof out), (int)sizeof out, "decompress");
  CHECK(memcmp(out, buf, sizeof out) == 0, "content");
  blosc2_schunk_free(s);
}

static void case_names_on_reregistration(void) {
  char first[] = "store";
  char same[] = "store";
  char other[] = "elsewhere";
  blosc2_io_cb cb;
  memset(&cb, 0, sizeof cb);
  set_functions(&cb);
  cb.id = 202;
  cb.name = first;
  CHECK_EQ(blosc2_register_io_cb(&cb), 0, "register");
  cb.name = same;
  CHECK_EQ(blosc2_register_io_cb(&cb), 0, "same id, equal name");
  cb.name = other;
  CHECK_EQ(blosc2_register_io_cb(&cb), BLOSC2_ERROR_PLUGIN_IO, "same id, other name");
  blosc2_io_cb *got = blosc2_get_io_cb(202);
  CHECK(got != NULL && got->name == first, "the first registration stays");
  cb.id = 203;
  cb.name = first;
  CHECK_EQ(blosc2_register_io_cb(&cb), 0, "a name may be shared by two ids");
  CHECK_EQ(blosc2_register_io_cb(NULL), BLOSC2_ERROR_INVALID_PARAM, "NULL");
}

static void case_all_user_ids(void) {
  int ok = 0;
  for (int id = BLOSC2_IO_REGISTERED; id <= 255; id++) {
    blosc2_io_cb cb;
    cb.id = (uint8_t)id;
    set_functions(&cb);
    ok += blosc2_register_io_cb(&cb) == 0;
  }
  CHECK_EQ(ok, 256 - BLOSC2_IO_REGISTERED, "every user id registers once");
}

int main(void) {
  di_enter_scratch("dropin_io_register");
  di_run("name left unset", case_name_left_unset);
  di_run("unreadable name", case_unreadable_name);
  di_run("names compared on re-registration", case_names_on_reregistration);
  di_run("every user id", case_all_user_ids);
  return di_finish("dropin_io_register");
}
