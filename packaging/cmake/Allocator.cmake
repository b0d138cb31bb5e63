# floptle_allocator: the heap of the executables (the CLI, the editor, the import worker and
# the benchmarks that time them). With FLOPTLE_JEMALLOC they run on jemalloc with transparent
# huge pages (app/heap/jemalloc_config.c says why); the libraries and the unit tests do not
# care which malloc they get. The sanitizer builds keep their own allocator (ASan replaces
# malloc), so the option is off there.
option(FLOPTLE_JEMALLOC "Run the executables on jemalloc with transparent huge pages" ON)
add_library(floptle_allocator INTERFACE)
if(FLOPTLE_JEMALLOC AND NOT FLOPTLE_SANITIZE AND NOT FLOPTLE_FUZZ)
  find_library(FLOPTLE_JEMALLOC_LIBRARY NAMES jemalloc REQUIRED)
  # An interface source: compiled into each executable that links the target, where the
  # library finds `malloc_conf` (a definition in a static library would not be linked in).
  target_sources(floptle_allocator INTERFACE "${PROJECT_SOURCE_DIR}/app/heap/jemalloc_config.c")
  target_link_libraries(floptle_allocator INTERFACE "${FLOPTLE_JEMALLOC_LIBRARY}")
endif()
