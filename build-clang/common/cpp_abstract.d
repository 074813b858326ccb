build-clang/common/cpp_abstract.o: common/cpp_abstract.c \
  common/cpp_internal.h common/cpp.h common/util.h common/arena.h

common/cpp_internal.h:

common/cpp.h:

common/util.h:

common/arena.h:
