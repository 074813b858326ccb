build-clang/common/kconfig_source.o: common/kconfig_source.c \
  common/kconfig_int.h common/kconfig.h common/util.h common/arena.h

common/kconfig_int.h:

common/kconfig.h:

common/util.h:

common/arena.h:
