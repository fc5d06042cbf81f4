// FoundationNetworking reads libcurl's content length as a double (CURLINFO_CONTENT_LENGTH_DOWNLOAD)
// in its header callback and converts it to Int64, which traps for a Content-Length between
// 2^63 - 512 and 2^63 - 1: libcurl holds such a length, the double rounds it up to 2^63, and no
// Int64 holds that. Any server could end falls with one header line.
//
// This file defines curl_easy_getinfo, which the dynamic linker (or the static link of
// `make dist`) binds FoundationNetworking's calls to ahead of libcurl's. It calls libcurl's own
// (the next definition, RTLD_NEXT) and changes one answer: a content length of 2^62 or more
// reads as -1, "unknown", as libcurl itself answers for a length it could not parse. falls reads
// the Content-Length header itself and refuses an answer whose length no body can have.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>

#include "CurlLengthGuard.h"

// libcurl's types and the one constant needed, as curl.h declares them (no libcurl headers are
// needed to build falls): CURLINFO_DOUBLE + 15.
typedef void CURL;
typedef int CURLcode;
typedef int CURLINFO;
enum { guard_info_content_length_download = 0x300000 + 15, guard_unknown_function = 2 };

typedef CURLcode (*getinfo_function)(CURL *, CURLINFO, ...);

__attribute__((visibility("default"))) CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
  // Every piece of information libcurl gives is written through one pointer.
  va_list arguments;
  va_start(arguments, info);
  void *answer = va_arg(arguments, void *);
  va_end(arguments);
  // Looked up on each call: a static cache would be shared state across threads for no gain
  // worth having (one lookup per header line).
  getinfo_function next = (getinfo_function)dlsym(RTLD_NEXT, "curl_easy_getinfo");
  if (next == NULL) return guard_unknown_function;
  CURLcode code = next(handle, info, answer);
  if (code == 0 && info == guard_info_content_length_download && answer != NULL) {
    double *length = answer;
    if (!(*length < 0x1p62)) *length = -1;
  }
  return code;
}

int falls_curl_length_guard_is_linked(void) { return 1; }
