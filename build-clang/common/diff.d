build-clang/common/diff.o: common/diff.c common/repo.h common/util.h

common/repo.h:

common/util.h:
