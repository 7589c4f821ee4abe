/*
 * Codec instrumentation (cparams.instr_codec). Measured on the reference c-blosc2 3.3.5:
 * the chunk does not hold the data but one 16-byte blosc2_instr record per compressed
 * stream, laid out like a regular chunk of those records:
 *   - header: blosc2_flags 0x80, nbytes = 16 * number of streams, blocksize = 16 * streams
 *     per full block (64 for a split typesize-4 block, 16 unsplit), typesize and flags as for
 *     the real data (split bit of the real blocks); bstarts for ceil(nbytes / blocksize)
 *     blocks; each stream stored raw (csize 16 + the record);
 *   - decompressing returns the records (nbytes bytes; getitem works on them too);
 *   - record: cratio = stream bytes / bytes the stream would take in the normal chunk
 *     (4-byte csize included; 4 for a zero run), cspeed > 0, filter_speed > 0 and equal for
 *     the streams of one block, flags[0] = 1 for run streams, flags[1..3] = 0;
 *   - memcpy chunks (clevel 0, tiny inputs) are written with flags 0x07 and do not decode
 *     (-3); not asserted for ours beyond "no crash, error or the records".
 * Timings are not checked beyond being positive and finite.
 */
#include "ca_common.h"

#include <blosc2.h>

static int32_t stream_lengths(const uint8_t *chunk, int cb, int32_t *lens, int max) {
  int32_t nbytes = ca_nbytes(chunk), bs = ca_blocksize(chunk), ts = chunk[3];
  int split = !(chunk[2] & 0x10);
  int32_t nblocks = (nbytes + bs - 1) / bs, n = 0;
  if ((chunk[31] & 0x70) == 0x10) {
    /* Zero-detected chunk: every stream would have been a 4-byte zero run. */
    for (int32_t b = 0; b < nblocks; b++) {
      int nstreams = split && !(b == nblocks - 1 && nbytes % bs) ? ts : 1;
      for (int s = 0; s < nstreams && n < max; s++) lens[n++] = 4;
    }
    return n;
  }
  for (int32_t b = 0; b < nblocks; b++) {
    int32_t start = tc_rd32(chunk + 32 + 4 * b);
    int32_t end = b + 1 < nblocks ? tc_rd32(chunk + 32 + 4 * (b + 1)) : cb;
    int last_partial = b == nblocks - 1 && nbytes % bs;
    int nstreams = split && !last_partial ? ts : 1;
    int32_t pos = start;
    for (int s = 0; s < nstreams && n < max; s++) {
      int32_t csize = tc_rd32(chunk + pos);
      int32_t len = 4 + (csize > 0 ? csize : csize < 0 ? 1 : 0);
      lens[n++] = len;
      pos += len;
    }
    if (pos != end) return -1;
  }
  return n;
}

static void instr_case(const char *what, int32_t n, int ts, int codec, int split, int bs,
                       int clevel, int kind, int nthreads, int filter) {
  uint8_t *src = tc_malloc((size_t)n), *plain = tc_malloc((size_t)n + 100000);
  uint8_t *chunk = tc_malloc((size_t)n + 100000), *out = tc_malloc((size_t)n * 4 + 100000);
  tc_fill(src, (size_t)n, kind, (size_t)ts, 1);
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = ts;
  cp.compcode = (uint8_t)codec;
  cp.splitmode = split;
  cp.blocksize = bs;
  cp.clevel = (uint8_t)clevel;
  cp.nthreads = 1;
  cp.filters[5] = (uint8_t)filter;
  blosc2_context *c = blosc2_create_cctx(cp);
  int pcb = blosc2_compress_ctx(c, src, n, plain, n + 100000);
  blosc2_free_ctx(c);
  cp.instr_codec = true;
  cp.nthreads = (int16_t)nthreads;
  c = blosc2_create_cctx(cp);
  int cb = blosc2_compress_ctx(c, src, n, chunk, n + 100000);
  blosc2_free_ctx(c);
  REQUIRE(pcb > 0 && cb > 32, "%s: plain %d instrumented %d", what, pcb, cb);
  CHECK_EQ(chunk[31], 0x80, "%s blosc2 flags", what);
  CHECK_EQ(chunk[0], 5, "%s version", what);
  CHECK_EQ(chunk[2], plain[2], "%s flags as the plain chunk", what);
  CHECK_EQ(chunk[3], plain[3], "%s typesize", what);
  CHECK_BYTES(chunk + 16, plain + 16, 8, "%s filters", what);
  CHECK_EQ(ca_cbytes(chunk), cb, "%s cbytes", what);
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  blosc2_context *d = blosc2_create_dctx(dp);
  if (plain[2] & 0x02) {
    /* memcpy chunk. */
    int rc = blosc2_decompress_ctx(d, chunk, cb, out, n * 4 + 100000);
#ifdef BLOSC2_VARIANT_REFERENCE
    CHECK_EQ(rc, -3, "%s memcpy instrumented chunk", what);
#else
    CHECK(rc < 0 || rc == ca_nbytes(chunk), "%s memcpy instrumented chunk -> %d", what, rc);
#endif
  } else {
    int32_t lens[4096];
    int nstreams = stream_lengths(plain, pcb, lens, 4096);
    REQUIRE(nstreams > 0, "%s: plain chunk layout", what);
    int32_t pbs = ca_blocksize(plain), pts = plain[3];
    int split_blocks = !(plain[2] & 0x10);
    int per_block = split_blocks ? pts : 1;
    CHECK_EQ(ca_nbytes(chunk), 16 * nstreams, "%s nbytes = 16 * streams", what);
    CHECK_EQ(ca_blocksize(chunk), 16 * per_block, "%s blocksize = 16 * streams per block", what);
    int32_t nb = ca_nbytes(chunk), ibs = ca_blocksize(chunk), nblocks = (nb + ibs - 1) / ibs;
    /* Blocks of 20-byte streams (csize 16 + record) after the bstarts; with several threads
     * the blocks are stored in completion order. */
    int32_t pos = 32 + 4 * nblocks;
    for (int32_t b = 0; b < nblocks; b++) {
      int32_t nrec = (b == nblocks - 1 && nb % ibs) ? (nb % ibs) / 16 : ibs / 16;
      int found = 0;
      for (int32_t k = 0; k < nblocks; k++) found += tc_rd32(chunk + 32 + 4 * k) == pos;
      CHECK_EQ(found, 1, "%s a block starts at %d", what, pos);
      for (int32_t r = 0; r < nrec && pos + 4 <= cb; r++) {
        CHECK_EQ(tc_rd32(chunk + pos), 16, "%s stream csize at %d", what, pos);
        pos += 20;
      }
    }
    if (nthreads == 1) CHECK_EQ(tc_rd32(chunk + 32), 32 + 4 * nblocks, "%s first bstart", what);
    CHECK_EQ(pos, cb, "%s size", what);
    memset(out, 0xee, (size_t)nb + 16);
    int rc = blosc2_decompress_ctx(d, chunk, cb, out, n * 4 + 100000);
    CHECK_EQ(rc, nb, "%s decompress", what);
    CHECK_FILLED(out + nb, 0xee, 16, "%s past the records", what);
    float block_fspeed = 0;
    for (int i = 0; i < nstreams && rc == nb; i++) {
      blosc2_instr rec;
      memcpy(&rec, out + 16 * i, sizeof rec);
      int32_t blk = i / per_block;
      int32_t neblock = (blk + 1) * pbs <= n ? pbs / per_block : n - blk * pbs;
      double want = (double)neblock / (double)lens[i];
      CHECK(fabs(rec.cratio - want) <= 1e-5 * want, "%s stream %d cratio %g, want %g", what, i,
            rec.cratio, want);
      CHECK(rec.cspeed > 0 && isfinite(rec.cspeed), "%s stream %d cspeed %g", what, i, rec.cspeed);
      CHECK(rec.filter_speed > 0 && isfinite(rec.filter_speed), "%s stream %d filter_speed", what,
            i);
      if (i % per_block == 0) block_fspeed = rec.filter_speed;
      CHECK(rec.filter_speed == block_fspeed, "%s stream %d filter_speed differs in a block", what,
            i);
      int run = lens[i] <= 5;
      CHECK_EQ(rec.flags[0], run, "%s stream %d flags[0]", what, i);
      CHECK(rec.flags[1] == 0 && rec.flags[2] == 0 && rec.flags[3] == 0, "%s stream %d flags", what,
            i);
    }
    CHECK_EQ(blosc2_getitem_ctx(d, chunk, cb, 0, 1, out, 100), plain[3], "%s getitem", what);
    CHECK_EQ(blosc2_decompress(chunk, cb, out, n * 4 + 100000), nb, "%s global decompress", what);
  }
  blosc2_free_ctx(d);
  free(src);
  free(plain);
  free(chunk);
  free(out);
}

int main(void) {
  blosc2_init();
  instr_case("blosclz 1 split block", 100000, 4, BLOSC_BLOSCLZ, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5,
             TC_FLOATS, 1, BLOSC_SHUFFLE);
  instr_case("zstd 4 blocks", 1000000, 4, BLOSC_ZSTD, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5, TC_FLOATS,
             1, BLOSC_SHUFFLE);
  instr_case("lz4 leftover", 10003, 4, BLOSC_LZ4, BLOSC_FORWARD_COMPAT_SPLIT, 1000, 5, TC_FLOATS, 1,
             BLOSC_SHUFFLE);
  instr_case("never split", 100000, 4, BLOSC_BLOSCLZ, BLOSC_NEVER_SPLIT, 0, 5, TC_RANDOM, 1,
             BLOSC_SHUFFLE);
  instr_case("zeros", 100000, 4, BLOSC_BLOSCLZ, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5, TC_ZEROS, 1,
             BLOSC_SHUFFLE);
  instr_case("constant", 100000, 4, BLOSC_LZ4, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5, TC_CONST, 1,
             BLOSC_SHUFFLE);
  instr_case("random bitshuffle", 100000, 4, BLOSC_BLOSCLZ, BLOSC_ALWAYS_SPLIT, 10000, 5, TC_RANDOM,
             1, BLOSC_BITSHUFFLE);
  instr_case("4 threads", 1 << 20, 8, BLOSC_LZ4, BLOSC_ALWAYS_SPLIT, 65536, 5, TC_LOWENT, 4,
             BLOSC_SHUFFLE);
  instr_case("no filter", 50000, 2, BLOSC_ZLIB, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5, TC_TEXT, 1, 0);
  instr_case("clevel 0", 100000, 4, BLOSC_BLOSCLZ, BLOSC_FORWARD_COMPAT_SPLIT, 0, 0, TC_FLOATS, 1,
             BLOSC_SHUFFLE);
  instr_case("20 bytes", 20, 4, BLOSC_BLOSCLZ, BLOSC_FORWARD_COMPAT_SPLIT, 0, 5, TC_FLOATS, 1,
             BLOSC_SHUFFLE);
  blosc2_destroy();
  return tc_finish("chunkapi_instr (" CA_VARIANT ")");
}
