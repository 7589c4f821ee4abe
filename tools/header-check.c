/*
 * header-check.c -- compiles every public header together and exercises the header-only
 * API (macros, *_DEFAULTS initialisers, static inline helpers), so that a strict build
 *   gcc -std=c99 -Wall -Wextra -Werror -pedantic -I include -c tools/header-check.c
 *   g++ -x c++ -Wall -Wextra -Werror -I include -c tools/header-check.c
 * fails on any header problem.  It needs no library: nothing here is linked or run.
 */
#define BLOSC1_COMPAT 1

#include <blosc2.h>
#include <b2nd.h>
#include <blosc2/blosc2-common.h>
#include <blosc2/blosc2-export.h>
#include <blosc2/blosc2-stdio.h>
#include <blosc2/codecs-registry.h>
#include <blosc2/filters-registry.h>
#include <blosc2/tuners-registry.h>

/* Every header is self-contained and guarded: including them again is harmless. */
#include <b2nd.h>
#include <blosc2.h>

int header_check_defaults(void);
int header_check_meta(blosc2_schunk *schunk);
int header_check_b2nd(const uint8_t *smeta, int32_t len);
int header_check_macros(const void *pointer, int rc);

int header_check_defaults(void) {
  blosc2_cparams cparams = BLOSC2_CPARAMS_DEFAULTS;
  blosc2_dparams dparams = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage storage = BLOSC2_STORAGE_DEFAULTS;
  blosc2_io io = BLOSC2_IO_DEFAULTS;
  blosc2_stdio_params stdio_params = BLOSC2_STDIO_PARAMS_DEFAULTS;
  blosc2_stdio_mmap mmap_params = BLOSC2_STDIO_MMAP_DEFAULTS;
  codec_info codec = {NULL, NULL};
  filter_info filter = {NULL, NULL};
  tuner_info tuner = {NULL, NULL, NULL, NULL, NULL};
  storage.cparams = &cparams;
  storage.dparams = &dparams;
  storage.io = &io;
  io.params = &stdio_params;
  BLOSC_UNUSED_PARAM(codec);
  BLOSC_UNUSED_PARAM(filter);
  BLOSC_UNUSED_PARAM(tuner);
  return cparams.clevel + dparams.nthreads + (storage.contiguous ? 1 : 0) + mmap_params.fd +
         BLOSC_CODEC_NDLZ + BLOSC_FILTER_BYTEDELTA + BLOSC_BTUNE + BLOSC_VERSION_MAJOR +
         (int)sizeof(BLOSC2_VERSION_STRING) + (int)sizeof(B2ND_DEFAULT_DTYPE);
}

int header_check_meta(blosc2_schunk *schunk) {
  uint8_t *content = NULL;
  int32_t content_len = 0;
  uint8_t swapped[8];
  const int64_t value = 1;
  int index = blosc2_meta_exists(schunk, "b2nd");
  if (index < 0) {
    return index;
  }
  index = blosc2_meta_get(schunk, "b2nd", &content, &content_len);
  free(content);
  swap_store(swapped, &value, (int)sizeof(value));
  return index + swapped[7];
}

int header_check_b2nd(const uint8_t *smeta, int32_t len) {
  int8_t ndim = 0;
  int64_t shape[B2ND_MAX_DIM];
  int32_t chunkshape[B2ND_MAX_DIM];
  int32_t blockshape[B2ND_MAX_DIM];
  char *dtype = NULL;
  int8_t dtype_format = 0;
  int rc = b2nd_deserialize_meta_inline(smeta, len, &ndim, shape, chunkshape, blockshape, &dtype,
                                        &dtype_format);
  free(dtype);
  return rc;
}

int header_check_macros(const void *pointer, int rc) {
  BLOSC_TRACE_ERROR("no argument");
  BLOSC_TRACE_WARNING("one argument: %d", rc);
  BLOSC_TRACE_INFO("two arguments: %d %s", rc, "x");
  BLOSC_TRACE(custom, "category %s", "custom");
  BLOSC_INFO("info %d", rc);
  BLOSC_INFO("info without argument");
  BLOSC_ERROR_NULL(pointer, BLOSC2_ERROR_NULL_POINTER);
  BLOSC_ERROR(rc);
  return BLOSC2_ERROR_SUCCESS;
}
