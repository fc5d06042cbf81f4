// libcurl's easy interface, loaded with dlopen: falls needs no libcurl headers to build and no
// libcurl to start; only a fetch needs the library, which every system with FoundationNetworking
// (or curl) has. The few types and constants used are libcurl's stable ABI, as curl.h declares
// them.
#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void CURL;
typedef int CURLcode;
typedef long long curl_off_t;
struct curl_slist;

// Options: the type's base plus the option's number (curl.h's CURLOPTTYPE_*).
enum {
  opt_long = 0,
  opt_pointer = 10000,
  opt_function = 20000,
  opt_write_data = opt_pointer + 1,
  opt_url = opt_pointer + 2,
  opt_error_buffer = opt_pointer + 10,
  opt_write_function = opt_function + 11,
  opt_http_header = opt_pointer + 23,
  opt_header_data = opt_pointer + 29,
  opt_no_progress = opt_long + 43,
  opt_follow_location = opt_long + 52,
  opt_xferinfo_data = opt_pointer + 57,
  opt_header_function = opt_function + 79,
  opt_no_signal = opt_long + 99,
  opt_accept_encoding = opt_pointer + 102,
  opt_timeout_ms = opt_long + 155,
  opt_connect_timeout_ms = opt_long + 156,
  opt_protocols = opt_long + 181,
  opt_redirect_protocols = opt_long + 182,
  opt_xferinfo_function = opt_function + 219,
  opt_suppress_connect_headers = opt_long + 265,
  info_response_code = 0x200000 + 2,
  protocol_http = 1,
  protocol_https = 2,
  global_default = 3,
  error_size = 256,
  // Handles kept idle with their connections: as many as `falls probe --jobs` runs at once.
  idle_most = 64,
};

struct falls_curl {
  void *library;
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, int, ...);
  CURLcode (*easy_perform)(CURL *);
  CURLcode (*easy_getinfo)(CURL *, int, ...);
  void (*easy_reset)(CURL *);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  pthread_mutex_t lock;
  CURL *idle[idle_most];
  int idle_count;
};

// The library and its global start, once a process: curl_global_init is not safe to call from
// two threads at once, nor more than once. Written only by load_library, under load_once, which
// orders the writes before every read after pthread_once returns.
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *loaded_library;
static char load_failure[256];

static void load_library(void) {
  static const char *const names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib"};
  void *library = NULL;
  for (size_t name = 0; name < sizeof names / sizeof *names && library == NULL; name++) {
    library = dlopen(names[name], RTLD_NOW | RTLD_LOCAL);
  }
  if (library == NULL) {
    snprintf(load_failure, sizeof load_failure,
             "libcurl cannot be loaded (%s); install libcurl4", dlerror());
    return;
  }
  CURLcode (*global_init)(long);
  *(void **)(&global_init) = dlsym(library, "curl_global_init");
  if (global_init == NULL) {
    snprintf(load_failure, sizeof load_failure, "libcurl lacks curl_global_init");
    return;
  }
  CURLcode started = global_init(global_default);
  if (started != 0) {
    snprintf(load_failure, sizeof load_failure,
             "libcurl did not start (curl_global_init: %d)", started);
    return;
  }
  // Kept for the life of the process: libcurl is not meant to be unloaded once started.
  loaded_library = library;
}

falls_curl *falls_curl_open(char *reason, size_t reason_size) {
  pthread_once(&load_once, load_library);
  void *library = loaded_library;
  if (library == NULL) {
    snprintf(reason, reason_size, "%s", load_failure);
    return NULL;
  }
  falls_curl *curl = calloc(1, sizeof *curl);
  if (curl == NULL) {
    snprintf(reason, reason_size, "out of memory");
    return NULL;
  }
  curl->library = library;
#define FALLS_LOAD(field, symbol) *(void **)(&curl->field) = dlsym(library, symbol)
  FALLS_LOAD(easy_init, "curl_easy_init");
  FALLS_LOAD(easy_setopt, "curl_easy_setopt");
  FALLS_LOAD(easy_perform, "curl_easy_perform");
  FALLS_LOAD(easy_getinfo, "curl_easy_getinfo");
  FALLS_LOAD(easy_reset, "curl_easy_reset");
  FALLS_LOAD(easy_cleanup, "curl_easy_cleanup");
  FALLS_LOAD(easy_strerror, "curl_easy_strerror");
  FALLS_LOAD(slist_append, "curl_slist_append");
  FALLS_LOAD(slist_free_all, "curl_slist_free_all");
#undef FALLS_LOAD
  if (!curl->easy_init || !curl->easy_setopt || !curl->easy_perform || !curl->easy_getinfo ||
      !curl->easy_reset || !curl->easy_cleanup || !curl->easy_strerror || !curl->slist_append ||
      !curl->slist_free_all) {
    snprintf(reason, reason_size, "libcurl lacks a function falls needs");
    free(curl);
    return NULL;
  }
  pthread_mutex_init(&curl->lock, NULL);
  return curl;
}

void falls_curl_close(falls_curl *curl) {
  if (curl == NULL) return;
  for (int handle = 0; handle < curl->idle_count; handle++) curl->easy_cleanup(curl->idle[handle]);
  pthread_mutex_destroy(&curl->lock);
  // The library stays loaded: libcurl is not meant to be unloaded after curl_global_init.
  free(curl);
}

static CURL *take_handle(falls_curl *curl) {
  CURL *handle = NULL;
  pthread_mutex_lock(&curl->lock);
  if (curl->idle_count > 0) handle = curl->idle[--curl->idle_count];
  pthread_mutex_unlock(&curl->lock);
  return handle != NULL ? handle : curl->easy_init();
}

// Puts a handle back with its connections, its options cleared; past the most kept, frees it.
static void give_handle(falls_curl *curl, CURL *handle) {
  curl->easy_reset(handle);
  pthread_mutex_lock(&curl->lock);
  int kept = curl->idle_count < idle_most;
  if (kept) curl->idle[curl->idle_count++] = handle;
  pthread_mutex_unlock(&curl->lock);
  if (!kept) curl->easy_cleanup(handle);
}

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
  const falls_curl_request *request = context;
  size_t length = size * count;
  return request->on_body(bytes, length, request->context) ? length : 0;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
  const falls_curl_request *request = context;
  size_t length = size * count;
  return request->on_header(bytes, length, request->context) ? length : 0;
}

static int on_progress(void *context, curl_off_t down_total, curl_off_t down, curl_off_t up_total,
                       curl_off_t up) {
  (void)down_total, (void)down, (void)up_total, (void)up;
  const falls_curl_request *request = context;
  return request->on_progress(request->context) ? 0 : 1;
}

void falls_curl_perform(falls_curl *curl, const falls_curl_request *request,
                        falls_curl_result *result) {
  memset(result, 0, sizeof *result);
  CURL *handle = take_handle(curl);
  if (handle == NULL) {
    result->code = falls_curl_no_handle;
    snprintf(result->message, sizeof result->message, "libcurl could not make a handle");
    return;
  }
  struct curl_slist *headers = NULL;
  for (int line = 0; line < request->header_count; line++) {
    struct curl_slist *longer = curl->slist_append(headers, request->headers[line]);
    if (longer != NULL) headers = longer;
  }
  char error[error_size] = {0};
  curl->easy_setopt(handle, opt_url, request->url);
  curl->easy_setopt(handle, opt_error_buffer, error);
  // No signals (threads), no redirects (falls follows them itself, judging each), only http and
  // https, every encoding libcurl can decode.
  curl->easy_setopt(handle, opt_no_signal, 1L);
  curl->easy_setopt(handle, opt_follow_location, 0L);
  curl->easy_setopt(handle, opt_protocols, (long)(protocol_http | protocol_https));
  curl->easy_setopt(handle, opt_redirect_protocols, (long)(protocol_http | protocol_https));
  curl->easy_setopt(handle, opt_accept_encoding, "");
  curl->easy_setopt(handle, opt_suppress_connect_headers, 1L);
  curl->easy_setopt(handle, opt_timeout_ms, request->timeout_ms);
  curl->easy_setopt(handle, opt_connect_timeout_ms, request->timeout_ms);
  curl->easy_setopt(handle, opt_http_header, headers);
  curl->easy_setopt(handle, opt_write_function, on_body);
  curl->easy_setopt(handle, opt_write_data, (void *)request);
  curl->easy_setopt(handle, opt_header_function, on_header);
  curl->easy_setopt(handle, opt_header_data, (void *)request);
  curl->easy_setopt(handle, opt_no_progress, 0L);
  curl->easy_setopt(handle, opt_xferinfo_function, on_progress);
  curl->easy_setopt(handle, opt_xferinfo_data, (void *)request);
  result->code = curl->easy_perform(handle);
  long status = 0;
  if (curl->easy_getinfo(handle, info_response_code, &status) == 0) result->status = status;
  snprintf(result->message, sizeof result->message, "%s",
           error[0] != 0 ? error : curl->easy_strerror(result->code));
  give_handle(curl, handle);
  curl->slist_free_all(headers);
}
