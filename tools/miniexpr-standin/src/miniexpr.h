/* Stand-in for miniexpr's public header, written for blosc2-oxide (see ../README.md).
 * The names and members are those python-blosc2 4.14.1's blosc2_ext.pyx declares. */
#ifndef MINIEXPR_STANDIN_H
#define MINIEXPR_STANDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Element types of expression operands and results. */
typedef enum {
  ME_AUTO,
  ME_BOOL,
  ME_INT8,
  ME_INT16,
  ME_INT32,
  ME_INT64,
  ME_UINT8,
  ME_UINT16,
  ME_UINT32,
  ME_UINT64,
  ME_FLOAT32,
  ME_FLOAT64,
  ME_COMPLEX64,
  ME_COMPLEX128,
  ME_STRING,
  ME_BYTES
} me_dtype;

/** One operand of an expression. */
typedef struct me_variable {
  const char *name;
  me_dtype dtype;
  const void *address;
  int type;
  void *context;
  size_t itemsize;
} me_variable;

/** A compiled expression (never produced by the stand-in). */
typedef struct me_expr {
  int type;
  double value;
  const double *bound;
  const void *function;
  void *output;
  int nitems;
  me_dtype dtype;
  me_dtype input_dtype;
  void *bytecode;
  int ncode;
  void *parameters[1];
} me_expr;

/** Outcome of me_compile / me_compile_nd_jit. */
typedef enum {
  ME_COMPILE_SUCCESS = 0,
  ME_COMPILE_ERR_OOM = -1,
  ME_COMPILE_ERR_PARSE = -2,
  ME_COMPILE_ERR_INVALID_ARG = -3,
  ME_COMPILE_ERR_COMPLEX_UNSUPPORTED = -4,
  ME_COMPILE_ERR_REDUCTION_INVALID = -5,
  ME_COMPILE_ERR_VAR_MIXED = -6,
  ME_COMPILE_ERR_VAR_UNSPECIFIED = -7,
  ME_COMPILE_ERR_INVALID_ARG_TYPE = -8,
  ME_COMPILE_ERR_MIXED_TYPE_NESTED = -9
} me_compile_status;

/** Accuracy of vectorised math functions. */
typedef enum { ME_SIMD_ULP_DEFAULT, ME_SIMD_ULP_1, ME_SIMD_ULP_3_5 } me_simd_ulp_mode;

/** Whether to JIT-compile an expression. */
typedef enum { ME_JIT_DEFAULT, ME_JIT_ON, ME_JIT_OFF } me_jit_mode;

/** Evaluation options. */
typedef struct me_eval_params {
  bool disable_simd;
  me_simd_ulp_mode simd_ulp_mode;
  me_jit_mode jit_mode;
} me_eval_params;

/** Host callbacks of the wasm32 JIT. */
typedef int (*me_wasm_jit_instantiate_helper)(const unsigned char *wasm_bytes, int wasm_len,
                                              int bridge_lookup_fn_idx);
/** Host callback releasing a wasm32 JIT function. */
typedef void (*me_wasm_jit_free_helper)(int fn_idx);

/* The stand-in refuses every expression: *out = NULL, *error = 1, a negative status. */
int me_compile(const char *expression, const me_variable *variables, int var_count,
               me_dtype dtype, int *error, me_expr **out);
int me_compile_nd_jit(const char *expression, const me_variable *variables, int var_count,
                      me_dtype dtype, int ndims, const int64_t *shape,
                      const int32_t *chunkshape, const int32_t *blockshape, int jit_mode,
                      int *error, me_expr **out);

/* Evaluation of a (never compiled) expression: a negative status. */
int me_eval(const me_expr *expr, const void **vars_block, int n_vars, void *output_block,
            int chunk_nitems, const me_eval_params *params);
int me_eval_nd(const me_expr *expr, const void **vars_block, int n_vars, void *output_block,
               int block_nitems, int64_t nchunk, int64_t nblock, const me_eval_params *params);
int me_nd_valid_nitems(const me_expr *expr, int64_t nchunk, int64_t nblock,
                       int64_t *valid_nitems);

me_dtype me_get_dtype(const me_expr *expr);
size_t me_get_itemsize(const me_expr *expr);
void me_print(const me_expr *n);
void me_free(me_expr *n);
bool me_expr_has_jit_kernel(const me_expr *expr);
void me_register_wasm_jit_helpers(me_wasm_jit_instantiate_helper instantiate_helper,
                                  me_wasm_jit_free_helper free_helper);

#ifdef __cplusplus
}
#endif

#endif /* MINIEXPR_STANDIN_H */
