/* Every public header must compile warning-free as C99 (-Wall -Wextra -Werror). */
#include <blosc2.h>
#include <b2nd.h>
#include <blosc2/blosc2-common.h>
#include <blosc2/blosc2-export.h>
#include <blosc2/blosc2-stdio.h>
#include <blosc2/codecs-registry.h>
#include <blosc2/filters-registry.h>
#include <blosc2/tuners-registry.h>

int header_compile_check(void);

int header_compile_check(void) {
  blosc2_cparams cparams = BLOSC2_CPARAMS_DEFAULTS;
  blosc2_dparams dparams = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage storage = BLOSC2_STORAGE_DEFAULTS;
  blosc2_io io = BLOSC2_IO_DEFAULTS;
  blosc2_stdio_mmap mmap_params = BLOSC2_STDIO_MMAP_DEFAULTS;
  return cparams.clevel + dparams.nthreads + (storage.contiguous ? 1 : 0) + (int)io.id +
         (int)mmap_params.fd + BLOSC_CODEC_NDLZ + BLOSC_FILTER_NDCELL + BLOSC_BTUNE;
}
