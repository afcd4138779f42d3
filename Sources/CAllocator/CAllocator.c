#include "CAllocator.h"

#if defined(__linux__)
#include <malloc.h>
#endif

void memhunt_return_large_blocks(void) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    // Setting either turns glibc's adjustment of both off.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 512 * 1024);
#endif
}
