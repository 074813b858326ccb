build-clang/common/cpp_scan.o: common/cpp_scan.c common/cpp_internal.h \
  common/cpp.h common/util.h common/arena.h

common/cpp_internal.h:

common/cpp.h:

common/util.h:

common/arena.h:
