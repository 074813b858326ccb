build-clang/common/kconfig_tree.o: common/kconfig_tree.c \
  common/kconfig_int.h common/kconfig.h common/util.h common/arena.h

common/kconfig_int.h:

common/kconfig.h:

common/util.h:

common/arena.h:
