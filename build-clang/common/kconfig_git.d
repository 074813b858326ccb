build-clang/common/kconfig_git.o: common/kconfig_git.c \
  common/kconfig_git.h common/kconfig.h common/util.h common/repo.h

common/kconfig_git.h:

common/kconfig.h:

common/util.h:

common/repo.h:
