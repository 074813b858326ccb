build-clang/t/helper/test-revisions.o: t/helper/test-revisions.c \
  common/repo.h common/util.h

common/repo.h:

common/util.h:
