build-clang/common/logic.o: common/logic.c common/logic.h common/util.h

common/logic.h:

common/util.h:
