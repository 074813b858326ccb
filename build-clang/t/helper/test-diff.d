build-clang/t/helper/test-diff.o: t/helper/test-diff.c common/repo.h \
  common/util.h

common/repo.h:

common/util.h:
