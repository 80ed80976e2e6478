"""The machinery gates call: the site model (Jekyll, Hugo, MkDocs) and, as they move here
(issue 14 step 5), the lint, link and diagram layers."""
