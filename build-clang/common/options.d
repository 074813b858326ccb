build-clang/common/options.o: common/options.c common/options.h \
  common/util.h

common/options.h:

common/util.h:
