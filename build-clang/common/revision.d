build-clang/common/revision.o: common/revision.c common/repo.h \
  common/util.h

common/repo.h:

common/util.h:
