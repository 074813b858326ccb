build-clang/common/repo.o: common/repo.c common/repo.h common/util.h

common/repo.h:

common/util.h:
