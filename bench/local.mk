# bench: owned by the bench work; see Makefile.am.
