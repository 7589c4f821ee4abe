/* Stand-in for miniexpr, written for blosc2-oxide (see ../README.md): every expression is
 * refused, so python-blosc2 evaluates it with its numexpr / numpy fallback. */
#include "miniexpr.h"
#include "miniexpr_numpy.h"

#include <stdio.h>

static int refuse(int *error, me_expr **out) {
  if (out != NULL) {
    *out = NULL;
  }
  if (error != NULL) {
    *error = 1;
  }
  return ME_COMPILE_ERR_INVALID_ARG;
}

int me_compile(const char *expression, const me_variable *variables, int var_count,
               me_dtype dtype, int *error, me_expr **out) {
  (void)expression;
  (void)variables;
  (void)var_count;
  (void)dtype;
  return refuse(error, out);
}

int me_compile_nd_jit(const char *expression, const me_variable *variables, int var_count,
                      me_dtype dtype, int ndims, const int64_t *shape,
                      const int32_t *chunkshape, const int32_t *blockshape, int jit_mode,
                      int *error, me_expr **out) {
  (void)expression;
  (void)variables;
  (void)var_count;
  (void)dtype;
  (void)ndims;
  (void)shape;
  (void)chunkshape;
  (void)blockshape;
  (void)jit_mode;
  return refuse(error, out);
}

int me_eval(const me_expr *expr, const void **vars_block, int n_vars, void *output_block,
            int chunk_nitems, const me_eval_params *params) {
  (void)expr;
  (void)vars_block;
  (void)n_vars;
  (void)output_block;
  (void)chunk_nitems;
  (void)params;
  return ME_COMPILE_ERR_INVALID_ARG;
}

int me_eval_nd(const me_expr *expr, const void **vars_block, int n_vars, void *output_block,
               int block_nitems, int64_t nchunk, int64_t nblock, const me_eval_params *params) {
  (void)expr;
  (void)vars_block;
  (void)n_vars;
  (void)output_block;
  (void)block_nitems;
  (void)nchunk;
  (void)nblock;
  (void)params;
  return ME_COMPILE_ERR_INVALID_ARG;
}

int me_nd_valid_nitems(const me_expr *expr, int64_t nchunk, int64_t nblock,
                       int64_t *valid_nitems) {
  (void)expr;
  (void)nchunk;
  (void)nblock;
  if (valid_nitems != NULL) {
    *valid_nitems = 0;
  }
  return ME_COMPILE_ERR_INVALID_ARG;
}

me_dtype me_get_dtype(const me_expr *expr) {
  return expr != NULL ? expr->dtype : ME_AUTO;
}

size_t me_get_itemsize(const me_expr *expr) {
  (void)expr;
  return 0;
}

void me_print(const me_expr *n) {
  (void)n;
  printf("(miniexpr stand-in: no expression)\n");
}

void me_free(me_expr *n) {
  (void)n;
}

bool me_expr_has_jit_kernel(const me_expr *expr) {
  (void)expr;
  return false;
}

void me_register_wasm_jit_helpers(me_wasm_jit_instantiate_helper instantiate_helper,
                                  me_wasm_jit_free_helper free_helper) {
  (void)instantiate_helper;
  (void)free_helper;
}

me_dtype me_dtype_from_numpy(int numpy_type_num) {
  /* NumPy's type numbers: BOOL, BYTE, UBYTE, SHORT, USHORT, INT, UINT, LONG, ULONG,
   * LONGLONG, ULONGLONG, FLOAT, DOUBLE, LONGDOUBLE, CFLOAT, CDOUBLE (LP64: LONG is 64-bit). */
  static const me_dtype by_num[] = {
      ME_BOOL,   ME_INT8,   ME_UINT8,   ME_INT16,  ME_UINT16,    ME_INT32,
      ME_UINT32, ME_INT64,  ME_UINT64,  ME_INT64,  ME_UINT64,    ME_FLOAT32,
      ME_FLOAT64, ME_AUTO,  ME_COMPLEX64, ME_COMPLEX128};
  if (numpy_type_num < 0 || numpy_type_num >= (int)(sizeof(by_num) / sizeof(by_num[0]))) {
    return ME_AUTO;
  }
  return by_num[numpy_type_num];
}
