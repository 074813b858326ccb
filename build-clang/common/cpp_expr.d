build-clang/common/cpp_expr.o: common/cpp_expr.c common/cpp_internal.h \
  common/cpp.h common/util.h common/arena.h

common/cpp_internal.h:

common/cpp.h:

common/util.h:

common/arena.h:
