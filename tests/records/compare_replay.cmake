# Runs `${VIVAREF} replay ${RECORD}` and compares its output with ${EXPECTED}
# byte for byte (the printer's key order is fixed), and its exit status with
# what the expected result implies: 1 for "ok": false, else 0.
if(NOT EXISTS "${EXPECTED}")
  message(FATAL_ERROR "${RECORD} has no expected result ${EXPECTED}")
endif()
execute_process(COMMAND "${VIVAREF}" replay "${RECORD}"
  OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE status)
file(READ "${EXPECTED}" expected)
string(STRIP "${actual}" actual)
string(STRIP "${expected}" expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "replay of ${RECORD} differs\n  expected: ${expected}\n  actual:   ${actual}\n${errors}")
endif()
string(FIND "${expected}" "{\"ok\":false" refused)
if(refused EQUAL 0)
  set(expected_status 1)
else()
  set(expected_status 0)
endif()
if(NOT status EQUAL expected_status)
  message(FATAL_ERROR "replay of ${RECORD} exited with ${status}, expected ${expected_status}")
endif()
