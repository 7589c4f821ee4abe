/* zlib_name_mangling.h has been automatically generated from
 * zlib_name_mangling.h.in because ZLIB_SYMBOL_PREFIX was set.
 */

#ifndef ZLIB_NAME_MANGLING_H
#define ZLIB_NAME_MANGLING_H

/* all linked symbols and init macros */
#define _dist_code            oxzng__dist_code
#define _length_code          oxzng__length_code
#define _tr_align             oxzng__tr_align
#define _tr_flush_bits        oxzng__tr_flush_bits
#define _tr_flush_block       oxzng__tr_flush_block
#define _tr_init              oxzng__tr_init
#define _tr_stored_block      oxzng__tr_stored_block
#define _tr_tally             oxzng__tr_tally
#define adler32               oxzng_adler32
#define adler32_combine       oxzng_adler32_combine
#define adler32_combine64     oxzng_adler32_combine64
#define adler32_z             oxzng_adler32_z
#ifndef Z_SOLO
#  define compress              oxzng_compress
#  define compress2             oxzng_compress2
#  define compressBound         oxzng_compressBound
#endif
#define crc32                 oxzng_crc32
#define crc32_combine         oxzng_crc32_combine
#define crc32_combine64       oxzng_crc32_combine64
#define crc32_combine_gen     oxzng_crc32_combine_gen
#define crc32_combine_gen64   oxzng_crc32_combine_gen64
#define crc32_combine_op      oxzng_crc32_combine_op
#define crc32_z               oxzng_crc32_z
#define deflate               oxzng_deflate
#define deflateBound          oxzng_deflateBound
#define deflateCopy           oxzng_deflateCopy
#define deflateEnd            oxzng_deflateEnd
#define deflateGetDictionary  oxzng_deflateGetDictionary
#define deflateInit           oxzng_deflateInit
#define deflateInit2          oxzng_deflateInit2
#define deflateInit2_         oxzng_deflateInit2_
#define deflateInit_          oxzng_deflateInit_
#define deflateParams         oxzng_deflateParams
#define deflatePending        oxzng_deflatePending
#define deflatePrime          oxzng_deflatePrime
#define deflateReset          oxzng_deflateReset
#define deflateResetKeep      oxzng_deflateResetKeep
#define deflateSetDictionary  oxzng_deflateSetDictionary
#define deflateSetHeader      oxzng_deflateSetHeader
#define deflateTune           oxzng_deflateTune
#define deflate_copyright     oxzng_deflate_copyright
#define fill_window           oxzng_fill_window
#define fixedtables           oxzng_fixedtables
#define flush_pending         oxzng_flush_pending
#define get_crc_table         oxzng_get_crc_table
#ifndef Z_SOLO
#  define gz_error              oxzng_gz_error
#  define gz_strwinerror        oxzng_gz_strwinerror
#  define gzbuffer              oxzng_gzbuffer
#  define gzclearerr            oxzng_gzclearerr
#  define gzclose               oxzng_gzclose
#  define gzclose_r             oxzng_gzclose_r
#  define gzclose_w             oxzng_gzclose_w
#  define gzdirect              oxzng_gzdirect
#  define gzdopen               oxzng_gzdopen
#  define gzeof                 oxzng_gzeof
#  define gzerror               oxzng_gzerror
#  define gzflush               oxzng_gzflush
#  define gzfread               oxzng_gzfread
#  define gzfwrite              oxzng_gzfwrite
#  define gzgetc                oxzng_gzgetc
#  define gzgetc_               oxzng_gzgetc_
#  define gzgets                oxzng_gzgets
#  define gzoffset              oxzng_gzoffset
#  define gzoffset64            oxzng_gzoffset64
#  define gzopen                oxzng_gzopen
#  define gzopen64              oxzng_gzopen64
#  ifdef _WIN32
#    define gzopen_w              oxzng_gzopen_w
#  endif
#  define gzprintf              oxzng_gzprintf
#  define gzputc                oxzng_gzputc
#  define gzputs                oxzng_gzputs
#  define gzread                oxzng_gzread
#  define gzrewind              oxzng_gzrewind
#  define gzseek                oxzng_gzseek
#  define gzseek64              oxzng_gzseek64
#  define gzsetparams           oxzng_gzsetparams
#  define gztell                oxzng_gztell
#  define gztell64              oxzng_gztell64
#  define gzungetc              oxzng_gzungetc
#  define gzvprintf             oxzng_gzvprintf
#  define gzwrite               oxzng_gzwrite
#endif
#define inflate               oxzng_inflate
#define inflateBack           oxzng_inflateBack
#define inflateBackEnd        oxzng_inflateBackEnd
#define inflateBackInit       oxzng_inflateBackInit
#define inflateBackInit_      oxzng_inflateBackInit_
#define inflateCodesUsed      oxzng_inflateCodesUsed
#define inflateCopy           oxzng_inflateCopy
#define inflateEnd            oxzng_inflateEnd
#define inflateGetDictionary  oxzng_inflateGetDictionary
#define inflateGetHeader      oxzng_inflateGetHeader
#define inflateInit           oxzng_inflateInit
#define inflateInit2          oxzng_inflateInit2
#define inflateInit2_         oxzng_inflateInit2_
#define inflateInit_          oxzng_inflateInit_
#define inflateMark           oxzng_inflateMark
#define inflatePrime          oxzng_inflatePrime
#define inflateReset          oxzng_inflateReset
#define inflateReset2         oxzng_inflateReset2
#define inflateResetKeep      oxzng_inflateResetKeep
#define inflateSetDictionary  oxzng_inflateSetDictionary
#define inflateSync           oxzng_inflateSync
#define inflateSyncPoint      oxzng_inflateSyncPoint
#define inflateUndermine      oxzng_inflateUndermine
#define inflateValidate       oxzng_inflateValidate
#define inflate_copyright     oxzng_inflate_copyright
#define inflate_ensure_window oxzng_inflate_ensure_window
#define inflate_fast          oxzng_inflate_fast
#define inflate_table         oxzng_inflate_table
#define read_buf              oxzng_read_buf
#ifndef Z_SOLO
#  define uncompress            oxzng_uncompress
#  define uncompress2           oxzng_uncompress2
#endif
#define zError                oxzng_zError
#ifndef Z_SOLO
#  define zcalloc               oxzng_zcalloc
#  define zcfree                oxzng_zcfree
#endif
#define zlibCompileFlags      oxzng_zlibCompileFlags
#define zlibVersion           oxzng_zlibVersion

/* all zlib typedefs in zlib.h and zconf.h */
#define Byte                  oxzng_Byte
#define Bytef                 oxzng_Bytef
#define alloc_func            oxzng_alloc_func
#define charf                 oxzng_charf
#define free_func             oxzng_free_func
#ifndef Z_SOLO
#  define gzFile                oxzng_gzFile
#endif
#define gz_header             oxzng_gz_header
#define gz_headerp            oxzng_gz_headerp
#define in_func               oxzng_in_func
#define intf                  oxzng_intf
#define out_func              oxzng_out_func
#define uInt                  oxzng_uInt
#define uIntf                 oxzng_uIntf
#define uLong                 oxzng_uLong
#define uLongf                oxzng_uLongf
#define voidp                 oxzng_voidp
#define voidpc                oxzng_voidpc
#define voidpf                oxzng_voidpf

/* all zlib structs in zlib.h and zconf.h */
#define gz_header_s           oxzng_gz_header_s
#define internal_state        oxzng_internal_state

/* all zlib structs in zutil.h */
#define z_errmsg              oxzng_z_errmsg
#define z_vstring             oxzng_z_vstring
#define zlibng_version        oxzng_zlibng_version

/* zlib-ng specific symbols */
#define zng_alloc_aligned     oxzng_zng_alloc_aligned
#define zng_free_aligned      oxzng_zng_free_aligned

#endif /* ZLIB_NAME_MANGLING_H */
