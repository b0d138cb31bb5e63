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
