/*
 * Helpers shared by the drop-in tests of blosc2-oxide (issue 10): check accounting and a
 * child-process runner, so a case that crashes the library is reported as a failure of that
 * case instead of aborting the whole program.
 *
 * Header-only; every test program includes it once, before any system header. The same
 * sources build against our headers/library (BLOSC2_VARIANT_OURS) and the reference
 * c-blosc2 (BLOSC2_VARIANT_REFERENCE).
 */
#ifndef BLOSC2_DROPIN_COMMON_H
#define BLOSC2_DROPIN_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <blosc2.h>

static long di_failures = 0;
static long di_checks = 0;

/* CHECK(cond, printf-args): count a failure when cond is false. */
#define CHECK(cond, ...)                                         \
  do {                                                           \
    di_checks++;                                                 \
    if (!(cond)) {                                               \
      di_failures++;                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
      fprintf(stderr, __VA_ARGS__);                              \
      fputc('\n', stderr);                                       \
    }                                                            \
  } while (0)

/* CHECK_EQ(got, want, context-printf-args): integer equality, printing both values. */
#define CHECK_EQ(got, want, ...)                                                       \
  do {                                                                                 \
    long long di_g_ = (long long)(got), di_w_ = (long long)(want);                     \
    di_checks++;                                                                       \
    if (di_g_ != di_w_) {                                                              \
      di_failures++;                                                                   \
      fprintf(stderr, "FAIL %s:%d: %s = %lld, expected %lld [", __FILE__, __LINE__,   \
              #got, di_g_, di_w_);                                                     \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fputs("]\n", stderr);                                                            \
    }                                                                                  \
  } while (0)

/* Runs `fn` in a child process: a crash or a failed check there is one failure here. */
static void di_run(const char *name, void (*fn)(void)) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    di_failures++;
    fprintf(stderr, "FAIL %s: fork: %s\n", name, strerror(errno));
    return;
  }
  if (pid == 0) {
    di_failures = 0;
    blosc2_init();
    fn();
    blosc2_destroy();
    fflush(stdout);
    fflush(stderr);
    _exit(di_failures == 0 ? 0 : 1);
  }
  int status = 0;
  di_checks++;
  if (waitpid(pid, &status, 0) != pid) {
    di_failures++;
    fprintf(stderr, "FAIL %s: waitpid: %s\n", name, strerror(errno));
  } else if (WIFSIGNALED(status)) {
    di_failures++;
    fprintf(stderr, "FAIL %s: crashed with signal %d (%s)\n", name, WTERMSIG(status),
            strsignal(WTERMSIG(status)));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    di_failures++;
    fprintf(stderr, "FAIL %s: checks failed in the child\n", name);
  } else {
    printf("ok   %s\n", name);
  }
}

static char di_scratch[8192];

static int di_unlink_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The exit status of a test program, after a summary line; removes the scratch directory. */
static int di_finish(const char *program) {
  if (di_scratch[0] != '\0' && chdir("/") == 0) {
    nftw(di_scratch, di_unlink_cb, 16, FTW_DEPTH | FTW_PHYS);
  }
  printf("%s: %ld checks, %ld failures\n", program, di_checks, di_failures);
  return di_failures == 0 ? 0 : 1;
}

/* A fresh scratch directory under TMPDIR (or the current directory); the process works
   inside it, so relative urlpaths land there. */
static void di_enter_scratch(const char *program) {
  const char *base = getenv("TMPDIR");
  char dir[4096];
  if (base == NULL || base[0] == '\0') {
    base = getcwd(dir, sizeof dir) != NULL ? dir : ".";
  }
  snprintf(di_scratch, sizeof di_scratch, "%s/%s.XXXXXX", base, program);
  if (mkdtemp(di_scratch) == NULL || chdir(di_scratch) != 0) {
    fprintf(stderr, "cannot create a scratch directory %s: %s\n", di_scratch, strerror(errno));
    exit(2);
  }
}

/* The size of a file, or -1 when there is none; `is_dir` set for directories. */
static long long di_file_size(const char *path, int *is_dir) {
  struct stat st;
  if (stat(path, &st) != 0) {
    if (is_dir != NULL) *is_dir = 0;
    return -1;
  }
  if (is_dir != NULL) *is_dir = S_ISDIR(st.st_mode) ? 1 : 0;
  return (long long)st.st_size;
}

#endif
