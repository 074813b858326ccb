build-clang/t/helper/test-report.o: t/helper/test-report.c \
  common/report.h common/util.h common/repo.h

common/report.h:

common/util.h:

common/repo.h:
