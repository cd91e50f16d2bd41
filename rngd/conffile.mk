# /etc/rngd.conf: installed commented out (the built-in defaults apply), so
# that it is there to edit and a package can mark it a conffile.
dist_sysconf_DATA = rngd/rngd.conf
