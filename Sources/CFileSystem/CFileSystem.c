#include "CFileSystem.h"

void falls_flag_set(long *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }

long falls_flag_get(const long *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

#if defined(__linux__)
#include <sys/vfs.h>

long long falls_file_system_type(int descriptor) {
  struct statfs system;
  return fstatfs(descriptor, &system) == 0 ? (long long)system.f_type : -1;
}
#else
long long falls_file_system_type(int descriptor) {
  (void)descriptor;
  return -1;
}
#endif
