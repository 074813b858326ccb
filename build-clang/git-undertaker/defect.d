build-clang/git-undertaker/defect.o: git-undertaker/defect.c \
  git-undertaker/defect.h common/util.h

git-undertaker/defect.h:

common/util.h:
