/*
 * The btune wheel (tuner 32, BLOSC_BTUNE) through both libraries, each loaded with dlopen:
 * super-chunks made with tuner_id 32, or with the environment variable BTUNE_TRADEOFF set,
 * load the plugin the way the reference does (through
 * `python -c "import blosc2_btune; ...print_libpath()"`) and call its functions. Ours must
 * compress and decompress, and the reference must read every chunk ours wrote. The
 * reference itself is run in a child process and its outcome only reported: btune 1.2.1 is
 * built against c-blosc2 2.19's private context layout and the reference 3.3.5 dies with
 * SIGFPE on its first compression (btune's next_blocksize leaves the block size at 0).
 *
 * usage: tuner_probe OURS_SO REFERENCE_SO
 */
#define _GNU_SOURCE
#include <blosc2.h>
#include <blosc2/tuners-registry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIB_FUNCS(X)                                                                      \
  X(blosc2_init) X(blosc2_destroy) X(blosc2_create_dctx) X(blosc2_free_ctx)               \
  X(blosc2_decompress_ctx) X(blosc2_schunk_new) X(blosc2_schunk_free)                     \
  X(blosc2_schunk_append_buffer) X(blosc2_schunk_get_chunk) X(blosc2_schunk_decompress_chunk)
#include "../cross_lib.h"

#define NCHUNKS 4
#define CHUNK (1 << 20)

static float *src;

/* Appends NCHUNKS chunks to a super-chunk tuned by btune, asked for with tuner_id or (env)
 * with BTUNE_TRADEOFF set; returns the super-chunk. */
static blosc2_schunk *write_tuned(lib_t *l, int env) {
  l->blosc2_init();
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = 4;
  cp.nthreads = 1;
  cp.tuner_id = env ? 0 : BLOSC_BTUNE;
  blosc2_storage st = {.contiguous = true, .cparams = &cp};
  if (env) setenv("BTUNE_TRADEOFF", "0.5", 1);
  blosc2_schunk *s = l->blosc2_schunk_new(&st);
  unsetenv("BTUNE_TRADEOFF");
  if (!s) {
    printf("%s: no super-chunk with tuner %d (btune not found?)\n", l->label, BLOSC_BTUNE);
    return NULL;
  }
  printf("%s: super-chunk made with %s, its tuner_id %d\n", l->label,
         env ? "BTUNE_TRADEOFF=0.5" : "tuner_id 32", s->storage->cparams->tuner_id);
  if (s->storage->cparams->tuner_id != BLOSC_BTUNE) return NULL;
  for (int k = 0; k < NCHUNKS; k++) {
    int64_t n = l->blosc2_schunk_append_buffer(s, src + k, CHUNK);
    printf("%s: append %d -> %lld\n", l->label, k, (long long)n);
    fflush(stdout);
    if (n != k + 1) return NULL;
  }
  return s;
}

/* The reference in a child process (its outcome only reported), then ours, whose chunks
 * must round-trip and be read by the reference. */
static int check(lib_t *ours, lib_t *ref, int env) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    blosc2_schunk *s = write_tuned(ref, env);
    _exit(s ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    printf("reference with btune: killed by signal %d (%s)\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else {
    printf("reference with btune: exit status %d\n", WEXITSTATUS(status));
  }
  blosc2_schunk *s = write_tuned(ours, env);
  if (!s) {
    printf("FAIL: ours could not write with btune\n");
    return 1;
  }
  uint8_t *out = malloc(CHUNK);
  int fail = 0;
  ref->blosc2_init();
  for (int k = 0; k < NCHUNKS; k++) {
    int a = ours->blosc2_schunk_decompress_chunk(s, k, out, CHUNK);
    int ok_ours = a == CHUNK && memcmp(out, src + k, CHUNK) == 0;
    uint8_t *chunk;
    bool needs_free;
    int cs = ours->blosc2_schunk_get_chunk(s, k, &chunk, &needs_free);
    blosc2_context *d = ref->blosc2_create_dctx(BLOSC2_DPARAMS_DEFAULTS);
    memset(out, 0, CHUNK);
    int b = ref->blosc2_decompress_ctx(d, chunk, cs, out, CHUNK);
    ref->blosc2_free_ctx(d);
    int ok_ref = b == CHUNK && memcmp(out, src + k, CHUNK) == 0;
    if (needs_free) free(chunk);
    printf("chunk %d (%d bytes): ours reads it %s, the reference %s\n", k, cs, ok_ours ? "back" : "WRONG",
           ok_ref ? "too" : "WRONG");
    fail |= !ok_ours || !ok_ref;
  }
  ours->blosc2_schunk_free(s);
  free(out);
  return fail;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO\n", argv[0]);
    return 2;
  }
  lib_t ours = {.label = "ours", .path = argv[1]}, ref = {.label = "reference", .path = argv[2]};
  if (!cross_load(&ours) || !cross_load(&ref)) return 1;
  src = malloc(CHUNK + NCHUNKS * sizeof(float));
  for (int i = 0; i < CHUNK / 4 + NCHUNKS; i++) src[i] = (float)(i % 1000) * 0.25f + (float)(i / 5000);
  unsetenv("BTUNE_TRADEOFF");
  int fail = check(&ours, &ref, 0) | check(&ours, &ref, 1);
  printf("%s\n", fail ? "FAIL" : "OK: btune (by tuner_id and by BTUNE_TRADEOFF) through ours round-trips and the reference reads it");
  return fail;
}
