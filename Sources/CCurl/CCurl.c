#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

// The functions memhunt calls, by libcurl's own signatures (curl_off_t is 64 bits on every platform).
typedef void *(*easy_init_t)(void);
typedef void (*easy_void_t)(void *);
typedef int (*easy_setopt_t)(void *, int, ...);
typedef int (*easy_perform_t)(void *);
typedef void *(*slist_append_t)(void *, const char *);
typedef void (*slist_free_t)(void *);
typedef int (*global_init_t)(long);

static struct {
    easy_init_t easy_init;
    easy_void_t easy_reset, easy_cleanup;
    easy_setopt_t easy_setopt;
    easy_perform_t easy_perform;
    slist_append_t slist_append;
    slist_free_t slist_free_all;
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";

static void load(void) {
    // Debian and Ubuntu ship libcurl.so.4 (OpenSSL) and libcurl-gnutls.so.4; others only the first.
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        load_error = "libcurl is not installed (libcurl.so.4: on Debian and Ubuntu, the libcurl4 package)";
        return;
    }
#define FIND(field, symbol)                                                                                   \
    if ((*(void **)&curl.field = dlsym(library, symbol)) == NULL) {                                          \
        load_error = "libcurl lacks " symbol;                                                                 \
        return;                                                                                               \
    }
    FIND(easy_init, "curl_easy_init")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    global_init_t global_init = (global_init_t)dlsym(library, "curl_global_init");
    // CURL_GLOBAL_ALL (3): SSL and, on Windows, sockets. Not thread-safe, hence the once.
    if (global_init == NULL || global_init(3) != 0) {
        load_error = "libcurl failed to initialise";
        return;
    }
    load_error = NULL;
}

const char *mh_curl_load(void) {
    pthread_once(&once, load);
    return load_error;
}

void *mh_curl_easy_init(void) { return curl.easy_init(); }
void mh_curl_easy_reset(void *handle) { curl.easy_reset(handle); }
void mh_curl_easy_cleanup(void *handle) { curl.easy_cleanup(handle); }
int mh_curl_setopt_long(void *handle, int option, long value) { return curl.easy_setopt(handle, option, value); }
int mh_curl_setopt_pointer(void *handle, int option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}
int mh_curl_setopt_offset(void *handle, int option, int64_t value) {
    return curl.easy_setopt(handle, option, (long long)value);
}
int mh_curl_setopt_data_fn(void *handle, int option, mh_curl_data_fn function) {
    return curl.easy_setopt(handle, option, function);
}
int mh_curl_setopt_xfer_fn(void *handle, int option, mh_curl_xfer_fn function) {
    return curl.easy_setopt(handle, option, function);
}
int mh_curl_perform(void *handle) { return curl.easy_perform(handle); }
void *mh_curl_slist_append(void *list, const char *line) { return curl.slist_append(list, line); }
void mh_curl_slist_free_all(void *list) { curl.slist_free_all(list); }

void mh_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}
