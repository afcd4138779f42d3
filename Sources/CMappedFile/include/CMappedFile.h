#ifndef MEMHUNT_CMAPPEDFILE_H
#define MEMHUNT_CMAPPEDFILE_H

#include <stddef.h>

/// Read-only file mappings that survive the file's truncation.
///
/// A page of a mapped file that the file no longer has raises SIGBUS when it is read. While a mapping made
/// here is live, a SIGBUS on one of its pages maps a page of zeros there instead, and
/// `memhunt_mapped_truncated` tells: the process goes on and the reader reports the file as changed. A SIGBUS
/// anywhere else, or sent by `kill`, goes to the disposition that was there before the first mapping (by
/// default, it ends the process).

/// The system's page size: offsets given to `memhunt_map` are multiples of it.
long memhunt_page_size(void);

/// Maps `length` bytes of `fd` from `offset` read-only, its pages faulted in up front where the system can.
/// Returns the address and stores a handle in `*handle`, or returns NULL with errno set (EBUSY when 64
/// mappings are live).
const void *memhunt_map(int fd, long long offset, size_t length, int *handle);

/// Whether a page of the mapping read as zeros because the file had been truncated under it.
int memhunt_mapped_truncated(int handle);

/// Unmaps a mapping; its handle is free for reuse.
void memhunt_unmap(int handle);

#endif
