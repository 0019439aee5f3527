"""The checker's own tests: a package, so that its conftest is not the site's ``conftest``."""
