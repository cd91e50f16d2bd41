# SPDX-License-Identifier: GPL-2.0-or-later
"""fips/fips.h's constants for the Python test helpers.

The calling shell script reads them with tests/lib/fips-constants.sh and
passes each one in the environment, so the block size is defined once.
"""
import os
import sys


def fips_constant(name):
    """The value of NAME from the environment; exits, naming it, if unset."""
    value = os.environ.get(name, "")
    if not value.isdigit():
        sys.exit("%s: %s not set in the environment (the calling script passes it "
                 "from tests/lib/fips-constants.sh)" % (os.path.basename(sys.argv[0]), name))
    return int(value)
