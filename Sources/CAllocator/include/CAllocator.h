#ifndef MEMHUNT_CALLOCATOR_H
#define MEMHUNT_CALLOCATOR_H

/// The C allocator's policy for the memhunt process.

/// Makes every block of 128 KiB or more its own mapping, returned to the system when it is freed (glibc; a
/// no-op elsewhere). glibc starts there but raises the threshold to the size of each such block freed, up to
/// 32 MiB: after a scan's first large buffer or table grows and frees its old storage, the larger blocks that
/// follow come from the heap, and what they leave when freed stays in the process. Fixed, a run's peak is
/// what it holds.
void memhunt_return_large_blocks(void);

#endif
