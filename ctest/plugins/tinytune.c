/* A tiny tuner plugin for the tuner tests: every hook appends a line to a log (what it is
 * told and what it sees in the context) and the next_* hooks change the compression
 * parameters, so two libraries can be compared on the calls they make and the chunks they
 * write. Not the split mode, nor a block size already set: the reference writes the header
 * from the values it had before next_cparams, so chunks made after such a change do not
 * decode (and without a block size the reference divides by zero).
 * Exported through an `info` struct naming the five functions, as tuner packages do.
 * Without a configuration and with BTUNE_TRADEOFF set, `init` uses one of its own, as btune
 * does, so the tests loading it as btune see next_cparams, update and free too.
 *
 * Tuners address the context's fields directly (btune includes c-blosc2's private
 * context.h); the offsets below are those of c-blosc2 3.3.5 on x86-64, measured from the
 * reference library's code. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(ctx, type, off) (*(type *)((char *)(ctx) + (off)))
#define SOURCESIZE(c) FIELD(c, int32_t, 20)
#define BLOCKSIZE(c) FIELD(c, int32_t, 36)
#define SPLITMODE(c) FIELD(c, int32_t, 44)
#define DESTSIZE(c) FIELD(c, int32_t, 56)
#define TYPESIZE(c) FIELD(c, int32_t, 60)
#define COMPCODE(c) FIELD(c, int, 116)
#define CLEVEL(c) FIELD(c, int, 124)
#define FILTERS(c) (&FIELD(c, uint8_t, 169))
#define SCHUNK(c) FIELD(c, void *, 872)
#define TUNER_PARAMS(c) FIELD(c, void *, 896)
#define TUNER_ID(c) FIELD(c, int, 904)
#define NTHREADS(c) FIELD(c, int16_t, 968)

/* What the test hands as tuner_params: `fail` makes next_cparams fail from that call on. */
typedef struct {
  int calls;
  int fail_at;
} tt_config;

static char log_text[1 << 16];
static size_t log_len;

static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(log_text + log_len, sizeof(log_text) - log_len, fmt, ap);
  va_end(ap);
  if (n > 0 && log_len + (size_t)n < sizeof(log_text)) log_len += (size_t)n;
}

static void seen(const char *hook, void *ctx) {
  uint8_t *f = FILTERS(ctx);
  say("%s src=%d dest=%d typesize=%d compcode=%d clevel=%d blocksize=%d split=%d "
      "filters=%d,%d,%d,%d,%d,%d schunk=%d params=%d id=%d nthreads=%d\n",
      hook, SOURCESIZE(ctx), DESTSIZE(ctx), TYPESIZE(ctx), COMPCODE(ctx), CLEVEL(ctx),
      BLOCKSIZE(ctx), SPLITMODE(ctx), f[0], f[1], f[2], f[3], f[4], f[5], SCHUNK(ctx) != NULL,
      TUNER_PARAMS(ctx) != NULL, TUNER_ID(ctx), NTHREADS(ctx));
}

const char *tt_log(void) { return log_text; }

void tt_reset(void) {
  log_len = 0;
  log_text[0] = 0;
}

/* The configuration used without one, when BTUNE_TRADEOFF is set (as btune makes its own). */
static tt_config own_config;

int tt_init(void *config, void *cctx, void *dctx) {
  say("init config=%d dctx=%d\n", config != NULL, dctx != NULL);
  seen("init", cctx);
  const char *tradeoff = getenv("BTUNE_TRADEOFF");
  if (!config && tradeoff) {
    say("init BTUNE_TRADEOFF=%s: own config\n", tradeoff);
    own_config = (tt_config){0, 0};
    config = &own_config;
  }
  tt_config *cfg = config;
  if (cfg && cfg->fail_at < 0) return -1;
  /* As btune does: the library does not set the context's tuner_params itself. */
  TUNER_PARAMS(cctx) = config;
  return 0;
}

int tt_next_blocksize(void *ctx) {
  seen("next_blocksize", ctx);
  BLOCKSIZE(ctx) = TYPESIZE(ctx) * 2048;
  return 0;
}

int tt_next_cparams(void *ctx) {
  seen("next_cparams", ctx);
  tt_config *cfg = TUNER_PARAMS(ctx);
  int n = cfg->calls++;
  if (cfg->fail_at > 0 && n >= cfg->fail_at) return -1;
  COMPCODE(ctx) = n % 2 ? 1 : 5;
  CLEVEL(ctx) = 1 + n % 9;
  FILTERS(ctx)[5] = n % 3 ? 1 : 2;
  if (BLOCKSIZE(ctx) == 0) BLOCKSIZE(ctx) = 4096 << (cfg->fail_at > 0);
  return 0;
}

int tt_update(void *ctx, double ctime) {
  say("update ctime=%d\n", ctime >= 0);
  seen("update", ctx);
  return 0;
}

int tt_free(void *ctx) {
  seen("free", ctx);
  return 0;
}

struct {
  const char *init, *next_blocksize, *next_cparams, *update, *free;
} info = {"tt_init", "tt_next_blocksize", "tt_next_cparams", "tt_update", "tt_free"};
