#ifndef MEMHUNT_CALLOCATOR_H
#define MEMHUNT_CALLOCATOR_H

/// The C allocator's policy for the memhunt process.

/// Makes every block of 256 KiB or more its own mapping, returned to the system when it is freed, and gives back
/// the heap's free top past 512 KiB (glibc; a no-op elsewhere). glibc starts at 128 KiB but raises its threshold
/// to the size of each mapped block freed, up to 32 MiB: after a table or buffer grows and frees its old storage,
/// the larger blocks that follow come from the heap, and what they leave when freed stays in the process. At
/// 128 KiB, a fleet scan's buffer for each record of 180 KB was mapped and unmapped anew, its pages faulted in
/// each time; 256 KiB keeps such buffers in the heap, reused.
void memhunt_return_large_blocks(void);

#endif
