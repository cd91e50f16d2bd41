# sources/: source files are added by their owners.
EXTRA_DIST += sources/source.h
