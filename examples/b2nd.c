/*
 * blosc2-oxide b2nd example: a 3-D float64 array made from a C buffer, a slice read back,
 * a slice written, the array saved to a file and opened again.
 *
 *   cc b2nd.c -o b2nd -I$PREFIX/include -L$PREFIX/lib -lblosc2 && ./b2nd [FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <b2nd.h>

int main(int argc, char **argv) {
  char *path = argc > 1 ? argv[1] : "example.b2nd";
  int64_t shape[3] = {40, 50, 60};
  int32_t chunkshape[3] = {20, 25, 30};
  int32_t blockshape[3] = {10, 10, 10};
  int64_t n = shape[0] * shape[1] * shape[2];
  double *data = malloc((size_t)n * sizeof(double));
  if (!data) return 1;
  for (int64_t i = 0; i < n; i++) data[i] = (double)i * 0.5;

  blosc2_init();
  blosc2_cparams cparams = BLOSC2_CPARAMS_DEFAULTS;
  cparams.typesize = sizeof(double);
  cparams.compcode = BLOSC_ZSTD;
  cparams.nthreads = 2;
  blosc2_storage storage = BLOSC2_STORAGE_DEFAULTS;
  storage.cparams = &cparams;
  b2nd_context_t *ctx = b2nd_create_ctx(&storage, 3, shape, chunkshape, blockshape, "<f8",
                                        DTYPE_NUMPY_FORMAT, NULL, 0);
  b2nd_array_t *array = NULL;
  if (!ctx || b2nd_from_cbuffer(ctx, &array, data, n * (int64_t)sizeof(double)) < 0) {
    fprintf(stderr, "cannot create the array\n");
    return 1;
  }
  printf("array %lld x %lld x %lld, %lld bytes compressed to %lld\n", (long long)array->shape[0],
         (long long)array->shape[1], (long long)array->shape[2], (long long)array->sc->nbytes,
         (long long)array->sc->cbytes);

  /* read the box [5:8, 10:12, 20:23] */
  int64_t start[3] = {5, 10, 20}, stop[3] = {8, 12, 23}, slice_shape[3] = {3, 2, 3};
  double slice[18];
  if (b2nd_get_slice_cbuffer(array, start, stop, slice, slice_shape, sizeof slice) < 0) return 1;
  int ok = slice[0] == data[(5 * 50 + 10) * 60 + 20] && slice[17] == data[(7 * 50 + 11) * 60 + 22];

  /* write ones into the same box, save, open the file again and read it back */
  for (int i = 0; i < 18; i++) slice[i] = 1.0;
  if (b2nd_set_slice_cbuffer(slice, slice_shape, sizeof slice, start, stop, array) < 0) return 1;
  blosc2_remove_urlpath(path);
  if (b2nd_save(array, path) < 0) return 1;
  b2nd_array_t *reopened = NULL;
  if (b2nd_open(path, &reopened) < 0) return 1;
  b2nd_print_meta(reopened);
  double back[18];
  memset(back, 0, sizeof back);
  if (b2nd_get_slice_cbuffer(reopened, start, stop, back, slice_shape, sizeof back) < 0) return 1;
  for (int i = 0; i < 18; i++) ok &= back[i] == 1.0;
  printf("slice round trip through %s: %s\n", path, ok ? "ok" : "WRONG");

  b2nd_free(reopened);
  b2nd_free(array);
  b2nd_free_ctx(ctx);
  blosc2_remove_urlpath(path);
  blosc2_destroy();
  free(data);
  return ok ? 0 : 1;
}
