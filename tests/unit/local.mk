# tests/unit: owned by the tests/unit work; see Makefile.am.
