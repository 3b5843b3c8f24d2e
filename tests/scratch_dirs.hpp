// Scratch directories made by a test process (cli_runner's make_temp_dir):
// removed by tests/main.cpp when every test passed, kept for a look when one
// failed or when CLOUDBURST_KEEP_TEST_DIRS is set.
#pragma once

#include <string>

namespace cb::test {

void register_scratch_dir(const std::string& path);
void remove_scratch_dirs();

}  // namespace cb::test
