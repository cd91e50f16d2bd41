# man: rngd(8) and rngd.conf(5); rngtest(1) is declared by fips/rngtest.mk.
dist_man_MANS += man/rngd.8 man/rngd.conf.5
