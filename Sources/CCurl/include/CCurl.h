#pragma once
// libcurl, loaded with dlopen on first use: memhunt's HTTPS and proxied requests on Linux go through it,
// and a run that never makes one never loads it. Linking it (through FoundationNetworking) made every
// start load libcurl and its 29 libraries, most of a short run's time. The option and code numbers are libcurl's stable ABI (curl/curl.h); the headers are not
// needed to build.
#include <stddef.h>
#include <stdint.h>

typedef size_t (*mh_curl_data_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*mh_curl_xfer_fn)(void *context, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow);

/// NULL once libcurl is loaded and initialised (the first call does it, once), else why it is not.
const char *mh_curl_load(void);

void *mh_curl_easy_init(void);
void mh_curl_easy_reset(void *handle);
void mh_curl_easy_cleanup(void *handle);
int mh_curl_setopt_long(void *handle, int option, long value);
int mh_curl_setopt_pointer(void *handle, int option, const void *value);
int mh_curl_setopt_offset(void *handle, int option, int64_t value);
int mh_curl_setopt_data_fn(void *handle, int option, mh_curl_data_fn function);
int mh_curl_setopt_xfer_fn(void *handle, int option, mh_curl_xfer_fn function);
int mh_curl_perform(void *handle);
/// Appends to a header list (NULL starts one); NULL when out of memory, the old list then still owned.
void *mh_curl_slist_append(void *list, const char *line);
void mh_curl_slist_free_all(void *list);
/// Blocks SIGPIPE on the calling thread: a TLS write to a closed peer then fails with EPIPE instead of
/// ending the process (libcurl ignores SIGPIPE process-wide only without CURLOPT_NOSIGNAL, and restores the
/// old handler after each transfer, which races between threads).
void mh_block_sigpipe(void);
