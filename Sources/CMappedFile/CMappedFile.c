// See CMappedFile.h. The handler only reads the table of live mappings and calls mmap, which Linux and
// Darwin carry out as one system call: a fault on a truncated page is handled on the faulting thread, and
// the read that faulted is repeated on the zero page.
#include "CMappedFile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS 64

struct slot {
    atomic_int used;
    atomic_uintptr_t start;
    atomic_uintptr_t end;
    atomic_int truncated;
    size_t length;
};

static struct slot slots[SLOTS];
static struct sigaction previous;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int installed;
static uintptr_t page_mask;

static void restore_default(void) {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGBUS, &fallback, NULL);
}

static void on_sigbus(int number, siginfo_t *info, void *context) {
    // The interrupted code's errno is kept: mmap and sigaction here may set it.
    int saved_errno = errno;
    // Only a fault (one of POSIX's SIGBUS codes, with the faulting address) can be a lost page; a SIGBUS sent
    // with kill or raise (SI_USER, SI_TKILL, ...: 0 or less on Linux, 0x10001 and up on Darwin) carries none.
    int fault = info->si_code == BUS_ADRALN || info->si_code == BUS_ADRERR || info->si_code == BUS_OBJERR;
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; fault && index < SLOTS; index++) {
        uintptr_t start = atomic_load(&slots[index].start);
        if (start == 0 || address < start || address >= atomic_load(&slots[index].end)) continue;
        void *page = (void *)(address & ~page_mask);
        if (mmap(page, page_mask + 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_store(&slots[index].truncated, 1);
            errno = saved_errno;
            return;
        }
    }
    // Not a page of ours: what was there before decides.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(number, info, context);
    } else if (previous.sa_handler == SIG_IGN) {
        // A sent signal stays ignored; a fault cannot be (the read would fault forever): the default ends it.
        if (fault) restore_default();
    } else if (previous.sa_handler == SIG_DFL) {
        // The default ends the process: raised again, it is delivered when the handler returns (a fault would
        // also repeat).
        restore_default();
        raise(number);
    } else {
        previous.sa_handler(number);
    }
    errno = saved_errno;
}

static void install(void) {
    page_mask = (uintptr_t)sysconf(_SC_PAGESIZE) - 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    installed = sigaction(SIGBUS, &action, &previous) == 0;
}

long memhunt_page_size(void) { return sysconf(_SC_PAGESIZE); }

const void *memhunt_map(int fd, long long offset, size_t length, int *handle) {
    pthread_once(&once, install);
    if (!installed) {
        errno = ENOTSUP;
        return NULL;
    }
    for (int index = 0; index < SLOTS; index++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&slots[index].used, &expected, 1)) continue;
        // No MAP_POPULATE: the first thread to touch a page (the hashing one) faults it in with the kernel's
        // fault-around, 16 pages a fault, which costs less than populating through get_user_pages (the reader
        // thread's kernel share fell under perf; the figures are in the commit that made it so).
        int flags = MAP_SHARED;
        void *address = mmap(NULL, length, PROT_READ, flags, fd, (off_t)offset);
        if (address == MAP_FAILED) {
            int error = errno;
            atomic_store(&slots[index].used, 0);
            errno = error;
            return NULL;
        }
        slots[index].length = length;
        atomic_store(&slots[index].truncated, 0);
        atomic_store(&slots[index].end, (uintptr_t)address + length);
        atomic_store(&slots[index].start, (uintptr_t)address);
        *handle = index;
        return address;
    }
    errno = EBUSY;
    return NULL;
}

int memhunt_mapped_truncated(int handle) { return atomic_load(&slots[handle].truncated); }

void memhunt_unmap(int handle) {
    void *address = (void *)atomic_load(&slots[handle].start);
    atomic_store(&slots[handle].start, 0);
    atomic_store(&slots[handle].end, 0);
    munmap(address, slots[handle].length);
    atomic_store(&slots[handle].used, 0);
}
