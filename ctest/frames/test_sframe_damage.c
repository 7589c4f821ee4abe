/*
 * Sparse frames whose chunk files are cut short or empty (issue 10, point 10): for an empty
 * chunk file get_chunk, get_lazychunk and decompress_chunk return BLOSC2_ERROR_FILE_READ
 * (-13) in both libraries; for a file cut short decompress_chunk fails in both, and ours
 * returns -13 from all three (the reference hands out the short bytes: get_chunk returns
 * the file size). Intact chunks still read. Each case runs in a child process, so a crash
 * is a failure, not the end of the suite.
 * usage: frames_sframe_damage
 */
#include "fc_common.h"

#include <sys/wait.h>

#define ITEMS 1000
static int32_t g_buf[ITEMS];

static int chunk_path(char *out, size_t n, const char *dir, int id) {
  return snprintf(out, n, "%s/%08X.chunk", dir, id);
}

/* Child: opens the damaged frame and checks the three functions on chunk `n` (want 0: an
 * intact chunk, which they return or decode; want -1: decompress_chunk fails, the others
 * are not checked). */
static int child_checks(const char *dir, int n, int want) {
  blosc2_init();
  blosc2_schunk *sc = blosc2_schunk_open(dir);
  if (!sc) return 10;
  uint8_t *c = NULL;
  bool nf = false;
  int bad = 0;
  int rc = blosc2_schunk_get_chunk(sc, n, &c, &nf);
  if (want == -1) {
    if (rc >= 0 && nf) free(c);
    rc = blosc2_schunk_decompress_chunk(sc, n, g_buf, ITEMS * 4);
    blosc2_schunk_free(sc);
    if (rc < 0) return 0;
    fprintf(stderr, "decompress_chunk(%d) = %d, expected an error\n", n, rc);
    return 1;
  }
  if (want == 0 ? rc <= 0 : rc != want) {
    fprintf(stderr, "get_chunk(%d) = %d, expected %d\n", n, rc, want);
    bad = 1;
  }
  if (rc >= 0 && nf) free(c);
  rc = blosc2_schunk_get_lazychunk(sc, n, &c, &nf);
  if (want == 0 ? rc <= 0 : rc != want) {
    fprintf(stderr, "get_lazychunk(%d) = %d, expected %d\n", n, rc, want);
    bad = 1;
  }
  if (rc >= 0 && nf) free(c);
  rc = blosc2_schunk_decompress_chunk(sc, n, g_buf, ITEMS * 4);
  int want_d = want < 0 ? want : ITEMS * 4;
  if (rc != want_d) {
    fprintf(stderr, "decompress_chunk(%d) = %d, expected %d\n", n, rc, want_d);
    bad = 1;
  }
  blosc2_schunk_free(sc);
  return bad;
}

static void run_case(const char *dir, int n, int want, const char *what) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(child_checks(dir, n, want));
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child status %d (signal %d)", what,
        WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int main(void) {
  blosc2_init();
  fc_make_tmp("sframe-damage");
  blosc2_schunk *sc = fc_new_schunk(FC_SFRAME_DIR, "damaged.b2", NULL);
  if (!sc) {
    fprintf(stderr, "cannot create the sparse frame\n");
    return 2;
  }
  for (int i = 0; i < 4; i++) {
    fc_fill_i32(g_buf, ITEMS, 0, i);
    CHECK_EQ(blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4), i + 1, "append %d", i);
  }
  blosc2_schunk_free(sc);
  const char *dir = fc_path("damaged.b2");
  char p[1024];
  int64_t len = 0;
  chunk_path(p, sizeof p, dir, 1);
  uint8_t *bytes = fc_read_file(p, &len);
  CHECK(bytes && len > 40, "chunk file 1 holds %lld bytes", (long long)len);
  if (bytes) fc_write_file(p, bytes, (size_t)(len / 2)); /* cut in the middle */
  free(bytes);
  chunk_path(p, sizeof p, dir, 2);
  fc_write_file(p, "", 0); /* empty */
  chunk_path(p, sizeof p, dir, 3);
  bytes = fc_read_file(p, &len);
  if (bytes) fc_write_file(p, bytes, 20); /* shorter than a chunk header */
  free(bytes);
  run_case(dir, 0, 0, "intact chunk 0");
  run_case(dir, 2, BLOSC2_ERROR_FILE_READ, "empty chunk file");
#ifdef BLOSC2_VARIANT_OURS
  run_case(dir, 1, BLOSC2_ERROR_FILE_READ, "chunk file cut in the middle");
  run_case(dir, 3, BLOSC2_ERROR_FILE_READ, "chunk file shorter than a header");
#else
  run_case(dir, 1, -1, "chunk file cut in the middle");
  run_case(dir, 3, -1, "chunk file shorter than a header");
#endif
  blosc2_destroy();
  return fc_finish("frames_sframe_damage");
}
