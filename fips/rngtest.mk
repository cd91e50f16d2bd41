# fips/rngtest.mk: see Makefile.am for who owns which fragment.
