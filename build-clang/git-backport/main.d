build-clang/git-backport/main.o: git-backport/main.c common/options.h \
  common/util.h common/repo.h

common/options.h:

common/util.h:

common/repo.h:
