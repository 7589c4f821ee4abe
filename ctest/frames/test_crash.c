/*
 * Crash safety of file-backed frames (cframe file and sframe directory): a child process
 * opens the frame and appends chunks as fast as it can, and every fourth operation updates
 * a random chunk with new content of the same size (in a contiguous file the chunks after
 * it move), announcing each operation through a pipe before it starts and confirming it
 * after it succeeded; the parent kills it with SIGKILL after a random delay (fixed seed),
 * then opens the frame and checks that it opens, that it holds every confirmed chunk (at
 * most one more, the announced append), and that every chunk decodes to its confirmed
 * content (or, for the chunk of the announced update, to the new one). Repeated many times
 * within a bounded time (about 10 s). The next child continues on the same frame, so
 * changes land on frames that survived earlier kills.
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
#define MAX_TRACKED 200000  /* a child makes at most 100 000 changes */
static int32_t g_version[2][MAX_TRACKED]; /* confirmed content version of each chunk */
static int g_iter;

/* Chunk i holds fc_fill_i32(tag = chunk_tag(i, version)); every 5th chunk is shorter
 * (variable sizes). */
static int32_t chunk_items(int64_t i) { return i % 5 == 4 ? ITEMS / 2 : ITEMS; }
static int32_t chunk_tag(int64_t i, int32_t version) { return (int32_t)i + 7919 * version; }

/* Pipe records: {kind, chunk, version}; kind 1 announces an append, 2 an update, 3
 * confirms the announced operation. */
typedef struct {
  int64_t kind, chunk, version;
} rec_t;

static void say(int fd, int64_t kind, int64_t chunk, int64_t version) {
  rec_t r = {kind, chunk, version};
  if (write(fd, &r, sizeof r) != (ssize_t)sizeof r) _exit(5);
}

static void child(const char *path, int fd) {
  blosc2_init();
  blosc2_schunk *sc = blosc2_schunk_open(path);
  if (!sc) _exit(3);
  for (int k = 1; k < 100000; k++) {
    int64_t n = sc->nchunks;
    if (k % 4 == 0 && n > 2) {
      int64_t i = (int64_t)fc_below((uint32_t)(n - 1));
      int32_t v = (g_iter << 12) + k;
      fc_fill_i32(g_buf, chunk_items(i), 0, chunk_tag(i, v));
      blosc2_cparams cp = fc_cparams(4);
      int32_t cb = 0;
      uint8_t *c = fc_make_chunk(cp, g_buf, chunk_items(i) * 4, &cb);
      if (!c) _exit(6);
      say(fd, 2, i, v);
      if (blosc2_schunk_update_chunk(sc, i, c, true) != n) _exit(7);
      free(c);
      say(fd, 3, i, v);
      continue;
    }
    fc_fill_i32(g_buf, chunk_items(n), 0, chunk_tag(n, 0));
    say(fd, 1, n, 0);
    int64_t rc = blosc2_schunk_append_buffer(sc, g_buf, chunk_items(n) * 4);
    if (rc != n + 1) _exit(4);
    say(fd, 3, n, 0);
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
  memset(g_version[contiguous ? 0 : 1], 0, sizeof g_version[0]);
  blosc2_schunk_free(sc);
  return ok;
}

typedef struct {
  long kills, children, appends, updates, open_failures, count_failures, chunk_failures,
      early_exits;
} stats_t;

/* Open the frame after a kill and check it against the confirmed versions `ver` and the
 * announced update (`pending_chunk`, -1 for none, to `pending_ver`); returns the chunk
 * count (or -1). */
static int64_t check_frame(const char *path, int64_t reported, int64_t before, stats_t *st,
                           int iter, const int32_t *ver, int64_t pending_chunk,
                           int32_t pending_ver) {
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
    fc_fill_i32(g_buf, items, 0, chunk_tag(i, i < MAX_TRACKED ? ver[i] : 0));
    int ok = fc_chunk_matches(sc, i, g_buf, items);
    if (!ok && i == pending_chunk) {
      fc_fill_i32(g_buf, items, 0, chunk_tag(i, pending_ver));
      ok = fc_chunk_matches(sc, i, g_buf, items);
    }
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
      g_iter = iter + 1;
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
    int64_t reported = counts[f];
    rec_t rec, pending = {0, -1, 0};
    while (read(fds[0], &rec, sizeof rec) == (ssize_t)sizeof rec) {
      if (rec.kind != 3) {
        pending = rec;
        continue;
      }
      if (pending.kind == 1) reported = pending.chunk + 1;
      if (pending.kind == 2 && pending.chunk < MAX_TRACKED) {
        g_version[f][pending.chunk] = (int32_t)pending.version;
        st[f].updates++;
      }
      pending.kind = 0;
      pending.chunk = -1;
    }
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
    int64_t pend = pending.kind == 2 ? pending.chunk : -1;
    int64_t n = check_frame(paths[f], reported, counts[f], &st[f], iter, g_version[f], pend,
                            (int32_t)pending.version);
    if (n >= 0 && pend >= 0 && pend < n) {
      /* the frame holds either content of the announced update: keep whichever it holds */
      blosc2_schunk *sc = blosc2_schunk_open(paths[f]);
      int32_t items = chunk_items(pend);
      fc_fill_i32(g_buf, items, 0, chunk_tag(pend, (int32_t)pending.version));
      if (sc && fc_chunk_matches(sc, pend, g_buf, items))
        g_version[f][pend] = (int32_t)pending.version;
      if (sc) blosc2_schunk_free(sc);
    }
    if (n < 0 || n > MAX_CHUNKS) { /* broken or big: go on with a fresh frame */
      if (!create_frame(paths[f], f == 0)) return 2;
      n = 1;
    }
    counts[f] = n;
    iter++;
  }
  for (int f = 0; f < 2; f++)
    printf("%s: %ld children, %ld killed, %ld appends and %ld updates reported, %ld open failures, "
           "%ld counter mismatches, %ld frames with bad chunks, %ld early exits\n",
           f == 0 ? "cframe file" : "sframe dir", st[f].children, st[f].kills, st[f].appends,
           st[f].updates,
           st[f].open_failures, st[f].count_failures, st[f].chunk_failures, st[f].early_exits);
  printf("%d iterations in %.1f s (seed %llu)\n", iter, fc_now() - t0, (unsigned long long)seed);
  CHECK(iter >= 50, "only %d iterations ran", iter);
  blosc2_destroy();
  return fc_finish("frames_crash");
}
