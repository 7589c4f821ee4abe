// Every public header must compile warning-free as C++ (-Wall -Wextra -Werror).
#include <blosc2.h>
#include <b2nd.h>
#include <blosc2/blosc2-common.h>
#include <blosc2/blosc2-export.h>
#include <blosc2/blosc2-stdio.h>
#include <blosc2/codecs-registry.h>
#include <blosc2/filters-registry.h>
#include <blosc2/tuners-registry.h>

int header_compile_check();

int header_compile_check() {
  blosc2_cparams cparams = BLOSC2_CPARAMS_DEFAULTS;
  blosc2_dparams dparams = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_storage storage = BLOSC2_STORAGE_DEFAULTS;
  blosc2_io io = BLOSC2_IO_DEFAULTS;
  return cparams.clevel + dparams.nthreads + (storage.contiguous ? 1 : 0) + static_cast<int>(io.id) +
         BLOSC_CODEC_NDLZ + BLOSC_FILTER_NDCELL + BLOSC_BTUNE;
}
