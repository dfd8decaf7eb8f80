import sys

from devstack.launcher import main

sys.exit(main(sys.argv[1:]))
