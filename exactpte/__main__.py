import sys

from exactpte.cli.commands import main

sys.exit(main())
