#ifndef CURL_LENGTH_GUARD_H
#define CURL_LENGTH_GUARD_H

/// Whether the guard over libcurl's content length is in this process: a call that also keeps
/// its object file in every link that uses the transport.
int falls_curl_length_guard_is_linked(void);

#endif
