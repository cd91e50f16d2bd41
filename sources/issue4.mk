# sources/issue4.mk: see Makefile.am for who owns which fragment.
