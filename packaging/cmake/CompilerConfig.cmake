# floptle_compiler_config: the warning and code-generation flags every project target links.
add_library(floptle_compiler_config INTERFACE)
target_compile_features(floptle_compiler_config INTERFACE cxx_std_20)
target_compile_options(floptle_compiler_config INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>
  # Determinism: no fused multiply-add contraction the compiler chooses on its own.
  $<$<CXX_COMPILER_ID:GNU,Clang>:-ffp-contract=off>
  # The code is written against GCC; a `#pragma GCC diagnostic` naming a GCC-only warning is
  # not an error under clang (the sanitizer and fuzz build).
  $<$<CXX_COMPILER_ID:Clang>:-Wno-unknown-warning-option>)

option(FLOPTLE_WERROR "Treat warnings in project code as errors" OFF)
if(FLOPTLE_WERROR)
  target_compile_options(floptle_compiler_config INTERFACE -Werror)
endif()

# FLOPTLE_SANITIZE: AddressSanitizer + UndefinedBehaviorSanitizer (the `asan` preset), every
# report fatal (-fno-sanitize-recover=all: UBSan stops like ASan does). The ignorelist leaves a
# few third-party headers out of a few UBSan checks (see the file). Line tables are all a
# report needs and they halve the compile time of -g.
option(FLOPTLE_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
# FLOPTLE_FUZZ: also the libFuzzer harnesses of tests/fuzz. Every project library is then
# instrumented for coverage as well (-fsanitize=fuzzer-no-link; in the test programs the
# sanitizer runtime's no-op coverage callbacks take it), so one clang build runs both the
# suite and the fuzzers. Clang only (libFuzzer is part of compiler-rt); implies the sanitizers.
option(FLOPTLE_FUZZ "Build the libFuzzer harnesses of tests/fuzz (clang only)" OFF)
if(FLOPTLE_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "FLOPTLE_FUZZ needs clang (libFuzzer): configure with "
                      "CC=clang-14 CXX=clang++-14 in a build folder of its own")
endif()
if(FLOPTLE_SANITIZE OR FLOPTLE_FUZZ)
  target_compile_options(floptle_compiler_config INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(floptle_compiler_config INTERFACE -fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(floptle_compiler_config INTERFACE -gline-tables-only
      "-fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/tests/fuzz/sanitizer_ignorelist.txt")
  endif()
endif()
if(FLOPTLE_FUZZ)
  target_compile_options(floptle_compiler_config INTERFACE -fsanitize=fuzzer-no-link)
endif()
