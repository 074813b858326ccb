build-clang/t/helper/test-notes.o: t/helper/test-notes.c common/notes.h \
  common/repo.h common/util.h

common/notes.h:

common/repo.h:

common/util.h:
