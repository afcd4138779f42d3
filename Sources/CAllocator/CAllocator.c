#include "CAllocator.h"

#if defined(__linux__)
#include <malloc.h>
#endif

void memhunt_return_large_blocks(void) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    // Setting the threshold (to its starting value) turns glibc's adjustment of it off.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
