/*
 * Crash safety of file-backed frames (cframe file and sframe directory): a child process
 * opens the frame and appends chunks as fast as it can, reporting the new chunk count
 * through a pipe after every successful append; the parent kills it with SIGKILL after a
 * random delay (fixed seed), then opens the frame and checks that it opens, that it holds
 * at least every reported chunk (at most one more), and that every chunk it holds decodes
 * to its content. Repeated many times within a bounded time (about 10 s). The next child
 * continues on the same frame, so appends land on frames that survived earlier kills.
 *
 * The reference c-blosc2 gives no crash-safety guarantee: this test is registered for our
 * library only (BLOSC2_FRAMES_CRASH_TEST).
 *
 * usage: frames_crash [SECONDS [SEED]]
 */
#include "fc_common.h"

#include <signal.h>
#include <sys/wait.h>

#define ITEMS 1000
#define MAX_CHUNKS 1500 /* start a fresh frame beyond this */

static int32_t g_buf[ITEMS];

/* Chunk i holds fc_fill_i32(tag = i); every 5th chunk is shorter (variable sizes). */
static int32_t chunk_items(int64_t i) { return i % 5 == 4 ? ITEMS / 2 : ITEMS; }

static void child(const char *path, int fd) {
  blosc2_init();
  blosc2_schunk *sc = blosc2_schunk_open(path);
  if (!sc) _exit(3);
  for (int k = 0; k < 100000; k++) {
    int64_t i = sc->nchunks;
    fc_fill_i32(g_buf, chunk_items(i), 0, (int32_t)i);
    int64_t rc = blosc2_schunk_append_buffer(sc, g_buf, chunk_items(i) * 4);
    if (rc != i + 1) _exit(4);
    if (write(fd, &rc, sizeof rc) != (ssize_t)sizeof rc) _exit(5);
  }
  blosc2_schunk_free(sc);
  _exit(0);
}

static int create_frame(const char *path, int contiguous) {
  blosc2_cparams cp = fc_cparams(4);
  blosc2_storage st = BLOSC2_STORAGE_DEFAULTS;
  st.contiguous = contiguous;
  st.urlpath = (char *)path;
  st.cparams = &cp;
  blosc2_remove_urlpath(path);
  blosc2_schunk *sc = blosc2_schunk_new(&st);
  if (!sc) return 0;
  fc_fill_i32(g_buf, ITEMS, 0, 0);
  int ok = blosc2_schunk_append_buffer(sc, g_buf, ITEMS * 4) == 1;
  blosc2_schunk_free(sc);
  return ok;
}

typedef struct {
  long kills, children, appends, open_failures, count_failures, chunk_failures, early_exits;
} stats_t;

/* Open the frame after a kill and check it; returns the chunk count (or -1). */
static int64_t check_frame(const char *path, int64_t reported, int64_t before, stats_t *st,
                           int iter) {
  blosc2_schunk *sc = blosc2_schunk_open(path);
  if (!sc) {
    st->open_failures++;
    const char *keep = getenv("FRAMES_CRASH_KEEP"); /* a directory to keep broken frames in */
    if (keep && *keep) {
      char cmd[2048];
      snprintf(cmd, sizeof cmd, "cp -r '%s' '%s/broken-%d'", path, keep, iter);
      if (system(cmd) != 0) fprintf(stderr, "could not keep %s\n", path);
    }
    CHECK(0, "iteration %d: %s does not open after the kill (reported %lld chunks)", iter, path,
          (long long)reported);
    return -1;
  }
  int64_t n = sc->nchunks;
  int64_t floor = reported > before ? reported : before;
  if (n < floor || n > floor + 1) {
    st->count_failures++;
    CHECK(0, "iteration %d: %s has %lld chunks, reported %lld (before %lld)", iter, path,
          (long long)n, (long long)reported, (long long)before);
  }
  int bad = 0;
  int64_t nbytes = 0;
  for (int64_t i = 0; i < n; i++) {
    int32_t items = chunk_items(i);
    nbytes += items * 4;
    fc_fill_i32(g_buf, items, 0, (int32_t)i);
    int ok = fc_chunk_matches(sc, i, g_buf, items);
    CHECK(ok || bad >= 3, "iteration %d: %s chunk %lld of %lld does not decode intact", iter,
          path, (long long)i, (long long)n);
    bad += !ok;
  }
  if (bad) st->chunk_failures++;
  if (sc->nbytes != nbytes) {
    st->count_failures++;
    bad++;
    CHECK(0, "iteration %d: %s nbytes %lld, its %lld chunks hold %lld", iter, path,
          (long long)sc->nbytes, (long long)n, (long long)nbytes);
  }
  blosc2_schunk_free(sc);
  return bad ? -1 : n;
}

int main(int argc, char **argv) {
  double budget = argc > 1 ? atof(argv[1]) : 9.0;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20240607;
  fc_seed(seed);
  blosc2_init();
  fc_make_tmp("crash");
  const char *paths[2] = {fc_path("crash.b2frame"), fc_path("crash-dir.b2")};
  int64_t counts[2] = {1, 1};
  stats_t st[2];
  memset(st, 0, sizeof st);
  for (int f = 0; f < 2; f++)
    if (!create_frame(paths[f], f == 0)) {
      fprintf(stderr, "cannot create %s\n", paths[f]);
      return 2;
    }
  double t0 = fc_now();
  int iter = 0;
  while (fc_now() - t0 < budget && iter < 2000) {
    int f = iter & 1;
    int fds[2];
    if (pipe(fds) != 0) return 2;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      close(fds[0]);
      child(paths[f], fds[1]);
    }
    close(fds[1]);
    st[f].children++;
    /* delays from 0 to ~25 ms, denser at the short end */
    uint32_t r = fc_below(1000);
    useconds_t delay = (useconds_t)(r < 300 ? r * 3 : r < 800 ? r * 10 : r * 25);
    usleep(delay);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    int64_t reported = 0, v;
    while (read(fds[0], &v, sizeof v) == (ssize_t)sizeof v) reported = v;
    close(fds[0]);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      st[f].kills++;
    } else {
      st[f].early_exits++;
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "iteration %d: child on %s ended with status %d before the kill", iter, paths[f],
            status);
    }
    if (reported > counts[f]) st[f].appends += reported - counts[f];
    int64_t n = check_frame(paths[f], reported, counts[f], &st[f], iter);
    if (n < 0 || n > MAX_CHUNKS) { /* broken or big: go on with a fresh frame */
      if (!create_frame(paths[f], f == 0)) return 2;
      n = 1;
    }
    counts[f] = n;
    iter++;
  }
  for (int f = 0; f < 2; f++)
    printf("%s: %ld children, %ld killed, %ld appends reported, %ld open failures, "
           "%ld counter mismatches, %ld frames with bad chunks, %ld early exits\n",
           f == 0 ? "cframe file" : "sframe dir", st[f].children, st[f].kills, st[f].appends,
           st[f].open_failures, st[f].count_failures, st[f].chunk_failures, st[f].early_exits);
  printf("%d iterations in %.1f s (seed %llu)\n", iter, fc_now() - t0, (unsigned long long)seed);
  CHECK(iter >= 50, "only %d iterations ran", iter);
  blosc2_destroy();
  return fc_finish("frames_crash");
}
