/* A tiny plugin for the dynamic-loading tests: a run-length codec and an XOR filter,
 * exported through an `info` struct naming the two functions, as plugin packages do. */
#include <stdint.h>
#include <string.h>

#ifdef TINY_FILTER
static int fw(const uint8_t *src, uint8_t *dst, int32_t n, uint8_t meta, void *cp, uint8_t id) {
  (void)meta; (void)cp; (void)id;
  for (int32_t i = 0; i < n; i++) dst[i] = src[i] ^ 0x33;
  return 0;
}
int tiny_forward(const uint8_t *s, uint8_t *d, int32_t n, uint8_t m, void *c, uint8_t i) { return fw(s, d, n, m, c, i); }
int tiny_backward(const uint8_t *s, uint8_t *d, int32_t n, uint8_t m, void *c, uint8_t i) { return fw(s, d, n, m, c, i); }
struct { const char *forward, *backward; } info = {"tiny_forward", "tiny_backward"};
#else
int tiny_encoder(const uint8_t *in, int32_t n, uint8_t *out, int32_t max, uint8_t meta, void *cp, const void *chunk) {
  (void)meta; (void)cp; (void)chunk;
  int32_t o = 0;
  for (int32_t i = 0; i < n;) {
    int32_t r = 1;
    while (i + r < n && r < 255 && in[i + r] == in[i]) r++;
    if (o + 2 > max) return 0;
    out[o++] = (uint8_t)r;
    out[o++] = in[i];
    i += r;
  }
  return o < n ? o : 0;
}
int tiny_decoder(const uint8_t *in, int32_t n, uint8_t *out, int32_t max, uint8_t meta, void *dp, const void *chunk) {
  (void)meta; (void)dp; (void)chunk;
  int32_t o = 0;
  for (int32_t i = 0; i + 1 < n; i += 2) {
    if (o + in[i] > max) return -1;
    memset(out + o, in[i + 1], in[i]);
    o += in[i];
  }
  return o;
}
struct { const char *encoder, *decoder; } info = {"tiny_encoder", "tiny_decoder"};
#endif
