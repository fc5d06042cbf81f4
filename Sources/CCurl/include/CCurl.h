#ifndef FALLS_CCURL_H
#define FALLS_CCURL_H

#include <stddef.h>

/// libcurl, loaded at run time (dlopen), and the easy handles kept with their open connections.
/// falls builds without libcurl's headers and starts without the library; only a fetch needs it.
typedef struct falls_curl falls_curl;

/// Loads libcurl and makes a pool of handles; NULL when the library cannot be loaded, with the
/// reason written to `reason` (at most `reason_size` bytes, NUL-terminated).
falls_curl *falls_curl_open(char *reason, size_t reason_size);

/// Frees the pool's handles, closing their connections. Requests must have ended.
void falls_curl_close(falls_curl *curl);

/// What one request asks for, and where its answer goes. Each callback returns whether the
/// transfer goes on: false ends it at once (libcurl then fails with `falls_curl_aborted`).
typedef struct {
  const char *url;
  /// Header lines, "Name: value".
  const char *const *headers;
  int header_count;
  /// The overall deadline of the request, connecting included, in milliseconds.
  long timeout_ms;
  /// Each header line of the answer as it arrives, its line ending included; an empty line
  /// (its "\r\n" only) ends the headers.
  int (*on_header)(const char *bytes, size_t count, void *context);
  /// Each piece of the body as it arrives, decoded (gzip, deflate, brotli).
  int (*on_body)(const char *bytes, size_t count, void *context);
  /// Called often while the request runs (at least about once a second when nothing arrives).
  int (*on_progress)(void *context);
  void *context;
} falls_curl_request;

/// How a request ended.
typedef struct {
  /// libcurl's CURLcode: 0 when the whole answer arrived.
  int code;
  /// The answer's HTTP status, 0 when none came.
  long status;
  /// libcurl's words for what went wrong, NUL-terminated.
  char message[256];
} falls_curl_result;

/// The CURLcodes falls tells apart.
enum {
  falls_curl_ok = 0,
  falls_curl_unsupported_protocol = 1,
  falls_curl_malformed_url = 3,
  falls_curl_cannot_resolve_proxy = 5,
  falls_curl_cannot_resolve_host = 6,
  falls_curl_cannot_connect = 7,
  falls_curl_weird_server_reply = 8,
  falls_curl_partial_file = 18,
  falls_curl_write_error = 23,
  falls_curl_timed_out = 28,
  falls_curl_aborted = 42,
  falls_curl_got_nothing = 52,
  falls_curl_send_error = 55,
  falls_curl_receive_error = 56,
  falls_curl_bad_content_encoding = 61,
  /// Not libcurl's: the handle could not be made.
  falls_curl_no_handle = -1,
};

/// Performs one GET request (no redirect followed) on a handle of the pool, blocking the calling
/// thread until it ends. Safe to call from many threads at once.
void falls_curl_perform(
  falls_curl *curl, const falls_curl_request *request, falls_curl_result *result);

#endif
