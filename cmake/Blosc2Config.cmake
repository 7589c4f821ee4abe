# CMake package of blosc2-oxide, a drop-in replacement for c-blosc2 3.3.5.
# Installed as <prefix>/lib/cmake/Blosc2/Blosc2Config.cmake by tools/install.sh.
#
# Imported targets (as in c-blosc2):
#   Blosc2::blosc2_shared  <prefix>/lib/libblosc2.so.9 (SONAME libblosc2.so.9)
#   Blosc2::blosc2_static  <prefix>/lib/libblosc2.a (+ Threads, dl, m, rt)
#   Blosc2::blosc2         INTERFACE target linking Blosc2::blosc2_static
# Components THREADS, IPP, LZ4, ZLIB, ZSTD, ZFP are accepted for compatibility; every
# codec is bundled, so all of them except ZFP are reported as found.

get_filename_component(_blosc2_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

include(CMakeFindDependencyMacro)
set(THREADS_PREFER_PTHREAD_FLAG TRUE)
find_dependency(Threads)

set(HAVE_THREADS ON)
set(BLOSC_DEPENDENCY_MODE "BUNDLED")
set(Blosc2_THREADS_FOUND TRUE)
set(Blosc2_IPP_FOUND TRUE)
set(Blosc2_LZ4_FOUND TRUE)
set(Blosc2_ZLIB_FOUND TRUE)
set(Blosc2_ZSTD_FOUND TRUE)
set(Blosc2_ZFP_FOUND FALSE)

if(NOT TARGET Blosc2::blosc2_shared)
  add_library(Blosc2::blosc2_shared SHARED IMPORTED)
  set_target_properties(Blosc2::blosc2_shared PROPERTIES
    IMPORTED_LOCATION "${_blosc2_prefix}/lib/libblosc2.so.9"
    IMPORTED_SONAME "libblosc2.so.9"
    INTERFACE_INCLUDE_DIRECTORIES "${_blosc2_prefix}/include")
endif()

if(NOT TARGET Blosc2::blosc2_static)
  add_library(Blosc2::blosc2_static STATIC IMPORTED)
  # The static archive holds Rust code: besides pthread/dl/m/rt it needs libgcc_s for
  # stack unwinding.
  set_target_properties(Blosc2::blosc2_static PROPERTIES
    IMPORTED_LOCATION "${_blosc2_prefix}/lib/libblosc2.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${_blosc2_prefix}/include"
    INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS};m;rt;gcc_s")
endif()

if(NOT TARGET Blosc2::blosc2)
  add_library(Blosc2::blosc2 INTERFACE IMPORTED)
  set_target_properties(Blosc2::blosc2 PROPERTIES
    INTERFACE_LINK_LIBRARIES "Blosc2::blosc2_static")
endif()

foreach(_blosc2_comp IN LISTS Blosc2_FIND_COMPONENTS)
  if(NOT Blosc2_${_blosc2_comp}_FOUND AND Blosc2_FIND_REQUIRED_${_blosc2_comp})
    set(Blosc2_FOUND FALSE)
    set(Blosc2_NOT_FOUND_MESSAGE "Blosc2 component ${_blosc2_comp} is not available")
  endif()
endforeach()
unset(_blosc2_comp)
unset(_blosc2_prefix)
