build-clang/git-undertaker/analyze.o: git-undertaker/analyze.c \
  git-undertaker/analyze.h common/cpp.h common/util.h \
  git-undertaker/defect.h common/kconfig.h common/logic.h common/sat.h \
  common/pc.h

git-undertaker/analyze.h:

common/cpp.h:

common/util.h:

git-undertaker/defect.h:

common/kconfig.h:

common/logic.h:

common/sat.h:

common/pc.h:
