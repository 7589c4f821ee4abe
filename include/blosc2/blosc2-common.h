/*
 * blosc2/blosc2-common.h -- portability macros shared by the public headers.
 *
 * Part of blosc2-oxide, a drop-in replacement for c-blosc2 3.3.5 (libblosc2.so.9).
 * License: BSD-3-Clause.  Hand-written (not generated).
 */

#ifndef BLOSC_BLOSC2_BLOSC2_COMMON_H
#define BLOSC_BLOSC2_BLOSC2_COMMON_H

#include "blosc2-export.h"

#include <stdint.h>
#include <string.h>

/* GCC-compatible compilers: their version as one number, and a "may be unused" marker. */
#ifdef __GNUC__
#  define BLOSC_GCC_VERSION (__GNUC__ * 100 + __GNUC_MINOR__)
#  define BLOSC_UNUSED_VAR __attribute__((unused))
#else
#  define BLOSC_UNUSED_VAR
#endif

/* Marks a function parameter as deliberately unused. */
#define BLOSC_UNUSED_PARAM(x) ((void)(x))

/* Visual C in C mode only understands the __inline spelling. */
#if defined(_MSC_VER) && !defined(__cplusplus)
#  define inline __inline
#endif

/* Visual C never defines __SSE2__, even when it targets SSE2-capable processors. */
#if !defined(__SSE2__) && defined(_MSC_VER) && \
    (defined(_M_X64) || (defined(_M_IX86) && _M_IX86_FP >= 2))
#  define __SSE2__
#endif

/*
 * BLOSC_STRICT_ALIGN is defined on targets where unaligned memory accesses are unsafe or
 * slow.  x86, x86-64, 64-bit ARM with unaligned-access support and POWER handle them
 * well, so it stays undefined there (unless the user defines it).
 */
#if !defined(BLOSC_STRICT_ALIGN)
#  if defined(__i386__) || defined(__386) || defined(__amd64) || defined(__x86_64__) || \
      defined(__i486__) || defined(__i586__) || defined(__i686__) ||                     \
      defined(_M_IX86) || defined(_M_X64) || defined(_X86_) || defined(__I86__) ||       \
      (defined(__ARM_FEATURE_UNALIGNED) && defined(__ARM64_ARCH_8__)) ||                 \
      defined(_ARCH_PPC) || defined(__PPC__)
     /* unaligned accesses are fine: leave BLOSC_STRICT_ALIGN undefined */
#  else
#    define BLOSC_STRICT_ALIGN
#  endif
#endif

/* SIMD intrinsics, when the compiler targets them. */
#if defined(__SSE2__)
#  include <emmintrin.h>
#endif
#if defined(__AVX2__) || defined(__AVX512F__) || defined(__AVX512BW__)
#  include <immintrin.h>
#endif

#endif  /* BLOSC_BLOSC2_BLOSC2_COMMON_H */
