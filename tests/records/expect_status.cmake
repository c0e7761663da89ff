# Runs ${VIVAREF} with the ;-separated ${ARGS} and checks its exit status is
# ${STATUS} and, if ${MATCH} is set, that stdout and stderr together match it.
execute_process(COMMAND "${VIVAREF}" ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "vivaref ${ARGS} exited with '${status}', expected ${STATUS}\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "vivaref ${ARGS} printed nothing matching '${MATCH}':\n${out}${err}")
endif()
