# man: owned by the man work; see Makefile.am.
