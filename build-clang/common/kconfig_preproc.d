build-clang/common/kconfig_preproc.o: common/kconfig_preproc.c \
  common/kconfig_int.h common/kconfig.h common/util.h common/arena.h

common/kconfig_int.h:

common/kconfig.h:

common/util.h:

common/arena.h:
