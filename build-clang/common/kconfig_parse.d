build-clang/common/kconfig_parse.o: common/kconfig_parse.c \
  common/kconfig_int.h common/kconfig.h common/util.h common/arena.h

common/kconfig_int.h:

common/kconfig.h:

common/util.h:

common/arena.h:
