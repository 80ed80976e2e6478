from pytest_postgates.cli import main

raise SystemExit(main())
