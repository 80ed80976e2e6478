"""Conformance cases for Node's package resolution: package.json shapes and the subpaths
asked of each, as data.

Each fixture is one package: its ``exports`` (or none, or ``null``), optionally ``main``
and extra ``files`` (paths inside the package; without them every target the map can
produce is created, so that only the map decides), the ``subpaths`` asked (``""`` is the
bare name) and the ``types`` subpaths also asked as ``import type``. Every subpath is asked
as ``import`` and as ``require``. ``source`` says where the shape comes from:

- ``resolve.exports``: the exports cases of lukeed/resolve.exports' test suite,
- ``resolve-pkg-maps``: the exports cases of privatenumber/resolve-pkg-maps' test suite,
- ``node-docs``: the examples of Node's "Modules: Packages" documentation,
- ``own``: written here (conditions of each import kind, error paths, legacy lookup).

They are re-expressed as package.json shapes and subpaths; no code of those suites is
used. The expected answer of every case is the real Node's (tests/test_exports_conformance.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

Fixture = dict[str, Any]

FIXTURES: list[Fixture] = [
    # ------------------------------------------------------------ resolve.exports
    {
        "source": "resolve.exports",
        "exports": "./hello.mjs",
        "subpaths": ["", "other", "hello.mjs"],
    },
    {
        "source": "resolve.exports",
        "exports": {".": "./foo.mjs"},
        "subpaths": ["", "external", "external/subpath", "foo.mjs"],
    },
    {
        "source": "resolve.exports",
        "exports": {"import": "./$import", "require": "./$require"},
        "subpaths": ["", "other", "hello"],
    },
    {
        "source": "resolve.exports",
        "exports": {".": {"import": "./$import", "require": "./$require"}},
        "subpaths": ["", "other"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./foo": "./$import"},
        "subpaths": ["", "foo", "other"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./foo": {"import": "./$import", "require": "./$require"}},
        "subpaths": ["", "foo", "other"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "node": {"import": "./$node.import", "require": "./$node.require"},
            "default": "./$default",
        },
        "subpaths": ["", "hello", "other"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "./lite": {
                "node": {"import": "./$node.import", "require": "./$node.require"},
                "browser": {"import": "./$browser.import", "require": "./$browser.require"},
            }
        },
        "subpaths": ["lite", ""],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "./lite": {
                "import": {"browser": "./$browser.import", "node": "./$node.import"},
                "require": {"browser": "./$browser.require", "node": "./$node.require"},
            }
        },
        "subpaths": ["lite"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            ".": {"require": "./$require", "import": "./$import"},
            "./package.json": "./package.json",
            "./": "./",
        },
        "subpaths": ["", "package.json", "hello.js", "hello/world.js"],
        "files": ["hello.js", "hello/world.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./package.json": "./package.json", "./": "./"},
        "subpaths": ["", "package.json", "hello.js"],
        "files": ["hello.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./*": "./cheese/*.mjs"},
        "subpaths": ["", "hello", "hello/world", "hello.js", "hello/world.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./dir*": "./cheese/*.mjs"},
        "subpaths": ["", "dirtest", "dirtest/wheel", "dir"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./dir*": "./*sub/dir*/file.js"},
        "subpaths": ["", "dirtest", "dirtest/inner"],
    },
    {
        "source": "resolve.exports",
        "exports": {".": "./dir/index.js", "./dir": "./dir/index.js", "./dir/*": "./dir/index.js"},
        "subpaths": ["", "dir", "dir/profile", "dir/"],
    },
    {
        "source": "resolve.exports",
        "name": "director",
        "exports": {"./dir*": "./*sub/dir*/file.js"},
        "subpaths": ["", "dirtest", "dirtest/inner"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/": "./features/"},
        "subpaths": ["features/", "features/hello.js", "features", "package.json"],
        "files": ["features/hello.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "./features/": "./features/",
            "./package.json": "./package.json",
            "./": "./",
        },
        "subpaths": ["features", "features/", "features/hello.js", "package.json", ""],
        "files": ["features/hello.js", "features.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "./features/": {
                "browser": {"import": "./browser.import/", "require": "./browser.require/"},
                "import": "./import/",
                "require": "./require/",
            }
        },
        "subpaths": ["features/", "features/hello.js"],
        "files": ["import/hello.js", "require/hello.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/*": "./features/*.js"},
        "subpaths": [
            "features",
            "features/",
            "features/a",
            "features/ab",
            "features/abc",
            "features/hello",
            "features/foo/bar",
            "features/hello.js",
            "features/foo/bar.js",
            "package.json",
        ],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/*": "./features/*.js", "./": "./"},
        "subpaths": ["features", "features/", "features/hello", "features/foo/bar.js", ""],
        "files": ["features.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./": "./", "./features/*": "./features/*.js"},
        "subpaths": ["features/hello", "package.json"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/*": "./src/features/*.js", "./features/internal/*": None},
        "subpaths": [
            "features/hello",
            "features/foo/bar",
            "features/internal/hello",
            "features/internal/foo/bar",
            "features/internal",
        ],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/internal/*": None, "./features/*": "./src/features/*.js"},
        "subpaths": ["features/hello", "features/internal/hello"],
    },
    {
        "source": "resolve.exports",
        "exports": {"./features/*": "./features/*.js", "./features/*.js": "./features/*.js"},
        "subpaths": [
            "features",
            "features/",
            "features/a",
            "features/hello",
            "features/hello.js",
            "features/foo/bar",
            "features/foo/bar.js",
        ],
    },
    {
        "source": "resolve.exports",
        "exports": {
            "./features/*": {
                "browser": {
                    "import": "./browser.import/*.mjs",
                    "require": "./browser.require/*.js",
                },
                "import": "./import/*.mjs",
                "require": "./require/*.js",
            }
        },
        "subpaths": ["features/", "features/hello"],
    },
    {
        "source": "resolve.exports",
        "exports": {
            ".": [{"import": "./$root.import"}, "./$root.string"],
            "./foo": [{"require": "./$foo.require"}, "./$foo.string"],
        },
        "subpaths": ["", "foo"],
    },
    {
        "source": "resolve.exports",
        "name": "aws-cdk-lib",
        "exports": {
            ".": "./index.js",
            "./package.json": "./package.json",
            "./.jsii": "./.jsii",
            "./.warnings.jsii.js": "./.warnings.jsii.js",
            "./alexa-ask": "./alexa-ask/index.js",
        },
        "subpaths": [".warnings.jsii.js", ".jsii", "alexa-ask", "", "alexa-ask/index.js"],
    },
    {
        "source": "resolve.exports",
        "exports": {"require": "./$require", "import": "./$import"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {"default": "./$default", "require": "./$require"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {"browser": "./$browser", "node": "./$node"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {"node": "./$node", "import": "./$import", "browser": "./$browser"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {"production": "./$prod", "development": "./$dev", "default": "./$default"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {"production": "./$prod", "development": "./$dev"},
        "subpaths": [""],
    },
    {
        "source": "resolve.exports",
        "exports": {
            ".": {"production": "./$prod", "development": "./$dev", "default": "./$default"},
            "./spec/type": {
                "import": "./$import",
                "require": "./$require",
                "default": "./$default",
            },
            "./spec/env": {
                "worker": {"default": "./$worker"},
                "browser": "./$browser",
                "node": "./$node",
                "default": "./$default",
            },
        },
        "subpaths": ["", "spec/type", "spec/env", "spec"],
    },
    # ------------------------------------------------------------ resolve-pkg-maps
    {
        "source": "resolve-pkg-maps",
        "exports": "./entry.js",
        "subpaths": ["", "non-existent-export"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {".": "./entry.js"},
        "subpaths": ["", "."],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./a": "./lib/a.js", "./.invisible": "./.invisible.js"},
        "subpaths": ["a", ".invisible", "lib/a.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./.hidden": "./file.js"},
        "subpaths": [".hidden", "file.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*": "./*", "./file.js": None},
        "subpaths": ["file.js", "other.js"],
        "files": ["file.js", "other.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./file": ["http://a.com", "./file.js"]},
        "subpaths": ["file"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*.js": "./*.js"},
        "subpaths": ["file.js", "file", "dir/file.js", ".js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*.js": "./*/*.js"},
        "subpaths": ["file.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./": "./", "./*": "./*.js"},
        "subpaths": ["file", "file.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"condition-a": "./lib/a.js", "condition-b": "./lib/b.js"},
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {".": {"condition-a": "./lib/a.js", "condition-b": "./lib/b.js"}},
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {".": {"condition-a": "./lib/a.js", "default": "./lib/index.js"}},
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {
            "node": {"import": "./node.import.js", "require": "./node.require.js"},
            "browser": {"import": "./browser.import.js", "require": "./browser.require.js"},
        },
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {".": "./index.js", "condition": "./index.js"},
        "subpaths": ["", "x"],
    },
    {"source": "resolve-pkg-maps", "exports": {".": 1}, "subpaths": [""]},
    {"source": "resolve-pkg-maps", "exports": {".": True}, "subpaths": [""]},
    {"source": "resolve-pkg-maps", "exports": {"0": "./index.js"}, "subpaths": [""]},
    {"source": "resolve-pkg-maps", "exports": {"./entry": "entry"}, "subpaths": ["entry"]},
    {
        "source": "resolve-pkg-maps",
        "exports": {"./entry": "./lib/./entry.js"},
        "subpaths": ["entry"],
    },
    {"source": "resolve-pkg-maps", "exports": {"./entry": "../entry"}, "subpaths": ["entry"]},
    {
        "source": "resolve-pkg-maps",
        "exports": {"./entry": "./lib/../entry.js"},
        "subpaths": ["entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./entry": "./lib/node_modules/entry.js"},
        "subpaths": ["entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./entry": "./lib/NODE_MODULES/entry.js"},
        "subpaths": ["entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": None,
        "main": "./entry.js",
        "files": ["entry.js", "non-existent-export.js"],
        "subpaths": ["", "non-existent-export.js", "non-existent-export", "missing.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./entry.js": None},
        "subpaths": ["entry.js"],
        "files": ["entry.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": [{"condition-a": "./a.js"}, "./b.js", "std:core-module"],
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": ["./a.js", {"condition-b": "./b.js"}, "./c.js"],
        "subpaths": [""],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {
            "./*": [
                {"condition": "./dir-a/*.js"},
                "./dir-b/*.js",
                {"default": "./dir-c/*.js"},
            ]
        },
        "subpaths": ["file", "a/b"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*": "./file.js"},
        "subpaths": ["any-entry", "x/y"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./prefix/*": "./lib/*.js"},
        "subpaths": ["prefix/a", "prefix"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./prefix/*.suffix": "./lib/*.mjs"},
        "subpaths": [
            "prefix/a.suffix",
            "prefix/b.suffix",
            "prefix/directory/a/b/c.suffix",
            "./prefix/.suffix",
            "prefix/.suffix",
        ],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*.ext": "./*/src/*.mjs"},
        "subpaths": ["match.ext"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./file": "./lib/*.js"},
        "subpaths": ["file"],
        "files": ["lib/*.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*/*": "./file.js"},
        "subpaths": ["dir/file.js", "./dir/file.js"],
    },
    {"source": "resolve-pkg-maps", "exports": {"./**": "./file.js"}, "subpaths": ["file.js"]},
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*": "./*", "./internal/*": None},
        "subpaths": ["file.js", "internal/file.js"],
        "files": ["file.js", "internal/file.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*": "./*", "./*.js": None},
        "subpaths": ["file.mjs", "file.js"],
        "files": ["file.mjs", "file.js"],
    },
    {
        "source": "resolve-pkg-maps",
        "exports": {"./*.cjs": "./*.cjs", "./*.mjs": None},
        "subpaths": ["file.cjs", "file.mjs"],
        "files": ["file.mjs"],
    },
    # ------------------------------------------------------------ Node's documentation
    {"source": "node-docs", "exports": "./index.js", "subpaths": ["", "index.js"]},
    {
        "source": "node-docs",
        "exports": {
            ".": "./lib/index.js",
            "./lib": "./lib/index.js",
            "./lib/*": "./lib/*.js",
            "./lib/*.js": "./lib/*.js",
            "./feature": "./feature/index.js",
            "./feature/*": "./feature/*.js",
            "./feature/*.js": "./feature/*.js",
            "./package.json": "./package.json",
        },
        "subpaths": [
            "",
            "lib",
            "lib/util",
            "lib/util.js",
            "feature",
            "feature/x",
            "feature/x.js",
            "package.json",
            "lib/index",
            "other",
        ],
    },
    {
        "source": "node-docs",
        "exports": {
            ".": "./lib/index.js",
            "./feature/*.js": "./feature/*.js",
            "./feature/internal/*": None,
        },
        "subpaths": [
            "feature/x.js",
            "feature/internal/something.js",
            "feature/internal/x",
            "feature/x",
        ],
    },
    {
        "source": "node-docs",
        "exports": {
            ".": "./index.js",
            "./feature.js": "./feature.js",
            "./submodule.js": "./src/submodule.js",
        },
        "subpaths": ["", "feature.js", "submodule.js", "src/submodule.js", "feature"],
    },
    {
        "source": "node-docs",
        "exports": {"import": "./index-module.js", "require": "./index-require.cjs"},
        "subpaths": [""],
        "types": [""],
    },
    {
        "source": "node-docs",
        "exports": {
            ".": "./index.js",
            "./feature.js": {"node": "./feature-node.js", "default": "./feature.js"},
        },
        "subpaths": ["", "feature.js"],
    },
    {
        "source": "node-docs",
        "exports": {
            "node": {"import": "./feature-node.mjs", "require": "./feature-node.cjs"},
            "default": "./feature.mjs",
        },
        "subpaths": [""],
    },
    {
        "source": "node-docs",
        "exports": {
            ".": {
                "types": "./index.d.ts",
                "import": "./index.mjs",
                "require": "./index.cjs",
                "default": "./index.js",
            },
            "./package.json": "./package.json",
        },
        "subpaths": ["", "package.json", "index.mjs"],
        "types": [""],
    },
    {
        "source": "node-docs",
        "exports": {
            ".": "./index.js",
            "./features/*.js": "./src/features/*.js",
            "./features/private-internal/*": None,
        },
        "subpaths": [
            "features/x.js",
            "features/y/y.js",
            "features/private-internal/z.js",
            "features/x",
        ],
    },
    {
        "source": "node-docs",
        "exports": {"./features/*": "./src/features/*.js"},
        "subpaths": ["features/x", "features/x.js", "features/y/y"],
    },
    {
        "source": "node-docs",
        "exports": {"./*": "./lib/*.js", "./features/*": "./features/*.js"},
        "subpaths": ["a", "features/b", "features"],
    },
    # ------------------------------------------------------------ own: the conditions of each kind
    {
        "source": "own",
        "exports": {
            ".": {
                "types": "./dist/index.d.ts",
                "import": "./dist/index.js",
                "default": "./dist/index.cjs",
            },
            "./client": {"types": "./dist/client.d.ts", "import": "./dist/client.js"},
            "./types": {"types": "./dist/types.d.ts"},
            "./processors/*": {
                "types": "./dist/processors/*.d.ts",
                "import": "./dist/processors/*.js",
            },
        },
        "subpaths": [
            "",
            "client",
            "types",
            "processors/pdf",
            "processors/deep/nested",
            "processors",
        ],
        "types": ["", "client", "types", "processors/pdf"],
    },
    {
        "source": "own",
        "exports": {"types": "./index.d.ts"},
        "subpaths": [""],
        "types": [""],
    },
    {
        "source": "own",
        "exports": {".": None, "./sub": "./sub.js"},
        "subpaths": ["", "sub"],
    },
    {
        "source": "own",
        "exports": {".": {"node": None, "default": "./index.js"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"browser": "./b.js", "worker": "./w.js"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"require": "./r.cjs"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"import": "./i.mjs"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"module-sync": "./sync.mjs", "default": "./d.js"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"node-addons": "./addon.js", "default": "./d.js"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {".": {"default": "./d.js", "import": "./i.js", "require": "./r.js"}},
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {
            ".": {
                "import": {"types": "./i.d.ts", "default": "./i.js"},
                "require": {"types": "./r.d.ts", "default": "./r.js"},
            }
        },
        "subpaths": [""],
        "types": [""],
    },
    {
        "source": "own",
        "exports": {".": {"node": {"import": {"node": {"default": "./deep.js"}}}}},
        "subpaths": [""],
    },
    # the "types" condition (what ``import type`` adds)
    {
        "source": "own",
        "exports": {
            "./*": {"types": "./types/*.d.ts", "import": "./esm/*.js", "require": "./cjs/*.cjs"}
        },
        "subpaths": ["a", "b/c", ""],
    },
    {"source": "own", "exports": {".": {"types": None, "default": "./d.js"}}, "subpaths": [""]},
    {"source": "own", "exports": {".": [{"types": "./t.d.ts"}, "./f.js"]}, "subpaths": [""]},
    {
        "source": "own",
        "exports": {
            ".": {"node": {"types": "./nt.d.ts", "default": "./n.js"}, "types": "./t.d.ts"}
        },
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": {"./x": {"types": "types/x.d.ts", "default": "./x.js"}},
        "subpaths": ["x"],
    },
    {"source": "own", "exports": {"types": "./i.d.ts", "default": "./i.js"}, "subpaths": [""]},
    {"source": "own", "exports": {"default": "./d.js", "types": "./t.d.ts"}, "subpaths": [""]},
    {
        "source": "own",
        "name": "@juspay/neurolink",
        "exports": {
            ".": {
                "types": "./dist/index.d.ts",
                "svelte": "./dist/index.js",
                "import": "./dist/index.js",
                "default": "./dist/index.js",
            },
            "./client": {
                "types": "./dist/client/index.d.ts",
                "import": "./dist/client/index.js",
                "default": "./dist/client/index.js",
            },
            "./package.json": "./package.json",
            "./processors": {
                "types": "./dist/processors/index.d.ts",
                "import": "./dist/processors/index.js",
                "default": "./dist/processors/index.js",
            },
            "./processors/*": {
                "types": "./dist/processors/*.d.ts",
                "import": "./dist/processors/*.js",
                "default": "./dist/processors/*.js",
            },
            "./adapters/*": {
                "types": "./dist/adapters/*.d.ts",
                "import": "./dist/adapters/*.js",
                "default": "./dist/adapters/*.js",
            },
        },
        "subpaths": [
            "",
            "client",
            "package.json",
            "processors",
            "processors/archive",
            "processors/archive/index",
            "adapters/hono",
            "middleware",
            "rag/chunking",
            "dist/index.js",
        ],
    },
    # arrays as fallbacks
    {"source": "own", "exports": {".": []}, "subpaths": [""]},
    {"source": "own", "exports": {".": [None, "./x.js"]}, "subpaths": [""]},
    {"source": "own", "exports": {".": ["./x.js", None]}, "subpaths": [""]},
    {"source": "own", "exports": {".": ["bad", "./x.js"]}, "subpaths": [""]},
    {"source": "own", "exports": {".": ["bad", "worse"]}, "subpaths": [""]},
    {"source": "own", "exports": {".": ["bad", None]}, "subpaths": [""]},
    {"source": "own", "exports": {".": [{"browser": "./b.js"}, "bad"]}, "subpaths": [""]},
    {"source": "own", "exports": {".": [{"browser": "./b.js"}]}, "subpaths": [""]},
    {"source": "own", "exports": {".": [["./nested.js"]]}, "subpaths": [""]},
    {"source": "own", "exports": {".": [1, "./x.js"]}, "subpaths": [""]},
    {"source": "own", "exports": {".": [{"0": "./x.js"}, "./y.js"]}, "subpaths": [""]},
    {
        "source": "own",
        "exports": {"./a": [{"require": "./a.cjs"}, {"import": "./a.mjs"}]},
        "subpaths": ["a"],
    },
    # invalid targets and subpath segments
    {"source": "own", "exports": {".": "index.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "/abs/index.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "https://example.com/x.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "file:///x.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": ""}, "subpaths": [""]},
    {"source": "own", "exports": "", "subpaths": [""]},
    {"source": "own", "exports": {".": "./"}, "subpaths": [""]},
    {"source": "own", "exports": {"./dir": "./dist/"}, "subpaths": ["dir"], "files": ["dist/x.js"]},
    {"source": "own", "exports": {".": "./a/%2e%2e/b.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "./a/%2E/b.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "./a//b.js"}, "subpaths": [""], "files": ["a/b.js"]},
    {"source": "own", "exports": {".": "./a%2fb.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "./node_modules/x/index.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "./lib/%6eode_modules/x.js"}, "subpaths": [""]},
    {"source": "own", "exports": {".": "./lib\\x.js"}, "subpaths": [""], "files": ["lib/x.js"]},
    {"source": "own", "exports": {".": {"import": 5, "default": "./d.js"}}, "subpaths": [""]},
    {"source": "own", "exports": {".": False}, "subpaths": [""]},
    {"source": "own", "exports": {"./x": {"1.5": "./x.js"}}, "subpaths": ["x"]},
    {"source": "own", "exports": {"./x": {"01": "./x.js", "default": "./y.js"}}, "subpaths": ["x"]},
    {
        "source": "own",
        "exports": {"./*": "./src/*.js"},
        "subpaths": [
            "a/../b",
            "a/./b",
            "./a",
            "a//b",
            "node_modules/x",
            "a/NODE_MODULES/b",
            "a/%2e%2e/b",
            "a%2fb",
            "a/b/",
            "..",
            "a/.",
            ".a",
            "a..b",
        ],
        "files": ["src/a/b.js", "src/a.js", "src/.a.js", "src/a..b.js", "src/b.js"],
    },
    {
        "source": "own",
        "exports": {"./x/*": "./dist/*.js", "./x/a": "./exact.js", "./x/a/*": "./deeper/*.js"},
        "subpaths": ["x/a", "x/b", "x/a/c", "x/a/", "x/"],
    },
    {
        "source": "own",
        "exports": {
            "./a*": "./1/*.js",
            "./a/*": "./2/*.js",
            "./a/b*": "./3/*.js",
            "./*": "./4/*.js",
        },
        "subpaths": ["a/bc", "a/c", "ab", "a/b", "z", "a"],
    },
    {
        "source": "own",
        "exports": {"./*.js": "./js/*.js", "./*": "./any/*", "./*.d.ts": "./types/*.d.ts"},
        "subpaths": ["x.js", "x.d.ts", "x.ts", "x"],
    },
    {
        "source": "own",
        "exports": {"./a/*/b": "./lib/*/b.js"},
        "subpaths": ["a/x/b", "a/x/y/b", "a//b", "a/b"],
    },
    {
        "source": "own",
        "exports": {"./a/*": "./lib/*.js"},
        "subpaths": ["a/*", "a/x*y"],
        "files": ["lib/*.js", "lib/x*y.js"],
    },
    {
        "source": "own",
        "exports": {"./*": {"import": "./esm/*.mjs", "require": "./cjs/*.cjs"}},
        "subpaths": ["util", "deep/util"],
        "types": ["util"],
    },
    {
        "source": "own",
        "exports": {"./x": "./x.js?query", "./y": "./y.js#frag"},
        "subpaths": ["x", "y"],
        "files": ["x.js", "y.js"],
    },
    {
        "source": "own",
        "exports": {"./x*": "./lib/*.js?*"},
        "subpaths": ["xa"],
        "files": ["lib/a.js"],
    },
    {"source": "own", "exports": {"": "./empty-key.js"}, "subpaths": [""]},
    {
        "source": "own",
        "exports": {},
        "subpaths": ["", "x"],
        "main": "./index.js",
        "files": ["index.js"],
    },
    {
        "source": "own",
        "exports": 5,
        "subpaths": ["", "x"],
        "main": "./index.js",
        "files": ["index.js"],
    },
    {"source": "own", "exports": {"./a": "./a.js", "b": "./b.js"}, "subpaths": ["a"]},
    {"source": "own", "exports": {"default": "./d.js", "./a": "./a.js"}, "subpaths": ["", "a"]},
    {
        "source": "own",
        "exports": {".": "./i.js", "./": "./dist/"},
        "subpaths": ["x.js", ""],
        "files": ["dist/x.js"],
    },
    {"source": "own", "exports": {"./a.js": "./dist/a.js"}, "subpaths": ["a.js", "a", "dist/a.js"]},
    {
        "source": "own",
        "name": "@scope/pkg",
        "exports": {".": "./index.js", "./sub/*": "./lib/*.js"},
        "subpaths": ["", "sub/x", "sub", "index.js"],
    },
    # ------------------------------------------------------------ own: exports absent or null
    {
        "source": "own",
        "exports": "absent",
        "main": "./lib/main.js",
        "files": [
            "lib/main.js",
            "util.js",
            "data.json",
            "addon.node",
            "folder/index.js",
            "only.mjs",
            "lib/x.cjs",
        ],
        "subpaths": [
            "",
            "util",
            "util.js",
            "data",
            "data.json",
            "addon",
            "folder",
            "folder/",
            "folder/index",
            "only",
            "only.mjs",
            "lib/x",
            "lib/x.cjs",
            "missing",
            "lib",
            "lib/main",
        ],
    },
    {
        "source": "own",
        "exports": "absent",
        "files": [
            "index.js",
            "sub/package.json",
            "sub/entry.js",
            "sub2/package.json",
            "sub2/index.json",
        ],
        "file_contents": {
            "sub/package.json": '{"main": "entry.js"}',
            "sub2/package.json": '{"main": "nope.js"}',
        },
        "subpaths": ["", "sub", "sub/", "sub2", "sub/entry", "index"],
    },
    {
        "source": "own",
        "exports": "absent",
        "main": "lib",
        "files": ["lib/index.js"],
        "subpaths": ["", "lib", "lib/index.js"],
    },
    {
        "source": "own",
        "exports": "absent",
        "main": "main",
        "files": ["main.json", "index.js"],
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": "absent",
        "main": "./missing.js",
        "files": ["index.js"],
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": "absent",
        "main": "./missing.js",
        "files": ["other.js"],
        "subpaths": ["", "other"],
    },
    {
        "source": "own",
        "exports": "absent",
        "files": ["index.json"],
        "subpaths": [""],
    },
    {
        "source": "own",
        "exports": "absent",
        "files": ["lib.js"],
        "subpaths": ["", "lib"],
    },
    {
        "source": "own",
        "exports": None,
        "main": "dist/index",
        "files": ["dist/index.js", "dist/a.js"],
        "subpaths": ["", "dist/a", "dist/a.js", "dist", "dist/"],
    },
    {
        "source": "own",
        "exports": "absent",
        "main": 12,
        "files": ["index.js"],
        "subpaths": [""],
    },
]


# "imports" maps: "#name" specifiers asked from a module inside the package. ``subpaths`` are
# empty (the fixture asks no exports); ``other_packages`` are installed beside it.
IMPORTS_FIXTURES: list[Fixture] = [
    # resolve-pkg-maps
    {"source": "resolve-pkg-maps", "imports": {"#a": "./file.js"}, "imports_asked": ["#a", "#b"]},
    {
        "source": "resolve-pkg-maps",
        "imports": {"#entry": "imports-dependency"},
        "other_packages": {"imports-dependency": ["index.js"]},
        "imports_asked": ["#entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "imports": {
            "#entry": {
                "condition-a": "./condition-a.js",
                "condition-b": "./condition-b.js",
                "default": "./default.js",
            }
        },
        "imports_asked": ["#entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "imports": {
            "#entry/*": {
                "dev": "./src/*.js",
                "test": "./tests/*/*.spec.js",
                "default": "./dist/*.js",
            }
        },
        "imports_asked": ["#entry/file", "#entry/"],
    },
    {
        "source": "resolve-pkg-maps",
        "imports": {"#entry/*": "./*.js", "#entry/*.js": None},
        "imports_asked": ["#entry/file", "#entry/file.js"],
    },
    {"source": "resolve-pkg-maps", "imports": {}, "imports_asked": ["#entry"]},
    {"source": "resolve-pkg-maps", "imports": {"#entry": 1}, "imports_asked": ["#entry"]},
    {"source": "resolve-pkg-maps", "imports": {"#entry": True}, "imports_asked": ["#entry"]},
    {
        "source": "resolve-pkg-maps",
        "imports": {"#entry": "../file.js"},
        "imports_asked": ["#entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "imports": {"#entry": "./directory/../file.js"},
        "imports_asked": ["#entry"],
    },
    {
        "source": "resolve-pkg-maps",
        "imports": {"#entry": "./node_modules/dependency/file.js"},
        "imports_asked": ["#entry"],
    },
    # resolve.exports
    {
        "source": "resolve.exports",
        "imports": {"#foo": "./$import", "#bar": "imports-module-a"},
        "other_packages": {"imports-module-a": ["index.js"]},
        "imports_asked": ["#foo", "#bar", "#other"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#foo": {"import": "./$import", "require": "./$require"}},
        "imports_asked": ["#foo"],
    },
    {
        "source": "resolve.exports",
        "imports": {
            "#lite": {
                "node": {"import": "./$node.import", "require": "./$node.require"},
                "browser": {"import": "./$browser.import", "require": "./$browser.require"},
            }
        },
        "imports_asked": ["#lite"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#key/*": "./cheese/*.mjs"},
        "imports_asked": ["#key/hello", "#key/hello/world", "#key/hello.js"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#key/dir*": "./cheese/*.mjs"},
        "imports_asked": ["#key/dirtest", "#key/dirtest/wheel", "#key/dir"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#key/dir*": "./*sub/dir*/file.js"},
        "imports_asked": ["#key/dirtest", "#key/dirtest/inner"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#features/": "./features/"},
        "files": ["features/hello.js"],
        "imports_asked": ["#features/", "#features/hello.js", "#features"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#features/*": "./features/*.js"},
        "imports_asked": ["#features", "#features/a", "#features/foo/bar", "#features/hello.js"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#fooba*": "./features/*.js", "#foo*": "./"},
        "imports_asked": ["#foobar", "#foobar/hello", "#foox", "#foo"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#*": "./root/*.js", "#foo*": "./foo/*.js"},
        "imports_asked": ["#foobar", "#other", "#other/hello"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#*": "./root/*.js", "#a": "./a.js"},
        "imports_asked": ["#a", "#other"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#features/*": "./src/features/*.js", "#features/internal/*": None},
        "imports_asked": ["#features/hello", "#features/internal/hello"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#features/*": "./features/*.js", "#features/*.js": "./features/*.js"},
        "imports_asked": ["#features/hello.js", "#features/hello"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#foo": [{"require": "./$foo.require"}, "./$foo.string"]},
        "imports_asked": ["#foo"],
    },
    {
        "source": "resolve.exports",
        "imports": {"#features/*.css": "./src/*.css", "#features/*.ts": "./src/*.ts"},
        "imports_asked": ["#features/asdf/css.ts", "#features/a.css"],
    },
    # Node's documentation
    {
        "source": "node-docs",
        "imports": {"#dep": {"node": "imports-dep-node-native", "default": "./dep-polyfill.js"}},
        "other_packages": {"imports-dep-node-native": ["index.js"]},
        "imports_asked": ["#dep"],
    },
    {
        "source": "node-docs",
        "imports": {"#internal/*.js": "./src/internal/*.js"},
        "imports_asked": ["#internal/z.js", "#internal/z"],
    },
    # own
    {
        "source": "own",
        "imports": {"#x": "./x.js", "#/y": "./y.js", "#z/": "./z/"},
        "imports_asked": ["#", "#/y", "#z/", "#x"],
    },
    {"source": "own", "imports": {"#x": "https://example.com/x.js"}, "imports_asked": ["#x"]},
    {"source": "own", "imports": {"#x": "/abs/x.js"}, "imports_asked": ["#x"]},
    {"source": "own", "imports": {"#x": {"0": "./x.js"}}, "imports_asked": ["#x"]},
    {"source": "own", "imports": {"#x": None, "#*": "./any/*.js"}, "imports_asked": ["#x", "#y"]},
]
for _fixture in IMPORTS_FIXTURES:
    _fixture.setdefault("subpaths", [])
FIXTURES.extend(IMPORTS_FIXTURES)


def package_name(number: int, fixture: Fixture) -> str:
    """A name of its own for each fixture, so that one node_modules holds them all."""
    given = fixture.get("name")
    if given:
        return f"{given}-{number}"
    return f"pkg-{number}"


def manifest(number: int, fixture: Fixture) -> dict[str, Any]:
    data: dict[str, Any] = {"name": package_name(number, fixture)}
    if fixture.get("exports", "absent") != "absent":
        data["exports"] = fixture["exports"]
    if "main" in fixture:
        data["main"] = fixture["main"]
    if "imports" in fixture:
        data["imports"] = fixture["imports"]
    return data


def specifier(name: str, subpath: str) -> str:
    return name if subpath == "" else f"{name}/{subpath}"


def cases(fixtures: list[Fixture] | None = None) -> list[tuple[int, str, str, bool]]:
    """Every (fixture number, subpath, kind, type_only) asked."""
    found: list[tuple[int, str, str, bool]] = []
    for number, fixture in enumerate(FIXTURES if fixtures is None else fixtures):
        for subpath in fixture["subpaths"]:
            found.append((number, subpath, "import", False))
            found.append((number, subpath, "require", False))
        # ``import type`` where the map has a "types" condition (or the fixture says so).
        mentions_types = '"types"' in json.dumps(fixture.get("exports"))
        default: list[str] = fixture["subpaths"] if mentions_types else []
        asked = fixture.get("types")
        typed: list[str] = default if asked is None else list(asked)
        for subpath in typed:
            found.append((number, subpath, "import", True))
        for name in fixture.get("imports_asked", []):
            found.append((number, name, "import", False))
            found.append((number, name, "require", False))
    return found


# ---------------------------------------------------------------- random shapes
# For a differential test beyond the written cases: random exports maps (keys, patterns,
# conditions, arrays, invalid targets) and random packages without exports (files, "main",
# folder package.json files), with subpaths drawn from their keys and files.

_SEGMENTS = ["a", "b", "lib", "dist", "x.js", "a.js", "*", "*.js", "", ".", "..",
             "node_modules", "%2e", "A", "sub"]  # fmt: skip
_CONDITIONS = ["import", "require", "node", "default", "types", "browser", "module-sync",
               "node-addons", "x", "0"]  # fmt: skip


def random_exports_fixture(rng: random.Random) -> Fixture:
    def path() -> str:
        return "/".join(rng.choice(_SEGMENTS) for _ in range(rng.randint(1, 3)))

    def target(depth: int = 0, pattern: bool = False) -> object:
        draw = rng.random()
        if depth < 2 and draw < 0.15:
            return [target(depth + 1, pattern) for _ in range(rng.randint(0, 3))]
        if depth < 2 and draw < 0.35:
            keys = rng.sample(_CONDITIONS, rng.randint(1, 3))
            return {key: target(depth + 1, pattern) for key in keys}
        if draw < 0.40:
            return None
        if draw < 0.42:
            return rng.choice([1, True, False])
        text = path()
        if pattern and "*" not in text and rng.random() < 0.7:
            text += "/*.js"
        return rng.choice(["./", "./", "./", "", "../", "/"]) + text

    def key() -> str:
        if rng.random() < 0.15:
            return "."
        text = path()
        if rng.random() < 0.4 and "*" not in text:
            text += rng.choice(["*", "/*", "*.js", "/"])
        return "./" + text

    draw = rng.random()
    value: object
    if draw < 0.1:
        value = target()
    elif draw < 0.2:
        value = {k: target() for k in rng.sample(_CONDITIONS, rng.randint(1, 3))}
    else:
        # dict.fromkeys, not a set: a set's order changes with the process's hash seed.
        keys = dict.fromkeys(key() for _ in range(rng.randint(1, 5)))
        value = {k: target(pattern="*" in k) for k in keys}
    subpaths = {"" if rng.random() < 0.15 else path() for _ in range(rng.randint(1, 2))}
    if isinstance(value, dict):
        for name in list(value)[:4]:
            if name.startswith("./"):
                fill = rng.choice(["q", "q/r", "", "a.js", "..", "x/../y", "%2e", "q//r"])
                subpaths.add(name[2:].replace("*", fill))
            elif name == ".":
                subpaths.add("")
    return {"source": "random", "exports": value, "subpaths": sorted(subpaths)}


def random_legacy_fixture(rng: random.Random) -> Fixture:
    names = ["index", "a", "lib", "main", "x", "sub"]
    extensions = ["", ".js", ".json", ".node", ".mjs", ".cjs"]
    files = {
        "/".join(rng.choice(names) for _ in range(rng.randint(1, 3))) + rng.choice(extensions)
        for _ in range(rng.randint(0, 6))
    }
    fixture: Fixture = {
        "source": "random",
        "exports": rng.choice(["absent", "absent", None]),
        "files": sorted(files),
    }
    if rng.random() < 0.6:
        fixture["main"] = (
            rng.choice(["", "./"])
            + rng.choice(names)
            + rng.choice([*extensions, "/", "/index", "/index.js"])
        )
    if rng.random() < 0.4:
        folder = rng.choice(names)
        fixture["files"].append(folder + "/package.json")
        main = rng.choice(names) + rng.choice(extensions)
        fixture["file_contents"] = {folder + "/package.json": json.dumps({"main": main})}
    subpaths = {""}
    subpaths |= {
        rng.choice(names) + rng.choice(["", "/", ".js", "/index", "/a"])
        for _ in range(rng.randint(1, 5))
    }
    for file in sorted(files)[:4]:
        stem = file.rsplit(".", 1)[0] if "." in file.split("/")[-1] else file
        subpaths |= {file, stem, stem.rsplit("/", 1)[0], stem + "/"}
    fixture["subpaths"] = sorted(subpaths)
    return fixture


def random_fixtures(seed: int, count: int) -> list[Fixture]:
    """``count`` random exports maps and ``count`` random packages without exports."""
    rng = random.Random(seed)
    return [random_exports_fixture(rng) for _ in range(count)] + [
        random_legacy_fixture(rng) for _ in range(count)
    ]
