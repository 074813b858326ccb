build-clang/common/arena.o: common/arena.c common/arena.h common/util.h

common/arena.h:

common/util.h:
