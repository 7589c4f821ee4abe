/* Compress and decompress one buffer through the package found by find_package(Blosc2). */
#include <stdio.h>
#include <string.h>
#include <blosc2.h>

int main(void) {
  static int data[100000], back[100000];
  static char chunk[sizeof(data) + BLOSC2_MAX_OVERHEAD];
  for (int i = 0; i < 100000; i++) data[i] = i;
  blosc2_init();
  int cbytes = blosc2_compress(5, BLOSC_SHUFFLE, sizeof(int), data, sizeof(data), chunk,
                               sizeof(chunk));
  int nbytes = blosc2_decompress(chunk, cbytes, back, sizeof(back));
  blosc2_destroy();
  if (cbytes <= 0 || nbytes != (int)sizeof(data) || memcmp(data, back, sizeof(data)) != 0) {
    printf("consumer FAILED: cbytes=%d nbytes=%d\n", cbytes, nbytes);
    return 1;
  }
  printf("consumer OK: %d -> %d bytes, library %s\n", nbytes, cbytes,
         blosc2_get_version_string());
  return 0;
}
