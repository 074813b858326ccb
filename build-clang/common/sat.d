build-clang/common/sat.o: common/sat.c common/sat.h common/logic.h \
  common/util.h

common/sat.h:

common/logic.h:

common/util.h:
