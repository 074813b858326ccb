build-clang/git-undertaker/main.o: git-undertaker/main.c common/options.h \
  common/util.h common/repo.h

common/options.h:

common/util.h:

common/repo.h:
