/*
 * Issue 10, point 3: blosc2_stdio_mmap_write/read with hostile sizes (overflowing byte
 * counts and end positions, negative values, zero sizes, reads past the end). Every
 * rejection returns the reference's value (0; reads also set *ptr to NULL, never a partial
 * count) and leaves the mapping alive with the file's bytes; accepted edge cases return
 * what the reference returns. Each case runs in a child process on a fresh 100-byte file.
 */
#include "dropin_common.h"

#define FILE_LEN 100
#define MAP_LEN (1 << 16)

static void fresh_file(void) {
  FILE *f = fopen("m.bin", "wb");
  for (int i = 0; i < FILE_LEN; i++) fputc(i, f);
  fclose(f);
}

static int open_block(blosc2_stdio_mmap *m, const char *mode) {
  fresh_file();
  *m = BLOSC2_STDIO_MMAP_DEFAULTS;
  m->mode = mode;
  m->initial_mapping_size = MAP_LEN;
  return blosc2_stdio_mmap_open("m.bin", mode, m) == m;
}

/* The mapping is the one opened and still holds the file's first 100 bytes. */
static void check_alive(blosc2_stdio_mmap *m, char *addr, const char *what) {
  CHECK(m->addr != NULL && m->addr == addr, "%s: the mapping moved or went away", what);
  void *p = NULL;
  CHECK_EQ(blosc2_stdio_mmap_read(&p, 1, FILE_LEN, 0, m), FILE_LEN, "%s: read back", what);
  CHECK(p == m->addr, "%s: read back pointer", what);
  if (p != NULL && m->addr != NULL) {
    int same = 1;
    for (int i = 0; i < FILE_LEN; i++) same &= ((unsigned char *)p)[i] == i;
    CHECK(same, "%s: the file's bytes changed", what);
  }
}

static const int64_t hostile[][3] = {
    {1, INT64_MAX, 0},          {INT64_MAX, 2, 0},       {2, (INT64_MAX / 2) + 1, 0},
    {1, 10, INT64_MAX - 5},     {1, 1, INT64_MAX},       {INT64_MAX, INT64_MAX, INT64_MAX},
    {-1, 1, 0},                 {1, -1, 0},              {1, 1, -1},
    {INT64_MIN, 1, 0},          {1, 1, INT64_MIN},
};
#define NHOSTILE (sizeof hostile / sizeof hostile[0])

static void hostile_writes(const char *mode) {
  char data[64];
  memset(data, 'w', sizeof data);
  for (size_t i = 0; i < NHOSTILE; i++) {
    blosc2_stdio_mmap m;
    if (!open_block(&m, mode)) {
      CHECK(0, "open %s", mode);
      return;
    }
    char *addr = m.addr;
    char what[128];
    snprintf(what, sizeof what, "%s write(%lld, %lld, %lld)", mode, (long long)hostile[i][0],
             (long long)hostile[i][1], (long long)hostile[i][2]);
    CHECK_EQ(blosc2_stdio_mmap_write(data, hostile[i][0], hostile[i][1], hostile[i][2], &m), 0,
             "%s", what);
    check_alive(&m, addr, what);
#if defined(BLOSC2_VARIANT_OURS)
    /* The reference 3.3.5 leaves file_size at INT64_MAX after write(1, INT64_MAX, 0). */
    CHECK_EQ(m.file_size, FILE_LEN, "%s: file_size", what);
#endif
    CHECK_EQ(di_file_size("m.bin", NULL), FILE_LEN, "%s: size on disk", what);
    /* (With the reference's corrupted file_size, its msync in destroy fails.) */
    int intact = m.file_size == FILE_LEN;
    int rc = blosc2_stdio_mmap_destroy(&m);
    CHECK(!intact || rc == 0, "%s: destroy = %d", what, rc);
  }
}

static void zero_writes(const char *mode) {
  static const int64_t zero[][3] = {{0, 10, 0}, {10, 0, 0}, {0, 0, 0}, {0, 10, 101},
                                    {INT64_MAX, 0, 0}, {0, INT64_MAX, 0}};
  char data[16] = "zzzzzzzzzzzzzzz";
  for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) {
    blosc2_stdio_mmap m;
    if (!open_block(&m, mode)) {
      CHECK(0, "open %s", mode);
      return;
    }
    char *addr = m.addr;
    char what[128];
    snprintf(what, sizeof what, "%s write(%lld, %lld, %lld)", mode, (long long)zero[i][0],
             (long long)zero[i][1], (long long)zero[i][2]);
    CHECK_EQ(blosc2_stdio_mmap_write(data, zero[i][0], zero[i][1], zero[i][2], &m), 0, "%s",
             what);
    CHECK_EQ(m.file_size, FILE_LEN, "%s: file_size", what);
    check_alive(&m, addr, what);
    CHECK_EQ(blosc2_stdio_mmap_write(NULL, 1, 1, 0, &m), 0, "%s: NULL data", what);
    CHECK_EQ(blosc2_stdio_mmap_destroy(&m), 0, "%s: destroy", what);
  }
}

static void hostile_reads(const char *mode) {
  static const int64_t past[][3] = {{1, 10, 95}, {1, 10, 100}, {1, 10, 101}, {1, 1, 1 << 20},
                                    {3, 34, 0},  {1, 101, 0},  {0, 10, 101}};
  blosc2_stdio_mmap m;
  if (!open_block(&m, mode)) {
    CHECK(0, "open %s", mode);
    return;
  }
  char *addr = m.addr;
  for (size_t i = 0; i < NHOSTILE + sizeof past / sizeof past[0]; i++) {
    const int64_t *c = i < NHOSTILE ? hostile[i] : past[i - NHOSTILE];
    char what[128];
    snprintf(what, sizeof what, "%s read(%lld, %lld, %lld)", mode, (long long)c[0],
             (long long)c[1], (long long)c[2]);
    void *p = &m; /* any non-NULL value: a rejection must clear it */
    CHECK_EQ(blosc2_stdio_mmap_read(&p, c[0], c[1], c[2], &m), 0, "%s", what);
    CHECK(p == NULL, "%s: *ptr not cleared", what);
    check_alive(&m, addr, what);
  }
  CHECK_EQ(blosc2_stdio_mmap_read(NULL, 1, 1, 0, &m), 0, "%s read into NULL", mode);
  CHECK_EQ(blosc2_stdio_mmap_destroy(&m), 0, "%s destroy", mode);
}

static void edge_reads(const char *mode) {
  static const int64_t ok[][4] = {
      /* size, nitems, position, expected return */
      {1, 5, 95, 5},  {1, 100, 0, 100}, {4, 25, 0, 25}, {0, 10, 0, 10},
      {0, 10, 100, 10}, {10, 0, 0, 0}, {INT64_MAX, 0, 0, 0}, {0, INT64_MAX, 0, INT64_MAX},
  };
  blosc2_stdio_mmap m;
  if (!open_block(&m, mode)) {
    CHECK(0, "open %s", mode);
    return;
  }
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    void *p = NULL;
    CHECK_EQ(blosc2_stdio_mmap_read(&p, ok[i][0], ok[i][1], ok[i][2], &m), ok[i][3],
             "%s read(%lld, %lld, %lld)", mode, (long long)ok[i][0], (long long)ok[i][1],
             (long long)ok[i][2]);
    CHECK(p == m.addr + ok[i][2], "%s read(%lld, %lld, %lld): pointer", mode,
          (long long)ok[i][0], (long long)ok[i][1], (long long)ok[i][2]);
  }
  CHECK_EQ(blosc2_stdio_mmap_destroy(&m), 0, "%s destroy", mode);
}

static void growth(const char *mode, int on_disk) {
  blosc2_stdio_mmap m;
  if (!open_block(&m, mode)) {
    CHECK(0, "open %s", mode);
    return;
  }
  char data[16] = "ABCDEFGHIJKLMNO";
  CHECK_EQ(blosc2_stdio_mmap_write(data, 1, 10, 95, &m), 10, "%s write across the end", mode);
  CHECK_EQ(m.file_size, 105, "%s file_size", mode);
  CHECK_EQ(m.mapping_size, MAP_LEN, "%s mapping_size", mode);
  CHECK_EQ(di_file_size("m.bin", NULL), on_disk ? 105 : FILE_LEN, "%s size on disk", mode);
  void *p = NULL;
  CHECK_EQ(blosc2_stdio_mmap_read(&p, 1, 10, 95, &m), 10, "%s read the write back", mode);
  CHECK(p != NULL && memcmp(p, data, 10) == 0, "%s written bytes", mode);
  CHECK_EQ(blosc2_stdio_mmap_truncate(&m, -1), -1, "%s truncate(-1)", mode);
  CHECK_EQ(blosc2_stdio_mmap_truncate(&m, 50), 0, "%s truncate(50)", mode);
  CHECK_EQ(blosc2_stdio_mmap_size(&m), 50, "%s size after truncate", mode);
  p = &m;
  CHECK_EQ(blosc2_stdio_mmap_read(&p, 1, 10, 45, &m), 0, "%s read past the truncation", mode);
  CHECK(p == NULL, "%s read past the truncation: pointer", mode);
  if (on_disk) {
    CHECK_EQ(blosc2_stdio_mmap_write(data, 1, 1, 1 << 20, &m), 1, "%s write past the mapping",
             mode);
    CHECK_EQ(m.file_size, (1 << 20) + 1, "%s file_size after remap", mode);
    CHECK_EQ(m.mapping_size, 2 * ((1 << 20) + 1), "%s mapping_size after remap", mode);
    p = NULL;
    CHECK_EQ(blosc2_stdio_mmap_read(&p, 1, 1, 1 << 20, &m), 1, "%s read after remap", mode);
    CHECK(p != NULL && *(char *)p == 'A', "%s byte after remap", mode);
  }
#if defined(BLOSC2_VARIANT_OURS)
  else {
    /* The reference dies of SIGBUS writing past the mapping of a copy-on-write block. */
    CHECK_EQ(blosc2_stdio_mmap_write(data, 1, 1, 1 << 20, &m), 1, "%s write past the mapping",
             mode);
    p = NULL;
    CHECK_EQ(blosc2_stdio_mmap_read(&p, 1, 1, 1 << 20, &m), 1, "%s read after remap", mode);
    CHECK(p != NULL && *(char *)p == 'A', "%s byte after remap", mode);
  }
#endif
  CHECK_EQ(blosc2_stdio_mmap_destroy(&m), 0, "%s destroy", mode);
  CHECK_EQ(di_file_size("m.bin", NULL), on_disk ? (1 << 20) + 1 : FILE_LEN,
           "%s size on disk after destroy", mode);
}

static void case_writes_rplus(void) { hostile_writes("r+"); zero_writes("r+"); }
static void case_writes_c(void) { hostile_writes("c"); zero_writes("c"); }
static void case_reads(void) {
  hostile_reads("r");
  hostile_reads("r+");
  hostile_reads("c");
  edge_reads("r");
  edge_reads("r+");
}
static void case_growth(void) {
  growth("r+", 1);
  growth("c", 0);
}

static void case_read_only_writes(void) {
  blosc2_stdio_mmap m;
  if (!open_block(&m, "r")) {
    CHECK(0, "open r");
    return;
  }
  /* Only the rejections: a valid write into a read-only mapping crashes the reference. */
  char data[4] = "abc";
  for (size_t i = 0; i < NHOSTILE; i++) {
    if (hostile[i][0] == 1 && hostile[i][1] == INT64_MAX) continue; /* reaches ftruncate */
    CHECK_EQ(blosc2_stdio_mmap_write(data, hostile[i][0], hostile[i][1], hostile[i][2], &m), 0,
             "r write(%lld, %lld, %lld)", (long long)hostile[i][0], (long long)hostile[i][1],
             (long long)hostile[i][2]);
  }
  CHECK_EQ(m.file_size, FILE_LEN, "r file_size");
  CHECK_EQ(blosc2_stdio_mmap_destroy(&m), 0, "r destroy");
}

int main(void) {
  di_enter_scratch("dropin_mmap_hostile");
  di_run("hostile writes (r+)", case_writes_rplus);
  di_run("hostile writes (c)", case_writes_c);
  di_run("hostile and edge reads", case_reads);
  di_run("growth and truncation", case_growth);
  di_run("rejected writes on a read-only block", case_read_only_writes);
  return di_finish("dropin_mmap_hostile");
}
