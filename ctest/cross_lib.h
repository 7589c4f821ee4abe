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

#endif /* BLOSC2_CTEST_CROSS_LIB_H */
