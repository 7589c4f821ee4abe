/*
 * blosc2/blosc2-export.h -- symbol visibility macros of the public headers.
 *
 * Part of blosc2-oxide, a drop-in replacement for c-blosc2 3.3.5 (libblosc2.so.9).
 * License: BSD-3-Clause.  Hand-written (not generated).
 */

#ifndef BLOSC_BLOSC2_BLOSC2_EXPORT_H
#define BLOSC_BLOSC2_BLOSC2_EXPORT_H

/*
 * BLOSC_EXPORT precedes every public function.  It only carries an attribute while the
 * shared library itself is built (with BLOSC_SHARED_LIBRARY defined); for programs using
 * the library it expands to nothing.
 */
#if defined(BLOSC_SHARED_LIBRARY)
#  if defined(_MSC_VER)
#    define BLOSC_EXPORT __declspec(dllexport)
#  elif (defined(__GNUC__) && __GNUC__ >= 4) || defined(__clang__)
#    if defined(_WIN32) || defined(__CYGWIN__) || defined(__MINGW32__)
#      define BLOSC_EXPORT __attribute__((dllexport))
#    else
#      define BLOSC_EXPORT __attribute__((visibility("default")))
#    endif
#  else
#    error "blosc2-export.h: no way to mark exported symbols with this compiler"
#  endif
#else
#  define BLOSC_EXPORT
#endif

/* BLOSC_NO_EXPORT keeps a symbol out of the shared library's dynamic symbol table. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__MINGW32__)
#  define BLOSC_NO_EXPORT __attribute__((visibility("hidden")))
#else
#  define BLOSC_NO_EXPORT
#endif

/* Test builds (BLOSC_TESTING) export the internal symbols as well. */
#if defined(BLOSC_TESTING)
#  undef BLOSC_NO_EXPORT
#  define BLOSC_NO_EXPORT BLOSC_EXPORT
#endif

#endif  /* BLOSC_BLOSC2_BLOSC2_EXPORT_H */
