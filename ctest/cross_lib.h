/*
 * One library of a cross test, loaded with dlopen next to the other: the including file
 * defines LIB_FUNCS(X) with the functions it calls (each declared by the included blosc2.h
 * / b2nd.h), then includes this header, which declares lib_t (a label, the path, the handle
 * and one pointer per function) and cross_load().
 */
#ifndef BLOSC2_CTEST_CROSS_LIB_H
#define BLOSC2_CTEST_CROSS_LIB_H

#include <dlfcn.h>
#include <stdio.h>

typedef struct {
  const char *label, *path;
  void *handle;
#define CROSS_LIB_FIELD(name) __typeof__(name) *name;
  LIB_FUNCS(CROSS_LIB_FIELD)
#undef CROSS_LIB_FIELD
} lib_t;

/* Opens lib->path and resolves every function, saying on stderr what is missing (those
 * pointers stay NULL). Returns 1 when all were found, 0 otherwise (lib->handle is NULL
 * when the library could not be opened). */
static int cross_load(lib_t *lib) {
  lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    fprintf(stderr, "cannot load %s library %s: %s\n", lib->label, lib->path, dlerror());
    return 0;
  }
  int ok = 1;
#define CROSS_LIB_LOAD(name)                                                               \
  *(void **)(&lib->name) = dlsym(lib->handle, #name);                                      \
  if (!lib->name) {                                                                        \
    fprintf(stderr, "%s library %s does not export %s\n", lib->label, lib->path, #name);   \
    ok = 0;                                                                                \
  }
  LIB_FUNCS(CROSS_LIB_LOAD)
#undef CROSS_LIB_LOAD
  return ok;
}

/* The usual command line of a cross test, `PROG OURS_SO REFERENCE_SO`: labels `ours` and
 * `ref`, loads both. Returns 1 on success, 0 after printing the usage or what is missing. */
static __attribute__((unused)) int cross_load_pair(int argc, char **argv, lib_t *ours,
                                                  lib_t *ref) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OURS_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO\n", argv[0]);
    return 0;
  }
  ours->label = "ours";
  ours->path = argv[1];
  ref->label = "reference";
  ref->path = argv[2];
  return cross_load(ours) && cross_load(ref);
}

#endif /* BLOSC2_CTEST_CROSS_LIB_H */
