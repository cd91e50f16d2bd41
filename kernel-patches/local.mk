# kernel-patches: owned by the kernel-patches work; see Makefile.am.
