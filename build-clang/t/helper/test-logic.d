build-clang/t/helper/test-logic.o: t/helper/test-logic.c common/logic.h \
  common/util.h common/sat.h

common/logic.h:

common/util.h:

common/sat.h:
