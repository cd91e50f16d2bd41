# rngd/startup.mk: start-up sources linked into rngd: the thread that answers
# SIGTERM/SIGINT before the loop runs, and what kind of file a path is
# (config, pid file, sink checks). Included after rngd/local.mk.
rngd_rngd_SOURCES += rngd/startup_watch.c rngd/startup_watch.h rngd/file_kind.h
