# cmake -P: configures SOURCE in BINARY with SOC_OPTION (-D options, '|' between two) and expects
# the configure to fail with every text of EXPECT ('|' between two) in its output (line breaks
# ignored).
string(REPLACE "|" ";" SOC_OPTION "${SOC_OPTION}")
string(REPLACE "|" ";" EXPECT "${EXPECT}")
file(REMOVE_RECURSE "${BINARY}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
                        "-DASCENDC_CMAKE_DIR=${ASCENDC_CMAKE_DIR}" ${SOC_OPTION}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(text "${out}${err}")
string(REGEX REPLACE "[ \t\r\n]+" " " flat "${text}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the configure succeeded, but it should have failed:\n${text}")
endif()
foreach(expected IN LISTS EXPECT)
  string(FIND "${flat}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the configure failed without saying \"${expected}\":\n${text}")
  endif()
endforeach()
message(STATUS "configure failed as expected")
