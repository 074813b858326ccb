build-clang/git-undertaker/checker.o: git-undertaker/checker.c \
  git-undertaker/checker.h common/options.h common/util.h common/repo.h \
  git-undertaker/defect.h git-undertaker/analyze.h common/cpp.h \
  common/kconfig.h common/logic.h common/sat.h \
  git-undertaker/buildfiles.h common/kconfig_git.h common/model.h \
  common/report.h

git-undertaker/checker.h:

common/options.h:

common/util.h:

common/repo.h:

git-undertaker/defect.h:

git-undertaker/analyze.h:

common/cpp.h:

common/kconfig.h:

common/logic.h:

common/sat.h:

git-undertaker/buildfiles.h:

common/kconfig_git.h:

common/model.h:

common/report.h:
