build-clang/git-backport/main.o: git-backport/main.c \
  git-backport/backport.h common/repo.h common/util.h common/options.h

git-backport/backport.h:

common/repo.h:

common/util.h:

common/options.h:
