build-clang/common/kconfig_lex.o: common/kconfig_lex.c \
  common/kconfig_int.h common/kconfig.h common/util.h common/arena.h

common/kconfig_int.h:

common/kconfig.h:

common/util.h:

common/arena.h:
