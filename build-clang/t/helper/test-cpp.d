build-clang/t/helper/test-cpp.o: t/helper/test-cpp.c common/cpp.h \
  common/util.h

common/cpp.h:

common/util.h:
