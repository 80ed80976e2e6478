"""The machinery gates call, each piece taking plain arguments and knowing no gate or
pytest: the lint layer (:mod:`.lint`, gate 12), the link checker (:mod:`.links`, gate 6),
mermaid.js in worker processes (:mod:`.mermaid`, gate 1), the blog's audit commands
(:mod:`.audit`, gate 1) and the site model (:mod:`.site`, gate 6)."""
