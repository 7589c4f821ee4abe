/*
 * blosc2-oxide demo: compress and decompress one buffer with every built-in codec through
 * the c-blosc2 context API, print the ratios and check the round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <blosc2.h>

#define N (1000 * 1000)

int main(void) {
  float *data = malloc(N * sizeof(float));
  float *back = malloc(N * sizeof(float));
  int32_t nbytes = N * (int32_t)sizeof(float);
  int32_t destsize = nbytes + BLOSC2_MAX_OVERHEAD;
  void *chunk = malloc((size_t)destsize);
  if (!data || !back || !chunk) return 1;
  for (int i = 0; i < N; i++) data[i] = (float)(i % 1000) * 0.25f;

  blosc2_init();
  printf("blosc2 %s, codecs: %s\n", blosc2_get_version_string(), blosc2_list_compressors());
  const char *codecs[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
  int ok = 1;
  for (int i = 0; i < 5; i++) {
    blosc2_cparams cparams = BLOSC2_CPARAMS_DEFAULTS;
    cparams.compcode = (uint8_t)blosc2_compname_to_compcode(codecs[i]);
    cparams.typesize = sizeof(float);
    cparams.nthreads = 2;
    blosc2_context *cctx = blosc2_create_cctx(cparams);
    int cbytes = blosc2_compress_ctx(cctx, data, nbytes, chunk, destsize);
    blosc2_free_ctx(cctx);

    blosc2_dparams dparams = BLOSC2_DPARAMS_DEFAULTS;
    dparams.nthreads = 2;
    blosc2_context *dctx = blosc2_create_dctx(dparams);
    memset(back, 0, (size_t)nbytes);
    int dbytes = cbytes > 0 ? blosc2_decompress_ctx(dctx, chunk, cbytes, back, nbytes) : cbytes;
    blosc2_free_ctx(dctx);

    int same = dbytes == nbytes && memcmp(data, back, (size_t)nbytes) == 0;
    printf("  %-8s %8d -> %8d bytes  ratio %6.1fx  %s\n", codecs[i], nbytes, cbytes,
           cbytes > 0 ? (double)nbytes / cbytes : 0.0, same ? "round trip OK" : "FAILED");
    ok &= same;
  }
  blosc2_destroy();
  free(data);
  free(back);
  free(chunk);
  if (!ok) {
    printf("demo FAILED\n");
    return 1;
  }
  printf("demo OK\n");
  return 0;
}
