# Configure, build and run the consumer project against PACKAGE_DIR (Blosc2Config.cmake).
# Usage: cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DPACKAGE_DIR=... [-DGENERATOR=...] -P ...
file(REMOVE_RECURSE "${BINARY_DIR}")
set(gen)
if(GENERATOR)
  set(gen -G "${GENERATOR}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${gen} -S "${SOURCE_DIR}" -B "${BINARY_DIR}"
                        "-DBlosc2_DIR=${PACKAGE_DIR}" -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BINARY_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
foreach(program consumer consumer_static)
  execute_process(COMMAND "${BINARY_DIR}/${program}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${program} failed (${rc})")
  endif()
endforeach()
