build-clang/common/pc.o: common/pc.c common/pc.h common/cpp.h \
  common/util.h common/kconfig.h common/logic.h common/sat.h

common/pc.h:

common/cpp.h:

common/util.h:

common/kconfig.h:

common/logic.h:

common/sat.h:
