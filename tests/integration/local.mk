# tests/integration: owned by the tests/integration work; see Makefile.am.
