# Replays one sample log and checks what samples/README.md promises of it.
#   cmake -DARBITER=<arbiter> -DLOG=<file.jsonl> -DEXIT=<code>
#         [-DVIOLATION=<expected JSON of the violation's event and rule>] -P expect_replay.cmake
# Fails unless `arbiter replay LOG --json` exits with EXIT and, when VIOLATION
# is given, its report holds exactly that violation prefix (event and rule).
execute_process(COMMAND ${ARBITER} replay ${LOG} --json
                RESULT_VARIABLE exit_code OUTPUT_VARIABLE report ERROR_VARIABLE errors)
if(NOT exit_code STREQUAL EXIT)
  message(FATAL_ERROR "arbiter replay ${LOG} exited with ${exit_code}, expected ${EXIT}\n"
                      "${report}${errors}")
endif()
if(DEFINED VIOLATION)
  string(FIND "${report}" "${VIOLATION}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the report of ${LOG} does not hold ${VIOLATION}:\n${report}")
  endif()
endif()
