build-clang/common/report.o: common/report.c common/report.h \
  common/util.h common/repo.h

common/report.h:

common/util.h:

common/repo.h:
