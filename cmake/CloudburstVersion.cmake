# The version string reported by `cloudburst --version`: git describe when the
# source is a git checkout, else the project version.
set(CLOUDBURST_VERSION_STRING "${PROJECT_VERSION}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty
                  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                  OUTPUT_VARIABLE _git_describe OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE _git_rc)
  if(_git_rc EQUAL 0 AND _git_describe)
    set(CLOUDBURST_VERSION_STRING "${PROJECT_VERSION}-${_git_describe}")
  endif()
endif()
