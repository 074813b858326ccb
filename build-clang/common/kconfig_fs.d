build-clang/common/kconfig_fs.o: common/kconfig_fs.c common/kconfig.h \
  common/util.h

common/kconfig.h:

common/util.h:
