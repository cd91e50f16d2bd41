# tests/unit/sources.mk: see Makefile.am for who owns which fragment.
