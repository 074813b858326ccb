build-clang/common/notes.o: common/notes.c common/notes.h common/repo.h \
  common/util.h

common/notes.h:

common/repo.h:

common/util.h:
