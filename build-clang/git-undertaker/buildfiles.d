build-clang/git-undertaker/buildfiles.o: git-undertaker/buildfiles.c \
  git-undertaker/buildfiles.h common/repo.h common/util.h

git-undertaker/buildfiles.h:

common/repo.h:

common/util.h:
