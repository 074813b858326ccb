build-clang/git-vampyr/main.o: git-vampyr/main.c common/options.h \
  common/util.h common/repo.h

common/options.h:

common/util.h:

common/repo.h:
