build-clang/t/helper/test-read.o: t/helper/test-read.c common/repo.h \
  common/util.h

common/repo.h:

common/util.h:
