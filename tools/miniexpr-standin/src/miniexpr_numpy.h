/* Stand-in for miniexpr's NumPy helper header, written for blosc2-oxide (see ../README.md). */
#ifndef MINIEXPR_NUMPY_STANDIN_H
#define MINIEXPR_NUMPY_STANDIN_H

#include "miniexpr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The me_dtype of a NumPy type number (NPY_BOOL = 0 ... NPY_CDOUBLE = 15); ME_AUTO for
 * the others. */
me_dtype me_dtype_from_numpy(int numpy_type_num);

#ifdef __cplusplus
}
#endif

#endif /* MINIEXPR_NUMPY_STANDIN_H */
