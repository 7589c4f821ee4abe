# Setup shared by the CTest suite (ctest/CMakeLists.txt) and its sub-suites (ctest/frames,
# ctest/chunkapi), included right after their project() line. Configured on its own (the
# top-level suite, or a sub-suite alone), a suite gets here the cache variables, their checks
# and defaults; every suite gets the imported target blosc2_under_test,
# BLOSC2_VARIANT_LIBDIR (the directory of the library under test) and blosc2_variant_test().
if(CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  set(BLOSC2_VARIANT "ours" CACHE STRING "Library variant under test: ours or reference")
  set(BLOSC2_INCLUDE_DIR "" CACHE PATH "Include directory of the variant under test")
  set(BLOSC2_LIBRARY "" CACHE FILEPATH "libblosc2.so.9 of the variant under test")
  set(BLOSC2_REFERENCE_INCLUDE_DIR "" CACHE PATH "Include directory of the reference")
  set(BLOSC2_REFERENCE_LIBRARY "" CACHE FILEPATH "libblosc2.so.9 of the reference")
  set(BLOSC2_OURS_LIBRARY "" CACHE FILEPATH "our libblosc2.so.9 (cross and swap tests)")
  option(BLOSC2_CROSS_TESTS "Register the cross (ours<->reference) and swap tests" OFF)
  if(NOT BLOSC2_VARIANT STREQUAL "ours" AND NOT BLOSC2_VARIANT STREQUAL "reference")
    message(FATAL_ERROR "BLOSC2_VARIANT must be 'ours' or 'reference'")
  endif()
  if(NOT EXISTS "${BLOSC2_INCLUDE_DIR}/blosc2.h" OR NOT EXISTS "${BLOSC2_LIBRARY}")
    message(FATAL_ERROR "set BLOSC2_INCLUDE_DIR (with blosc2.h) and BLOSC2_LIBRARY")
  endif()
  if(NOT BLOSC2_REFERENCE_INCLUDE_DIR AND BLOSC2_VARIANT STREQUAL "reference")
    set(BLOSC2_REFERENCE_INCLUDE_DIR "${BLOSC2_INCLUDE_DIR}")
  endif()
  if(NOT BLOSC2_REFERENCE_LIBRARY AND BLOSC2_VARIANT STREQUAL "reference")
    set(BLOSC2_REFERENCE_LIBRARY "${BLOSC2_LIBRARY}")
  endif()
  if(NOT BLOSC2_OURS_LIBRARY AND BLOSC2_VARIANT STREQUAL "ours")
    set(BLOSC2_OURS_LIBRARY "${BLOSC2_LIBRARY}")
  endif()
  enable_testing()
  set(CMAKE_C_STANDARD 99)
  set(CMAKE_C_STANDARD_REQUIRED ON)
  set(CMAKE_C_EXTENSIONS ON)
  if(NOT CMAKE_BUILD_TYPE)
    set(CMAKE_BUILD_TYPE RelWithDebInfo)
  endif()
endif()

if(NOT TARGET blosc2_under_test)
  add_library(blosc2_under_test SHARED IMPORTED)
  set_target_properties(blosc2_under_test PROPERTIES
    IMPORTED_LOCATION "${BLOSC2_LIBRARY}"
    IMPORTED_SONAME "libblosc2.so.9"
    INTERFACE_INCLUDE_DIRECTORIES "${BLOSC2_INCLUDE_DIR}")
endif()

get_filename_component(BLOSC2_VARIANT_LIBDIR "${BLOSC2_LIBRARY}" DIRECTORY)
string(TOUPPER "${BLOSC2_VARIANT}" _blosc2_variant_upper)

# blosc2_variant_test(name source TIMEOUT seconds [ARGS ...] [LIBS ...]): a test program
# linked against the variant under test (and LIBS), compiled with BLOSC2_VARIANT_OURS or
# BLOSC2_VARIANT_REFERENCE defined.
function(blosc2_variant_test name source)
  cmake_parse_arguments(ARG "" "TIMEOUT" "ARGS;LIBS" ${ARGN})
  add_executable(${name} ${source})
  target_compile_definitions(${name} PRIVATE BLOSC2_VARIANT_${_blosc2_variant_upper}=1)
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wno-unused-function)
  target_link_libraries(${name} PRIVATE blosc2_under_test ${ARG_LIBS} m)
  set_target_properties(${name} PROPERTIES BUILD_RPATH "${BLOSC2_VARIANT_LIBDIR}")
  add_test(NAME ${name} COMMAND ${name} ${ARG_ARGS})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "LD_LIBRARY_PATH=${BLOSC2_VARIANT_LIBDIR}")
endfunction()
