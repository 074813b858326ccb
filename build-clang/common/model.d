build-clang/common/model.o: common/model.c common/model-internal.h \
  common/model.h common/kconfig.h common/util.h common/logic.h \
  common/sat.h

common/model-internal.h:

common/model.h:

common/kconfig.h:

common/util.h:

common/logic.h:

common/sat.h:
