build-clang/t/helper/test-kconfig.o: t/helper/test-kconfig.c \
  common/kconfig.h common/util.h common/kconfig_git.h common/repo.h \
  common/options.h

common/kconfig.h:

common/util.h:

common/kconfig_git.h:

common/repo.h:

common/options.h:
