# bench/daemon.mk: see Makefile.am for who owns which fragment.
