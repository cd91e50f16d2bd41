# rngd: owned by the rngd work; see Makefile.am.
