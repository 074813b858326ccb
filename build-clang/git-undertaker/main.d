build-clang/git-undertaker/main.o: git-undertaker/main.c \
  git-undertaker/checker.h common/options.h common/util.h common/repo.h \
  git-undertaker/defect.h common/notes.h common/report.h

git-undertaker/checker.h:

common/options.h:

common/util.h:

common/repo.h:

git-undertaker/defect.h:

common/notes.h:

common/report.h:
