/*
 * Chunk-API swap probe: one program, built against the REFERENCE headers and library, that
 * prints deterministic results of the chunk-level API (return codes, sizes, header bytes,
 * checksums of decoded data, callback arguments as offsets; compressed bytes only for
 * deterministic codecs). ../swap_test.sh runs it as built and with our libblosc2.so.9
 * swapped in; the outputs must be identical. Sections live in swap_probe_*.c; main() is in
 * swap_probe_main.c. A section that finds decoded data different from the original sets
 * sp_bad, which makes the program exit non-zero.
 *
 * Reference bugs covered by ours-only checks in the tests (getitem on dictionary and DELTA
 * chunks, the prefilter size of a partial last block, undecodable chunks) are not printed.
 */
#ifndef BLOSC2_CHUNKAPI_SWAP_PROBE_H
#define BLOSC2_CHUNKAPI_SWAP_PROBE_H

#include "ca_common.h"

#include <blosc2.h>

extern int sp_bad;

/* Print a checksum of n bytes (or "-" for n <= 0) after a label. */
static void sp_hash(const char *label, const void *p, int n) {
  if (n > 0)
    printf("%s %d %016llx\n", label, n, (unsigned long long)tc_hash(p, (size_t)n));
  else
    printf("%s %d -\n", label, n);
}

/* Report a round trip: rc and whether the data equals `want`. */
static void sp_roundtrip(const char *label, int rc, const void *got, const void *want, int n) {
  int same = rc == n && memcmp(got, want, (size_t)n) == 0;
  printf("%s rc=%d %s\n", label, rc, same ? "same" : "DIFFERENT");
  if (!same) sp_bad = 1;
}

void sp_threads_callback(void);
void sp_before_init(void);
void sp_auto_init(void);
void sp_special(void);
void sp_vlchunks(void);
void sp_dict(void);
void sp_filters(void);
void sp_register(void);
void sp_env(void);
void sp_instr(void);
void sp_getitem_bytes(void);
void sp_threads(void);

#endif /* BLOSC2_CHUNKAPI_SWAP_PROBE_H */
