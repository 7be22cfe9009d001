import sys

from hidden_role_envs.benchmarks.suite import main

sys.exit(main())
