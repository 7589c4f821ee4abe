/*
 * A real plugin wheel through both libraries: loads OUR library and the REFERENCE one
 * (dlopen, RTLD_LOCAL), and with each compresses data with a dynamically loaded codec
 * (found by the library through `python -c "import blosc2_<name>; ...print_libpath()"`),
 * then decompresses every chunk with both. Data must round-trip, the reference must read
 * what ours wrote, and both must write the same chunk.
 *
 * usage: plugin_probe OURS_SO REFERENCE_SO CODEC_ID CODEC_META
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blosc2.h>

#define LIB_FUNCS(X) X(blosc2_init) X(blosc2_create_cctx) X(blosc2_create_dctx) \
  X(blosc2_free_ctx) X(blosc2_compress_ctx) X(blosc2_decompress_ctx)

typedef struct {
  const char *path;
  void *handle;
#define FIELD(name) __typeof__(name) *name;
  LIB_FUNCS(FIELD)
#undef FIELD
} lib_t;

static int load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s: %s\n", lib->path, dlerror());
    return 0;
  }
#define LOAD(name) *(void **)(&lib->name) = dlsym(lib->handle, #name); if (!lib->name) return 0;
  LIB_FUNCS(LOAD)
#undef LOAD
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s OURS_SO REFERENCE_SO CODEC_ID CODEC_META\n", argv[0]);
    return 2;
  }
  lib_t libs[2] = {{.path = argv[1]}, {.path = argv[2]}};
  if (!load(&libs[0]) || !load(&libs[1])) return 1;
  int n = 1 << 20;
  float *src = malloc(n), *out = malloc(n);
  for (int i = 0; i < n / 4; i++) src[i] = (float)(i % 1000) * 0.25f;
  uint8_t *chunk[2];
  int size[2];
  int fail = 0;
  for (int w = 0; w < 2; w++) {
    lib_t *l = &libs[w];
    l->blosc2_init();
    blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
    cp.compcode = (uint8_t)atoi(argv[3]);
    cp.compcode_meta = (uint8_t)atoi(argv[4]);
    cp.typesize = 4;
    cp.nthreads = 1;
    blosc2_context *c = l->blosc2_create_cctx(cp);
    chunk[w] = malloc(n + BLOSC2_MAX_OVERHEAD);
    size[w] = l->blosc2_compress_ctx(c, src, n, chunk[w], n + BLOSC2_MAX_OVERHEAD);
    l->blosc2_free_ctx(c);
    printf("%s: compressed %d bytes into %d\n", w ? "reference" : "ours", n, size[w]);
    if (size[w] <= 0 || size[w] >= n) fail = 1;
  }
  if (!fail && (size[0] != size[1] || memcmp(chunk[0], chunk[1], size[0]) != 0)) {
    printf("FAIL: the chunks differ\n");
    fail = 1;
  }
  for (int w = 0; w < 2 && !fail; w++) {
    for (int r = 0; r < 2; r++) {
      blosc2_context *d = libs[r].blosc2_create_dctx((blosc2_dparams)BLOSC2_DPARAMS_DEFAULTS);
      memset(out, 0, n);
      int got = libs[r].blosc2_decompress_ctx(d, chunk[w], size[w], out, n);
      libs[r].blosc2_free_ctx(d);
      int ok = got == n && memcmp(out, src, n) == 0;
      printf("%s decodes the chunk of %s: %d bytes, %s\n", r ? "reference" : "ours", w ? "reference" : "ours",
             got, ok ? "round trip exact" : "WRONG");
      if (!ok) fail = 1;
    }
  }
  printf("%s\n", fail ? "FAIL" : "OK");
  return fail;
}
