/* jemalloc's compiled-in options (packaging/cmake/Allocator.cmake links this file into every
 * executable that runs on jemalloc; the library reads `malloc_conf` as it starts).
 *
 * thp:always: jemalloc asks for transparent huge pages (madvise MADV_HUGEPAGE) on the memory it
 * maps, so where the kernel's THP mode is "madvise" (Debian's default) a level's heap is
 * faulted in 2 MiB at a time instead of 4 KiB: a large level touches hundreds of megabytes of
 * fresh heap while it loads, and each fault costs the same whatever its size.
 * metadata_thp:always does the same for jemalloc's own bookkeeping.
 * Where the kernel's mode is "never" both are no-ops. MALLOC_CONF in the environment still
 * overrides them. */
const char* malloc_conf = "thp:always,metadata_thp:always";
