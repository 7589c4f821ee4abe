/* Link the static target (Blosc2::blosc2_static) next to the system zlib, when there is one:
 * blosc2's zlib codec and the program's own zlib must each keep their own code. */
#include <stdio.h>
#include <string.h>
#include <blosc2.h>
#ifdef HAVE_SYSTEM_ZLIB
#include <zlib.h>
#endif

int main(void) {
  static int data[100000], back[100000];
  static char chunk[sizeof(data) + BLOSC2_MAX_OVERHEAD];
  for (int i = 0; i < 100000; i++) data[i] = i % 1000;
  blosc2_init();
  blosc1_set_compressor("zlib");
  int cbytes = blosc2_compress(5, BLOSC_SHUFFLE, sizeof(int), data, sizeof(data), chunk,
                               sizeof(chunk));
  int nbytes = blosc2_decompress(chunk, cbytes, back, sizeof(back));
  const char *complib = NULL, *version = NULL;
  blosc2_get_complib_info("zlib", (char **)&complib, (char **)&version);
  blosc2_destroy();
  if (cbytes <= 0 || nbytes != (int)sizeof(data) || memcmp(data, back, sizeof(data)) != 0) {
    printf("static consumer FAILED: cbytes=%d nbytes=%d\n", cbytes, nbytes);
    return 1;
  }
  printf("static consumer: blosc2 zlib chunk %d -> %d bytes (%s %s)\n", nbytes, cbytes,
         complib ? complib : "?", version ? version : "?");
#ifdef HAVE_SYSTEM_ZLIB
  static unsigned char z[sizeof(data) + 1024];
  uLongf zlen = sizeof(z), blen = sizeof(back);
  memset(back, 0, sizeof(back));
  if (compress2(z, &zlen, (const Bytef *)data, sizeof(data), 6) != Z_OK ||
      uncompress((Bytef *)back, &blen, z, zlen) != Z_OK || blen != sizeof(data) ||
      memcmp(data, back, sizeof(data)) != 0) {
    printf("static consumer FAILED: the system zlib does not round-trip\n");
    return 1;
  }
  if (strcmp(zlibVersion(), ZLIB_VERSION) != 0) {
    printf("static consumer FAILED: zlibVersion() is %s, the system header says %s\n",
           zlibVersion(), ZLIB_VERSION);
    return 1;
  }
  printf("static consumer: system zlib %s answers its own names\n", zlibVersion());
#else
  printf("static consumer: no system zlib found, coexistence not checked\n");
#endif
  return 0;
}
