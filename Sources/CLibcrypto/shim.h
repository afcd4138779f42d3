#pragma once
// OpenSSL 3 marks the one-shot SHA256_* functions deprecated in favour of EVP, whose contexts live on
// the heap; SHA256_CTX is a plain struct (so memhunt's SHA256 stays a value type) and runs the same
// SHA-NI/AVX2 block functions.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
