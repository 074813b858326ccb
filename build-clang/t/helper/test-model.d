build-clang/t/helper/test-model.o: t/helper/test-model.c common/kconfig.h \
  common/util.h common/model.h common/logic.h common/sat.h \
  common/options.h

common/kconfig.h:

common/util.h:

common/model.h:

common/logic.h:

common/sat.h:

common/options.h:
