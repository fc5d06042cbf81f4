#include "CFileSystem.h"

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
