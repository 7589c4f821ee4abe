# Run PROGRAM, store its stdout in OUTPUT and fail unless it equals EXPECTED byte for byte.
# Usage: cmake -DPROGRAM=... -DEXPECTED=... -DOUTPUT=... -P run_and_compare.cmake
execute_process(COMMAND "${PROGRAM}" OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUTPUT}" "${EXPECTED}"
                RESULT_VARIABLE differ)
if(differ)
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u "${EXPECTED}" "${OUTPUT}" OUTPUT_VARIABLE d)
    message("${d}")
  endif()
  message(FATAL_ERROR "output of ${PROGRAM} differs from ${EXPECTED}")
endif()
message("identical to ${EXPECTED}")
