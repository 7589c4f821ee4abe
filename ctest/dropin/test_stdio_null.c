/*
 * Issue 10, point 2: the stdio backend callbacks on a blosc2_stdio_file whose FILE* is NULL
 * (and on a NULL stream) return the reference's values instead of dereferencing it;
 * blosc2_stdio_size leaves the file position where it was; blosc2_stdio_mmap_destroy on a
 * block that was never opened returns -1.
 */
#include "dropin_common.h"

static void case_null_file(void) {
  blosc2_stdio_file f = {NULL};
  char buf[8] = "abcdefg";
  void *p = buf;
  CHECK_EQ(blosc2_stdio_size(&f), -1, "size");
  CHECK_EQ(blosc2_stdio_truncate(&f, 10), -1, "truncate");
  CHECK_EQ(blosc2_stdio_write(buf, 1, 4, 0, &f), 0, "write");
  CHECK_EQ(blosc2_stdio_read(&p, 1, 4, 0, &f), 0, "read");
  CHECK(p == buf, "read moved the caller's pointer");
  CHECK(memcmp(buf, "abcdefg", 8) == 0, "read wrote into the caller's buffer");
  /* The stream lives on the stack here: close must neither touch the FILE nor free it. */
  CHECK_EQ(blosc2_stdio_close(&f), -1, "close");
}

static void case_null_stream(void) {
  char buf[4] = "abc";
  void *p = buf;
  CHECK_EQ(blosc2_stdio_size(NULL), -1, "size");
  CHECK_EQ(blosc2_stdio_truncate(NULL, 1), -1, "truncate");
  CHECK_EQ(blosc2_stdio_write(buf, 1, 1, 0, NULL), 0, "write");
  CHECK_EQ(blosc2_stdio_read(&p, 1, 1, 0, NULL), 0, "read");
  CHECK_EQ(blosc2_stdio_close(NULL), -1, "close");
  CHECK_EQ(blosc2_stdio_mmap_destroy(NULL), -1, "mmap destroy");
}

static void case_size_keeps_position(void) {
  FILE *w = fopen("pos.bin", "wb");
  CHECK(w != NULL, "create pos.bin");
  if (w == NULL) return;
  fwrite("0123456789", 1, 10, w);
  fclose(w);
  blosc2_stdio_file *s = blosc2_stdio_open("pos.bin", "rb+", NULL);
  CHECK(s != NULL && s->file != NULL, "open");
  if (s == NULL) return;
  CHECK_EQ(fseek(s->file, 3, SEEK_SET), 0, "seek");
  CHECK_EQ(blosc2_stdio_size(s), 10, "size");
  CHECK_EQ(ftell(s->file), 3, "position after size");
  CHECK_EQ(fgetc(s->file), '3', "next byte after size");
  CHECK_EQ(blosc2_stdio_size(s), 10, "size again");
  CHECK_EQ(ftell(s->file), 4, "position after the second size");
  CHECK_EQ(blosc2_stdio_close(s), 0, "close");
}

static void case_mmap_never_opened(void) {
  blosc2_stdio_mmap m = BLOSC2_STDIO_MMAP_DEFAULTS;
  CHECK_EQ(blosc2_stdio_mmap_destroy(&m), -1, "destroy of a never-opened block");
  CHECK(m.addr == NULL && m.urlpath == NULL, "block state after destroy");
  blosc2_stdio_mmap *h = malloc(sizeof *h);
  *h = BLOSC2_STDIO_MMAP_DEFAULTS;
  h->needs_free = true;
  CHECK_EQ(blosc2_stdio_mmap_destroy(h), -1, "destroy of a never-opened heap block");
}

int main(void) {
  di_enter_scratch("dropin_stdio_null");
  di_run("NULL FILE*", case_null_file);
  di_run("NULL stream", case_null_stream);
  di_run("size keeps the position", case_size_keeps_position);
  di_run("mmap destroy of a never-opened block", case_mmap_never_opened);
  return di_finish("dropin_stdio_null");
}
