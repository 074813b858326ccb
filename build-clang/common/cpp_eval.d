build-clang/common/cpp_eval.o: common/cpp_eval.c common/cpp_internal.h \
  common/cpp.h common/util.h common/arena.h

common/cpp_internal.h:

common/cpp.h:

common/util.h:

common/arena.h:
