#ifndef FALLS_CFILESYSTEM_H
#define FALLS_CFILESYSTEM_H

/// The type of the file system the open `descriptor` is on (statfs's f_type, linux/magic.h), or
/// -1 when it cannot be told. (Swift's Glibc module does not declare fstatfs.)
long long falls_file_system_type(int descriptor);

/// Sets `*flag` to 1, atomically: a signal handler's mark, which two threads faulting at once may
/// set together.
void falls_flag_set(long *flag);

/// Reads `*flag` atomically.
long falls_flag_get(const long *flag);

#endif
