# floptle_compiler_config: the warning and code-generation flags every project target links.
add_library(floptle_compiler_config INTERFACE)
target_compile_features(floptle_compiler_config INTERFACE cxx_std_20)
target_compile_options(floptle_compiler_config INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>
  # Determinism: no fused multiply-add contraction the compiler chooses on its own.
  $<$<CXX_COMPILER_ID:GNU,Clang>:-ffp-contract=off>)

option(FLOPTLE_WERROR "Treat warnings in project code as errors" OFF)
if(FLOPTLE_WERROR)
  target_compile_options(floptle_compiler_config INTERFACE -Werror)
endif()

option(FLOPTLE_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
if(FLOPTLE_SANITIZE)
  target_compile_options(floptle_compiler_config INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(floptle_compiler_config INTERFACE -fsanitize=address,undefined)
endif()

# FLOPTLE_FUZZ: a build folder of libFuzzer harnesses (tests/fuzz). Every project library is
# instrumented for coverage and built with AddressSanitizer + UndefinedBehaviorSanitizer;
# the harnesses link libFuzzer's main. Clang only (libFuzzer is part of compiler-rt).
option(FLOPTLE_FUZZ "Build the libFuzzer harnesses of tests/fuzz (clang only)" OFF)
if(FLOPTLE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FLOPTLE_FUZZ needs clang (libFuzzer): configure with "
                        "CC=clang-14 CXX=clang++-14 in a build folder of its own")
  endif()
  if(FLOPTLE_SANITIZE)
    message(FATAL_ERROR "FLOPTLE_FUZZ already sanitizes; leave FLOPTLE_SANITIZE off")
  endif()
  target_compile_options(floptle_compiler_config INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer
    "-fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/tests/fuzz/sanitizer_ignorelist.txt"
    # Line tables are all a sanitizer report needs, and they halve the compile time of -g.
    -gline-tables-only)
  target_link_options(floptle_compiler_config INTERFACE -fsanitize=address,undefined)
endif()
